//! Shared test plumbing: each curve of ours paired with its arkworks twin, inputs. Points and
//! scalars cross over through the crate's one bridge, `fastmsm_curves::ark`.
#![allow(dead_code)]

use core::marker::PhantomData;

use ark_ec::{AffineRepr, CurveGroup, PrimeGroup, VariableBaseMSM};
use ark_ff::{BigInt, UniformRand};
use fastmsm_curves::ark::{ArkSw, ArkTe, scalar_from_ark, scalar_to_ark};
use fastmsm_curves::sw;
use fastmsm_curves::te;
use fastmsm_curves::{Bls12_377, Bls12_381, Bn254, Group};
use fastmsm_msm::{MsmGroup, Scalar};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A fixed-seed RNG, so failures reproduce.
pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// Our MSM group paired with the arkworks group it is checked against.
pub trait Oracle {
    /// Our group.
    type G: MsmGroup;
    /// arkworks' projective group (its scalars four 64-bit words, as the bridge takes them).
    type Ark: CurveGroup<ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>>
        + VariableBaseMSM<MulBase = <Self::Ark as CurveGroup>::Affine>;
    /// arkworks affine → our affine.
    fn ours(a: &<Self::Ark as CurveGroup>::Affine) -> <Self::G as Group>::Affine;
}

pub type ArkScalar<O> = <<O as Oracle>::Ark as PrimeGroup>::ScalarField;
pub type ArkAffine<O> = <<O as Oracle>::Ark as CurveGroup>::Affine;
pub type OurAffine<O> = <<O as Oracle>::G as Group>::Affine;

/// Short Weierstrass: `G` is XYZZ or Jacobian over the curve the bridge pairs with the arkworks
/// config `P`.
pub struct Sw<G, P>(PhantomData<(G, P)>);

impl<G, P> Oracle for Sw<G, P>
where
    P: ArkSw<ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>>,
    G: MsmGroup<Affine = sw::Affine<P::Curve>>,
{
    type G = G;
    type Ark = ark_ec::short_weierstrass::Projective<P>;
    fn ours(a: &ark_ec::short_weierstrass::Affine<P>) -> sw::Affine<P::Curve> {
        (*a).into()
    }
}

/// Twisted Edwards: extended coordinates over the curve the bridge pairs with the arkworks
/// config `P`.
pub struct Te<P>(PhantomData<P>);

impl<P> Oracle for Te<P>
where
    P: ArkTe<ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>>,
{
    type G = te::Extended<P::Curve>;
    type Ark = ark_ec::twisted_edwards::Projective<P>;
    fn ours(a: &ark_ec::twisted_edwards::Affine<P>) -> te::Affine<P::Curve> {
        (*a).into()
    }
}

pub type Bn254O = Sw<sw::Xyzz<Bn254>, ark_bn254::g1::Config>;
pub type Bn254Jac = Sw<sw::Jacobian<Bn254>, ark_bn254::g1::Config>;
pub type Bls377O = Sw<sw::Xyzz<Bls12_377>, ark_bls12_377::g1::Config>;
pub type Bls381O = Sw<sw::Xyzz<Bls12_381>, ark_bls12_381::g1::Config>;
pub type EdO = Te<ark_ed_on_bls12_377::EdwardsConfig>;

/// Our scalar as arkworks'; a scalar not below r fails the test.
pub fn ark_scalar<A: ark_ff::PrimeField<BigInt = BigInt<4>>>(k: &Scalar) -> A {
    scalar_to_ark(k).expect("scalar not below r")
}

/// `n` random points (random multiples of the generator), arkworks' and ours.
pub fn random_points<O: Oracle>(n: usize, seed: u64) -> Vec<ArkAffine<O>> {
    let mut r = rng(seed);
    let g = O::Ark::generator();
    let proj: Vec<O::Ark> = (0..n).map(|_| g * ArkScalar::<O>::rand(&mut r)).collect();
    O::Ark::normalize_batch(&proj)
}

