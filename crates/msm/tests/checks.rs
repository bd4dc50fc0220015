//! What the front door refuses, each error naming what is wrong and where: lengths, scalars not
//! below r, points off the curve or outside the subgroup, configurations that cannot run; and the
//! constant-time setting: `Window::FromSize` gives the same sum, with a window that depends on n
//! alone.

use crate::common::{
    Bls377O, Bls381O, Bn254O, Case, EdO, Oracle, ark_msm, cases, r_minus_one, random_points,
    random_scalars, rng,
};
use fastmsm_curves::field::PrimeField;
use fastmsm_curves::{Bls12_377, EdBls12_377, Group, sw, te};
use fastmsm_msm::window::window_size;
use fastmsm_msm::{
    Algorithm, Bls12_377G1, CpuGroup, EdBls12_377G, Limbs, MsmConfig, MsmError, MsmGroup, Points,
    Reduction, Threads, Window, check_points, msm,
};
use rand::Rng;

fn cfg() -> MsmConfig {
    MsmConfig::default()
}

/// Lengths and scalars, on every curve and algorithm: the error names the first bad index.
#[test]
fn bad_scalars_and_lengths_name_the_index() {
    fn check<O: Oracle>(seed: u64)
    where
        O::G: CpuGroup,
    {
        let base = random_points::<O>(5, seed);
        let ours: Vec<_> = base.iter().map(O::ours).collect();
        let r = O::G::SCALAR_MODULUS;
        let ok = [[1, 0, 0, 0]; 5];
        for algorithm in [
            Algorithm::pippenger(),
            Algorithm::batch_affine(),
            cfg().algorithm,
        ] {
            for limbs in [Limbs::Mont64, Limbs::Radix30] {
                let c = MsmConfig {
                    algorithm,
                    limbs,
                    ..cfg()
                };
                let ctx = format!("{}: {algorithm:?}, {limbs:?}", O::G::NAME);
                assert_eq!(
                    msm(&ours, &ok[..2], &c).err(),
                    Some(MsmError::LengthMismatch {
                        points: 5,
                        scalars: 2
                    }),
                    "{ctx}"
                );
                assert_eq!(
                    msm(&ours[..1], &ok, &c).err(),
                    Some(MsmError::LengthMismatch {
                        points: 1,
                        scalars: 5
                    }),
                    "{ctx}"
                );
                for (index, bad) in [
                    (4, r),
                    (0, [u64::MAX; 4]),
                    (2, [r[0] + 1, r[1], r[2], r[3]]),
                ] {
                    let mut k = ok;
                    k[index] = bad;
                    if index < 4 {
                        k[4] = r; // a later bad scalar: the first is named
                    }
                    assert_eq!(
                        msm(&ours, &k, &c).err(),
                        Some(MsmError::ScalarOutOfRange { index }),
                        "{ctx}"
                    );
                }
                // r − 1 is accepted; no points give the identity
                assert!(msm(&ours, &[r_minus_one::<O>(); 5], &c).is_ok(), "{ctx}");
                assert!(
                    msm::<<O::G as Group>::Affine>(&[], &[], &c)
                        .unwrap()
                        .sum
                        .is_identity()
                );
            }
        }
    }
    check::<Bn254O>(1);
    check::<Bls377O>(2);
    check::<Bls381O>(3);
    check::<EdO>(4);
}

