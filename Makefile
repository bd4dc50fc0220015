# Fast MSM build entry point. The README's two commands are `make serve` and `make test`.
.PHONY: bench-peer-yrrid
.PHONY: setup setup-test wasm wasm-relaxed wasm-wide wasm-wide-msm wasm-threads book serve test test-rust test-rust-build test-rust-run test-rust-package typecheck test-e2e bench-mont-wasm bench-msm-wasm bench-peer clean gpu-bench-bin

WASM_OUT := book/generated/pkg
# SIMD128 is in every current browser; the widgets report (not fake) what a browser lacks.
WASM_RUSTFLAGS := -C target-feature=+simd128

setup:
	.ci/setup.sh book

setup-test:
	.ci/setup.sh test

# The WebAssembly packages: one crate (wasm-demo), built once per target with that target's
# RUSTFLAGS and the cargo feature named after it (wasm-demo/Cargo.toml), which selects the entry
# points the package holds; wasm-demo/build.sh runs cargo and wasm-bindgen.
# The main package (feature `book`): every widget, and the npm package's MSM.
wasm: setup
	RUSTFLAGS="$(WASM_RUSTFLAGS)" wasm-demo/build.sh $(WASM_OUT) fastmsm target --features book
	printf '{"commit":"%s","built":"%s"}\n' "$$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
		"$$(date -u +%Y-%m-%dT%H:%M:%SZ)" > book/generated/build-info.json

# A package with relaxed SIMD (Emmart's f64x2.relaxed_madd; feature relaxed-simd): the mont-bench
# and cpu-msm widgets' 51-bit rows and the CPU pool's message-passing workers. A module with
# relaxed-SIMD code fails to load where the feature is missing, so it is loaded only after probing.
# Own target dir: different RUSTFLAGS would otherwise evict the main build.
WASM_RELAXED_OUT := book/generated/pkg-relaxed
wasm-relaxed: setup
	RUSTFLAGS="$(WASM_RUSTFLAGS) -C target-feature=+relaxed-simd" wasm-demo/build.sh \
		$(WASM_RELAXED_OUT) fastmsm_relaxed target/wasm-relaxed --no-default-features --features relaxed-simd

# A small package with WebAssembly's wide arithmetic (i64.mul_wide_u: the 64×64→128-bit multiply,
# i64.add128; feature wide-arithmetic) for the mont-bench widget: fastmsm-mont's fips-wide product
# and ark-ff built with it. Like the relaxed package it is loaded only after probing, since the
# module fails to compile where the extension is missing. Only fastmsm-mont and ark-ff are compiled
# (no MSM). rustc 1.95 warns that the target feature is unstable; the instructions are the
# phase-4 proposal's.
WASM_WIDE_OUT := book/generated/pkg-wide
wasm-wide: setup
	RUSTFLAGS="$(WASM_RUSTFLAGS) -C target-feature=+wide-arithmetic" wasm-demo/build.sh \
		$(WASM_WIDE_OUT) fastmsm_wide target/wasm-wide --no-default-features --features wide-arithmetic

# The same package with the cpu-msm entry points (feature msm): the MSM over 64-bit limbs on the
# 128-bit multiply, for `make bench-msm-wasm` only. The book does not ship it (it would compile the
# MSM crates a fourth time); the cpu-msm widget runs its rows only when asked and the package is there.
WASM_WIDE_MSM_OUT := book/generated/pkg-wide-msm
wasm-wide-msm: setup
	RUSTFLAGS="$(WASM_RUSTFLAGS) -C target-feature=+wide-arithmetic" wasm-demo/build.sh \
		$(WASM_WIDE_MSM_OUT) fastmsm_wide_msm target/wasm-wide --no-default-features --features wide-arithmetic,msm

