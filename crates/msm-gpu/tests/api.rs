//! The typed GPU API against arkworks: `GpuMsm::msm` over arkworks points, bases resident on the
//! device reused across scalar vectors (`upload_bases`, `run`, `run_batch`), resident bases in
//! several batches against the host-array MSM, and each typed error with its index. One compiled
//! MSM per curve serves every test (compiling is the slow part on a CPU adapter).

use std::sync::OnceLock;

use ark_ec::{AdditiveGroup, AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::{Field, UniformRand};
use fastmsm_gpu::GpuError;
use fastmsm_gpu::calibrate::ProfileRequest;
use fastmsm_gpu::msm::{GpuCurve, GpuMsm, GpuMsmOptions, GpuPoint, MsmOptions, pack_scalars};
use fastmsm_gpu::testing::{block_on, gpu};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// The MSM of `curve` with the device-neutral `portable` profile (no calibration in tests).
fn compiled(curve: GpuCurve) -> &'static GpuMsm {
    static BN254: OnceLock<GpuMsm> = OnceLock::new();
    static ED: OnceLock<GpuMsm> = OnceLock::new();
    let cell = match curve {
        GpuCurve::Bn254 => &BN254,
        GpuCurve::EdBls12_377 => &ED,
        other => panic!("no test MSM for {other:?}"),
    };
    cell.get_or_init(|| {
        let options = GpuMsmOptions {
            profile: Some(ProfileRequest::Named("portable".into())),
            ..Default::default()
        };
        block_on(GpuMsm::with_options(gpu(), curve, &options)).expect("compiles")
    })
}

fn inputs<G: CurveGroup>(n: usize, seed: u64) -> (Vec<G::Affine>, Vec<G::ScalarField>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut points: Vec<G::Affine> = (0..n).map(|_| G::rand(&mut rng).into_affine()).collect();
    let mut scalars: Vec<G::ScalarField> = (0..n).map(|_| G::ScalarField::rand(&mut rng)).collect();
    if n >= 3 {
        points[1] = G::Affine::zero();
        scalars[0] = G::ScalarField::ZERO;
        scalars[2] = -G::ScalarField::ONE;
    }
    (points, scalars)
}

/// The native MSM, resident bases reused across three scalar vectors (one by one and as a batch),
/// all against arkworks.
fn matches_arkworks<G>(curve: GpuCurve, n: usize)
where
    G: CurveGroup + VariableBaseMSM,
    G::Affine: GpuPoint<Scalar = G::ScalarField, Output = G>,
{
    let (ctx, msm) = (gpu(), compiled(curve));
    let (points, scalars) = inputs::<G>(n, 19);
    let expected = G::msm(&points, &scalars).unwrap();
    assert_eq!(
        block_on(msm.msm(ctx, &points, &scalars)).unwrap(),
        expected,
        "native, n = {n}"
    );
    let bases = block_on(msm.upload_bases(ctx, &points)).unwrap();
    assert_eq!(bases.len(), n);
    let sets: Vec<Vec<G::ScalarField>> = (0..3).map(|i| inputs::<G>(n, 100 + i).1).collect();
    for (i, set) in sets.iter().enumerate() {
        let got = block_on(msm.run(ctx, &bases, set)).unwrap();
        assert_eq!(
            got,
            G::msm(&points, set).unwrap(),
            "resident, vector {i}, n = {n}"
        );
    }
    let batch = block_on(msm.run_batch(ctx, &bases, &sets)).unwrap();
    let each: Vec<G> = sets.iter().map(|s| G::msm(&points, s).unwrap()).collect();
    assert_eq!(batch, each, "run_batch, n = {n}");
}

#[test]
fn bn254_native_and_resident_match_arkworks() {
    for n in [1, 200] {
        matches_arkworks::<ark_bn254::G1Projective>(GpuCurve::Bn254, n);
    }
}

#[test]
fn ed_on_bls12_377_native_and_resident_match_arkworks() {
    matches_arkworks::<ark_ed_on_bls12_377::EdwardsProjective>(GpuCurve::EdBls12_377, 200);
}

