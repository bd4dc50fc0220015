#!/usr/bin/env bash
# Builds one of the book's WebAssembly packages: the wasm-demo crate for wasm32 with the caller's
# RUSTFLAGS and cargo arguments, then wasm-bindgen's ES-module glue (--target web: loaded through
# relative URLs) and TypeScript declarations. What `wasm-pack build --no-pack --no-opt` did, without
# installing wasm-pack (its build was minutes of a fresh machine's set-up).
#   wasm-demo/build.sh OUT_DIR OUT_NAME TARGET_DIR [cargo arguments…]
# No wasm-opt: Debian's (binaryen 108) corrupts wasm-bindgen 0.2.130 output.
set -euo pipefail
out=$1 name=$2 target=$3
shift 3
cd "$(dirname "$0")/.."
cargo build --release --lib --target wasm32-unknown-unknown -p fastmsm-wasm-demo --target-dir "$target" "$@"
mkdir -p "$out"
wasm-bindgen --target web --out-dir "$out" --out-name "$name" \
    "$target/wasm32-unknown-unknown/release/fastmsm_wasm_demo.wasm"
