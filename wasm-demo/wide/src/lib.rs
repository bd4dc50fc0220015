//! The `mont-bench` entry points of `wasm-demo/src/mont_bench.rs`, compiled a third time for a
//! package built with `-C target-feature=+simd128,+wide-arithmetic` (Makefile target `wasm-wide`):
//! every `u64 × u64 → u128` product of fastmsm-mont and of ark-ff becomes one `i64.mul_wide_u`
//! and every `u128` addition one `i64.add128`. The mont-bench widget loads this package only
//! when the browser validates a module using `i64.mul_wide_u`; it runs `fips-wide` and ark-ff
//! (the second baseline) from here.

#[path = "../../src/mont_bench.rs"]
mod mont_bench;
pub use mont_bench::*;
