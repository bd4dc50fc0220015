//! Test harness: every GPU test gets its device here.
//!
//! There is deliberately no "skip when no GPU" path: CI installs lavapipe (a Vulkan CPU adapter),
//! so a missing adapter means a broken machine or driver and must fail the test.

use std::sync::OnceLock;

use crate::GpuContext;

/// A process-wide device shared by all tests (opening one per test is slow on lavapipe).
pub fn gpu() -> &'static GpuContext {
    static CONTEXT: OnceLock<GpuContext> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        let ctx = block_on(GpuContext::new())
            .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
        eprintln!(
            "GPU tests run on: {} ({:?}, {:?})",
            ctx.info.name, ctx.info.backend, ctx.info.device_type
        );
        ctx
    })
}

/// The test device with 64-bit shader integers, which the 32-bit-limb path needs. Every Vulkan
/// driver of a desktop GPU and lavapipe offer them; as with the adapter itself, a missing feature
/// fails the test rather than skipping the path.
pub fn gpu_int64() -> &'static GpuContext {
    let ctx = gpu();
    assert!(
        ctx.features.contains(wgpu::Features::SHADER_INT64),
        "the 32-bit-limb tests need SHADER_INT64, which {} does not offer",
        ctx.info.name
    );
    ctx
}

pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    pollster::block_on(f)
}