/// A point off the curve is refused, by index, whatever the algorithm, representation or
/// threading; the check comes before any work (a later bad scalar is not reported first).
#[test]
fn points_off_the_curve_name_the_index() {
    fn check<O: Oracle>(
        seed: u64,
        off: impl Fn(&<O::G as Group>::Affine) -> <O::G as Group>::Affine,
    ) where
        O::G: CpuGroup,
    {
        let base = random_points::<O>(6, seed);
        let mut ours: Vec<_> = base.iter().map(O::ours).collect();
        ours[3] = off(&ours[3]);
        ours[5] = off(&ours[5]);
        let scalars = random_scalars::<O>(6, seed);
        for c in [
            cfg(),
            MsmConfig {
                algorithm: Algorithm::pippenger(),
                limbs: Limbs::Radix30,
                ..cfg()
            },
            MsmConfig {
                threads: Threads::Pool,
                ..cfg()
            },
            MsmConfig {
                points: Points::InSubgroup,
                ..cfg()
            },
            MsmConfig {
                points: Points::InSubgroupUnchecked,
                ..cfg()
            },
        ] {
            assert_eq!(
                msm(&ours, &scalars, &c).err(),
                Some(MsmError::PointNotOnCurve { index: 3 }),
                "{}: {c:?}",
                O::G::NAME
            );
        }
        assert_eq!(
            check_points(&ours, Points::OnCurve),
            Err(MsmError::PointNotOnCurve { index: 3 })
        );
        let mut k = scalars.clone();
        k[0] = O::G::SCALAR_MODULUS;
        assert_eq!(
            msm(&ours, &k, &cfg()).err(),
            Some(MsmError::ScalarOutOfRange { index: 0 }),
            "scalars are checked before points"
        );
    }
    fn sw_off<C: sw::SwCurve>(p: &sw::Affine<C>) -> sw::Affine<C> {
        sw::Affine::new_unchecked(p.x, p.y + C::Base::ONE)
    }
    fn te_off<C: te::TeCurve>(p: &te::Affine<C>) -> te::Affine<C> {
        te::Affine::new_unchecked(p.x + C::Base::ONE, p.y)
    }
    check::<Bn254O>(11, sw_off);
    check::<Bls377O>(12, sw_off);
    check::<Bls381O>(13, sw_off);
    check::<EdO>(14, te_off);
}

/// Points of small order lie on the curve but outside the subgroup: `Points::InSubgroup`
/// refuses them by index; the plain check accepts them and the sum is still arkworks' (the
/// integer combination); GLV, which is wrong for them, is refused without a subgroup setting.
#[test]
fn points_outside_the_subgroup() {
    // BLS12-377: (−1, 0) on y² = x³ + 1 has order 2
    type F = <Bls12_377 as sw::SwCurve>::Base;
    let t = sw::Affine::<Bls12_377>::new(-F::ONE, F::ZERO).unwrap();
    let base = random_points::<Bls377O>(4, 21);
    let mut ours: Vec<_> = base.iter().map(Bls377O::ours).collect();
    ours[2] = t;
    let scalars = random_scalars::<Bls377O>(4, 21);
    assert_eq!(
        msm(
            &ours,
            &scalars,
            &MsmConfig {
                points: Points::InSubgroup,
                ..cfg()
            }
        )
        .err(),
        Some(MsmError::PointNotInSubgroup { index: 2 })
    );
    assert_eq!(
        check_points(&ours, Points::InSubgroup),
        Err(MsmError::PointNotInSubgroup { index: 2 })
    );
    assert_eq!(check_points(&ours, Points::OnCurve), Ok(()));
    // the plain sum is arkworks': k·T is T or the identity by the parity of k
    let ark_pts: Vec<ark_bls12_377::G1Affine> = ours.iter().map(|&p| p.into()).collect();
    for c in [
        cfg(),
        MsmConfig {
            algorithm: Algorithm::pippenger(),
            ..cfg()
        },
    ] {
        let got: Bls12_377G1 = msm(&ours, &scalars, &c).unwrap().sum;
        assert_eq!(
            got.to_affine(),
            ark_msm::<Bls377O>(&ark_pts, &scalars),
            "{c:?}"
        );
    }
    // GLV needs the subgroup: refused with the plain check, wrong if the caller vouches falsely
    let glv = MsmConfig { glv: true, ..cfg() };
    assert!(
        matches!(msm(&ours, &scalars, &glv), Err(MsmError::BadConfig(m)) if m.contains("Points::InSubgroup"))
    );
    assert_eq!(
        msm(
            &ours,
            &scalars,
            &MsmConfig {
                points: Points::InSubgroup,
                ..glv
            }
        )
        .err(),
        Some(MsmError::PointNotInSubgroup { index: 2 })
    );
    // a false promise is not caught: the sum is off by k₂·(φ(T) − λT), which is not the
    // identity when T's half k₂ is odd
    let wrong = (0..8u64)
        .filter(|&s| {
            let k = random_scalars::<Bls377O>(4, 100 + s);
            let vouched = MsmConfig {
                points: Points::InSubgroupUnchecked,
                ..glv
            };
            let lied: Bls12_377G1 = msm(&ours, &k, &vouched).unwrap().sum;
            lied.to_affine() != ark_msm::<Bls377O>(&ark_pts, &k)
        })
        .count();
    assert!(
        wrong > 0,
        "GLV with a point of order 2 never went wrong: the test shows nothing"
    );
    // subgroup points pass the subgroup check on every curve
    assert_eq!(check_points(&ours[..2], Points::InSubgroup), Ok(()));

    // Ed-on-BLS12-377: (0, −1) has order 2
    type E = <EdBls12_377 as te::TeCurve>::Base;
    let base = random_points::<EdO>(3, 22);
    let mut ed: Vec<_> = base.iter().map(EdO::ours).collect();
    ed[1] = te::Affine::<EdBls12_377>::new(E::ZERO, -E::ONE).unwrap();
    let scalars = random_scalars::<EdO>(3, 22);
    assert_eq!(
        msm(
            &ed,
            &scalars,
            &MsmConfig {
                points: Points::InSubgroup,
                ..cfg()
            }
        )
        .err(),
        Some(MsmError::PointNotInSubgroup { index: 1 })
    );
    let ark_ed: Vec<ark_ed_on_bls12_377::EdwardsAffine> = ed.iter().map(|&p| p.into()).collect();
    let got: EdBls12_377G = msm(&ed, &scalars, &cfg()).unwrap().sum;
    assert_eq!(got.to_affine(), ark_msm::<EdO>(&ark_ed, &scalars));
    // BN254 has prime order: GLV needs no subgroup setting there
    let bn: Vec<_> = random_points::<Bn254O>(3, 23)
        .iter()
        .map(Bn254O::ours)
        .collect();
    assert!(msm(&bn, &random_scalars::<Bn254O>(3, 23), &glv).is_ok());
}

