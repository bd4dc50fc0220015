//! Entry points of `wasm-demo/src` compiled a second time for a package built with
//! `-C target-feature=+simd128,+relaxed-simd` (Makefile target `wasm-relaxed`), so that Emmart's
//! method runs on `f64x2.relaxed_madd`: the `mont-bench` entry points, and the `cpu-msm` ones,
//! whose variant list there adds the MSM over the 51-bit FMA twins (`*-r51`). The widgets load this
//! package only when the browser validates relaxed-SIMD code and its multiply-add is fused
//! (`mont_build_info().emmart_fma_fused`); everything else comes from the main package.

#[path = "../../src/mont_bench.rs"]
mod mont_bench;
pub use mont_bench::*;
// what cpu_msm.rs calls `crate::to_js`
use mont_bench::to_js;

// The cpu-msm widget's module; what only the gpu-msm widget of the main package uses goes unused.
#[allow(dead_code)]
#[path = "../../src/cpu_msm.rs"]
mod cpu_msm;
pub use cpu_msm::{CpuMsm, cpu_msm_info};

// The message-passing workers' module, over the 51-bit limbs of this package.
#[path = "../../src/shares.rs"]
mod shares;
pub use shares::*;
