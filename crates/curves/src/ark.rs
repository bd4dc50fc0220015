//! The bridge to arkworks (feature `ark`, on by default): `From`/`Into` between arkworks' affine
//! points and ours, and between arkworks' scalar-field elements and the `[u64; 4]` scalars the
//! MSM takes.
//!
//! A prover built on arkworks keeps its types; the conversions below are the one place where a
//! coordinate crosses from one representation to the other. The pairing of each of our curves with
//! its arkworks config is stated once, in the table at the bottom of this file.
//!
//! ```
//! use ark_ec::AffineRepr;
//! use fastmsm_curves::{Bn254, sw};
//!
//! let g = ark_bn254::G1Affine::generator();
//! let ours: sw::Affine<Bn254> = g.into();
//! assert_eq!(ours, sw::Affine::GENERATOR);
//! let back: ark_bn254::G1Affine = ours.into();
//! assert_eq!(back, g);
//! ```

use ark_ec::AffineRepr;
use ark_ec::short_weierstrass::{self as ark_sw, SWCurveConfig};
use ark_ec::twisted_edwards::{self as ark_te, TECurveConfig};
use ark_ff::BigInt;

use crate::field::PrimeField;
use crate::sw::{self, SwCurve};
use crate::te::{self, TeCurve};
use crate::{Bls12_377, Bls12_381, Bn254, Canonical, EdBls12_377};

/// An arkworks short-Weierstrass config that has a twin among our curves.
pub trait ArkSw: SWCurveConfig<BaseField: ark_ff::PrimeField> {
    /// Our curve with the same equation, base field and generator.
    type Curve: SwCurve;
}

/// An arkworks twisted-Edwards config that has a twin among our curves.
pub trait ArkTe: TECurveConfig<BaseField: ark_ff::PrimeField> {
    /// Our curve with the same equation, base field and generator.
    type Curve: TeCurve;
}

/// An arkworks base-field element as ours. The two fields have the same modulus (checked against
/// arkworks in `tests/constants.rs`), so the canonical integer is below our p too.
fn coordinate<F: PrimeField, A: ark_ff::PrimeField>(a: A) -> F {
    let mut c: Canonical = [0; 6];
    for (o, w) in c.iter_mut().zip(a.into_bigint().as_ref()) {
        *o = *w;
    }
    F::from_canonical(&c).expect("the arkworks twin has the same modulus")
}

/// Our base-field element as arkworks'.
fn ark_coordinate<A: ark_ff::PrimeField, F: PrimeField>(f: &F) -> A {
    let c = f.to_canonical();
    let mut b = A::BigInt::default();
    let words = b.as_mut();
    let len = words.len();
    words.copy_from_slice(&c[..len]);
    A::from_bigint(b).expect("the arkworks twin has the same modulus")
}

impl<P: ArkSw> From<ark_sw::Affine<P>> for sw::Affine<P::Curve> {
    fn from(a: ark_sw::Affine<P>) -> Self {
        match a.xy() {
            None => sw::Affine::IDENTITY,
            Some((x, y)) => sw::Affine::new_unchecked(coordinate(x), coordinate(y)),
        }
    }
}

impl<P: ArkSw> From<sw::Affine<P::Curve>> for ark_sw::Affine<P> {
    fn from(p: sw::Affine<P::Curve>) -> Self {
        if p.infinity {
            ark_sw::Affine::identity()
        } else {
            ark_sw::Affine::new_unchecked(ark_coordinate(&p.x), ark_coordinate(&p.y))
        }
    }
}

impl<P: ArkTe> From<ark_te::Affine<P>> for te::Affine<P::Curve> {
    fn from(a: ark_te::Affine<P>) -> Self {
        te::Affine::new_unchecked(coordinate(a.x), coordinate(a.y))
    }
}

impl<P: ArkTe> From<te::Affine<P::Curve>> for ark_te::Affine<P> {
    fn from(p: te::Affine<P::Curve>) -> Self {
        ark_te::Affine::new_unchecked(ark_coordinate(&p.x), ark_coordinate(&p.y))
    }
}

/// An arkworks scalar-field element (any field of four 64-bit words: the scalar fields of all four
/// curves) as the little-endian integer the MSM takes. `From` cannot be written here: both
/// types are foreign to this crate.
pub fn scalar_from_ark<F: ark_ff::PrimeField<BigInt = BigInt<4>>>(s: &F) -> [u64; 4] {
    s.into_bigint().0
}

/// A `[u64; 4]` scalar as an element of arkworks' field `F`, or `None` if it is not below the
/// field's modulus.
pub fn scalar_to_ark<F: ark_ff::PrimeField<BigInt = BigInt<4>>>(k: &[u64; 4]) -> Option<F> {
    F::from_bigint(BigInt(*k))
}

// ANCHOR: ark_pairs
/// The four curves and their arkworks configs: the only place they are paired.
macro_rules! pair {
    ($trait:ident, $ours:ty, $ark:ty) => {
        impl $trait for $ark {
            type Curve = $ours;
        }
    };
}
pair!(ArkSw, Bn254, ark_bn254::g1::Config);
pair!(ArkSw, Bls12_377, ark_bls12_377::g1::Config);
pair!(ArkSw, Bls12_381, ark_bls12_381::g1::Config);
pair!(ArkTe, EdBls12_377, ark_ed_on_bls12_377::EdwardsConfig);
// ANCHOR_END: ark_pairs
