//! Calibrates the device profile (or loads a named one) for one curve and prints it.
//!
//! usage: cargo run --release -p fastmsm-gpu --example calibrate -- [--curve bls12-377]
//!        [--profile calibrated|h200|h100|swiftshader|lavapipe|portable] [--cache FILE]
//!        [--recalibrate] [--json]
//! Without --cache the calibration is cached at `calibrate::default_cache_path()`
//! ($FASTMSM_PROFILE_CACHE, else $XDG_CACHE_HOME or ~/.cache, then fastmsm/device-profiles.json).

use std::time::Instant;

use fastmsm_gpu::GpuContext;
use fastmsm_gpu::calibrate::{self, ProfileRequest};
use fastmsm_gpu::msm::GpuCurve;
use fastmsm_gpu::profile::Origin;
use fastmsm_gpu::testing::block_on;

fn main() {
    let (mut curve, mut name, mut cache, mut fresh, mut as_json) = (
        GpuCurve::Bls12_377,
        "calibrated".to_string(),
        None,
        false,
        false,
    );
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--curve" => {
                let v = value();
                curve = GpuCurve::from_name(&v).unwrap_or_else(|| panic!("unknown curve {v}"))
            }
            "--profile" => name = value(),
            "--cache" => cache = Some(std::path::PathBuf::from(value())),
            "--recalibrate" => fresh = true,
            "--json" => as_json = true,
            other => panic!("unknown argument {other}"),
        }
    }
    let ctx = block_on(GpuContext::new()).unwrap_or_else(|e| panic!("{e}"));
    let cache = cache.or_else(calibrate::default_cache_path);
    let request = if name == "calibrated" {
        let cached = match (&cache, fresh) {
            (Some(path), false) => {
                calibrate::load_cached(path, &ctx).unwrap_or_else(|e| panic!("{e}"))
            }
            _ => None,
        };
        ProfileRequest::Calibrate { cached }
    } else {
        ProfileRequest::Named(name)
    };
    let epoch = Instant::now();
    let now = move || epoch.elapsed().as_secs_f64();
    let progress = |f: f64, text: &str| eprintln!("[{:5.1} s {:3.0}%] {text}", now(), 100.0 * f);
    let (msm, profile) = block_on(calibrate::prepare(&ctx, curve, request, &now, &progress))
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "{:.2} s; {} at {} bits",
        now(),
        curve.name(),
        msm.constants.limb_bits
    );
    if profile.origin == Origin::Calibrated
        && let Some(path) = &cache
    {
        calibrate::store_cached(path, &ctx, &profile).unwrap_or_else(|e| panic!("{e}"));
        eprintln!("cached in {}", path.display());
    }
    if as_json {
        println!(
            "{}",
            serde_json::to_string_pretty(&profile.to_json()).unwrap()
        );
    } else {
        println!("{}", profile.summary());
    }
}
