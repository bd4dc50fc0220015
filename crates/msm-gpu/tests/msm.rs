//! The whole GPU MSM against arkworks' VariableBaseMSM, every curve, on the test adapter
//! (lavapipe in CI): uniform inputs and the adversarial ones that break bucket methods.

use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::UniformRand;
use ark_std::rand::{Rng, SeedableRng, rngs::StdRng};
use fastmsm_gpu::DeviceProfile;
use fastmsm_gpu::GpuError;
use fastmsm_gpu::field::{INT64_LIMB_WIDTHS, radix64_limb_bits};
use fastmsm_gpu::msm::{
    AffineOut, GeneralAdd, GpuCurve, GpuMsm, GpuPoint, MixedAdd, MsmOutput, Plan, ProfileChoice,
    RunOptions, pack_points, pack_scalars, reduction_segments, shader_source,
};
use fastmsm_gpu::testing::{block_on, calibrated, gpu, gpu_int64};
use fastmsm_mont::Canonical;
use std::sync::Mutex;

/// One named input set: points and scalars.
pub(super) type Case<G> = (&'static str, Vec<G>, Vec<<G as AffineRepr>::ScalarField>);

/// Input sets: uniform, then each adversarial pattern.
pub(super) fn cases<G: AffineRepr>(n: usize, rng: &mut StdRng) -> Vec<Case<G>> {
    let g = G::generator();
    let points: Vec<G> = (0..n)
        .map(|_| (g * G::ScalarField::rand(rng)).into_affine())
        .collect();
    let uniform: Vec<G::ScalarField> = (0..n).map(|_| G::ScalarField::rand(rng)).collect();
    let minus_one = -G::ScalarField::from(1u64);
    let mut out = vec![("uniform", points.clone(), uniform.clone())];
    if n >= 2 {
        out.push((
            "zero scalars",
            points.clone(),
            (0..n)
                .map(|i| if i % 2 == 0 { 0u64.into() } else { uniform[i] })
                .collect(),
        ));
        out.push(("r - 1 everywhere", points.clone(), vec![minus_one; n]));
        out.push(("repeated point", vec![points[0]; n], uniform.clone()));
        let mut plus_minus = points.clone();
        for i in (1..n).step_by(2) {
            plus_minus[i] = (-plus_minus[i - 1].into_group()).into_affine();
        }
        out.push((
            "P and -P, equal scalars",
            plus_minus,
            (0..n).map(|i| uniform[i / 2 * 2]).collect(),
        ));
        let mut with_identity = points.clone();
        with_identity[0] = G::zero();
        with_identity[n - 1] = G::zero();
        out.push(("identity points", with_identity, uniform.clone()));
        let shared = uniform[0];
        out.push((
            "scalars sharing most windows",
            points.clone(),
            (0..n)
                .map(|i| shared + G::ScalarField::from(i as u64))
                .collect(),
        ));
        // Most windows nearly empty, then all empty below the one that holds the digits: the
        // SMVP's K comes from the entry count, and its chunks go to the windows that have any.
        out.push((
            "90% of scalars below 2^10",
            points.clone(),
            (0..n)
                .map(|i| {
                    if i % 10 == 0 {
                        uniform[i]
                    } else {
                        G::ScalarField::from(rng.gen_range(0..1024u64))
                    }
                })
                .collect(),
        ));
        let high = G::ScalarField::from(1u64 << 40);
        out.push((
            "digits only in windows above bit 40",
            points.clone(),
            (0..n)
                .map(|i| high * G::ScalarField::from(i as u64 + 1))
                .collect(),
        ));
        out.push(("all-equal scalars", points, vec![shared; n]));
    }
    out
}

/// arkworks' answer in the form of `MsmOutput::result`: canonical affine coordinates (through
/// `fastmsm_curves::ark`), the short-Weierstrass identity as `None`, the Edwards one as (0, 1).
fn expected_result<G: AffineRepr + GpuPoint>(p: &G, edwards: bool) -> AffineOut {
    (edwards || !p.is_zero()).then(|| p.coordinates())
}

/// The MSM of canonical coordinates and scalars as words, packed for `run_packed`.
fn run_canonical(
    msm: &GpuMsm,
    points: &[(Canonical, Canonical)],
    scalars: &[[u64; 4]],
    options: &RunOptions,
) -> Result<MsmOutput, GpuError> {
    let points = pack_points(msm.curve, points);
    block_on(msm.run_packed(gpu(), &points, &pack_scalars(scalars), options))
}

/// Runs every input pattern at each n on one compiled MSM and compares with arkworks.
pub(super) fn check<G: AffineRepr + GpuPoint<Scalar = G::ScalarField>>(
    msm: &GpuMsm,
    ns: &[usize],
    options: &RunOptions,
    seed: u64,
) where
    G::Group: VariableBaseMSM<MulBase = G, ScalarField = G::ScalarField>,
{
    check_patterns::<G>(msm, ns, options, seed, 100)
}

/// As [`check`], every pattern up to n = `patterns_up_to`, only the uniform one above.
pub(super) fn check_patterns<G: AffineRepr + GpuPoint<Scalar = G::ScalarField>>(
    msm: &GpuMsm,
    ns: &[usize],
    options: &RunOptions,
    seed: u64,
    patterns_up_to: usize,
) where
    G::Group: VariableBaseMSM<MulBase = G, ScalarField = G::ScalarField>,
{
    let edwards = msm.curve.is_edwards();
    let mut rng = StdRng::seed_from_u64(seed);
    for &n in ns {
        // Large n: only the uniform case (the patterns' long bucket chains are covered below it).
        let sets = cases::<G>(n, &mut rng);
        let take = if n > patterns_up_to { 1 } else { sets.len() };
        for (label, points, scalars) in sets.into_iter().take(take) {
            let expected = G::Group::msm(&points, &scalars).unwrap().into_affine();
            // Input format: (0, 0) is the short-Weierstrass identity; the Edwards identity is (0, 1).
            let input: Vec<(Canonical, Canonical)> =
                points.iter().map(GpuPoint::coordinates).collect();
            let ks: Vec<[u64; 4]> = scalars.iter().map(G::scalar_words).collect();
            let out = run_canonical(msm, &input, &ks, options).unwrap();
            let bits = msm.constants.limb_bits;
            assert_eq!(
                out.result,
                expected_result(&expected, edwards),
                "{} w={bits} n={n} {label} plan={:?}",
                msm.curve.name(),
                out.plan
            );
        }
    }
}

/// Compiled MSMs shared by the tests of this file: on lavapipe each (curve, limb width) costs
/// seconds to minutes of LLVM time, so every test reuses one build per pair. Each runs the default
/// plan of the test adapter's calibrated profile, with the product in the form calibration picks
/// for this adapter.
pub(super) fn msm(curve: GpuCurve, limb_bits: u32) -> &'static GpuMsm {
    static BUILT: Mutex<Vec<(GpuCurve, u32, &'static GpuMsm)>> = Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, _, m)) = built
        .iter()
        .find(|(c, w, _)| *c == curve && *w == limb_bits)
    {
        return m;
    }
    let clock = std::time::Instant::now();
    let built_now = build(curve, limb_bits);
    eprintln!(
        "{} {limb_bits}-bit {}: pipelines built in {:.0} s",
        curve.name(),
        built_now.form.name(),
        clock.elapsed().as_secs_f64()
    );
    let m: &'static GpuMsm = Box::leak(Box::new(calibrated_build(built_now)));
    built.push((curve, limb_bits, m));
    m
}

/// The same MSM planning with the test adapter's calibrated profile.
pub(super) fn calibrated_build(m: GpuMsm) -> GpuMsm {
    m.with_profile(calibrated(&m))
}

/// The MSM of `curve` at `limb_bits`, in the product form of this adapter's profile (planning
/// with `portable` until the caller gives it the calibrated profile).
pub(super) fn build(curve: GpuCurve, limb_bits: u32) -> GpuMsm {
    let form = DeviceProfile::for_adapter(&gpu().info).kernel_form;
    let builder = GpuMsm::builder(curve)
        .limb_bits(limb_bits)
        .kernel_form(form)
        .profile(ProfileChoice::Named("portable".into()));
    block_on(builder.build(gpu())).unwrap()
}

/// The limb width each curve is tested with on the CI adapter. One width per curve keeps the
/// lavapipe compile time affordable; every width is covered per operation in the field tests, and
/// whole MSMs at 13/15/16 bits are verified against arkworks by the H200 benchmark.
pub(super) const WIDTHS: [(GpuCurve, u32); 4] = [
    (GpuCurve::Bls12_377, 13),
    (GpuCurve::Bn254, 16),
    (GpuCurve::Bls12_381, 15),
    (GpuCurve::EdBls12_377, 14),
];

pub(super) fn width(curve: GpuCurve) -> u32 {
    WIDTHS.iter().find(|(c, _)| *c == curve).unwrap().1
}

/// The whole MSM on every curve with `$width`-bit limbs at each n of `$ns`: the portable width of
/// `WIDTHS` on all four curves, and the 64-bit-product paths (SHADER_INT64, which lavapipe has) on
/// one curve each: the reduced radix with u64 columns with a carry inside its rows (BLS12-377 at
/// 30 bits) and without (BN254 at 29), and the no-carry CIOS on 32-bit limbs (BN254). The same
/// products on the other fields are checked product by product in the field tests (every width,
/// every shape), and the twisted-Edwards and BLS12-381 formulas by their portable-width MSMs here;
/// each MSM build costs a minute of lavapipe compiles on a fresh CI machine. n = 4097 (one past a
/// power of two, with the patterns' long bucket chains below it) on the two curves the other
/// tests of this file use.
macro_rules! msm_tests {
    ($name:ident, $curve:expr, $affine:ty, $width:expr, $ns:expr) => {
        #[test]
        fn $name() {
            let width = $width;
            if INT64_LIMB_WIDTHS.contains(&width) {
                gpu_int64();
            }
            check::<$affine>(
                msm($curve, width),
                $ns,
                &RunOptions::default(),
                width as u64,
            );
        }
    };
}

const UP_TO_4097: &[usize] = &[0, 1, 2, 3, 100, 1000, 4097];
const UP_TO_1000: &[usize] = &[0, 1, 2, 3, 100, 1000];

msm_tests!(
    bn254,
    GpuCurve::Bn254,
    ark_bn254::G1Affine,
    width(GpuCurve::Bn254),
    UP_TO_4097
);
msm_tests!(
    bls12_377,
    GpuCurve::Bls12_377,
    ark_bls12_377::G1Affine,
    width(GpuCurve::Bls12_377),
    UP_TO_4097
);
msm_tests!(
    bls12_381,
    GpuCurve::Bls12_381,
    ark_bls12_381::G1Affine,
    width(GpuCurve::Bls12_381),
    UP_TO_1000
);
msm_tests!(
    ed_on_bls12_377,
    GpuCurve::EdBls12_377,
    ark_ed_on_bls12_377::EdwardsAffine,
    width(GpuCurve::EdBls12_377),
    UP_TO_1000
);
msm_tests!(
    bn254_int64_radix,
    GpuCurve::Bn254,
    ark_bn254::G1Affine,
    radix64_limb_bits(GpuCurve::Bn254.base_field()),
    UP_TO_1000
);
msm_tests!(
    bls12_377_int64_radix,
    GpuCurve::Bls12_377,
    ark_bls12_377::G1Affine,
    radix64_limb_bits(GpuCurve::Bls12_377.base_field()),
    UP_TO_1000
);
msm_tests!(
    bn254_int64_cios32,
    GpuCurve::Bn254,
    ark_bn254::G1Affine,
    32,
    UP_TO_1000
);

/// The compact product (the browsers' form: its rows in a loop) on the test adapter, where
/// lavapipe's loop limit once made these MSMs wrong from about a hundred entries per SMVP chunk
/// (tests/loop_limit.rs): the plan keeps each chunk within the limit, every pattern matches
/// arkworks up to chunks of the most entries allowed, and a chunk past that is refused with an
/// error that names the limit.
#[test]
fn compact_product_within_loop_limit() {
    use fastmsm_gpu::mont_wgsl::KernelForm;
    let ctx = gpu();
    let build = |curve: GpuCurve, bits: u32| {
        let builder = GpuMsm::builder(curve)
            .limb_bits(bits)
            .kernel_form(KernelForm::Compact)
            .profile(ProfileChoice::Named("portable".into()));
        calibrated_build(block_on(builder.build(ctx)).unwrap())
    };
    let m = build(GpuCurve::Bls12_377, 13);
    check::<ark_bls12_377::G1Affine>(&m, &[1, 3, 100, 1000, 4097], &RunOptions::default(), 130);
    let Some(budget) = m.loop_budget(ctx) else {
        return; // loops run to the end on this adapter: nothing more to bound
    };
    let plan = m.plan(ctx, 1000, &RunOptions::default()).unwrap();
    let most = budget.max_chunk(plan.windows).unwrap();
    // K pinned at the loop limit, however long the submission: no submission bound.
    let at = |k: u32| RunOptions {
        chunk: Some(k),
        window_bits: Some(plan.window_bits),
        max_submission_seconds: Some(f64::INFINITY),
        ..Default::default()
    };
    assert!(
        most >= 50,
        "at most {most} entries per chunk at 13-bit limbs"
    );
    check_patterns::<ark_bls12_377::G1Affine>(&m, &[1000], &at(most), 131, 1000);
    let err = m.plan(ctx, 1000, &at(most + 1)).unwrap_err().to_string();
    assert!(err.contains("loops stop after 65535"), "{err}");
    let m = build(GpuCurve::Bn254, 15);
    check::<ark_bn254::G1Affine>(&m, &[1, 100, 1000], &RunOptions::default(), 132);
}

/// The rules for both additions' forms. The mixed one (SMVP) is stepped by value at every width;
/// the general one (combine, reduction, fold) stepped in BN254's 16-bit build and the BLS12 29/30-bit
/// builds (13 to 20 limbs), inlined in the others, so the suites above run both general forms;
/// `mixed_addition_forms` runs the other mixed forms.
#[test]
fn addition_forms() {
    use GeneralAdd as G;
    use MixedAdd as M;
    let forms = |curve: GpuCurve, bits: u32| {
        let k = fastmsm_mont::limb_constants(curve.base_field().params(), bits).unwrap();
        let (mixed, general) = (MixedAdd::for_limbs(&k), GeneralAdd::for_limbs(&k));
        let source = shader_source(curve, &k).unwrap();
        for call in [
            format!("return add_entry_{}(p, entry);", mixed.wgsl_suffix()),
            format!("return point_add_{}(p, q);", general.wgsl_suffix()),
        ] {
            assert!(source.contains(&call), "{curve:?} {bits}: no `{call}`");
        }
        (mixed, general)
    };
    for curve in [GpuCurve::Bls12_377, GpuCurve::Bls12_381] {
        assert_eq!(forms(curve, 29), (M::SteppedByValue, G::Stepped));
        assert_eq!(forms(curve, 30), (M::SteppedByValue, G::Stepped));
        assert_eq!(forms(curve, 32), (M::SteppedByValue, G::Inlined));
        assert_eq!(forms(curve, width(curve)), (M::SteppedByValue, G::Inlined));
    }
    let bn = GpuCurve::Bn254;
    assert_eq!(forms(bn, width(bn)), (M::SteppedByValue, G::Stepped));
    assert_eq!(forms(bn, 15), (M::SteppedByValue, G::Stepped));
    assert_eq!(forms(bn, 13), (M::SteppedByValue, G::Stepped));
    assert_eq!(forms(bn, 29), (M::SteppedByValue, G::Inlined));
    assert_eq!(forms(bn, 32), (M::SteppedByValue, G::Inlined));
}

/// The default chunk size: one wave of SMVP invocations per batch (the profile's wave), under the
/// `h200` profile for BLS12-377 at 30 bits (13 limbs) and BN254 at 29 bits (9 limbs); from 2^20
/// points the batch is the three quarters after a first quarter, which keeps the same T (one wave).
#[test]
fn default_chunk_fills_one_wave() {
    let h200 = DeviceProfile::h200();
    let k = |curve: GpuCurve, bits: u32, n: usize| {
        let c = fastmsm_mont::limb_constants(curve.base_field().params(), bits).unwrap();
        let plan = Plan::new(curve, &c, n, &RunOptions::default(), u64::MAX, &h200).unwrap();
        assert!(plan.smvp_threads(plan.batch) as usize <= h200.smvp_wave(c.limbs) + 1024);
        plan.chunk
    };
    assert_eq!(h200.smvp_wave(13), 50_688);
    assert_eq!(k(GpuCurve::Bls12_377, 30, 1 << 20), 264);
    assert_eq!(k(GpuCurve::Bn254, 29, 1 << 20), 198);
    // 2^22: c = 17 (15 windows) and four batches, the largest 3/8 of the points.
    assert_eq!(k(GpuCurve::Bn254, 29, 1 << 22), 272);
    assert_eq!(k(GpuCurve::Bls12_377, 13, 1 << 20), 396);
    assert_eq!(k(GpuCurve::Bls12_377, 13, 1 << 22), 544);
    assert_eq!(k(GpuCurve::Bls12_377, 30, 1 << 18), 104); // one batch below 2^20
    let c = fastmsm_mont::limb_constants(GpuCurve::Bn254.base_field().params(), 29).unwrap();
    let plan = Plan::new(
        GpuCurve::Bn254,
        &c,
        1 << 20,
        &RunOptions::default(),
        u64::MAX,
        &h200,
    )
    .unwrap();
    assert_eq!(
        (plan.first_batch, plan.batch),
        (1 << 18, 3 << 18),
        "{plan:?}"
    );
    assert_eq!(k(GpuCurve::Bn254, 29, 100), 16); // clamped: small inputs still spread
    // One batch wanted (as in a browser), cut by WebGPU's default 128 MiB binding limit to
    // 559 232 points: one wave of that batch, not of the whole input.
    let c = fastmsm_mont::limb_constants(GpuCurve::Bls12_377.base_field().params(), 13).unwrap();
    let one_batch = RunOptions {
        batch: Some(1 << 20),
        ..Default::default()
    };
    let plan = Plan::new(
        GpuCurve::Bls12_377,
        &c,
        1 << 20,
        &one_batch,
        128 << 20,
        &h200,
    )
    .unwrap();
    assert_eq!((plan.batch, plan.chunk), (559_232, 282), "{plan:?}");
    // A smaller first batch keeps the full batch's T (one wave); the GPU's K shrinks instead.
    let c = fastmsm_mont::limb_constants(GpuCurve::Bn254.base_field().params(), 29).unwrap();
    let first = RunOptions {
        first_batch: Some(1 << 18),
        ..Default::default()
    };
    let plan = Plan::new(GpuCurve::Bn254, &c, 1 << 20, &first, u64::MAX, &h200).unwrap();
    let t = plan.smvp_threads(plan.batch);
    assert_eq!(plan.smvp_threads(1 << 18), t, "{plan:?}");
    assert_eq!(plan.smvp_threads(64), 64 * 17 / 2, "{plan:?}"); // never K below 2
}

/// Batching (several passes of points into the same buckets) and window sizes other than the
/// default, forced through a tiny binding limit, on the BLS12-377 build.
#[test]
fn batches_and_window_sizes() {
    let curve = GpuCurve::Bls12_377;
    let m = msm(curve, width(curve));
    // 2-bit windows keep the bucket buffer small, so a 300 kB limit splits the points instead.
    let small = RunOptions {
        max_binding_bytes: Some(300_000),
        window_bits: Some(2),
        chunk: Some(128),
        // K pinned, however long the submission (on lavapipe, longer than the default bound).
        max_submission_seconds: Some(f64::INFINITY),
        ..Default::default()
    };
    // The SMVP's head slots bound the batch: (⌈448·127/128⌉ + 127) points of 480 bytes fit 300 kB,
    // 512 points would not.
    let plan = m.plan(gpu(), 1500, &small).unwrap();
    assert_eq!((plan.batch, plan.batches()), (448, 4), "{plan:?}");
    check::<ark_bls12_377::G1Affine>(m, &[100, 1500], &small, 11);
    // A first batch smaller than the rest: 1500 points as 128 + 1372 (the rest in one batch), and
    // 128 + 5 × 256 + 92 with the batch size given too; bad first batches refused.
    let first = RunOptions {
        first_batch: Some(128),
        ..Default::default()
    };
    let plan = m.plan(gpu(), 1500, &first).unwrap();
    assert_eq!(plan.batch_ranges(), vec![0..128, 128..1500], "{plan:?}");
    check::<ark_bls12_377::G1Affine>(m, &[1500], &first, 12);
    let both = RunOptions {
        first_batch: Some(128),
        batch: Some(256),
        ..Default::default()
    };
    let plan = m.plan(gpu(), 1500, &both).unwrap();
    assert_eq!(plan.batches(), 7, "{plan:?}");
    assert_eq!(plan.batch_ranges().last(), Some(&(1408..1500)), "{plan:?}");
    check::<ark_bls12_377::G1Affine>(m, &[1500], &both, 13);
    for bad in [100, 1536, 512] {
        let options = RunOptions {
            first_batch: Some(bad),
            batch: Some(256),
            ..Default::default()
        };
        let err = m.plan(gpu(), 1500, &options).unwrap_err().to_string();
        assert!(
            err.contains(&format!("first batch of {bad} points")),
            "{bad}: {err}"
        );
    }
    // Batches asked for (rounded down to multiples of 64): 1500 points in 6 batches of 256.
    let asked = RunOptions {
        batch: Some(300),
        ..Default::default()
    };
    assert_eq!(m.plan(gpu(), 1500, &asked).unwrap().batches(), 6);
    check::<ark_bls12_377::G1Affine>(m, &[1500], &asked, 12);
    let err = run_canonical(
        m,
        &[([0; 6], [0; 6]); 100],
        &[[0; 4]; 100],
        &RunOptions {
            batch: Some(10),
            ..Default::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("batch of 10 points"), "{err}");
    for c in [2, 7, 11] {
        check::<ark_bls12_377::G1Affine>(
            m,
            &[3, 300],
            &RunOptions {
                window_bits: Some(c),
                ..Default::default()
            },
            c as u64,
        );
    }
}

/// Load-balanced SMVP: chunks of K entries and the combine levels over their head slots. Tiny K
/// gives nW/2 invocations and as many head slots, hence many combine levels, and puts every bucket
/// across chunk boundaries; the skewed patterns put a whole window's points into one bucket and
/// leave most windows empty, so the GPU's K shrinks and the chunks go to the other windows.
#[test]
fn smvp_chunk_sizes() {
    let curve = GpuCurve::Bls12_377;
    let m = msm(curve, width(curve));
    let plan = m
        .plan(
            gpu(),
            300,
            &RunOptions {
                chunk: Some(2),
                ..Default::default()
            },
        )
        .unwrap();
    // 64 windows of 4 bits: T = 300·64/2 = 9600 chunks, 9664 invocations with one per window for
    // rounding, then ⌈log₄ 9664⌉ = 7 combine levels.
    assert_eq!(plan.smvp_threads(300), 9600, "{plan:?}");
    assert_eq!(plan.smvp_passes(300).len(), 8, "{plan:?}");
    // Every pattern at every K for the small inputs; at 300 points every pattern with K = 2 (the
    // most chunks, heads and combine levels), the uniform case with the others.
    for k in [2, 3, 17] {
        check_patterns::<ark_bls12_377::G1Affine>(
            m,
            &[2, 5, 300],
            &RunOptions {
                chunk: Some(k),
                max_submission_seconds: Some(f64::INFINITY),
                ..Default::default()
            },
            20 + k as u64,
            if k == 2 { 300 } else { 5 },
        );
    }
    let err = run_canonical(
        m,
        &[],
        &[],
        &RunOptions {
            chunk: Some(1),
            ..Default::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("SMVP chunk 1"), "{err}");
}

#[test]
fn rejects_bad_input() {
    let ctx = gpu();
    let msm = msm(GpuCurve::Bls12_377, width(GpuCurve::Bls12_377));
    let o = RunOptions::default();
    let err = run_canonical(msm, &[([0; 6], [0; 6])], &[], &o)
        .unwrap_err()
        .to_string();
    assert!(err.contains("1 points but 0 scalars"), "{err}");
    let r = GpuCurve::Bls12_377.scalar_modulus();
    let err = run_canonical(msm, &[([0; 6], [0; 6])], &[[r[0], r[1], r[2], r[3]]], &o)
        .unwrap_err()
        .to_string();
    assert!(err.contains("scalar 0"), "{err}");
    let p = fastmsm_mont::Field::Bls12_377Fq.params().modulus;
    let err = run_canonical(
        msm,
        &[([0; 6], [0; 6]), ([0; 6], p)],
        &[[1, 0, 0, 0]; 2],
        &o,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("point 1: y coordinate"), "{err}");
    // The GPU checks values batch by batch; the index it reports counts from the whole input.
    let batched = RunOptions {
        max_binding_bytes: Some(300_000),
        window_bits: Some(2),
        chunk: Some(128),
        max_submission_seconds: Some(f64::INFINITY),
        ..o
    };
    let mut points = vec![([0; 6], [0; 6]); 1500];
    let mut scalars = vec![[1, 0, 0, 0]; 1500];
    scalars[1300] = [r[0], r[1], r[2], r[3]];
    scalars[1400] = [r[0], r[1], r[2], r[3]];
    let err = run_canonical(msm, &points, &scalars, &batched)
        .unwrap_err()
        .to_string();
    assert!(err.contains("scalar 1300 is not below"), "{err}");
    points[1200].0 = p;
    points[700].1 = [u64::MAX; 6];
    let err = run_canonical(msm, &points, &scalars, &batched)
        .unwrap_err()
        .to_string();
    assert!(err.contains("point 700: y coordinate"), "{err}");
    let err = block_on(msm.run_packed(ctx, &[0; 23], &[0; 8], &o))
        .unwrap_err()
        .to_string();
    assert!(err.contains("whole number of points"), "{err}");
    let err = run_canonical(
        msm,
        &[],
        &[],
        &RunOptions {
            window_bits: Some(21),
            ..o
        },
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("window size 21"), "{err}");
    let err = run_canonical(
        msm,
        &[([0; 6], [0; 6])],
        &[[1, 0, 0, 0]],
        &RunOptions {
            max_binding_bytes: Some(1024),
            ..o
        },
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("device allows at most 1024"), "{err}");
}

/// Reduction segments other than the default, with the edge-case patterns at n = 100 (10-bit
/// windows: 512 buckets, so each count below splits real bucket runs): one
/// segment (a single running sum per window, the longest double-and-add), every bucket its own
/// segment, and two values between; bad counts are refused with their reason.
#[test]
fn reduction_segment_counts() {
    let curve = GpuCurve::Bls12_377;
    let m = msm(curve, width(curve));
    for segments in [1, 2, 64, 512] {
        // S pinned (1: a single invocation runs a window's whole reduction): no bound.
        let options = RunOptions {
            window_bits: Some(10),
            segments: Some(segments),
            max_submission_seconds: Some(f64::INFINITY),
            ..Default::default()
        };
        check::<ark_bls12_377::G1Affine>(m, &[1, 100], &options, 40 + segments as u64);
    }
    // The rule under the `h200` profile at the configurations it was measured at: BLS12-377 at
    // 30 bits (64-bit products) 2^16, 2^18, 2^20, 2^22 keep 512, 512, then 2048, 2048; 13-bit 512.
    let h200 = DeviceProfile::h200();
    assert_eq!(reduction_segments(&h200, 24, 1 << 10, true), 512);
    assert_eq!(reduction_segments(&h200, 20, 1 << 12, true), 512);
    assert_eq!(reduction_segments(&h200, 17, 1 << 14, true), 2048);
    assert_eq!(reduction_segments(&h200, 16, 1 << 15, true), 2048);
    assert_eq!(reduction_segments(&h200, 17, 1 << 14, false), 512);
    assert_eq!(reduction_segments(&h200, 2, 4, true), 4);
    for (bad, why) in [(3, "a power of two"), (1024, "up to the 512 buckets")] {
        let options = RunOptions {
            window_bits: Some(10),
            segments: Some(bad),
            ..Default::default()
        };
        let err = run_canonical(m, &[], &[], &options)
            .unwrap_err()
            .to_string();
        assert!(err.contains(why), "{bad}: {err}");
    }
}
