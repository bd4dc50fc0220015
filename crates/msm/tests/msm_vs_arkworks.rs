//! The whole MSM against `ark_ec::VariableBaseMSM::msm`, for all four curves, n from 0 to 2500,
//! uniform and adversarial inputs, both accumulation paths and both reductions, in every field
//! representation (the 64-bit words and the 30- and 51-bit-limb twins: tests named
//! `curve::representation::check`).

#[macro_use]
mod common;

use common::{
    Bls377O, Bls381O, Bn254Jac, Bn254O, EdO, Oracle, adversarial_inputs, ark_msm, r_minus_one,
    random_points, random_scalars,
};
use fastmsm_curves::Group;
use fastmsm_curves::field::{Backend, Radix30};
use fastmsm_msm::count::{CountableGroup, msm_counted};
use fastmsm_msm::radix30::msm_radix30;
use fastmsm_msm::twin::{TwinGroup, msm_twin};
use fastmsm_msm::{
    Accumulation, BatchAffineConfig, BatchAffineStats, MsmConfig, MsmError, MsmGroup, Reduction,
    msm, msm_with, msm_with_stats,
};

const SIZES: [usize; 8] = [0, 1, 2, 3, 17, 100, 1000, 2500];

/// The configurations every input is run through.
fn configs() -> Vec<(&'static str, MsmConfig)> {
    let proj = MsmConfig::default();
    let ba = MsmConfig {
        accumulation: Accumulation::BatchAffine(BatchAffineConfig::default()),
        ..proj
    };
    vec![
        ("projective", proj),
        ("batch-affine", ba),
        (
            "batch-affine, small batches, split reduction",
            MsmConfig {
                accumulation: Accumulation::BatchAffine(BatchAffineConfig {
                    batch_size: 8,
                    max_deferred: 8,
                    min_batch: 2,
                }),
                reduction: Reduction::Split(3),
                ..proj
            },
        ),
    ]
}

/// The MSM in the representation `B` against arkworks, for every size, input and configuration.
fn msm_matches_arkworks<B: Backend, O: Oracle>(seed: u64, _glv: bool)
where
    O::G: TwinGroup<B>,
{
    let base = random_points::<O>(*SIZES.last().unwrap(), seed);
    for (k, &n) in SIZES.iter().enumerate() {
        for (what, pts, scalars) in adversarial_inputs::<O>(n, &base, seed + k as u64) {
            let want = ark_msm::<O>(&pts, &scalars);
            let ours: Vec<_> = pts.iter().map(O::ours).collect();
            for (how, cfg) in configs() {
                let mut stats = BatchAffineStats::default();
                let got: O::G = msm_twin::<B, O::G>(&ours, &scalars, &cfg, &mut stats).unwrap();
                assert!(got.is_on_curve());
                let ctx = format!("{}: n = {n}, {what}, {how}", O::G::NAME);
                assert_eq!(got.to_affine(), want, "{ctx}, {}-bit limbs", B::LIMB_BITS);
            }
        }
    }
}

/// The MSM over the operation-counting field: the same result, and products counted.
fn counted_msm_matches_arkworks<O: Oracle>(seed: u64)
where
    O::G: CountableGroup,
{
    let base = random_points::<O>(*SIZES.last().unwrap(), seed);
    for &n in &SIZES {
        let scalars = random_scalars::<O>(n, seed + n as u64);
        let want = ark_msm::<O>(&base[..n], &scalars);
        let ours: Vec<_> = base[..n].iter().map(O::ours).collect();
        for (how, cfg) in configs() {
            let mut stats = BatchAffineStats::default();
            let (got, ops) = msm_counted::<O::G>(&ours, &scalars, &cfg, &mut stats);
            let ctx = format!("{}: n = {n}, {how}, counted", O::G::NAME);
            assert_eq!(got.unwrap().to_affine(), want, "{ctx}");
            assert_eq!(ops.mul == 0, n == 0, "{ctx}: {ops:?}");
        }
    }
}

every_curve_and_representation!(msm_matches_arkworks);

#[test]
fn counted_msm_matches_arkworks_on_every_curve() {
    counted_msm_matches_arkworks::<Bn254O>(110);
    counted_msm_matches_arkworks::<Bls377O>(210);
    counted_msm_matches_arkworks::<Bls381O>(310);
    counted_msm_matches_arkworks::<EdO>(410);
}

#[test]
fn bn254_jacobian() {
    // the same MSM code over Jacobian buckets instead of XYZZ (uniform inputs only)
    let base = random_points::<Bn254Jac>(1000, 7);
    for n in [0, 1, 3, 100, 1000] {
        let scalars = random_scalars::<Bn254Jac>(n, n as u64);
        let want = ark_msm::<Bn254Jac>(&base[..n], &scalars);
        let ours: Vec<_> = base[..n].iter().map(Bn254Jac::ours).collect();
        for (how, cfg) in configs() {
            let got: <Bn254Jac as Oracle>::G = msm_with(&ours, &scalars, &cfg).unwrap();
            assert_eq!(got.to_affine(), want, "Jacobian, n = {n}, {how}");
            let got: <Bn254Jac as Oracle>::G =
                msm_radix30(&ours, &scalars, &cfg, &mut BatchAffineStats::default()).unwrap();
            assert_eq!(
                got.to_affine(),
                want,
                "Jacobian, n = {n}, {how}, 30-bit limbs"
            );
        }
    }
}

