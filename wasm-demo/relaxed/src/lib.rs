//! The `mont-bench` entry points of `wasm-demo/src/mont_bench.rs`, compiled a second time for a
//! package built with `-C target-feature=+simd128,+relaxed-simd` (Makefile target `wasm-relaxed`),
//! so that Emmart's method runs on `f64x2.relaxed_madd`. The widget loads this package only when
//! the browser validates relaxed-SIMD code; everything else comes from the main package.

#[path = "../../src/mont_bench.rs"]
mod mont_bench;
pub use mont_bench::*;
