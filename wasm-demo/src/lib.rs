//! wasm-bindgen entry points for the book's widgets. Each export is called from the widget worker
//! (book/widgets/worker.js) and returns plain JS objects; all computation lives in the crates.

use serde::Serialize;
use wasm_bindgen::prelude::*;

mod capabilities;
// The cpu-msm widget (ours vs arkworks' MSM, timed and operation-counted) and signed-digits.
mod cpu_msm;
pub use cpu_msm::*;
// The mont-bench widget: chained Montgomery multiplications vs ark-ff (also built with relaxed SIMD).
mod mont_bench;
pub use mont_bench::*;
// The wgsl-mont widget: WGSL Montgomery-product throughput per limb width on the reader's GPU.
mod wgsl_mont;
pub use wgsl_mont::*;

/// Serialises a result for JS, keeping maps as plain objects.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsValue::from_str(&e.to_string()))
}

/// "What can my browser do?": the adapter as wgpu sees it through WebGPU.
#[wasm_bindgen]
pub async fn gpu_capabilities() -> Result<JsValue, JsValue> {
    to_js(&capabilities::probe().await)
}
