//! What every WebGPU device has, on the test adapter (lavapipe in CI): a device opened with
//! WebGPU's default limits only (8 storage buffers per stage, 128 MiB per binding, 256 MiB per
//! buffer, 16 KiB of workgroup storage, 256 invocations per workgroup) runs the MSM of every
//! curve with the `mobile` profile; and a bound on each submission's estimated time cuts the
//! work into several submissions, each within it, with the same result as arkworks.
//!
//! Every MSM here is compiled on the default-limits device, once per curve (the slow part on a
//! CPU adapter); `cargo test --test main device_limits` runs these tests together.

use std::sync::{Mutex, OnceLock};

use ark_ec::{AdditiveGroup, AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::{Field, UniformRand};
use ark_std::rand::{SeedableRng, rngs::StdRng};
use fastmsm_gpu::msm::stage::Stage;
use fastmsm_gpu::msm::{GpuCurve, GpuMsm, GpuPoint, MsmOutput, ProfileChoice, RunOptions};
use fastmsm_gpu::testing::block_on;
use fastmsm_gpu::{DeviceLimits, DeviceProfile, GpuContext, GpuError};

/// The test adapter opened with WebGPU's default limits, whatever it offers.
fn default_limits_gpu() -> &'static GpuContext {
    static CONTEXT: OnceLock<GpuContext> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        block_on(GpuContext::open(
            DeviceLimits::WebGpuDefault,
            GpuContext::OPTIONAL_FEATURES,
        ))
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
    })
}

/// The MSM of `curve` on the default-limits device: the limb width the other MSM tests use, the
/// product form of this adapter's profile, planned with the `mobile` profile.
fn built(curve: GpuCurve) -> &'static GpuMsm {
    static BUILT: Mutex<Vec<(GpuCurve, &'static GpuMsm)>> = Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, m)) = built.iter().find(|(c, _)| *c == curve) {
        return m;
    }
    let ctx = default_limits_gpu();
    let builder = GpuMsm::builder(curve)
        .limb_bits(super::msm::width(curve))
        .kernel_form(DeviceProfile::for_adapter(&ctx.info).kernel_form)
        .profile(ProfileChoice::Named("mobile".into()));
    let m: &'static GpuMsm = Box::leak(Box::new(block_on(builder.build(ctx)).unwrap()));
    built.push((curve, m));
    m
}

/// Random points and scalars with the edge cases in them: a zero scalar, r − 1, the identity, and
/// a point beside its negation with the same scalar.
fn inputs<G: CurveGroup>(n: usize, seed: u64) -> (Vec<G::Affine>, Vec<G::ScalarField>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut points: Vec<G::Affine> = (0..n).map(|_| G::rand(&mut rng).into_affine()).collect();
    let mut scalars: Vec<G::ScalarField> = (0..n).map(|_| G::ScalarField::rand(&mut rng)).collect();
    if n >= 5 {
        scalars[0] = G::ScalarField::ZERO;
        scalars[1] = -G::ScalarField::ONE;
        points[2] = G::Affine::zero();
        points[4] = (-points[3].into_group()).into_affine();
        scalars[4] = scalars[3];
    }
    (points, scalars)
}

/// The MSM of `n` inputs on the default-limits device against arkworks; its output.
fn matches_arkworks<G>(msm: &GpuMsm, n: usize, options: &RunOptions) -> MsmOutput<G>
where
    G: CurveGroup + VariableBaseMSM,
    G::Affine: GpuPoint<Scalar = G::ScalarField, Output = G>,
{
    let (points, scalars) = inputs::<G>(n, n as u64);
    let out = block_on(msm.run(default_limits_gpu(), &points, &scalars, options))
        .unwrap_or_else(|e| panic!("{} n = {n}: {e}", msm.curve.name()));
    assert_eq!(
        out.result,
        G::msm(&points, &scalars).unwrap(),
        "{} n = {n}, plan {:?}",
        msm.curve.name(),
        out.plan
    );
    out
}

