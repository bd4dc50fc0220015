//! In a browser, the MSM's pipelines compiled in parallel before wgpu creates them.
//!
//! wgpu 30 creates a pipeline with WebGPU's `createComputePipeline`, which the browser's GPU
//! process handles in order: Chromium's Dawn compiles one stage after the other, and a curve's
//! first use waits for the sum. `createComputePipelineAsync` lets Dawn compile on worker threads,
//! but wgpu can neither call it nor wrap the raw pipeline it returns. So every stage's pipeline is
//! first requested asynchronously on the raw `GPUDevice` (`wgpu::Device::as_webgpu`), with a
//! descriptor equal to the one wgpu's WebGPU backend builds (the same WGSL text, bind-group-layout
//! entries and explicit pipeline layout), all at once; once they are all compiled, wgpu's
//! synchronous requests find them in the device's pipeline cache, which Dawn keys by content.
//! The raw pipelines are kept until wgpu's exist, since Dawn drops a cache entry with its last
//! reference. Whether the cache is hit is measured, not assumed: the E2E suite times both paths.
//!
//! Nothing here decides correctness: a request that fails leaves wgpu's own request to report
//! the error, in the same words as without this step.

use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use super::Stage;
use super::contract::{Access, Binding};
use crate::GpuContext;

/// `object.method(argument)`.
fn call(object: &JsValue, method: &str, argument: &JsValue) -> Result<JsValue, JsValue> {
    Reflect::get(object, &method.into())?
        .dyn_into::<Function>()?
        .call1(object, argument)
}

/// A JS object of `fields`.
fn object(fields: &[(&str, JsValue)]) -> Result<JsValue, JsValue> {
    let o = Object::new();
    for (name, value) in fields {
        Reflect::set(&o, &(*name).into(), value)?;
    }
    Ok(o.into())
}

/// The bind-group layout entry of `binding`, as wgpu's WebGPU backend maps
/// [`Binding::layout_entry`]: a storage buffer seen by the compute stage, no dynamic offset, no
/// minimum size.
fn layout_entry(binding: Binding) -> Result<JsValue, JsValue> {
    let kind = match binding.info().access {
        Access::Read => "read-only-storage",
        _ => "storage",
    };
    let buffer = object(&[("type", kind.into()), ("hasDynamicOffset", false.into())])?;
    object(&[
        ("binding", binding.index().into()),
        ("visibility", wgpu::ShaderStages::COMPUTE.bits().into()),
        ("buffer", buffer),
    ])
}

/// The raw pipelines, kept while wgpu creates its own, and when each was ready.
pub(super) struct Precompiled {
    _pipelines: JsValue,
    /// (entry point, seconds from the start to its pipeline's arrival), in stage order.
    pub ready: Vec<(&'static str, f64)>,
}

impl Precompiled {
    /// What the progress line says: the total, and the stage the others waited for.
    pub fn summary(&self) -> String {
        let last = self.ready.iter().max_by(|a, b| a.1.total_cmp(&b.1));
        match last {
            Some((entry, s)) => format!(
                "the browser compiled the {} pipelines at once in {s:.1} s (the last: {entry})",
                self.ready.len()
            ),
            None => "no pipelines".into(),
        }
    }
}

/// Starts the asynchronous compile of every stage of `source` on the raw device and resolves when
/// they have all settled: to the pipelines or to the first failure. `None` where the device is
/// not a browser's. Validation errors go to the caller's requests, not to the device's
/// uncaptured-error handler (an error scope of their own).
pub(super) async fn precompile(
    ctx: &GpuContext,
    source: &str,
    stages: &[Stage],
) -> Option<Result<Precompiled, String>> {
    let device: &JsValue = ctx.device.as_webgpu()?;
    let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let kept = compile_all(device, source, stages).await;
    let _ = scope.pop().await;
    Some(kept)
}

async fn compile_all(
    device: &JsValue,
    source: &str,
    stages: &[Stage],
) -> Result<Precompiled, String> {
    let start = crate::clock::seconds();
    // Each pipeline with the time it arrived, in the clock's seconds. A callback JS owns (freed
    // after its one call), since it may run after this future has ended where another stage
    // failed first; no code built from text, which a page's content policy may forbid.
    let arrived = || {
        Closure::once_into_js(|p: JsValue| -> JsValue {
            Array::of2(&p, &crate::clock::seconds().into()).into()
        })
    };
    let started = (|| -> Result<Promise, JsValue> {
        let module = call(
            device,
            "createShaderModule",
            &object(&[("label", "msm".into()), ("code", source.into())])?,
        )?;
        let pending = Array::new();
        for stage in stages {
            let entry = stage.entry_point();
            let entries = stage
                .bindings()
                .iter()
                .map(|&b| layout_entry(b))
                .collect::<Result<Array, _>>()?;
            let layout = call(
                device,
                "createBindGroupLayout",
                &object(&[("label", entry.into()), ("entries", entries.into())])?,
            )?;
            let pipeline_layout = call(
                device,
                "createPipelineLayout",
                &object(&[
                    ("label", entry.into()),
                    ("bindGroupLayouts", Array::of1(&layout).into()),
                ])?,
            )?;
            let compute = object(&[("module", module.clone()), ("entryPoint", entry.into())])?;
            let descriptor = object(&[
                ("label", entry.into()),
                ("layout", pipeline_layout),
                ("compute", compute),
            ])?;
            let promise = call(device, "createComputePipelineAsync", &descriptor)?;
            pending.push(&call(&promise, "then", &arrived())?);
        }
        Ok(Promise::all(&pending))
    })();
    let done = match started {
        Ok(all) => wasm_bindgen_futures::JsFuture::from(all).await,
        Err(e) => Err(e),
    };
    let done = done.map(|all| {
        let all: Array = all.into();
        let ready = stages
            .iter()
            .zip(all.iter())
            .map(|(stage, pair)| {
                let at = Array::from(&pair).get(1).as_f64().unwrap_or(f64::NAN);
                (stage.entry_point(), at - start)
            })
            .collect();
        Precompiled {
            _pipelines: all.into(),
            ready,
        }
    });
    done.map_err(|e| {
        Reflect::get(&e, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_else(|| format!("{e:?}"))
    })
}
