//! The workers' protocol (`fastmsm_msm::split::{plan, run_share}`) against
//! `ark_ec::VariableBaseMSM::msm`: all four curves, 1 to 16 shares (more shares than buckets
//! too), the inputs of `common`, with GLV where the curve has it, each share run on its own (as
//! a worker runs it) over the 64-bit fields and the 30-bit and 51-bit twins; the plan's window is
//! the one the door picks on one thread.

use crate::common::{Bls377O, Bls381O, Bn254O, EdO, Oracle, for_each_case, random_points};
use fastmsm_curves::Group;
use fastmsm_msm::format::{FormatCurve, point_count, read_point, read_points, write_points};
use fastmsm_msm::radix30::{Radix30, Radix30Group};
use fastmsm_msm::radix51::{Radix51, Radix51Group};
use fastmsm_msm::split::{plan, run_share};
use fastmsm_msm::twin::TwinGroup;
use fastmsm_msm::{
    AllAffineConfig, AllAffineStats, CpuGroup, MsmConfig, MsmError, MsmGroup, Points, Scalar,
    Window, msm,
};

const SIZES: [usize; 4] = [0, 1, 5, 300];
const SHARES: [usize; 5] = [1, 2, 3, 8, 16];

/// Every share of `plan` run on its own (as a worker runs it), any group (ours or a twin), added
/// up; the pieces of all shares cover every bucket of every window exactly once.
fn by_spans<G: MsmGroup>(
    p: &fastmsm_msm::split::SplitPlan,
    points: &[G::Affine],
    scalars: &[Scalar],
) -> G {
    let cfg = AllAffineConfig::default();
    let mut seen = std::collections::HashSet::new();
    for piece in p.shares.iter().flatten() {
        for b in piece.start..piece.end {
            assert!(
                seen.insert((piece.window, b)),
                "bucket {b} of window {} twice",
                piece.window
            );
        }
    }
    (0..p.shares.len()).fold(G::identity(), |q, t| {
        let part: G =
            run_share(p, t, points, scalars, &cfg, &mut AllAffineStats::default()).unwrap();
        q.add(&part)
    })
}

