//! The all-affine MSM (`fastmsm_msm::all_affine`) against `ark_ec::VariableBaseMSM::msm`: all four
//! curves, n from 0 to 2500, the adversarial inputs of tests/common, in every field representation
//! (tests named `curve::representation::check`), with GLV where the curve has it, with tiny and
//! default reduction batches, every window width, and through the operation-counting field.

#[macro_use]
mod common;

use common::{
    Bls377O, Bls381O, Bn254O, EdO, Oracle, adversarial_inputs, ark_msm, r_minus_one, random_points,
    random_scalars,
};
use fastmsm_curves::Group;
use fastmsm_curves::field::Backend;
use fastmsm_msm::all_affine::{AllAffineConfig, AllAffineStats, msm_all_affine};
use fastmsm_msm::count::{CountableGroup, count_via};
use fastmsm_msm::twin::{TwinGroup, via_twin};
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

/// The all-affine MSM in the representation `B` against arkworks, for every size, input and
/// configuration.
fn all_affine_matches_arkworks<B: Backend, O: Oracle>(seed: u64, glv: bool)
where
    O::G: TwinGroup<B>,
{
    let base = random_points::<O>(*SIZES.last().unwrap(), seed);
    for (k, &n) in SIZES.iter().enumerate() {
        for (what, pts, scalars) in adversarial_inputs::<O>(n, &base, seed + k as u64) {
            let want = ark_msm::<O>(&pts, &scalars);
            let ours: Vec<_> = pts.iter().map(O::ours).collect();
            // GLV is correct only for points of order r: every input here is in the subgroup.
            for (how, cfg) in configs(glv) {
                // the 51-bit twin natively runs a scalar FMA per limb product: slow, so not
                // under the tiny batches (an inversion each), whose logic the others cover
                if B::LIMB_BITS == 51 && cfg.reduction_batch.is_some() {
                    continue;
                }
                let got: O::G = via_twin::<B, O::G>(&ours, |p| {
                    msm_all_affine(p, &scalars, &cfg, &mut AllAffineStats::default())
                })
                .unwrap();
                assert!(got.is_on_curve());
                assert_eq!(
                    got.to_affine(),
                    want,
                    "{}: n = {n}, {what}, {how}, {}-bit limbs",
                    O::G::NAME,
                    B::LIMB_BITS
                );
            }
        }
    }
}

every_curve_and_representation!(all_affine_matches_arkworks);

/// Through the operation-counting field: the same result, products and inversions counted.
#[test]
fn counted_all_affine_matches_arkworks() {
    fn check<O: Oracle>(seed: u64)
    where
        O::G: CountableGroup,
    {
        for n in [300, 2500] {
            let base = random_points::<O>(n, seed);
            let scalars = random_scalars::<O>(n, seed);
            let want = ark_msm::<O>(&base, &scalars);
            let ours: Vec<_> = base.iter().map(O::ours).collect();
            let (got, ops) = count_via::<O::G>(&ours, |p| {
                msm_all_affine(
                    p,
                    &scalars,
                    &AllAffineConfig::default(),
                    &mut AllAffineStats::default(),
                )
            });
            assert_eq!(
                got.unwrap().to_affine(),
                want,
                "{}: n = {n}, counted",
                O::G::NAME
            );
            assert!(ops.mul > 0 && ops.inverse > 0, "{ops:?}");
        }
    }
    check::<Bn254O>(730);
    check::<Bls377O>(731);
    check::<Bls381O>(732);
    check::<EdO>(733);
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
