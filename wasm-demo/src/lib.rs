//! wasm-bindgen entry points for the book's widgets. Each export is called from the widget worker
//! (book/widgets/worker.js) and returns plain JS objects; all computation lives in the crates.

use std::cell::RefCell;
use std::rc::Rc;

use fastmsm_gpu::GpuContext;
use wasm_bindgen::prelude::*;

// What crosses to JavaScript: errors, results, progress callbacks.
mod js;
use js::to_js;
// Each curve as arkworks' group beside ours, the widgets' seeded generator and seeded input.
mod ark_pair;
mod rng;
mod seeded_input;

mod capabilities;
// Widgets that step through one algorithm on a small example (Barrett, curve formulas, cuZK,
// bucket reduction, GLV), each checked against num-bigint or arkworks.
mod explain;
// The cpu-msm widget: ours vs arkworks' MSM, timed and operation-counted.
mod cpu_msm;
pub use cpu_msm::*;
// The signed-digits widget: a scalar's windows, digits and carries.
mod signed_digits;
pub use signed_digits::*;
// The CPU MSM on every core: resident points, shares and the combine (also in the relaxed and
// threads packages).
mod shares;
pub use shares::*;
// The mont-bench widget: chained Montgomery multiplications vs ark-ff (also built with relaxed SIMD).
mod mont_bench;
pub use mont_bench::*;
// The gpu-msm widget: the whole GPU MSM on the reader's GPU, checked on the CPU in this module.
mod gpu_msm;
pub use gpu_msm::*;
// The npm package's MSM (wasm-demo/npm): points and scalars in the `msm` tool's file layout, on the GPU.
mod msm_api;
pub use msm_api::*;
// The wgsl-mont widget: WGSL Montgomery-product throughput per limb width on the reader's GPU.
mod wgsl_mont;
pub use wgsl_mont::*;

thread_local! {
    // One device per worker, shared by the GPU widgets: opening a WebGPU device costs far more
    // than a small run.
    static CONTEXT: RefCell<Option<Rc<GpuContext>>> = const { RefCell::new(None) };
}

pub(crate) async fn gpu_context() -> Result<Rc<GpuContext>, JsValue> {
    if let Some(ctx) = CONTEXT.with(|c| c.borrow().clone()) {
        return Ok(ctx);
    }
    let ctx = Rc::new(
        GpuContext::new()
            .await
            .map_err(|e| JsValue::from_str(&e.to_string()))?,
    );
    CONTEXT.with(|c| *c.borrow_mut() = Some(ctx.clone()));
    Ok(ctx)
}

/// Drops the worker's device, so that the next GPU run opens a fresh one (after a device loss).
pub(crate) fn forget_gpu_context() {
    CONTEXT.with(|c| c.borrow_mut().take());
}

/// performance.now() of the worker's global scope, in seconds.
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

/// "What can my browser do?": the adapter as wgpu sees it through WebGPU.
#[wasm_bindgen]
pub async fn gpu_capabilities() -> Result<JsValue, JsValue> {
    to_js(&capabilities::probe().await)
}
