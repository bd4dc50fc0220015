//! The four calls against arkworks: `run` over arkworks points, bases resident on the device
//! reused across scalar vectors (`upload_bases`, `run_resident`), `run_batch` over host and
//! resident MSMs of mixed sizes, resident bases in several batches against the host-array MSM,
//! and each error with its index (and the MSM's, in a batch). One compiled MSM per curve serves
//! every test (compiling is the slow part on a CPU adapter).

use std::sync::OnceLock;

use ark_ec::{AdditiveGroup, AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::{Field, UniformRand};
use fastmsm_gpu::GpuError;
use fastmsm_gpu::msm::{
    BatchMsm, GpuCurve, GpuMsm, GpuPoint, Points, ProfileChoice, RunOptions, pack_scalars,
};
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
        let build = GpuMsm::builder(curve).profile(ProfileChoice::Named("portable".into()));
        block_on(build.build(gpu())).expect("compiles")
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

/// The host-array MSM, resident bases reused across three scalar vectors (one by one and as a
/// batch), and a batch mixing host and resident MSMs of other sizes, all against arkworks.
fn matches_arkworks<G>(curve: GpuCurve, n: usize)
where
    G: CurveGroup + VariableBaseMSM,
    G::Affine: GpuPoint<Scalar = G::ScalarField, Output = G>,
{
    let (ctx, msm) = (gpu(), compiled(curve));
    let o = RunOptions::default();
    let (points, scalars) = inputs::<G>(n, 19);
    let expected = G::msm(&points, &scalars).unwrap();
    assert_eq!(
        block_on(msm.run(ctx, &points, &scalars, &o))
            .unwrap()
            .result,
        expected,
        "host arrays, n = {n}"
    );
    let bases = block_on(msm.upload_bases(ctx, &points, &o)).unwrap();
    assert_eq!(bases.len(), n);
    let sets: Vec<Vec<G::ScalarField>> = (0..3).map(|i| inputs::<G>(n, 100 + i).1).collect();
    for (i, set) in sets.iter().enumerate() {
        let got = block_on(msm.run_resident(ctx, &bases, set, &o)).unwrap();
        assert_eq!(
            got.result,
            G::msm(&points, set).unwrap(),
            "resident, vector {i}, n = {n}"
        );
    }
    let resident: Vec<_> = sets
        .iter()
        .map(|s| BatchMsm {
            points: Points::Resident(&bases),
            scalars: s,
        })
        .collect();
    let batch = block_on(msm.run_batch(ctx, &resident, &o)).unwrap();
    let each: Vec<G> = sets.iter().map(|s| G::msm(&points, s).unwrap()).collect();
    let got: Vec<G> = batch.into_iter().map(|o| o.result).collect();
    assert_eq!(got, each, "run_batch, resident, n = {n}");
    // Host and resident MSMs of other sizes in one batch, an empty one among them.
    let (other, other_scalars) = inputs::<G>(n + 7, 23);
    let mixed = [
        BatchMsm {
            points: Points::Host(&other),
            scalars: &other_scalars,
        },
        BatchMsm {
            points: Points::Resident(&bases),
            scalars: &sets[1],
        },
        BatchMsm {
            points: Points::Host(&[]),
            scalars: &[],
        },
        BatchMsm {
            points: Points::Host(&other[..1]),
            scalars: &other_scalars[..1],
        },
    ];
    let got: Vec<G> = block_on(msm.run_batch(ctx, &mixed, &o))
        .unwrap()
        .into_iter()
        .map(|o| o.result)
        .collect();
    let want = vec![
        G::msm(&other, &other_scalars).unwrap(),
        each[1],
        G::zero(),
        G::msm(&other[..1], &other_scalars[..1]).unwrap(),
    ];
    assert_eq!(got, want, "run_batch, mixed, n = {n}");
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
    let batched = RunOptions {
        batch: Some(128),
        ..Default::default()
    };
    let bases = block_on(msm.upload_bases(ctx, &packed, &batched)).unwrap();
    let resident = block_on(msm.run_resident(ctx, &bases, &packed_scalars, &batched)).unwrap();
    assert_eq!(resident.plan.batches(), 3, "{:?}", resident.plan);
    let host = block_on(msm.run_packed(ctx, &packed, &packed_scalars, &batched)).unwrap();
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
        block_on(msm.run_resident(ctx, &bases, &packed_scalars, &RunOptions::default())).unwrap();
    assert_eq!((default.plan.batches(), default.result), (3, host.result));
    // A scalar not below r, found by the GPU in the second batch, reported by its index.
    let mut bad = words.clone();
    let r = GpuCurve::Bn254.scalar_modulus();
    bad[150] = [r[0], r[1], r[2], r[3]];
    let err = block_on(msm.run_resident(ctx, &bases, &pack_scalars(&bad), &batched)).unwrap_err();
    assert!(
        matches!(err, GpuError::ScalarOutOfRange { index: 150 }),
        "{err}"
    );
    // Stage timing and the host's trace are options of the same call.
    let timed = RunOptions {
        stage_timing: true,
        host_trace: true,
        ..batched
    };
    let out = block_on(msm.run_resident(ctx, &bases, &packed_scalars, &timed)).unwrap();
    assert_eq!(out.result, host.result);
    assert!(
        !out.stages.is_empty() && !out.host_trace.is_empty(),
        "{out:?}"
    );
    let plain = block_on(msm.run_resident(ctx, &bases, &packed_scalars, &batched)).unwrap();
    assert!(plain.host_trace.is_empty(), "no trace unless asked for");
}

#[test]
fn errors_name_the_index_and_the_reason() {
    let (ctx, msm) = (gpu(), compiled(GpuCurve::Bn254));
    let o = RunOptions::default();
    let (points, scalars) = inputs::<ark_bn254::G1Projective>(5, 3);
    let bases = block_on(msm.upload_bases(ctx, &points, &o)).unwrap();
    let err = block_on(msm.run_resident(ctx, &bases, &scalars[..4], &o)).unwrap_err();
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
    let err = block_on(msm.run(ctx, &points, &scalars[..3], &o)).unwrap_err();
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
    let err = block_on(msm.upload_bases(ctx, &off_curve, &o)).unwrap_err();
    assert!(
        matches!(err, GpuError::PointNotOnCurve { index: 3 }),
        "{err}"
    );
    let err = block_on(msm.run(ctx, &off_curve, &scalars, &o)).unwrap_err();
    assert!(
        matches!(err, GpuError::PointNotOnCurve { index: 3 }),
        "{err}"
    );
    // In a batch, the error names the MSM and, inside it, the point.
    let batch = [
        BatchMsm {
            points: Points::Host(&points),
            scalars: &scalars,
        },
        BatchMsm {
            points: Points::Host(&off_curve),
            scalars: &scalars,
        },
    ];
    let err = block_on(msm.run_batch(ctx, &batch, &o)).unwrap_err();
    assert!(
        matches!(&err, GpuError::InBatch { msm: 1, error } if matches!(**error, GpuError::PointNotOnCurve { index: 3 })),
        "{err}"
    );
    assert!(err.is_input() && err.to_string().contains("MSM 1"), "{err}");
    let (other, other_scalars) = inputs::<ark_bls12_377::G1Projective>(2, 4);
    let err = block_on(msm.run(ctx, &other, &other_scalars, &o)).unwrap_err();
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
    let err = block_on(ed.run_resident(ctx, &bases, &scalars, &o)).unwrap_err();
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
    let err = block_on(msm.upload_bases(ctx, &packed, &o)).unwrap_err();
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
    let err = block_on(msm.upload_bases(ctx, &packed[1..], &o)).unwrap_err();
    assert!(
        matches!(err, GpuError::PackedLength { what: "point", .. }),
        "{err}"
    );
}

/// The profile is fixed when the MSM is built: a named one as named, and another profile only
/// as a new value sharing the pipelines.
#[test]
fn the_profile_is_fixed_at_build() {
    let (ctx, msm) = (gpu(), compiled(GpuCurve::Bn254));
    assert_eq!(msm.profile().name, "portable");
    let h200 = msm.with_profile(fastmsm_gpu::DeviceProfile::h200());
    assert_eq!(
        (msm.profile().name.as_str(), h200.profile().name.as_str()),
        ("portable", "h200")
    );
    let (points, scalars) = inputs::<ark_bn254::G1Projective>(100, 5);
    let o = RunOptions::default();
    let a = block_on(msm.run(ctx, &points, &scalars, &o)).unwrap();
    let b = block_on(h200.run(ctx, &points, &scalars, &o)).unwrap();
    assert_eq!(a.result, b.result);
    let chunk = |m: &GpuMsm| m.plan(ctx, 1 << 20, &o).unwrap().chunk;
    assert_ne!(chunk(msm), chunk(&h200), "the h200 wave plans other chunks");
    let err = block_on(
        GpuMsm::builder(GpuCurve::Bn254)
            .profile(ProfileChoice::Named("h300".into()))
            .build(ctx),
    )
    .err()
    .expect("an unknown name is refused");
    assert!(err.to_string().contains("h300"), "{err}");
}
