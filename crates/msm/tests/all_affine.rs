//! The all-affine MSM (`fastmsm_msm::all_affine`) against `ark_ec::VariableBaseMSM::msm`: all four
//! curves, n from 0 to 2500, the adversarial inputs of tests/common, over the 64-bit fields and the
//! 30- and 51-bit twins, with GLV where the curve has it, with tiny and default reduction batches, every
//! window width, and through the operation-counting field.

mod common;

use common::{
    Bls377O, Bls381O, Bn254O, EdO, Oracle, adversarial_inputs, ark_msm, r_minus_one, random_points,
    random_scalars,
};
use fastmsm_curves::Group;
use fastmsm_msm::all_affine::{AllAffineConfig, AllAffineStats, msm_all_affine};
use fastmsm_msm::count::{CountableGroup, count_via};
use fastmsm_msm::radix30::{Radix30Group, via_radix30};
use fastmsm_msm::radix51::{Radix51Group, via_radix51};
use fastmsm_msm::{MsmError, MsmGroup};

const SIZES: [usize; 7] = [0, 1, 2, 3, 17, 300, 2500];

fn configs(glv: bool) -> Vec<(&'static str, AllAffineConfig)> {
    let mut out = vec![
        ("default", AllAffineConfig::default()),
        (
            "reduction batches of 3, c = 5",
            AllAffineConfig {
                window: Some(5),
                accumulation_batch: 2,
                reduction_batch: Some(3),
                glv: false,
            },
        ),
    ];
    if glv {
        out.push((
            "GLV",
            AllAffineConfig {
                glv: true,
                ..AllAffineConfig::default()
            },
        ));
    }
    out
}

fn against_arkworks<O: Oracle>(seed: u64, glv: bool)
where
    O::G: Radix30Group + Radix51Group + CountableGroup,
{
    let base = random_points::<O>(*SIZES.last().unwrap(), seed);
    for (k, &n) in SIZES.iter().enumerate() {
        for (what, pts, scalars) in adversarial_inputs::<O>(n, &base, seed + k as u64) {
            let want = ark_msm::<O>(&pts, &scalars);
            let ours: Vec<_> = pts.iter().map(O::ours).collect();
            // GLV is correct only for points of order r: every input here is in the subgroup.
            for (how, cfg) in configs(glv) {
                let mut stats = AllAffineStats::default();
                let got: O::G = msm_all_affine(&ours, &scalars, &cfg, &mut stats).unwrap();
                assert!(got.is_on_curve());
                assert_eq!(
                    got.to_affine(),
                    want,
                    "{}: n = {n}, {what}, {how}",
                    O::G::NAME
                );
                let got: O::G = via_radix30::<O::G>(&ours, |p| {
                    msm_all_affine(p, &scalars, &cfg, &mut AllAffineStats::default())
                })
                .unwrap();
                assert_eq!(
                    got.to_affine(),
                    want,
                    "{}: n = {n}, {what}, {how}, 30-bit limbs",
                    O::G::NAME
                );
                // the 51-bit twin natively runs a scalar FMA per limb product: slow, so not
                // under the tiny batches (an inversion each), whose logic the runs above cover
                if cfg.reduction_batch.is_some() {
                    continue;
                }
                let got: O::G = via_radix51::<O::G>(&ours, |p| {
                    msm_all_affine(p, &scalars, &cfg, &mut AllAffineStats::default())
                })
                .unwrap();
                assert_eq!(
                    got.to_affine(),
                    want,
                    "{}: n = {n}, {what}, {how}, 51-bit limbs (FMA)",
                    O::G::NAME
                );
            }
            if what == "uniform" && n >= 300 {
                let (got, ops) = count_via::<O::G>(&ours, |p| {
                    msm_all_affine(
                        p,
                        &scalars,
                        &AllAffineConfig::default(),
                        &mut AllAffineStats::default(),
                    )
                });
                assert_eq!(got.unwrap().to_affine(), want, "counted");
                assert!(ops.mul > 0 && ops.inverse > 0, "{ops:?}");
            }
        }
    }
}

#[test]
fn bn254() {
    against_arkworks::<Bn254O>(700, true);
}

