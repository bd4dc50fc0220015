//! Shared test plumbing: arkworks → fastmsm conversions and a seeded RNG.
#![allow(dead_code)]

use core::marker::PhantomData;

use ark_ec::short_weierstrass::SWCurveConfig;
use ark_ec::twisted_edwards::TECurveConfig;
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{BigInteger, PrimeField as ArkPrimeField};
use fastmsm_curves::field::PrimeField;
use fastmsm_curves::sw::{self, SwCurve};
use fastmsm_curves::te::{self, TeCurve};
use fastmsm_curves::{Canonical, Group};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// A fixed-seed RNG, so failures reproduce.
pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// Little-endian words of any length, widened (zero-padded) to a canonical array.
pub fn canonical(words: &[u64]) -> Canonical {
    let mut c = [0u64; 6];
    for (i, w) in words.iter().enumerate() {
        if i < 6 {
            c[i] = *w;
        } else {
            assert_eq!(*w, 0, "integer does not fit six words");
        }
    }
    c
}

/// An arkworks field element as ours (through its canonical integer).
pub fn fe<F: PrimeField, A: ArkPrimeField>(a: A) -> F {
    F::from_canonical(&canonical(a.into_bigint().as_ref())).expect("arkworks element below p")
}

/// Our field element as arkworks'.
pub fn ark_fe<A: ArkPrimeField, F: PrimeField>(a: F) -> A {
    let c = a.to_canonical();
    let bytes: Vec<u8> = c.iter().flat_map(|w| w.to_le_bytes()).collect();
    let x = A::from_le_bytes_mod_order(&bytes);
    assert_eq!(
        canonical(x.into_bigint().as_ref()),
        c,
        "our element was not below p"
    );
    x
}

/// A coordinate system of ours paired with the arkworks curve it is checked against.
pub trait Oracle {
    /// Our projective type.
    type G: Group;
    /// arkworks' projective type.
    type Ark: CurveGroup;
    /// arkworks affine → our affine.
    fn ours(a: &<Self::Ark as CurveGroup>::Affine) -> <Self::G as Group>::Affine;
}

/// Short Weierstrass: `G` is `sw::Jacobian<C>` or `sw::Xyzz<C>`, `P` the arkworks config.
pub struct Sw<G, C, P>(PhantomData<(G, C, P)>);

impl<G, C, P> Oracle for Sw<G, C, P>
where
    C: SwCurve,
    G: Group<Affine = sw::Affine<C>>,
    P: SWCurveConfig,
    P::BaseField: ArkPrimeField,
{
    type G = G;
    type Ark = ark_ec::short_weierstrass::Projective<P>;
    fn ours(a: &ark_ec::short_weierstrass::Affine<P>) -> sw::Affine<C> {
        match a.xy() {
            None => sw::Affine::IDENTITY,
            Some((x, y)) => sw::Affine::new_unchecked(fe(x), fe(y)),
        }
    }
}

/// Twisted Edwards: `te::Extended<C>` against the arkworks config `P`.
pub struct Te<C, P>(PhantomData<(C, P)>);

impl<C, P> Oracle for Te<C, P>
where
    C: TeCurve,
    P: TECurveConfig,
    P::BaseField: ArkPrimeField,
{
    type G = te::Extended<C>;
    type Ark = ark_ec::twisted_edwards::Projective<P>;
    fn ours(a: &ark_ec::twisted_edwards::Affine<P>) -> te::Affine<C> {
        te::Affine::new_unchecked(fe(a.x), fe(a.y))
    }
}

/// Words of the modulus of arkworks' scalar field.
pub fn ark_scalar_modulus<A: ArkPrimeField>() -> Canonical {
    canonical(A::MODULUS.as_ref())
}

/// Words of an arkworks big integer.
pub fn words<B: BigInteger>(b: &B) -> Vec<u64> {
    b.as_ref().to_vec()
}
