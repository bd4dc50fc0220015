//! Entry points of `wasm-demo/src` compiled a second time for a package built with
//! `-C target-feature=+simd128,+relaxed-simd` (Makefile target `wasm-relaxed`), so that Emmart's
//! method runs on `f64x2.relaxed_madd`: the `mont-bench` entry points, and the `cpu-msm` ones,
//! whose variant list there adds the MSM over the 51-bit FMA twins (`*-r51`). The widgets load this
//! package only when the browser validates relaxed-SIMD code and its multiply-add is fused
//! (`mont_build_info().emmart_fma_fused`); everything else comes from the main package.

#[path = "../../src/js.rs"]
mod js;

#[path = "../../src/mont_bench.rs"]
mod mont_bench;
pub use mont_bench::*;

// The cpu-msm widget's module and the modules it draws its input with; what only the widgets of
// the main package use goes unused.
#[allow(dead_code)]
#[path = "../../src/ark_pair.rs"]
mod ark_pair;
#[path = "../../src/cpu_msm/mod.rs"]
mod cpu_msm;
#[path = "../../src/rng.rs"]
mod rng;
#[allow(dead_code)]
#[path = "../../src/seeded_input.rs"]
mod seeded_input;
pub use cpu_msm::{CpuMsm, cpu_msm_info};

// The message-passing workers' module, over the 51-bit limbs of this package.
#[path = "../../src/shares.rs"]
mod shares;
pub use shares::*;