#[test]
fn resident_bases_in_batches_match_host_arrays() {
    let (ctx, msm) = (gpu(), compiled(GpuCurve::Bn254));
    let n = 300;
    let (points, scalars) = inputs::<ark_bn254::G1Projective>(n, 7);
    let coords: Vec<_> = points.iter().map(|p| p.coordinates()).collect();
    let packed = fastmsm_gpu::msm::pack_points(GpuCurve::Bn254, &coords);
    let words: Vec<[u64; 4]> = scalars
        .iter()
        .map(<ark_bn254::G1Affine as GpuPoint>::scalar_words)
        .collect();
    let packed_scalars = pack_scalars(&words);
    let batched = MsmOptions {
        batch: Some(128),
        ..Default::default()
    };
    let now = || 0.0;
    let bases = block_on(msm.upload_packed_bases(ctx, &packed, &batched)).unwrap();
    let resident =
        block_on(msm.run_bases_packed(ctx, &bases, &packed_scalars, &batched, &now)).unwrap();
    assert_eq!(resident.plan.batches(), 3, "{:?}", resident.plan);
    let host = block_on(msm.run_packed(ctx, &packed, &packed_scalars, &batched, &now)).unwrap();
    assert_eq!(
        resident.result, host.result,
        "three batches, resident vs host arrays"
    );
    let expected = ark_bn254::G1Projective::msm(&points, &scalars)
        .unwrap()
        .into_affine();
    assert_eq!(
        <ark_bn254::G1Affine as GpuPoint>::output(resident.result)
            .unwrap()
            .into_affine(),
        expected
    );
    // Options that say nothing of batches run in the upload's batches.
    let default =
        block_on(msm.run_bases_packed(ctx, &bases, &packed_scalars, &MsmOptions::default(), &now))
            .unwrap();
    assert_eq!((default.plan.batches(), default.result), (3, host.result));
    // A scalar not below r, found by the GPU in the second batch, reported by its index.
    let mut bad = words.clone();
    let r = GpuCurve::Bn254.scalar_modulus();
    bad[150] = [r[0], r[1], r[2], r[3]];
    let err = block_on(msm.run_bases_packed(ctx, &bases, &pack_scalars(&bad), &batched, &now))
        .unwrap_err();
    assert!(
        matches!(err, GpuError::ScalarOutOfRange { index: 150 }),
        "{err}"
    );
}

#[test]
fn typed_errors_name_the_index_and_the_reason() {
    let (ctx, msm) = (gpu(), compiled(GpuCurve::Bn254));
    let (points, scalars) = inputs::<ark_bn254::G1Projective>(5, 3);
    let bases = block_on(msm.upload_bases(ctx, &points)).unwrap();
    let err = block_on(msm.run(ctx, &bases, &scalars[..4])).unwrap_err();
    assert!(
        matches!(
            err,
            GpuError::InputLength {
                points: 5,
                scalars: 4
            }
        ),
        "{err}"
    );
    let err = block_on(msm.msm(ctx, &points, &scalars[..3])).unwrap_err();
    assert!(
        matches!(
            err,
            GpuError::InputLength {
                points: 5,
                scalars: 3
            }
        ),
        "{err}"
    );
    let mut off_curve = points.clone();
    off_curve[3] = ark_bn254::G1Affine::new_unchecked(1u64.into(), 3u64.into());
    let err = block_on(msm.upload_bases(ctx, &off_curve)).unwrap_err();
    assert!(
        matches!(err, GpuError::PointNotOnCurve { index: 3 }),
        "{err}"
    );
    let err = block_on(msm.msm(ctx, &off_curve, &scalars)).unwrap_err();
    assert!(
        matches!(err, GpuError::PointNotOnCurve { index: 3 }),
        "{err}"
    );
    let (other, other_scalars) = inputs::<ark_bls12_377::G1Projective>(2, 4);
    let err = block_on(msm.msm(ctx, &other, &other_scalars)).unwrap_err();
    assert!(
        matches!(
            err,
            GpuError::CurveMismatch {
                expected: GpuCurve::Bn254,
                given: GpuCurve::Bls12_377
            }
        ),
        "{err}"
    );
    let ed = compiled(GpuCurve::EdBls12_377);
    let err = block_on(ed.run(ctx, &bases, &scalars)).unwrap_err();
    assert!(
        matches!(err, GpuError::CurveMismatch { .. }),
        "bases of another curve's MSM: {err}"
    );
    // A coordinate not below p, found by the GPU while it converts the bases.
    let mut packed = fastmsm_gpu::msm::pack_points(
        GpuCurve::Bn254,
        &points.iter().map(|p| p.coordinates()).collect::<Vec<_>>(),
    );
    let words = GpuCurve::Bn254.coord_words();
    packed[(2 * 4 + 1) * words..(2 * 4 + 2) * words].fill(u32::MAX);
    let err = block_on(msm.upload_packed_bases(ctx, &packed, &MsmOptions::default())).unwrap_err();
    assert!(
        matches!(
            err,
            GpuError::CoordinateOutOfRange {
                index: 4,
                coordinate: 'y'
            }
        ),
        "{err}"
    );
    assert!(err.is_input());
    let err =
        block_on(msm.upload_packed_bases(ctx, &packed[1..], &MsmOptions::default())).unwrap_err();
    assert!(
        matches!(err, GpuError::PackedLength { what: "point", .. }),
        "{err}"
    );
}