fn against_arkworks<O: Oracle>(seed: u64, glv: bool)
where
    O::G: CpuGroup,
{
    for_each_case::<O>(&SIZES, seed, |n, case| {
        let (what, ours, scalars, want) = (case.what, case.ours, case.scalars, case.want);
        let twin: Vec<_> = ours
            .iter()
            .map(<O::G as TwinGroup<Radix30>>::affine_to_twin)
            .collect();
        let twin51: Vec<_> = ours
            .iter()
            .map(<O::G as TwinGroup<Radix51>>::affine_to_twin)
            .collect();
        for glv in [false, glv] {
            for window in [Window::Auto, Window::FromSize] {
                // the door on one thread: its window is the plan's
                let one = msm(
                    &ours,
                    &scalars,
                    &MsmConfig {
                        glv,
                        window,
                        points: Points::InSubgroupUnchecked,
                        ..MsmConfig::default()
                    },
                )
                .unwrap();
                for t in SHARES {
                    let ctx = format!(
                        "{}: n = {n}, {what}, GLV {glv}, {window:?}, {t} shares",
                        O::G::NAME
                    );
                    let p = plan::<O::G>(&scalars, window, glv, t).unwrap();
                    assert_eq!(p.shares.len(), t, "{ctx}");
                    if n > 0 {
                        assert_eq!(p.window_bits, one.stats.window, "{ctx}: the door's window");
                    }
                    let got: O::G = by_spans(&p, &ours, &scalars);
                    assert_eq!(got.to_affine(), want, "{ctx}");
                    if t == 3 && n >= 5 {
                        let got: <O::G as Radix30Group>::Twin = by_spans(&p, &twin, &scalars);
                        let got = <O::G as TwinGroup<Radix30>>::from_twin(&got);
                        assert_eq!(got.to_affine(), want, "{ctx}, 30-bit limbs");
                    }
                    if t == 16 && n >= 5 {
                        let got: <O::G as Radix51Group>::Twin = by_spans(&p, &twin51, &scalars);
                        let got = <O::G as TwinGroup<Radix51>>::from_twin(&got);
                        assert_eq!(got.to_affine(), want, "{ctx}, 51-bit limbs");
                    }
                }
            }
        }
    });
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
fn bad_input_gets_the_door_errors() {
    type G = <Bn254O as Oracle>::G;
    let base = random_points::<Bn254O>(3, 1);
    let ours: Vec<_> = base.iter().map(Bn254O::ours).collect();
    let r = G::SCALAR_MODULUS;
    let cfg = AllAffineConfig::default();
    assert_eq!(
        plan::<G>(&[[1, 0, 0, 0], r, [0; 4]], Window::Auto, false, 4),
        Err(MsmError::ScalarOutOfRange { index: 1 })
    );
    assert!(matches!(
        plan::<G>(&[[1, 0, 0, 0]], Window::Fixed(17), false, 4),
        Err(MsmError::BadConfig(_))
    ));
    type E = <EdO as Oracle>::G;
    assert!(matches!(
        plan::<E>(&[[1, 0, 0, 0]], Window::Auto, true, 2),
        Err(MsmError::NoEndomorphism { .. })
    ));
    // a share given the wrong number of points, mismatched lengths, an unknown share, and a
    // scalar out of range reported at its index
    let p = plan::<G>(&[[1, 0, 0, 0]; 3], Window::Auto, false, 2).unwrap();
    assert!(matches!(
        run_share::<G>(
            &p,
            1,
            &ours[..1],
            &[[1, 0, 0, 0]],
            &cfg,
            &mut AllAffineStats::default()
        ),
        Err(MsmError::BadConfig(_))
    ));
    assert!(matches!(
        run_share::<G>(
            &p,
            5,
            &ours,
            &[[1, 0, 0, 0]; 3],
            &cfg,
            &mut AllAffineStats::default()
        ),
        Err(MsmError::BadConfig(_))
    ));
    assert_eq!(
        run_share::<G>(
            &p,
            0,
            &ours,
            &[[1, 0, 0, 0]; 2],
            &cfg,
            &mut AllAffineStats::default()
        ),
        Err(MsmError::LengthMismatch {
            points: 3,
            scalars: 2
        })
    );
    let mut bad = vec![[1u64, 0, 0, 0]; 3];
    bad[2] = r;
    assert_eq!(
        run_share::<G>(&p, 1, &ours, &bad, &cfg, &mut AllAffineStats::default()),
        Err(MsmError::ScalarOutOfRange { index: 2 })
    );
}

/// A points file read straight into a twin (`read_point::<Twin>`: the coordinates and the curve
/// equation checked in the twin's own arithmetic, as the page's workers load them) gives the
/// 64-bit points converted, and a bad point the same error, on every curve and twin.
fn twin_reads_like_the_original<O: Oracle, B>(seed: u64)
where
    O::G: TwinGroup<B> + FormatCurve,
    <O::G as TwinGroup<B>>::Mapped: FormatCurve,
    B: fastmsm_curves::field::Backend,
{
    type Twin<O, B> = <<O as Oracle>::G as TwinGroup<B>>::Mapped;
    for_each_case::<O>(&[1, 40], seed, |n, case| {
        let bytes = write_points::<O::G>(&case.ours);
        let want: Vec<_> = case
            .ours
            .iter()
            .map(<O::G as TwinGroup<B>>::affine_to_twin)
            .collect();
        let got: Vec<_> = (0..n)
            .map(|i| read_point::<Twin<O, B>>(&bytes, i).unwrap())
            .collect();
        assert!(got == want, "{}: n = {n}, {}", O::G::NAME, case.what);
        assert_eq!(read_points::<Twin<O, B>>(&bytes).unwrap().len(), n);
        if n < 40 {
            return;
        }
        // a coordinate off by one (off the curve), a coordinate ≥ p, a truncated file
        let cb = O::G::coord_bytes();
        for (what, i, change) in [("off the curve", 7usize, 0usize), ("x ≥ p", 9, 1)] {
            let mut bad = bytes.clone();
            let at = 2 * cb * i;
            if change == 0 {
                bad[at] ^= 1;
            } else {
                bad[at..at + cb].fill(0xff);
            }
            let original = read_point::<O::G>(&bad, i).unwrap_err();
            let twin = read_point::<Twin<O, B>>(&bad, i).unwrap_err();
            assert_eq!(twin, original, "{}: {what}", O::G::NAME);
            assert!(twin.starts_with(&format!("point {i}: ")), "{twin}");
            assert_eq!(read_points::<Twin<O, B>>(&bad).unwrap_err(), original);
        }
        assert_eq!(
            point_count::<Twin<O, B>>(bytes.len() - 1).unwrap_err(),
            point_count::<O::G>(bytes.len() - 1).unwrap_err()
        );
    });
}

#[test]
fn points_read_straight_into_the_twins() {
    twin_reads_like_the_original::<Bn254O, Radix51>(910);
    twin_reads_like_the_original::<Bls377O, Radix51>(911);
    twin_reads_like_the_original::<Bls381O, Radix51>(912);
    twin_reads_like_the_original::<EdO, Radix51>(913);
    twin_reads_like_the_original::<Bn254O, Radix30>(914);
    twin_reads_like_the_original::<Bls377O, Radix30>(915);
    twin_reads_like_the_original::<Bls381O, Radix30>(916);
    twin_reads_like_the_original::<EdO, Radix30>(917);
}
