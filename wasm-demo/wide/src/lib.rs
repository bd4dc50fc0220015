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

// Without feature `msm`, only mont_bench's part of it is used.
#[allow(unused)]
#[path = "../../src/js.rs"]
mod js;

#[path = "../../src/mont_bench.rs"]
mod mont_bench;
pub use mont_bench::*;

// The cpu-msm widget's module and the modules it draws its input with; what only the widgets of
// the main package use goes unused.
#[cfg(feature = "msm")]
#[allow(dead_code)]
#[path = "../../src/ark_pair.rs"]
mod ark_pair;
#[cfg(feature = "msm")]
#[path = "../../src/cpu_msm/mod.rs"]
mod cpu_msm;
#[cfg(feature = "msm")]
#[path = "../../src/rng.rs"]
mod rng;
#[cfg(feature = "msm")]
#[allow(dead_code)]
#[path = "../../src/seeded_input.rs"]
mod seeded_input;
#[cfg(feature = "msm")]
pub use cpu_msm::{CpuMsm, cpu_msm_info};
