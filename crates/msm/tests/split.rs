//! The shared-out all-affine MSM (`fastmsm_msm::split`) against `ark_ec::VariableBaseMSM::msm`:
//! all four curves, 1 to 16 shares (more shares than cells too), the adversarial inputs of
//! tests/common, with GLV where the curve has it, over the 64-bit fields and the 30-bit twins,
//! each share run alone (as a worker does) and all on rayon's pool (as the threads do).

mod common;

use common::{
    Bls377O, Bls381O, Bn254O, EdO, Oracle, adversarial_inputs, ark_msm, random_points,
};
use fastmsm_curves::Group;
use fastmsm_msm::all_affine::{AllAffineConfig, AllAffineStats, msm_all_affine};
use fastmsm_msm::radix30::{Radix30Group, via_radix30};
use fastmsm_msm::split::{msm_parallel, msm_split, plan, run_share};
use fastmsm_msm::{MsmError, MsmGroup};

const SIZES: [usize; 4] = [0, 1, 5, 300];
const SHARES: [usize; 5] = [1, 2, 3, 8, 16];

fn against_arkworks<O: Oracle>(seed: u64, glv: bool)
where
    O::G: Radix30Group + Send + Sync,
    <O::G as Group>::Affine: Send + Sync,
{
    let base = random_points::<O>(*SIZES.last().unwrap(), seed);
    for (k, &n) in SIZES.iter().enumerate() {
        for (what, pts, scalars) in adversarial_inputs::<O>(n, &base, seed + k as u64) {
            let want = ark_msm::<O>(&pts, &scalars);
            let ours: Vec<_> = pts.iter().map(O::ours).collect();
            for glv in [false, glv] {
                let cfg = AllAffineConfig { glv, ..AllAffineConfig::default() };
                let one: O::G = msm_all_affine(&ours, &scalars, &cfg, &mut AllAffineStats::default()).unwrap();
                for t in SHARES {
                    let ctx = format!("{}: n = {n}, {what}, GLV {glv}, {t} shares", O::G::NAME);
                    let got: O::G = msm_split(&ours, &scalars, &cfg, t).unwrap();
                    assert_eq!(got.to_affine(), want, "{ctx}");
                    assert_eq!(got.to_affine(), one.to_affine(), "{ctx}: same as one thread");
                    if t == 3 || t == 8 {
                        let got: O::G = msm_parallel(&ours, &scalars, &cfg, t).unwrap();
                        assert_eq!(got.to_affine(), want, "{ctx}, rayon");
                    }
                }
                // the same window as the single-threaded MSM picks
                let mut stats = AllAffineStats::default();
                let _: O::G = msm_all_affine(&ours, &scalars, &cfg, &mut stats).unwrap();
                if n > 0 {
                    assert_eq!(plan::<O::G>(&scalars, None, glv, 4).unwrap().window_bits, stats.window);
                }
            }
            // a worker holds its span only: run each share from its own slice, 30-bit limbs
            if n >= 64 {
                let cfg = AllAffineConfig::default();
                let p = plan::<O::G>(&scalars, None, false, 5).unwrap();
                let got: O::G = via_radix30::<O::G>(&ours, |twin| {
                    let mut q = <<O::G as Radix30Group>::Twin as Group>::identity();
                    for t in 0..p.shares.len() {
                        let s = p.span(t);
                        let part = run_share(&p, t, &twin[s.clone()], &scalars[s.clone()], s.start, &cfg,
                            &mut AllAffineStats::default())?;
                        q = q.add(&part);
                    }
                    Ok(q)
                })
                .unwrap();
                assert_eq!(got.to_affine(), want, "{}: n = {n}, {what}, spans, 30-bit", O::G::NAME);
            }
        }
    }
}

#[test]
fn bn254_shares_match_arkworks() {
    against_arkworks::<Bn254O>(900, true);
}

#[test]
fn bls12_377_shares_match_arkworks() {
    against_arkworks::<Bls377O>(901, true);
}

#[test]
fn bls12_381_shares_match_arkworks() {
    against_arkworks::<Bls381O>(902, true);
}

#[test]
fn ed_on_bls12_377_shares_match_arkworks() {
    against_arkworks::<EdO>(903, false);
}

#[test]
fn bad_input_gets_the_single_threaded_errors() {
    type G = <Bn254O as Oracle>::G;
    let base = random_points::<Bn254O>(3, 1);
    let ours: Vec<_> = base.iter().map(Bn254O::ours).collect();
    let r = G::SCALAR_MODULUS;
    let cfg = AllAffineConfig::default();
    assert_eq!(
        msm_parallel::<G>(&ours, &[[1, 0, 0, 0]; 2], &cfg, 4),
        Err(MsmError::LengthMismatch { points: 3, scalars: 2 })
    );
    assert_eq!(
        msm_parallel::<G>(&ours, &[[1, 0, 0, 0], r, [0; 4]], &cfg, 4),
        Err(MsmError::ScalarOutOfRange { index: 1 })
    );
    assert_eq!(msm_split::<G>(&[], &[], &cfg, 8).unwrap(), G::identity());
    type E = <EdO as Oracle>::G;
    assert!(matches!(
        plan::<E>(&[[1, 0, 0, 0]], None, true, 2),
        Err(MsmError::NoEndomorphism { .. })
    ));
    // a share given the wrong slice, and a scalar out of range reported at its place in the input
    let p = plan::<G>(&[[1, 0, 0, 0]; 3], None, false, 2).unwrap();
    assert!(matches!(
        run_share::<G>(&p, 1, &ours[..1], &[[1, 0, 0, 0]], 0, &cfg, &mut AllAffineStats::default()),
        Err(MsmError::BadConfig(_))
    ));
    let span = p.span(1);
    let mut bad = vec![[1u64, 0, 0, 0]; span.len()];
    bad[0] = r;
    assert_eq!(
        run_share::<G>(&p, 1, &ours[span.clone()], &bad, span.start, &cfg, &mut AllAffineStats::default()),
        Err(MsmError::ScalarOutOfRange { index: span.start })
    );
}
