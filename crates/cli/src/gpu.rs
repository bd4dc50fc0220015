//! `--backend gpu`: the same checked input, computed by fastmsm-gpu on the best wgpu adapter.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use fastmsm_gpu::calibrate::{self, CalibrationOptions};
use fastmsm_gpu::msm::{GpuCurve, GpuMsm, ProfileChoice, RunOptions, pack_points, pack_scalars};
use fastmsm_gpu::profile::cache;
use fastmsm_gpu::{GpuContext, GpuError};
use fastmsm_msm::Scalar;

use crate::Failure;
use fastmsm_msm::format::{FormatCurve, hex};

/// How long the GPU's set-up may take before the command says on stderr what it is doing.
const QUIET_SECONDS: f64 = 1.0;

/// Σ kᵢ·Pᵢ on the GPU, printed exactly as the CPU backend prints it. `profile`: `calibrate`
/// (measure now and cache), a named device profile, else the default (cached or named).
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
    let status = Status::new();
    let progress = |_: f64, what: &str| status.say(what);
    std::thread::scope(|threads| {
        threads.spawn(|| status.watch());
        let result = pollster::block_on(async {
            let ctx = GpuContext::new().await.map_err(gpu_failure)?;
            let msm = match profile {
                Some("calibrate") => {
                    let options = CalibrationOptions {
                        progress: Some(&progress),
                        ..Default::default()
                    };
                    let done = calibrate::calibrate(&ctx, curve, &options)
                        .await
                        .map_err(gpu_failure)?;
                    if let Some(path) = cache::default_cache_path()
                        && let Err(e) = cache::store_cached(&path, &ctx, &done.profile)
                    {
                        eprintln!("msm: the calibration was not cached: {e}");
                    }
                    done.msm
                }
                named => {
                    let choice =
                        named.map_or(ProfileChoice::Auto, |n| ProfileChoice::Named(n.into()));
                    GpuMsm::builder(curve)
                        .profile(choice)
                        .progress(&progress)
                        .build(&ctx)
                        .await
                        .map_err(gpu_failure)?
                }
            };
            status.say("running the MSM");
            let packed = pack_points(curve, &input);
            let out = msm
                .run_packed(
                    &ctx,
                    &packed,
                    &pack_scalars(scalars),
                    &RunOptions::default(),
                )
                .await
                .map_err(gpu_failure)?;
            Ok(match out.result {
                Some((x, y)) if !(curve.is_edwards() && (x, y) == identity) => {
                    format!("x={} y={}", hex(&x), hex(&y))
                }
                _ => "identity".to_string(),
            })
        });
        status.finish();
        result
    })
}

/// What the GPU's set-up is doing, said on stderr once it has taken more than
/// [`QUIET_SECONDS`] (a first run compiles pipelines for seconds; later runs find them in the
/// driver's cache and say nothing).
struct Status {
    start: Instant,
    /// The latest step, and whether anything has been said yet.
    latest: Mutex<(String, bool)>,
    done: AtomicBool,
}

impl Status {
    fn new() -> Self {
        Self {
            start: Instant::now(),
            latest: Mutex::new(("opening the GPU".to_string(), false)),
            done: AtomicBool::new(false),
        }
    }

    fn say(&self, what: &str) {
        let mut latest = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        latest.0 = what.to_string();
        if latest.1 {
            eprintln!("msm: {what}");
        }
    }

    /// On its own thread while the set-up runs: after the quiet time, says the step in progress
    /// (the caller's thread is blocked in it), and lets [`Status::say`] say the later ones.
    fn watch(&self) {
        while !self.done.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(50));
            if self.start.elapsed().as_secs_f64() < QUIET_SECONDS {
                continue;
            }
            let mut latest = self.latest.lock().unwrap_or_else(|e| e.into_inner());
            if !latest.1 {
                latest.1 = true;
                eprintln!(
                    "msm: {} (the driver compiles the kernels; most drivers keep them for later runs)",
                    latest.0
                );
            }
            return;
        }
    }

    fn finish(&self) {
        self.done.store(true, Ordering::Relaxed);
    }
}