# A package for the CPU MSM on every core over one shared memory (book/widgets/pool/; feature threads):
# atomics, so the standard library is rebuilt with them (-Z build-std; RUSTC_BOOTSTRAP lets the
# pinned stable toolchain do it instead of a nightly one), and relaxed SIMD for the 51-bit product.
# A module with shared memory loads only in a cross-origin-isolated page: the pool loads it only then.
WASM_THREADS_OUT := book/generated/pkg-threads
# The linker makes the memory shared and imported (every worker's instance gets the same one) and
# exports the thread-local-storage hooks that wasm-bindgen's thread start-up calls.
WASM_THREADS_FLAGS := -C target-feature=+relaxed-simd,+atomics,+bulk-memory,+mutable-globals \
	-C link-arg=--shared-memory -C link-arg=--import-memory -C link-arg=--max-memory=2147483648 \
	-C link-arg=--export=__wasm_init_tls -C link-arg=--export=__tls_size \
	-C link-arg=--export=__tls_align -C link-arg=--export=__tls_base
wasm-threads: setup
	RUSTC_BOOTSTRAP=1 RUSTFLAGS="$(WASM_RUSTFLAGS) $(WASM_THREADS_FLAGS)" wasm-demo/build.sh \
		$(WASM_THREADS_OUT) fastmsm_threads target/wasm-threads \
		--no-default-features --features threads -Z build-std=panic_abort,std

# The npm package `fastmsm` (wasm-demo/npm, README "npm package"): its sources and the modules it
# shares with the book (book/widgets/core, pool) bundled by esbuild into wasm-demo/npm/dist beside
# the three wasm packages it loads (wasm-demo/npm/build.js; never committed), packed to
# target/npm/fastmsm-<version>.tgz for `npm install`.
NPM_DIR := wasm-demo/npm
.PHONY: npm
npm: wasm wasm-relaxed wasm-threads
	node $(NPM_DIR)/build.js
	mkdir -p target/npm
	rm -f target/npm/fastmsm-*.tgz
	cd $(NPM_DIR) && npm pack --pack-destination $(CURDIR)/target/npm

# Static site in target/book (host it anywhere, at any sub-path).
book: wasm wasm-relaxed wasm-wide wasm-threads
	node wasm-demo/bench/tables.js
	mdbook build

# Main job: build everything and serve the book at http://127.0.0.1:3000, with the COOP/COEP
# headers that make the page cross-origin isolated (mdbook serve cannot send headers).
serve: book
	node wasm-demo/lib/serve.js --port 3000 --prefix /

# Whole test suite: Rust (GPU tests on any adapter; lavapipe here), the JSDoc types of the widgets
# and the npm package, then the browser end-to-end suite. .ci/test.sh runs the phases below in
# order, times each and prints where the time went at the end.
test:
	.ci/test.sh

# The Rust phases of `make test`. One build of every test binary, with fastmsm-gpu's experiments
# and benchmark kernel on (both only add modules; a second test build without them would double
# the longest link of CI). --examples builds every example from the same artifacts and runs the
# one that is a test (the prover example, harness = false); the measurement examples have no
# tests to run.
RUST_TEST_ARGS := --features fastmsm-gpu/experiments,fastmsm-gpu/bench --lib --bins --tests --examples
test-rust: test-rust-build test-rust-run test-rust-package

test-rust-build:
	cargo test $(RUST_TEST_ARGS) --no-run

# lavapipe (llvmpipe's LLVM) compiles each pipeline at its first dispatch, and on a fresh machine
# (no Mesa shader cache) those compiles were most of the GPU tests' time. GALLIVM_PERF=nopt skips
# LLVM's optimisation passes: the compiles take about half as long, the tests' small dispatches
# run somewhat slower, and the results are the same. Only the Mesa CPU drivers read it.
LAVAPIPE_ENV := GALLIVM_PERF=nopt

test-rust-run:
	$(LAVAPIPE_ENV) cargo test $(RUST_TEST_ARGS)
	cargo test --features fastmsm-gpu/experiments,fastmsm-gpu/bench --doc

test-rust-package:
	# The libraries with their default features, what a user of the crates gets (a build, not a
	# check, so that it reuses the dependencies compiled above).
	cargo build --workspace --lib
	# the library crates package (fastmsm-gpu with its shaders: crates/msm-gpu/shaders links to
	# shaders/); together, so that each finds the others unpublished
	cargo package -p fastmsm-mont -p fastmsm-curves -p fastmsm-msm -p fastmsm-gpu --no-verify --allow-dirty --exclude-lockfile --offline

