//! Twin curves: each curve of [`crate::curves`] over its base field in another representation.
//!
//! A twin has the same equation, generator and group order; its constants are *converted* from
//! the 64-bit ones at compile time ([`Fp::convert_const`](crate::field::Fp::convert_const)), never
//! typed again. [`SwTwin<B>`] and [`TeTwin<B>`] pair a curve with its twin in the backend `B`;
//! every curve is its own twin in [`Mont64`], so code written for "the twin in `B`" runs on the
//! original curve too. The twins themselves are declared in [`crate::radix30`] and
//! [`crate::radix51`].

use crate::field::{Backend, Mont64, TwinField};
use crate::sw::SwCurve;
use crate::te::TeCurve;

/// A short Weierstrass curve whose base field has a twin in `B`, paired with its twin curve.
pub trait SwTwin<B: Backend>: SwCurve<Base: TwinField<B>> {
    /// The same curve over `<Self::Base as TwinField<B>>::Twin`.
    type Twin: SwCurve<Base = <Self::Base as TwinField<B>>::Twin>;
}

/// A twisted Edwards curve whose base field has a twin in `B`, paired with its twin curve.
pub trait TeTwin<B: Backend>: TeCurve<Base: TwinField<B>> {
    /// The same curve over `<Self::Base as TwinField<B>>::Twin`.
    type Twin: TeCurve<Base = <Self::Base as TwinField<B>>::Twin>;
}

impl<C: SwCurve<Base: TwinField<Mont64, Twin = C::Base>>> SwTwin<Mont64> for C {
    type Twin = C;
}

impl<C: TeCurve<Base: TwinField<Mont64, Twin = C::Base>>> TeTwin<Mont64> for C {
    type Twin = C;
}

// ANCHOR: twin_curves
/// Declares the twin of `$curve` in `$backend`: a new curve type over `$field` whose constants
/// (`$c`, every one of the base field's type) are the original's, converted at compile time.
/// `$curve_trait` / `$twin_trait` are `SwCurve` / `SwTwin` or `TeCurve` / `TeTwin`, in scope
/// where it is called.
macro_rules! twin_curve {
    (
        $(#[$doc:meta])* $twin:ident = $curve:ty, over $field:ty, in $backend:ty,
        as $curve_trait:ident / $twin_trait:ident converting [$($c:ident),+]
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $twin;
        impl $curve_trait for $twin {
            type Base = $field;
            const NAME: &'static str = <$curve as $curve_trait>::NAME;
            $(const $c: $field = <$field>::convert_const(&<$curve as $curve_trait>::$c);)+
            const SCALAR_MODULUS: $crate::Canonical = <$curve as $curve_trait>::SCALAR_MODULUS;
            const COFACTOR: $crate::Canonical = <$curve as $curve_trait>::COFACTOR;
        }
        impl $twin_trait<$backend> for $curve {
            type Twin = $twin;
        }
    };
}
// ANCHOR_END: twin_curves
pub(crate) use twin_curve;

/// Declares one representation of all six fields and four curves: the configs and aliases of
/// the fields (twins of the 64-bit ones) and the twin curves over them, named by the caller
/// (stable Rust cannot build identifiers, so each name is spelled out once).
macro_rules! representation {
    (
        backend: $backend:ty, limbs: $n:ident, mont: $mont:expr, product: $product:expr, in $what:literal;
        fields: [$bn_fq:ident $bn_fq_c:ident, $bn_fr:ident $bn_fr_c:ident,
                 $b377_fq:ident $b377_fq_c:ident, $b377_fr:ident $b377_fr_c:ident,
                 $b381_fq:ident $b381_fq_c:ident, $b381_fr:ident $b381_fr_c:ident];
        curves: [$bn:ident, $b377:ident, $b381:ident, $ed:ident];
    ) => {
        use $crate::curves::{Bls12_377, Bls12_381, Bn254, EdBls12_377};
        use $crate::field::{Bls12_377Fq, Bls12_377Fr, Bls12_381Fq, Bls12_381Fr, Bn254Fq, Bn254Fr};
        use $crate::sw::SwCurve;
        use $crate::te::TeCurve;
        use $crate::twin::{SwTwin, TeTwin};

        $crate::field::field_configs! {
            backend: $backend, limbs: $n, mont: $mont, product: $product;
            #[doc = concat!("BN254 base field in ", $what, ".")]
            $bn_fq_c, $bn_fq = bn254_fq, twin of Bn254Fq;
            #[doc = concat!("BN254 scalar field in ", $what, ".")]
            $bn_fr_c, $bn_fr = bn254_fr, twin of Bn254Fr;
            #[doc = concat!("BLS12-377 base field in ", $what, ".")]
            $b377_fq_c, $b377_fq = bls12_377_fq, twin of Bls12_377Fq;
            #[doc = concat!("BLS12-377 scalar field (Ed-on-BLS12-377's base field) in ", $what, ".")]
            $b377_fr_c, $b377_fr = bls12_377_fr, twin of Bls12_377Fr;
            #[doc = concat!("BLS12-381 base field in ", $what, ".")]
            $b381_fq_c, $b381_fq = bls12_381_fq, twin of Bls12_381Fq;
            #[doc = concat!("BLS12-381 scalar field in ", $what, ".")]
            $b381_fr_c, $b381_fr = bls12_381_fr, twin of Bls12_381Fr;
        }

        $crate::twin::twin_curve!(
            #[doc = concat!("[`Bn254`] in ", $what, ".")]
            $bn = Bn254, over $bn_fq, in $backend,
            as SwCurve / SwTwin converting [B, GENERATOR_X, GENERATOR_Y]
        );
        $crate::twin::twin_curve!(
            #[doc = concat!("[`Bls12_377`] in ", $what, ".")]
            $b377 = Bls12_377, over $b377_fq, in $backend,
            as SwCurve / SwTwin converting [B, GENERATOR_X, GENERATOR_Y]
        );
        $crate::twin::twin_curve!(
            #[doc = concat!("[`Bls12_381`] in ", $what, ".")]
            $b381 = Bls12_381, over $b381_fq, in $backend,
            as SwCurve / SwTwin converting [B, GENERATOR_X, GENERATOR_Y]
        );
        $crate::twin::twin_curve!(
            #[doc = concat!("[`EdBls12_377`] in ", $what, ".")]
            $ed = EdBls12_377, over $b377_fr, in $backend,
            as TeCurve / TeTwin converting [D, GENERATOR_X, GENERATOR_Y]
        );
    };
}
pub(crate) use representation;
