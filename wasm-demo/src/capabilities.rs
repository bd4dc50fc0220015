//! The adapter report for the capability widget, from wgpu's WebGPU backend.

use fastmsm_gpu::AdapterReport;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
pub struct Capabilities {
    /// False when no adapter could be obtained (WebGPU missing or blocked).
    pub webgpu: bool,
    pub error: Option<String>,
    pub adapter: Option<Adapter>,
}

#[derive(Serialize)]
pub struct Adapter {
    pub name: String,
    pub backend: String,
    pub device_type: String,
    pub limits: Vec<Limit>,
    pub subgroup_min_size: u32,
    pub subgroup_max_size: u32,
    pub shader_f16: bool,
    pub timestamp_query: bool,
}

#[derive(Serialize)]
pub struct Limit {
    pub name: &'static str,
    pub value: u64,
    pub webgpu_default: u64,
}

impl From<AdapterReport> for Adapter {
    fn from(r: AdapterReport) -> Self {
        Adapter {
            name: r.name,
            backend: r.backend,
            device_type: r.device_type,
            limits: r
                .limits
                .into_iter()
                .map(|(name, value, webgpu_default)| Limit {
                    name,
                    value,
                    webgpu_default,
                })
                .collect(),
            subgroup_min_size: r.subgroup_sizes.0,
            subgroup_max_size: r.subgroup_sizes.1,
            shader_f16: r.shader_f16,
            timestamp_query: r.timestamp_query,
        }
    }
}

async fn probe() -> Capabilities {
    match fastmsm_gpu::context::probe().await {
        Ok(r) => Capabilities {
            webgpu: true,
            error: None,
            adapter: Some(r.into()),
        },
        Err(e) => Capabilities {
            webgpu: false,
            error: Some(e.to_string()),
            adapter: None,
        },
    }
}

/// "What can my browser do?": the adapter as wgpu sees it through WebGPU.
#[wasm_bindgen]
pub async fn gpu_capabilities() -> Result<JsValue, JsValue> {
    crate::js::to_js(&probe().await)
}
