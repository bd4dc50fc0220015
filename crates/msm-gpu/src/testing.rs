//! Test harness: every GPU test gets its device here.
//!
//! There is deliberately no "skip when no GPU" path: CI installs lavapipe (a Vulkan CPU adapter),
//! so a missing adapter means a broken machine or driver and must fail the test.

use std::sync::OnceLock;

use crate::msm::GpuMsm;
use crate::profile::DeviceProfile;
use crate::{GpuContext, calibrate};

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

/// Runs a future to completion on the test thread: the crate's API is async (as WebGPU is), and
/// native tests wait for it in place.
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    pollster::block_on(f)
}

/// The test adapter's calibrated plan, measured once per process: the SMVP probe on the first MSM
/// that asks (later kernel sizes use the nearest measurement). The field probe is left out: it only
/// picks a limb width, and every test names its own. A failed probe fails the test, as a missing
/// adapter does.
pub fn calibrated(msm: &GpuMsm) -> DeviceProfile {
    static PROFILE: OnceLock<DeviceProfile> = OnceLock::new();
    PROFILE
        .get_or_init(|| {
            let ctx = gpu();
            let clock = std::time::Instant::now();
            let now = move || clock.elapsed().as_secs_f64();
            let mut profile = DeviceProfile {
                name: "calibrated".into(),
                origin: crate::profile::Origin::Calibrated,
                device: crate::profile::cache::device_key(ctx),
                smvp_wave: Vec::new(),
                ..DeviceProfile::portable()
            };
            let smvp = block_on(calibrate::probe_smvp(
                ctx,
                msm,
                calibrate::SMVP_BUDGET_SECONDS,
                &now,
                &|_, _| {},
            ))
            .unwrap_or_else(|e| panic!("calibration on the test adapter: {e}"));
            calibrate::add_smvp(&mut profile, &smvp);
            eprintln!("calibrated in {:.1} s: {}", now(), profile.summary());
            profile
        })
        .clone()
}
