//! `--backend gpu`: the same checked input, computed by fastmsm-gpu on the best wgpu adapter.

use fastmsm_gpu::calibrate::ProfileRequest;
use fastmsm_gpu::msm::{GpuCurve, GpuMsm, GpuMsmOptions, MsmOptions};
use fastmsm_gpu::{GpuContext, GpuError};
use fastmsm_msm::Scalar;

use crate::Failure;
use fastmsm_msm::format::{FormatCurve, hex};

/// Σ kᵢ·Pᵢ on the GPU, printed exactly as the CPU backend prints it. `profile`: a named device
/// profile, else the calibrated one (measured once per device and cached).
pub fn msm<G: FormatCurve>(
    points: &[G::Affine],
    scalars: &[Scalar],
    profile: Option<&str>,
) -> Result<String, Failure> {
    let curve = GpuCurve::from_name(G::NAME).expect("every CLI curve has a GPU build");
    let mut one = [0u64; 6];
    one[0] = 1;
    // The reader already checked every point; the identity goes in as the format writes it.
    let identity = if curve.is_edwards() {
        ([0; 6], one)
    } else {
        ([0; 6], [0; 6])
    };
    let input: Vec<_> = points
        .iter()
        .map(|p| G::coords(p).unwrap_or(identity))
        .collect();
    let gpu_failure = |e: GpuError| match e {
        GpuError::Input(m) => Failure::Input(m),
        e if e.is_input() => Failure::Input(e.to_string()),
        other => Failure::Gpu(other.to_string()),
    };
    pollster::block_on(async {
        let ctx = GpuContext::new().await.map_err(gpu_failure)?;
        let options = GpuMsmOptions {
            profile: profile.map(|name| ProfileRequest::Named(name.to_string())),
            ..Default::default()
        };
        let msm = GpuMsm::with_options(&ctx, curve, &options)
            .await
            .map_err(gpu_failure)?;
        let out = msm
            .run_timed(&ctx, &input, scalars, &MsmOptions::default(), &|| 0.0)
            .await
            .map_err(gpu_failure)?;
        Ok(match out.result {
            Some((x, y)) if !(curve.is_edwards() && (x, y) == identity) => {
                format!("x={} y={}", hex(&x), hex(&y))
            }
            _ => "identity".to_string(),
        })
    })
}
