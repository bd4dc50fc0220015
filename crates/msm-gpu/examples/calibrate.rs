//! Calibrates the device profile of one curve (a separate step: the MSM's default never runs it)
//! and caches it, or shows a named profile.
//!
//! usage: cargo run --release -p fastmsm-gpu --features bench --example calibrate --
//!        [--curve bls12-377] [--profile calibrated|h200|h100|swiftshader|lavapipe|portable]
//!        [--budget SECONDS] [--cache FILE] [--extend] [--json]
//! Without --cache the calibration is cached at `profile::cache::default_cache_path()`
//! ($FASTMSM_PROFILE_CACHE, else $XDG_CACHE_HOME or ~/.cache, then fastmsm/device-profiles.json),
//! where the MSM's default profile finds it. `--extend` starts from the cached calibration and
//! measures only what it lacks for this curve.

use fastmsm_gpu::calibrate::{self, CalibrationOptions};
use fastmsm_gpu::msm::GpuCurve;
use fastmsm_gpu::profile::cache;
use fastmsm_gpu::testing::block_on;
use fastmsm_gpu::{DeviceProfile, GpuContext};

fn main() {
    let (mut curve, mut name, mut cache_path, mut extend, mut as_json) = (
        GpuCurve::Bls12_377,
        "calibrated".to_string(),
        None,
        false,
        false,
    );
    let mut budget = calibrate::BUDGET_SECONDS;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--curve" => {
                let v = value();
                curve = GpuCurve::from_name(&v).unwrap_or_else(|| panic!("unknown curve {v}"))
            }
            "--profile" => name = value(),
            "--budget" => budget = value().parse().expect("--budget: seconds"),
            "--cache" => cache_path = Some(std::path::PathBuf::from(value())),
            "--extend" => extend = true,
            "--json" => as_json = true,
            other => panic!("unknown argument {other}"),
        }
    }
    let ctx = block_on(GpuContext::new()).unwrap_or_else(|e| panic!("{e}"));
    let profile = if name == "calibrated" {
        let path = cache_path.or_else(cache::default_cache_path);
        let start_from = match (&path, extend) {
            (Some(path), true) => cache::load_cached(path, &ctx).unwrap_or_else(|e| panic!("{e}")),
            _ => None,
        };
        let progress = |f: f64, text: &str| eprintln!("[{:3.0}%] {text}", 100.0 * f);
        let options = CalibrationOptions {
            budget_seconds: budget,
            progress: Some(&progress),
            start_from,
            ..Default::default()
        };
        let done =
            block_on(calibrate::calibrate(&ctx, curve, &options)).unwrap_or_else(|e| panic!("{e}"));
        eprintln!(
            "{:.2} s; {} at {} bits",
            done.seconds,
            curve.name(),
            done.msm.constants.limb_bits
        );
        if let Some(path) = &path {
            cache::store_cached(path, &ctx, &done.profile).unwrap_or_else(|e| panic!("{e}"));
            eprintln!("cached in {}", path.display());
        }
        done.profile
    } else {
        DeviceProfile::named(&name).unwrap_or_else(|e| panic!("{e}"))
    };
    if as_json {
        println!(
            "{}",
            serde_json::to_string_pretty(&profile.to_json()).unwrap()
        );
    } else {
        println!("{}", profile.summary());
    }
}