#[test]
fn device_limits_are_webgpus_defaults() {
    let l = &default_limits_gpu().limits;
    assert_eq!(l.max_storage_buffers_per_shader_stage, 8);
    assert_eq!(l.max_storage_buffer_binding_size, 128 << 20);
    assert_eq!(l.max_buffer_size, 256 << 20);
    assert_eq!(l.max_compute_workgroup_storage_size, 16 << 10);
    assert_eq!(l.max_compute_invocations_per_workgroup, 256);
    // A large MSM is planned in batches whose every buffer fits those limits (the plan is not
    // run: 2^22 points take minutes on a CPU adapter).
    let msm = built(GpuCurve::Bls12_377);
    let plan = msm
        .plan(default_limits_gpu(), 1 << 22, &RunOptions::default())
        .unwrap();
    assert!(plan.batches() > 1, "{plan:?}");
    // The converted points (x, y) and the buckets (four coordinates), in the shader's limbs.
    let limbs = msm.constants.limbs as u64;
    assert!(plan.batch as u64 * 8 * limbs <= 128 << 20, "{plan:?}");
    let buckets = plan.windows as u64 * (plan.buckets as u64 + 1) * 16 * limbs;
    assert!(buckets <= 128 << 20, "{plan:?}");
    assert_eq!(msm.profile().name, "mobile");
    assert_eq!(msm.profile().binding_limit, Some(128 << 20));
}

/// Every curve on the default-limits device with the `mobile` profile, against arkworks.
#[test]
fn device_limits_default_run_every_curve() {
    let o = RunOptions::default();
    // n = 100 carries the edge cases (inputs); 1000 a larger plan, on BLS12-377 alone (the other
    // curves' larger MSMs run in msm.rs on the same modules).
    matches_arkworks::<ark_bls12_377::G1Projective>(built(GpuCurve::Bls12_377), 1000, &o);
    for n in [1, 100] {
        matches_arkworks::<ark_bn254::G1Projective>(built(GpuCurve::Bn254), n, &o);
        matches_arkworks::<ark_bls12_377::G1Projective>(built(GpuCurve::Bls12_377), n, &o);
        matches_arkworks::<ark_bls12_381::G1Projective>(built(GpuCurve::Bls12_381), n, &o);
        matches_arkworks::<ark_ed_on_bls12_377::EdwardsProjective>(
            built(GpuCurve::EdBls12_377),
            n,
            &o,
        );
    }
}

/// A bound a sixth of the unbounded run's estimate: the run makes several submissions, each
/// estimated within the bound, with the SMVP's dispatch cut into slices, and the MSM is right.
fn splits_within_the_bound<G>(curve: GpuCurve)
where
    G: CurveGroup + VariableBaseMSM,
    G::Affine: GpuPoint<Scalar = G::ScalarField, Output = G>,
{
    // A small wave, so that a few thousand points fill several and the slices are whole waves.
    let profile = DeviceProfile {
        smvp_wave: vec![(u32::MAX, 128)],
        ..DeviceProfile::mobile()
    };
    let msm = built(curve).with_profile(profile);
    let mut sliced = false;
    for n in [1000, 3000] {
        let unbounded = RunOptions {
            max_submission_seconds: Some(f64::INFINITY),
            ..Default::default()
        };
        let whole = matches_arkworks::<G>(&msm, n, &unbounded);
        let bound = whole.submissions.iter().sum::<f64>() / 6.0;
        let options = RunOptions {
            max_submission_seconds: Some(bound),
            ..Default::default()
        };
        let cut = matches_arkworks::<G>(&msm, n, &options);
        let what = format!(
            "{} n = {n}: {:?}, plan {:?}",
            curve.name(),
            cut.submissions,
            cut.plan
        );
        assert!(cut.submissions.len() >= 4, "{what}");
        assert!(cut.submissions.len() > whole.submissions.len(), "{what}");
        assert!(
            cut.submissions.iter().all(|&s| s > 0.0 && s <= bound),
            "{what}"
        );
        let plan = &cut.plan;
        let level0 = plan.smvp_passes(plan.batch)[0];
        sliced |= plan
            .slices(Stage::Smvp, plan.smvp_invocations(&level0))
            .len()
            > 1;
    }
    assert!(sliced, "{}: no SMVP dispatch was cut", curve.name());
}

#[test]
fn device_limits_short_submissions_bn254() {
    splits_within_the_bound::<ark_bn254::G1Projective>(GpuCurve::Bn254);
}

#[test]
fn device_limits_short_submissions_bls12_377() {
    splits_within_the_bound::<ark_bls12_377::G1Projective>(GpuCurve::Bls12_377);
}

