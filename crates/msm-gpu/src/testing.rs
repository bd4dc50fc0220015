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
        let ctx = block_on(GpuContext::new()).unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
        eprintln!("GPU tests run on: {} ({:?}, {:?})", ctx.info.name, ctx.info.backend, ctx.info.device_type);
        ctx
    })
}

pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    pollster::block_on(f)
}