/// Configurations that cannot run, each refused with a message.
#[test]
fn bad_configurations() {
    let ours: Vec<_> = random_points::<Bn254O>(3, 31)
        .iter()
        .map(Bn254O::ours)
        .collect();
    let ok = [[1, 0, 0, 0]; 3];
    let bad = |c: MsmConfig| match msm(&ours, &ok, &c) {
        Err(MsmError::BadConfig(m)) => m,
        other => panic!("{c:?}: {other:?}"),
    };
    assert!(
        bad(MsmConfig {
            window: Window::Fixed(1),
            ..cfg()
        })
        .contains("2..=16")
    );
    assert!(
        bad(MsmConfig {
            window: Window::Fixed(17),
            ..cfg()
        })
        .contains("2..=16")
    );
    let split0 = Algorithm::Pippenger {
        accumulation: fastmsm_msm::Accumulation::Projective,
        reduction: Reduction::Split(0),
    };
    assert!(
        bad(MsmConfig {
            algorithm: split0,
            ..cfg()
        })
        .contains("zero segments")
    );
    assert!(
        bad(MsmConfig {
            threads: Threads::Shares(0),
            ..cfg()
        })
        .contains("zero shares")
    );
    assert!(
        bad(MsmConfig {
            algorithm: Algorithm::pippenger(),
            threads: Threads::Pool,
            ..cfg()
        })
        .contains("all-affine")
    );
    assert!(
        bad(MsmConfig {
            count_ops: true,
            limbs: Limbs::Radix30,
            ..cfg()
        })
        .contains("64-bit")
    );
    assert!(
        bad(MsmConfig {
            count_ops: true,
            threads: Threads::Pool,
            ..cfg()
        })
        .contains("this thread")
    );
    // a bad configuration is refused even with no points
    assert!(
        msm::<<fastmsm_msm::Bn254G1 as Group>::Affine>(
            &[],
            &[],
            &MsmConfig {
                window: Window::Fixed(0),
                ..cfg()
            }
        )
        .is_err()
    );
    let ed: Vec<_> = random_points::<EdO>(2, 32).iter().map(EdO::ours).collect();
    let glv = MsmConfig {
        glv: true,
        points: Points::InSubgroupUnchecked,
        ..cfg()
    };
    let err = msm(&ed, &ok[..2], &glv).unwrap_err();
    assert_eq!(
        err,
        MsmError::NoEndomorphism {
            curve: "ed-on-bls12-377"
        }
    );
    assert!(err.to_string().contains("no GLV endomorphism"));
}