/// `n` uniform random scalars below r.
pub fn random_scalars<O: Oracle>(n: usize, seed: u64) -> Vec<Scalar> {
    let mut r = rng(seed);
    (0..n)
        .map(|_| scalar_from_ark(&ArkScalar::<O>::rand(&mut r)))
        .collect()
}

/// arkworks' MSM of the same inputs, as our affine point.
pub fn ark_msm<O: Oracle>(points: &[ArkAffine<O>], scalars: &[Scalar]) -> OurAffine<O> {
    let s: Vec<ArkScalar<O>> = scalars.iter().map(ark_scalar).collect();
    let q = O::Ark::msm(points, &s).expect("same lengths");
    O::ours(&q.into_affine())
}

/// r − 1 for the curve.
pub fn r_minus_one<O: Oracle>() -> Scalar {
    fastmsm_msm::scalar::minus_one(&O::G::SCALAR_MODULUS)
}

/// A named input: (what, points, scalars).
pub type Input<O> = (&'static str, Vec<ArkAffine<O>>, Vec<Scalar>);

/// Named inputs of size n (n ≤ base.len()): uniform, and the adversarial and structured cases of
/// the MSM — zero scalars, mostly zeros, small scalars, r − 1 and its neighbours, repeated
/// points, P with −P, identity points, all-equal scalars, scalars that share most windows.
pub fn adversarial_inputs<O: Oracle>(n: usize, base: &[ArkAffine<O>], seed: u64) -> Vec<Input<O>> {
    let mut r = rng(seed);
    let pts = base[..n].to_vec();
    let uniform = random_scalars::<O>(n, seed);
    let rm1 = r_minus_one::<O>();
    let mut out = vec![
        ("uniform", pts.clone(), uniform.clone()),
        ("zero scalars", pts.clone(), vec![[0; 4]; n]),
        ("r − 1", pts.clone(), vec![rm1; n]),
        (
            "mixed 0, 1, r − 1",
            pts.clone(),
            (0..n).map(|i| [[0; 4], [1, 0, 0, 0], rm1][i % 3]).collect(),
        ),
        ("one repeated point", vec![base[0]; n], uniform.clone()),
        (
            "P and −P, same scalars",
            (0..n)
                .map(|i| {
                    if i % 2 == 0 {
                        base[i / 2]
                    } else {
                        (-base[i / 2].into_group()).into_affine()
                    }
                })
                .collect(),
            (0..n).map(|i| uniform[i / 2]).collect(),
        ),
        (
            "identity points",
            (0..n)
                .map(|i| {
                    if i % 3 == 1 {
                        ArkAffine::<O>::zero()
                    } else {
                        pts[i]
                    }
                })
                .collect(),
            uniform.clone(),
        ),
        (
            "all-equal scalars",
            pts.clone(),
            vec![uniform.first().copied().unwrap_or([0; 4]); n],
        ),
    ];
    // Scalars sharing most windows: one random scalar with only its low 16 bits varied, so every
    // higher window sends all points to the same bucket.
    let s = uniform.first().copied().unwrap_or([5, 0, 0, 0]);
    let shared: Vec<Scalar> = (0..n)
        .map(|_| {
            [
                (s[0] & !0xffff) | r.gen_range(0..0x10000u64),
                s[1],
                s[2],
                s[3],
            ]
        })
        .collect();
    out.push(("scalars sharing most windows", pts.clone(), shared));
    // Mostly zeros: one scalar in ten is nonzero (sparse witness vectors).
    out.push((
        "mostly zeros",
        pts.clone(),
        (0..n)
            .map(|i| if i % 10 == 3 { uniform[i] } else { [0; 4] })
            .collect(),
    ));
    // Small scalars (below 2^16: booleans, counters, range-checked values): every window but
    // the lowest is zero.
    out.push((
        "small scalars",
        pts.clone(),
        (0..n)
            .map(|_| [r.gen_range(0..0x10000u64), 0, 0, 0])
            .collect(),
    ));
    // Values just below r: r − 1 − i.
    out.push((
        "values near r",
        pts.clone(),
        (0..n)
            .map(|i| {
                let mut k = rm1;
                k[0] -= (i % 17) as u64; // r − 1 ends in a word far above 17 on every curve
                k
            })
            .collect(),
    ));
    // Repeated points with repeated scalars, and P, −P with r − 1 and 1.
    out.push((
        "few points, few scalars",
        (0..n).map(|i| base[i % 3]).collect(),
        (0..n).map(|i| uniform[i % 5]).collect(),
    ));
    out
}

/// One named input with what every check needs: arkworks' points, ours, the scalars, and
/// arkworks' sum as our affine point.
pub struct Case<O: Oracle> {
    pub what: &'static str,
    pub ark: Vec<ArkAffine<O>>,
    pub ours: Vec<OurAffine<O>>,
    pub scalars: Vec<Scalar>,
    pub want: OurAffine<O>,
}

/// [`adversarial_inputs`] as [`Case`]s.
pub fn cases<O: Oracle>(n: usize, base: &[ArkAffine<O>], seed: u64) -> Vec<Case<O>> {
    adversarial_inputs::<O>(n, base, seed)
        .into_iter()
        .map(|(what, ark, scalars)| Case {
            what,
            want: ark_msm::<O>(&ark, &scalars),
            ours: ark.iter().map(O::ours).collect(),
            ark,
            scalars,
        })
        .collect()
}

/// `check(n, case)` for every size in `sizes` and every [`Case`] of that size, all drawn from one
/// set of random points.
pub fn for_each_case<O: Oracle>(sizes: &[usize], seed: u64, mut check: impl FnMut(usize, Case<O>)) {
    let base = random_points::<O>(sizes.iter().copied().max().unwrap_or(0), seed);
    for (k, &n) in sizes.iter().enumerate() {
        for case in cases::<O>(n, &base, seed + k as u64) {
            check(n, case);
        }
    }
}

/// The test template: for every curve (its [`Oracle`], a seed, whether it has the GLV
/// endomorphism) and every field representation (`mont64`, `radix30`, `radix51`: the
/// [`fastmsm_msm::Limbs`] the MSM runs in), a test `curve::representation::name` that calls the
/// function of the same name in the invoking module, `name::<Oracle>(limbs, seed, glv)`. A
/// failure names the curve, the representation and the check, e.g.
/// `door::bls12_377::radix51::door_matches_arkworks`.
#[allow(unused_macros)]
macro_rules! every_curve_and_representation {
    ($($name:ident),+ $(,)?) => {
        every_curve_and_representation!(@curve bn254, crate::common::Bn254O, 100, true; $($name),+);
        every_curve_and_representation!(@curve bls12_377, crate::common::Bls377O, 200, true; $($name),+);
        every_curve_and_representation!(@curve bls12_381, crate::common::Bls381O, 300, true; $($name),+);
        every_curve_and_representation!(@curve ed_on_bls12_377, crate::common::EdO, 400, false; $($name),+);
    };
    (@curve $curve:ident, $o:ty, $seed:expr, $glv:expr; $($name:ident),+) => {
        mod $curve {
            every_curve_and_representation!(@repr mont64, Mont64, $o, $seed, $glv; $($name),+);
            every_curve_and_representation!(@repr radix30, Radix30, $o, $seed + 10, $glv; $($name),+);
            every_curve_and_representation!(@repr radix51, Radix51, $o, $seed + 20, $glv; $($name),+);
        }
    };
    (@repr $repr:ident, $limbs:ident, $o:ty, $seed:expr, $glv:expr; $($name:ident),+) => {
        pub mod $repr {
            $(
                #[test]
                fn $name() {
                    super::super::$name::<$o>(fastmsm_msm::Limbs::$limbs, $seed, $glv);
                }
            )+
        }
    };
}
