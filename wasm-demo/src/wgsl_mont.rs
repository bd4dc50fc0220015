//! The "Montgomery in WGSL" widget: WGSL Montgomery-product throughput per limb width on the
//! reader's GPU, each run verified against the CPU twin compiled into this same module.

use std::cell::RefCell;
use std::rc::Rc;

use fastmsm_gpu::bench::mont_throughput::chain_throughput;
use fastmsm_gpu::field::FieldKernelCache;
use fastmsm_mont::Field;
use serde::Serialize;
use wasm_bindgen::prelude::*;

thread_local! {
    // Pipelines are compiled once per (field, width) and reused by later runs.
    static KERNELS: Rc<RefCell<FieldKernelCache>> = Rc::new(RefCell::new(FieldKernelCache::default()));
}

#[derive(Serialize)]
struct Run {
    field: &'static str,
    limb_bits: u32,
    limbs: usize,
    n_safe: u64,
    threads: usize,
    iterations: u32,
    /// Products per second for each repetition, ascending.
    rates: Vec<f64>,
    verified: bool,
    adapter: String,
}

/// Times `threads` × `iterations` chained WGSL Montgomery products for one field and limb width.
#[wasm_bindgen]
pub async fn wgsl_mont_bench(
    field: String,
    limb_bits: u32,
    threads: usize,
    iterations: u32,
    reps: usize,
) -> Result<JsValue, JsValue> {
    let field = Field::ALL
        .into_iter()
        .find(|f| f.name() == field)
        .ok_or_else(|| JsValue::from_str(&format!("unknown field {field}")))?;
    let ctx = crate::gpu_context().await?;
    // The worker runs one task at a time, so holding the cache across the await cannot conflict.
    let kernels = KERNELS.with(Rc::clone);
    let mut cache = kernels.borrow_mut();
    let r = chain_throughput(
        &ctx,
        &mut cache,
        field,
        limb_bits,
        fastmsm_gpu::field::WORKGROUP_SIZE,
        threads,
        iterations,
        reps,
        16,
        &crate::now_seconds,
    )
    .await
    .map_err(|e| JsValue::from_str(&e.to_string()))?;
    crate::js::to_js(&Run {
        field: field.name(),
        limb_bits,
        limbs: r.limbs,
        n_safe: r.n_safe,
        threads,
        iterations,
        rates: r.rates(),
        verified: r.verified,
        adapter: ctx.info.name.clone(),
    })
}