/// `Window::FromSize` (the secret-scalar setting): the same sum as the default, and a window
/// that is `window_size` of n (2n with GLV) whatever the scalars are — while the default
/// all-affine rule does move with them, which is what the setting removes.
#[test]
fn window_from_size_does_not_depend_on_the_scalars() {
    fn check<O: Oracle>(seed: u64, glv: bool)
    where
        O::G: CpuGroup,
    {
        let mut moved = false;
        let base = random_points::<O>(2000, seed);
        for n in [1, 40, 700, 2000] {
            for glv in [false, glv] {
                let bound = if glv {
                    O::G::glv_expand(&[], &[]).expect("a GLV curve").bound
                } else {
                    O::G::SCALAR_MODULUS
                };
                let expected = window_size(if glv { 2 * n } else { n }, &bound);
                let mut auto_windows = Vec::new();
                for Case {
                    what,
                    ours,
                    scalars,
                    want,
                    ..
                } in cases::<O>(n, &base, seed + n as u64)
                {
                    // the shares' plan picks the window by its own code: both threadings
                    for threads in [Threads::One, Threads::Shares(3)] {
                        let c = MsmConfig {
                            glv,
                            threads,
                            points: Points::InSubgroupUnchecked,
                            ..cfg()
                        };
                        let secret = msm(
                            &ours,
                            &scalars,
                            &MsmConfig {
                                window: Window::FromSize,
                                ..c
                            },
                        )
                        .unwrap();
                        let ctx =
                            format!("{}: n = {n}, {what}, GLV {glv}, {threads:?}", O::G::NAME);
                        assert_eq!(secret.stats.window, expected, "{ctx}: FromSize window");
                        assert_eq!(secret.sum.to_affine(), want, "{ctx}: FromSize sum");
                        let public = msm(&ours, &scalars, &c).unwrap();
                        assert_eq!(public.sum.to_affine(), want, "{ctx}: Auto sum");
                        auto_windows.push(public.stats.window);
                    }
                }
                auto_windows.sort();
                auto_windows.dedup();
                moved |= auto_windows.len() > 1;
            }
        }
        assert!(
            moved,
            "{}: the sampled rule never moved: the test shows nothing",
            O::G::NAME
        );
    }
    check::<Bn254O>(41, true);
    check::<Bls377O>(42, true);
    check::<Bls381O>(43, true);
    check::<EdO>(44, false);
}

/// Random scalars: the door's sum does not depend on the window rule or the threads.
#[test]
fn every_window_rule_gives_the_same_sum() {
    let mut r = rng(51);
    let base = random_points::<Bls381O>(200, 51);
    let ours: Vec<_> = base.iter().map(Bls381O::ours).collect();
    let scalars = random_scalars::<Bls381O>(200, 51);
    let want = ark_msm::<Bls381O>(&base, &scalars);
    for _ in 0..8 {
        let window = match r.gen_range(0..3) {
            0 => Window::Auto,
            1 => Window::FromSize,
            _ => Window::Fixed(r.gen_range(2..=16)),
        };
        let c = MsmConfig {
            window,
            threads: Threads::Shares(r.gen_range(1..9)),
            ..cfg()
        };
        let got: fastmsm_msm::Bls12_381G1 = msm(&ours, &scalars, &c).unwrap().sum;
        assert_eq!(got.to_affine(), want, "{c:?}");
    }
}
