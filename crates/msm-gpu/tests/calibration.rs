//! Calibration as a step of its own, on the test adapter: bounded by its budget, extended rather
//! than redone from an earlier profile, cached and read back; and the MSM's default profile,
//! which never calibrates.

use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::UniformRand;
use fastmsm_gpu::DeviceProfile;
use fastmsm_gpu::calibrate::{self, CalibrationOptions};
use fastmsm_gpu::msm::{GpuCurve, GpuMsm, ProfileChoice, RunOptions};
use fastmsm_gpu::profile::{Origin, cache};
use fastmsm_gpu::testing::{block_on, gpu};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// A calibration of BN254 with a budget of 3 s: it ends within the budget plus its first
/// compile (which cannot be stopped once started; lavapipe's compiles take seconds), measures the
/// width it keeps, and hands back an MSM with its profile that matches arkworks. Then the same
/// profile as the start of another calibration measures nothing more.
#[test]
fn calibration_is_bounded_and_extends_an_earlier_one() {
    let ctx = gpu();
    let steps = std::sync::Mutex::new(Vec::new());
    let progress = |_: f64, what: &str| steps.lock().unwrap().push(what.to_string());
    let budget = 3.0;
    let options = CalibrationOptions {
        budget_seconds: budget,
        progress: Some(&progress),
        ..Default::default()
    };
    let done = block_on(calibrate::calibrate(ctx, GpuCurve::Bn254, &options)).unwrap();
    let p = &done.profile;
    let compiles = p.measurements["compile_s"]
        .as_object()
        .expect("compile times recorded");
    let first_compile = compiles
        .values()
        .filter_map(|v| v.as_f64())
        .fold(f64::INFINITY, f64::min);
    // Everything after the first compile is planned against the budget; one probe step may be
    // mispredicted (at most its own length, well under a second at 2^10 points on lavapipe).
    assert!(
        done.seconds <= budget + first_compile + 1.0,
        "{:.1} s for a budget of {budget} s (first compile {first_compile:.1} s): {:?}",
        done.seconds,
        steps.lock().unwrap()
    );
    assert_eq!(p.origin, Origin::Calibrated);
    assert_eq!(p.device, cache::device_key(ctx));
    assert!(p.has_smvp_wave(done.msm.constants.limbs), "{}", p.summary());
    // The submission bound's rate is the one measured, not the portable profile's.
    let rate = p.additions_per_second;
    assert!(
        rate > 0.0 && rate != DeviceProfile::portable().additions_per_second,
        "{rate}: {}",
        p.measurements
    );
    assert_eq!(done.msm.profile(), p);
    assert_eq!(
        done.msm.constants.limb_bits,
        p.limb_bits(ctx, GpuCurve::Bn254.base_field())
    );
    let widths = compiles.len() + p.measurements["skipped"].as_array().map_or(0, Vec::len);
    assert_eq!(
        widths, 2,
        "lavapipe has SHADER_INT64: two candidate widths, {:?}",
        p.measurements
    );
    let mut rng = StdRng::seed_from_u64(9);
    let n = 100;
    let points: Vec<_> = (0..n)
        .map(|_| ark_bn254::G1Projective::rand(&mut rng).into_affine())
        .collect();
    let scalars: Vec<_> = (0..n).map(|_| ark_bn254::Fr::rand(&mut rng)).collect();
    let out = block_on(done.msm.run(ctx, &points, &scalars, &RunOptions::default())).unwrap();
    assert_eq!(
        out.result,
        ark_bn254::G1Projective::msm(&points, &scalars).unwrap()
    );

    // Extending it for the same curve: the wave is there, nothing is measured.
    let again = CalibrationOptions {
        start_from: Some(p.clone()),
        ..Default::default()
    };
    let extended = block_on(calibrate::calibrate(ctx, GpuCurve::Bn254, &again)).unwrap();
    let as_cached = DeviceProfile {
        origin: Origin::Cached,
        ..p.clone()
    };
    assert_eq!(extended.profile, as_cached);
}

/// The cache keeps one profile per device and reads it back as `cached`; the MSM's default takes
/// the cached profile or the adapter's named one, never a calibration.
#[test]
fn cached_profiles_and_the_default_profile() {
    let ctx = gpu();
    let dir = std::env::temp_dir().join(format!("fastmsm-profile-test-{}", std::process::id()));
    let path = dir.join("profiles.json");
    assert_eq!(cache::load_cached(&path, ctx).unwrap(), None);
    let mut p = DeviceProfile::lavapipe();
    p.set_smvp_wave(9, 123);
    cache::store_cached(&path, ctx, &p).unwrap();
    let back = cache::load_cached(&path, ctx).unwrap().expect("stored");
    assert_eq!(back.origin, Origin::Cached);
    assert_eq!(back.smvp_wave, p.smvp_wave);
    std::fs::write(&path, "not json").unwrap();
    let err = cache::load_cached(&path, ctx).unwrap_err().to_string();
    assert!(
        err.contains("profiles.json") && err.contains("not JSON"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    let resolved = ProfileChoice::Auto.resolve(ctx, &|_, _| {}).unwrap();
    let cached =
        cache::default_cache_path().and_then(|p| cache::load_cached(&p, ctx).ok().flatten());
    match cached {
        Some(c) => assert_eq!(resolved, c),
        None => assert_eq!(resolved, DeviceProfile::for_adapter(&ctx.info)),
    }
    assert!(matches!(resolved.origin, Origin::Named | Origin::Cached));
    let heard = std::sync::Mutex::new(Vec::new());
    let progress = |_: f64, what: &str| heard.lock().unwrap().push(what.to_string());
    let built = block_on(
        GpuMsm::builder(GpuCurve::Bn254)
            .profile(ProfileChoice::Named("portable".into()))
            .progress(&progress)
            .build(ctx),
    )
    .unwrap();
    assert_eq!(built.profile(), &DeviceProfile::portable());
    let heard = heard.into_inner().unwrap();
    assert!(
        heard
            .iter()
            .any(|h| h.starts_with("compiling 10 pipelines of the bn254 MSM")),
        "{heard:?}"
    );
}
