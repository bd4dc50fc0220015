# Fast MSM build entry point. The README's two commands are `make serve` and `make test`.
.PHONY: setup setup-test wasm book serve test test-rust test-e2e clean

WASM_OUT := book/generated/pkg
# SIMD128 is in every current browser; the widgets report (not fake) what a browser lacks.
WASM_RUSTFLAGS := -C target-feature=+simd128

setup:
	.ci/setup.sh book

setup-test:
	.ci/setup.sh test

# wasm-pack --target web: an ES module loaded by the widget worker through a relative URL.
# --no-opt: Debian's wasm-opt (binaryen 108) corrupts wasm-bindgen 0.2.130 output.
wasm: setup
	RUSTFLAGS="$(WASM_RUSTFLAGS)" wasm-pack build wasm-demo --release --target web --no-opt \
		--no-pack --out-dir ../$(WASM_OUT) --out-name fastmsm
	printf '{"commit":"%s","built":"%s"}\n' "$$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
		"$$(date -u +%Y-%m-%dT%H:%M:%SZ)" > book/generated/build-info.json

# Static site in target/book (host it anywhere, at any sub-path).
book: wasm
	mdbook build

# Main job: build everything and serve the book at http://127.0.0.1:3000
serve: book
	mdbook serve --hostname 127.0.0.1 --port 3000

# Whole test suite: Rust (GPU tests on any adapter; lavapipe here) then the browser end-to-end suite.
test: setup-test book test-rust test-e2e

test-rust:
	cargo test

test-e2e:
	cd wasm-demo && npm run e2e

clean:
	rm -rf target book/generated book/vendor