typecheck:
	cd wasm-demo && npm run typecheck

test-e2e:
	cd wasm-demo && $(LAVAPIPE_ENV) npm run e2e

# Every Montgomery variant × field vs ark-ff, in headless Chromium: benches/results/mont-wasm-<device>.json
bench-mont-wasm: book
	cd wasm-demo && npm run bench:mont

# CPU MSM, ours vs arkworks' VariableBaseMSM, both in WebAssembly in headless Chromium, one thread:
# BLS12-377 and BN254 at n = 2^12, 2^14, 2^16 → benches/results/msm-wasm-<browser>-<cpu>.json;
# then the threads axis (1, 2, 4, … every core; shared memory and message passing) at 2^14 and 2^16
# → benches/results/msm-wasm-threads-<browser>-<cpu>.json; then the single-thread run again in a
# Chromium with wide arithmetic switched on, adding the 64-bit MSM on the 128-bit multiply
# → benches/results/msm-wasm-<browser>-<cpu>-wide-arithmetic.json
bench-msm-wasm: wasm-wide-msm book
	cd wasm-demo && npm run bench:msm
	cd wasm-demo && npm run bench:msm -- --suite threads --logn 14,16 --repetitions 5
	cd wasm-demo && npm run bench:msm -- --wide-arithmetic

# A peer measured beside ours: Mitscha-Baude's `montgomery` (npm devDependency; the ZPrize 2022
# WebAssembly MSM) and our fastest single-thread BLS12-381 MSM in one worker of one page, on the
# same input, at n = 2^12 … 2^18, every result checked against arkworks
# → benches/results/msm-wasm-peer-montgomery-<browser>-<cpu>.json
bench-peer: book
	cd wasm-demo && npm run bench:peer

# Yrrid Software + Snarkify's ZPrize 2023 WebAssembly MSM (BLS12-377) beside our npm package and the
# threads widget's pool, T threads each, in one cross-origin-isolated page, on the same input, every
# result checked against arkworks → benches/results/msm-wasm-peer-yrrid-<browser>-<cpu>.json. The
# entry's prebuilt msm.wasm and worker.js are fetched code, read from .peer/yrrid-snarkify-2023/
# (benches/README.md says how to put them there; never committed).
bench-peer-yrrid: book npm
	cd wasm-demo && npm run bench:peer-yrrid

clean:
	rm -rf target book/generated book/vendor

# Data-centre GPU benchmarks (benches/README.md): build the native benchmark here, with the Vulkan
# loader packages beside it, then run `.bin/run-gpu-bench.sh` on the GPU machine (see README).
gpu-bench-bin:
	mkdir -p .gl .bin /tmp/amd64/partial
	o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'; \
		apt-get $$o update -qq && cd .gl && apt-get $$o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2
	cargo build --release -p fastmsm-gpu --features bench,experiments --bin wgsl-mont-bench --example msm_bench --example upload_probe --example pipeline_stats --example first_call --example calibrate
	cd target/release && cp wgsl-mont-bench examples/msm_bench examples/upload_probe examples/pipeline_stats examples/first_call examples/calibrate ../../.bin/
	cd .bin && strip wgsl-mont-bench msm_bench upload_probe pipeline_stats first_call calibrate
	git rev-parse --short HEAD > .bin/COMMIT
	cp benches/run-gpu-bench.sh .bin/

# sppark's CUDA MSM beside ours (benches/README.md, "sppark beside us"): installs nvcc and the CUDA
# runtime from PyPI wheels into target/sppark/, builds .bin/sppark-bench (static CUDA runtime) and
# checks sppark's host arithmetic against arkworks. Not part of `make test`; run the binary on the GPU machine.
.PHONY: sppark-bin
sppark-bin:
	bash benches/sppark/build.sh
	.bin/sppark-bench --self-check
