//! The "Montgomery in WGSL" widget: WGSL Montgomery-product throughput per limb width on the
//! reader's GPU, each run verified against the CPU twin compiled into this same module.

use std::cell::RefCell;
use std::rc::Rc;

use fastmsm_gpu::bench::mont_throughput::chain_throughput;
use fastmsm_gpu::field::FieldKernelCache;
use fastmsm_mont::Field;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::gpu_session::{GpuSession, Session, promise};
use crate::js::err;

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

/// The benchmark on a session's device, with the kernels it has compiled (once per field and
/// width, reused by later runs).
#[wasm_bindgen]
pub struct WgslMont {
    session: Rc<Session>,
    kernels: Rc<RefCell<FieldKernelCache>>,
}

#[wasm_bindgen]
impl WgslMont {
    /// The benchmark on `session`'s device.
    #[wasm_bindgen(constructor)]
    pub fn new(session: &GpuSession) -> WgslMont {
        WgslMont {
            session: session.inner.clone(),
            kernels: Rc::default(),
        }
    }

    /// Times `threads` × `iterations` chained WGSL Montgomery products for one field and limb
    /// width, `reps` times (a promise of `{field, limb_bits, limbs, n_safe, threads, iterations,
    /// rates, verified, adapter}`; `rates` ascending).
    pub fn run(
        &self,
        field: String,
        limb_bits: u32,
        threads: usize,
        iterations: u32,
        reps: usize,
    ) -> js_sys::Promise {
        let (session, kernels) = (self.session.clone(), self.kernels.clone());
        promise(async move {
            let field = Field::ALL
                .into_iter()
                .find(|f| f.name() == field)
                .ok_or_else(|| err(format_args!("unknown field {field}")))?;
            let ctx = session.device().await?;
            // Runs of one object follow one another (the worker awaits each), so holding the
            // cache across the await cannot conflict.
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
            .map_err(err)?;
            Ok(Run {
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
        })
    }
}