#[test]
fn bls12_377() {
    against_arkworks::<Bls377O>(701, true);
}

#[test]
fn bls12_381() {
    against_arkworks::<Bls381O>(702, true);
}

#[test]
fn ed_on_bls12_377() {
    against_arkworks::<EdO>(703, false);
}

/// Every window width, including those that need the carry window.
#[test]
fn every_window_width() {
    fn check<O: Oracle>(seed: u64) {
        let base = random_points::<O>(60, seed);
        let mut scalars = random_scalars::<O>(60, seed);
        scalars[0] = r_minus_one::<O>();
        let want = ark_msm::<O>(&base, &scalars);
        let ours: Vec<_> = base.iter().map(O::ours).collect();
        for c in 2..=16u32 {
            let cfg = AllAffineConfig {
                window: Some(c),
                ..AllAffineConfig::default()
            };
            let got: O::G =
                msm_all_affine(&ours, &scalars, &cfg, &mut AllAffineStats::default()).unwrap();
            assert_eq!(got.to_affine(), want, "{}: c = {c}", O::G::NAME);
        }
    }
    check::<Bn254O>(710);
    check::<Bls377O>(711);
    check::<Bls381O>(712);
    check::<EdO>(713);
}

/// Few inversions: the batches are large, and an adversarial input (one bucket for all points)
/// takes log₂ n rounds, not n inversions.
#[test]
fn batches_are_large() {
    let n = 2500;
    let base = random_points::<Bls377O>(n, 720);
    let ours: Vec<_> = base.iter().map(Bls377O::ours).collect();
    let scalars = random_scalars::<Bls377O>(n, 720);
    let mut stats = AllAffineStats::default();
    let got: <Bls377O as Oracle>::G =
        msm_all_affine(&ours, &scalars, &AllAffineConfig::default(), &mut stats).unwrap();
    assert_eq!(got.to_affine(), ark_msm::<Bls377O>(&base, &scalars));
    assert!(
        stats.inversions * 100 < stats.batched_additions,
        "{stats:?}"
    );
    let same = vec![scalars[0]; n];
    let mut stats = AllAffineStats::default();
    let got: <Bls377O as Oracle>::G =
        msm_all_affine(&ours, &same, &AllAffineConfig::default(), &mut stats).unwrap();
    assert_eq!(got.to_affine(), ark_msm::<Bls377O>(&base, &same));
    // every window: ⌈log₂ 2500⌉ = 12 rounds at most
    assert!(stats.accumulation_rounds <= 12 * 30, "{stats:?}");
}

#[test]
fn rejects_bad_input() {
    type G = <Bn254O as Oracle>::G;
    let base = random_points::<Bn254O>(3, 1);
    let ours: Vec<_> = base.iter().map(Bn254O::ours).collect();
    let r = G::SCALAR_MODULUS;
    let cfg = AllAffineConfig::default();
    let mut st = AllAffineStats::default();
    assert_eq!(
        msm_all_affine::<G>(&ours, &[[1, 0, 0, 0]; 2], &cfg, &mut st),
        Err(MsmError::LengthMismatch {
            points: 3,
            scalars: 2
        })
    );
    assert_eq!(
        msm_all_affine::<G>(&ours, &[[1, 0, 0, 0], r, [0; 4]], &cfg, &mut st),
        Err(MsmError::ScalarOutOfRange { index: 1 })
    );
    assert!(matches!(
        msm_all_affine::<G>(
            &ours,
            &[[1, 0, 0, 0]; 3],
            &AllAffineConfig {
                window: Some(17),
                ..cfg
            },
            &mut st
        ),
        Err(MsmError::BadConfig(_))
    ));
    type E = <EdO as Oracle>::G;
    let ed: Vec<_> = random_points::<EdO>(2, 2).iter().map(EdO::ours).collect();
    assert_eq!(
        msm_all_affine::<E>(
            &ed,
            &[[1, 0, 0, 0]; 2],
            &AllAffineConfig { glv: true, ..cfg },
            &mut st
        ),
        Err(MsmError::NoEndomorphism {
            curve: "ed-on-bls12-377"
        })
    );
}
