//! wasm-bindgen entry points for the book's widgets and the npm package `fastmsm`. Each export is
//! called from a worker (book/widgets/core/widget-worker.js, wasm-demo/npm/src/worker.js, the CPU
//! pool's workers) and returns plain JS objects; all computation lives in the crates.
//!
//! One crate, several packages: the Makefile builds it once per WebAssembly target (plain SIMD,
//! relaxed SIMD, wide arithmetic, shared memory), each with the cargo feature named after that
//! target (`book` for the plain one; Cargo.toml), which selects the modules below.

// A feature named after a target must be built for that target, or its package would hold code
// compiled without the instructions it exists for.
#[cfg(all(
    target_arch = "wasm32",
    feature = "relaxed-simd",
    not(target_feature = "relaxed-simd")
))]
compile_error!(
    "feature `relaxed-simd` needs RUSTFLAGS -C target-feature=+relaxed-simd (Makefile: wasm-relaxed)"
);
#[cfg(all(
    target_arch = "wasm32",
    feature = "threads",
    not(target_feature = "atomics")
))]
compile_error!(
    "feature `threads` needs RUSTFLAGS with +atomics and a shared memory (Makefile: wasm-threads)"
);

// What crosses to JavaScript: errors, results, progress callbacks.
mod js;

// Each curve as arkworks' group beside ours, the widgets' seeded generator and seeded input.
#[cfg(feature = "ark")]
mod ark_pair;
#[cfg(feature = "ark")]
mod rng;
#[cfg(feature = "ark")]
mod seeded_input;

// The mont-bench widget: chained Montgomery multiplications vs ark-ff.
#[cfg(feature = "mont-bench")]
mod mont_bench;
#[cfg(feature = "mont-bench")]
pub use mont_bench::*;

// The cpu-msm widget: ours vs arkworks' MSM, timed and operation-counted.
#[cfg(feature = "cpu-msm")]
mod cpu_msm;
#[cfg(feature = "cpu-msm")]
pub use cpu_msm::{CpuMsm, cpu_msm_info};

// The CPU MSM on every core: resident points, shares and the combine.
#[cfg(feature = "shares")]
mod shares;
#[cfg(feature = "shares")]
pub use shares::*;

// Widgets that step through one algorithm on a small example (Barrett, curve formulas, cuZK,
// bucket reduction, GLV), each checked against num-bigint or arkworks; and the signed-digits widget.
#[cfg(feature = "explain")]
mod explain;
#[cfg(feature = "explain")]
mod signed_digits;
#[cfg(feature = "explain")]
pub use signed_digits::*;

// The GPU MSM session (device, profile, pipelines), the gpu-msm widget's entry points, the npm
// package's input checks, and the capability widget's adapter report.
#[cfg(feature = "gpu")]
mod capabilities;
#[cfg(feature = "gpu")]
pub use capabilities::gpu_capabilities;
#[cfg(feature = "gpu")]
mod gpu_msm;
#[cfg(feature = "gpu")]
pub use gpu_msm::*;
#[cfg(feature = "gpu")]
mod gpu_session;
#[cfg(feature = "gpu")]
pub use gpu_session::GpuSession;
#[cfg(feature = "gpu")]
mod msm_api;
#[cfg(feature = "gpu")]
pub use msm_api::*;

// The wgsl-mont widget: WGSL Montgomery-product throughput per limb width on the reader's GPU.
#[cfg(feature = "wgsl-mont")]
mod wgsl_mont;
#[cfg(feature = "wgsl-mont")]
pub use wgsl_mont::*;

/// performance.now() of the worker's global scope, in seconds.
#[cfg(feature = "gpu")]
pub(crate) fn now_seconds() -> f64 {
    let global = js_sys::global();
    let performance =
        js_sys::Reflect::get(&global, &"performance".into()).expect("performance exists");
    let now: js_sys::Function = js_sys::Reflect::get(&performance, &"now".into())
        .expect("now exists")
        .into();
    now.call0(&performance)
        .expect("performance.now()")
        .as_f64()
        .expect("a number")
        / 1000.0
}