/// The twin driver reports a length mismatch before converting anything, as the 64-bit one does.
#[test]
fn twin_msm_rejects_mismatched_lengths() {
    let base = random_points::<Bn254O>(3, 1);
    let ours: Vec<_> = base.iter().map(Bn254O::ours).collect();
    type G = <Bn254O as Oracle>::G;
    let got = msm_twin::<Radix30, G>(
        &ours,
        &[[1, 0, 0, 0]; 2],
        &MsmConfig::default(),
        &mut BatchAffineStats::default(),
    );
    assert_eq!(
        got,
        Err(MsmError::LengthMismatch {
            points: 3,
            scalars: 2
        })
    );
}

/// Every window width against arkworks (n = 50, uniform), including the widths that need the
/// carry window: every configuration up to c = 12; above, where each window's reduction walks
/// thousands of buckets, one configuration per width, rotated by `rotate` so that the curves
/// between them cover every configuration at every large width.
fn every_window<O: Oracle>(seed: u64, rotate: usize) {
    let base = random_points::<O>(50, seed);
    let mut scalars = random_scalars::<O>(50, seed);
    scalars[0] = r_minus_one::<O>();
    let want = ark_msm::<O>(&base, &scalars);
    let ours: Vec<_> = base.iter().map(O::ours).collect();
    for c in 2..=16u32 {
        let all = configs();
        let chosen: Vec<_> = if c <= 12 {
            all
        } else {
            vec![all[(c as usize + rotate) % all.len()]]
        };
        for (how, cfg) in chosen {
            let got: O::G = msm_with(
                &ours,
                &scalars,
                &MsmConfig {
                    window: Some(c),
                    ..cfg
                },
            )
            .unwrap();
            assert_eq!(got.to_affine(), want, "{}: c = {c}, {how}", O::G::NAME);
        }
    }
}

#[test]
fn every_window_width() {
    every_window::<Bn254O>(500, 0);
    every_window::<Bls377O>(501, 1);
    every_window::<Bls381O>(502, 2);
    every_window::<EdO>(503, 3);
}

#[test]
fn batch_affine_reports_its_work() {
    let base = random_points::<Bls377O>(2500, 9);
    let ours: Vec<_> = base.iter().map(Bls377O::ours).collect();
    let scalars = random_scalars::<Bls377O>(2500, 9);
    let mut stats = BatchAffineStats::default();
    let cfg = MsmConfig {
        accumulation: Accumulation::BatchAffine(BatchAffineConfig::default()),
        ..MsmConfig::default()
    };
    let got: <Bls377O as Oracle>::G = msm_with_stats(&ours, &scalars, &cfg, &mut stats).unwrap();
    assert_eq!(got.to_affine(), ark_msm::<Bls377O>(&base, &scalars));
    eprintln!("n = 2500, BLS12-377, default batch-affine: {stats:?}");
    // Most additions share an inversion; far fewer inversions than additions.
    assert!(stats.batched_additions > 2500 * 20, "{stats:?}");
    assert!(stats.inversions * 50 < stats.batched_additions, "{stats:?}");
    // collisions are mostly deferred, rarely spilled to projective additions
    assert!(
        stats.deferred > 0 && stats.spilled * 20 < stats.batched_additions,
        "{stats:?}"
    );
}

#[test]
fn rejects_bad_input() {
    let base = random_points::<Bn254O>(3, 1);
    let ours: Vec<_> = base.iter().map(Bn254O::ours).collect();
    type G = <Bn254O as Oracle>::G;
    let r = G::SCALAR_MODULUS;
    let ok = [[1, 0, 0, 0]; 3];
    assert_eq!(
        msm::<G>(&ours, &ok[..2]),
        Err(MsmError::LengthMismatch {
            points: 3,
            scalars: 2
        })
    );
    assert_eq!(
        msm::<G>(&ours, &[[1, 0, 0, 0], [1, 0, 0, 0], r]),
        Err(MsmError::ScalarOutOfRange { index: 2 })
    );
    assert_eq!(
        msm::<G>(&ours, &[[1, 0, 0, 0], [u64::MAX; 4], r]),
        Err(MsmError::ScalarOutOfRange { index: 1 })
    );
    assert!(matches!(
        msm_with::<G>(
            &ours,
            &ok,
            &MsmConfig {
                window: Some(1),
                ..Default::default()
            }
        ),
        Err(MsmError::BadConfig(_))
    ));
    assert!(matches!(
        msm_with::<G>(
            &ours,
            &ok,
            &MsmConfig {
                window: Some(17),
                ..Default::default()
            }
        ),
        Err(MsmError::BadConfig(_))
    ));
    assert!(matches!(
        msm_with::<G>(
            &ours,
            &ok,
            &MsmConfig {
                reduction: Reduction::Split(0),
                ..Default::default()
            }
        ),
        Err(MsmError::BadConfig(_))
    ));
    // r − 1 is accepted; the empty MSM is the identity
    assert!(msm::<G>(&ours, &[r_minus_one::<Bn254O>(); 3]).is_ok());
    assert!(msm::<G>(&[], &[]).unwrap().is_identity());
}
