//! The `mont-bench` entry points of `wasm-demo/src/mont_bench.rs`, compiled a third time for a
//! package built with `-C target-feature=+simd128,+wide-arithmetic` (Makefile target `wasm-wide`):
//! every `u64 × u64 → u128` product of fastmsm-mont and of ark-ff becomes one `i64.mul_wide_u`
//! and every `u128` addition one `i64.add128`. The mont-bench widget loads this package only
//! when the browser validates a module using `i64.mul_wide_u`; it runs `fips-wide` and ark-ff
//! (the second baseline) from here.
//!
//! With feature `msm` (Makefile target `wasm-wide-msm`, a benchmark package the book does not
//! ship) it also holds the `cpu-msm` entry points: the MSM over 64-bit limbs, whose product then
//! runs on `i64.mul_wide_u` (the cpu-msm widget's rows `*-wide`).

#[path = "../../src/mont_bench.rs"]
mod mont_bench;
pub use mont_bench::*;

// what cpu_msm.rs calls `crate::to_js`
#[cfg(feature = "msm")]
use mont_bench::to_js;

// The cpu-msm widget's module; what only the gpu-msm widget of the main package uses goes unused.
#[cfg(feature = "msm")]
#[allow(dead_code)]
#[path = "../../src/cpu_msm.rs"]
mod cpu_msm;
#[cfg(feature = "msm")]
pub use cpu_msm::{CpuMsm, cpu_msm_info};