/// A bound below one invocation's least work is refused before anything runs, naming the bound;
/// so is a bound that is not a positive number of seconds.
#[test]
fn device_limits_unmeetable_bound_is_an_error() {
    let msm = built(GpuCurve::Bn254);
    let (points, scalars) = inputs::<ark_bn254::G1Projective>(100, 7);
    for bound in [1e-9, 0.0, -1.0, f64::NAN] {
        let options = RunOptions {
            max_submission_seconds: Some(bound),
            ..Default::default()
        };
        match block_on(msm.run(default_limits_gpu(), &points, &scalars, &options)) {
            Err(GpuError::Input(m)) => assert!(m.contains("max_submission_seconds"), "{m}"),
            Err(other) => panic!("bound {bound}: {other}"),
            Ok(out) => panic!("bound {bound}: ran in {:?}", out.submissions),
        }
    }
}

/// The bound holds on the paths of packed batches and precomputed bases too: MSMs packed into
/// one pass (`run_batch`), the upload of bases with precomputed copies (its conversion and its
/// doublings) and an MSM over them each make several submissions within the bound, with the
/// same results as arkworks; an empty MSM submits nothing.
#[test]
fn device_limits_short_submissions_packed_and_precomputed() {
    use fastmsm_gpu::msm::{BatchMsm, Points};
    type G = ark_bn254::G1Projective;
    let profile = DeviceProfile {
        smvp_wave: vec![(u32::MAX, 128)],
        ..DeviceProfile::mobile()
    };
    let msm = built(GpuCurve::Bn254).with_profile(profile);
    let ctx = default_limits_gpu();
    let within = |what: &str, submissions: &[f64], bound: f64| {
        assert!(submissions.len() >= 2, "{what}: {submissions:?}");
        assert!(
            submissions.iter().all(|&s| s > 0.0 && s <= bound),
            "{what}: {submissions:?} against {bound}"
        );
    };
    let unbounded = RunOptions {
        max_submission_seconds: Some(f64::INFINITY),
        ..Default::default()
    };
    let sets: Vec<_> = [600, 400, 300]
        .into_iter()
        .map(|n| inputs::<G>(n, n as u64 + 1))
        .collect();
    let want: Vec<G> = sets.iter().map(|(p, k)| G::msm(p, k).unwrap()).collect();
    let batch: Vec<BatchMsm<ark_bn254::G1Affine>> = sets
        .iter()
        .map(|(p, k)| BatchMsm {
            points: Points::Host(p),
            scalars: k,
        })
        .collect();
    let whole = block_on(msm.run_batch(ctx, &batch, &unbounded)).unwrap();
    assert!(whole[0].plan.msms > 1, "not packed: {:?}", whole[0].plan);
    let bound = whole[0].submissions.iter().sum::<f64>() / 6.0;
    let options = RunOptions {
        max_submission_seconds: Some(bound),
        ..Default::default()
    };
    let cut = block_on(msm.run_batch(ctx, &batch, &options)).unwrap();
    for (i, (out, want)) in cut.iter().zip(&want).enumerate() {
        assert_eq!(out.result, *want, "packed MSM {i}");
        assert!(out.plan.msms > 1, "not packed: {:?}", out.plan);
        within(&format!("packed MSM {i}"), &out.submissions, bound);
    }
    // Precomputed copies: the upload's submissions and the MSM's, each within the bound.
    let (points, scalars) = &sets[0];
    let copies = RunOptions {
        precompute: Some(2),
        ..unbounded
    };
    let whole = block_on(msm.upload_bases(ctx, points, &copies)).unwrap();
    let bound = whole.submissions().iter().sum::<f64>() / 4.0;
    let options = RunOptions {
        precompute: Some(2),
        max_submission_seconds: Some(bound),
        ..Default::default()
    };
    let bases = block_on(msm.upload_bases(ctx, points, &options)).unwrap();
    assert!(bases.submissions().len() > whole.submissions().len());
    within("precomputed upload", bases.submissions(), bound);
    let out = block_on(msm.run_resident(ctx, &bases, scalars, &options)).unwrap();
    assert_eq!(out.result, want[0], "over precomputed bases");
    assert_eq!(out.plan.copies, 2);
    assert!(!out.submissions.is_empty());
    assert!(out.submissions.iter().all(|&s| s > 0.0 && s <= bound));
    // Nothing to run: no submission.
    let bounded = RunOptions {
        max_submission_seconds: Some(bound),
        ..Default::default()
    };
    let empty = block_on(msm.run::<ark_bn254::G1Affine>(ctx, &[], &[], &bounded)).unwrap();
    assert!(empty.submissions.is_empty());
}
