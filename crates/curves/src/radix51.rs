//! The same fields and curves in a third representation, for WebAssembly with relaxed SIMD: 51-bit
//! limbs multiplied with floating-point FMA.
//!
//! [`crate::radix30::Fp30`] multiplies 30-bit limbs with 64-bit integer products, 13 × 13 of them
//! per BLS12-377 product plus as many for the reduction. Emmart's method
//! (`fastmsm_mont::emmart`) multiplies 51-bit limbs as doubles: one fused multiply-add gives the
//! high half of a 102-bit product, a second one its low half, and `f64x2.relaxed_madd` does that
//! for two limb pairs at once. A BLS12-377 element is 8 such limbs; the `mont-bench` widget
//! measures the product at about 100 ns against 123.5 ns for the 30-bit one in Chromium
//! (benches/results/mont-wasm-*.json).
//!
//! [`Fp51<P, N>`] is that representation as a [`PrimeField`]: `N` limbs of 51 bits in u64 words,
//! holding `a·2^(51N) mod p`, always fully reduced. Its product is
//! [`emmart_mul_paired`] on the lanes of this build ([`BestLanes`]): `f64x2.relaxed_madd` in a
//! wasm32 build with `+relaxed-simd` (the `wasm-demo/relaxed` package), two scalar
//! `f64::mul_add` elsewhere — the portable twin that `cargo test` checks natively (there a
//! hardware FMA; in a wasm32 build without relaxed SIMD a slow software FMA, so nothing there
//! should use this type). The twin curves are made from [`crate::curves`] as in
//! [`crate::radix30`], and [`ToRadix51`] converts with one product each way.

// Limb loops use index notation like fastmsm-mont.
#![allow(clippy::needless_range_loop)]

use core::fmt;
use core::marker::PhantomData;
use core::ops::{Add, Mul, Sub};

use fastmsm_mont::FieldParams;
use fastmsm_mont::emmart::{
    self, BestLanes, EmmartParams, emmart_mul_interleaved, emmart_mul_interleaved_lazy,
    emmart_mul_paired,
};
use fastmsm_mont::fields;
use fastmsm_mont::primitives::{add_mod_radix, sub_lazy_radix, sub_mod_radix};
use fastmsm_mont::words::{self, Canonical};

use crate::curves::{Bls12_377, Bls12_381, Bn254, EdBls12_377};
use crate::field::{
    Bls12_377Fq, Bls12_377Fr, Bls12_381Fq, Bls12_381Fr, Bn254Fq, Bn254Fr, Fp, FpConfig, PrimeField,
    element_traits, pow_from_top,
};
use crate::sw::SwCurve;
use crate::te::TeCurve;

/// Limb width of this representation.
pub const LIMB_BITS: u32 = emmart::LIMB_BITS;

/// What an [`Fp51`] needs: the modulus and its Emmart constants
/// (`fastmsm_mont::fields::*::EMMART`).
pub trait Fp51Config<const N: usize>:
    'static + Copy + Clone + fmt::Debug + PartialEq + Eq + Send + Sync
{
    /// The field's modulus and name.
    const FIELD: &'static FieldParams;
    /// Emmart's constants for `N` limbs of 51 bits.
    const EMMART: EmmartParams<N>;
}

/// An element of the prime field `P` in Montgomery form with `N` limbs of 51 bits (u64 words),
/// value below p.
pub struct Fp51<P: Fp51Config<N>, const N: usize> {
    limbs: [u64; N],
    _field: PhantomData<P>,
}

/// `x` halved modulo the odd `p` (x < p): `x/2` or `(x + p)/2`. (p < 2^383, so x + p fits.)
const fn half_mod(x: &Canonical, p: &Canonical) -> Canonical {
    let mut t = *x;
    if t[0] & 1 == 1 {
        let mut carry = 0u64;
        let mut i = 0;
        while i < t.len() {
            let s = t[i] as u128 + p[i] as u128 + carry as u128;
            t[i] = s as u64;
            carry = (s >> 64) as u64;
            i += 1;
        }
    }
    let mut i = 0;
    while i < t.len() {
        let up = if i + 1 < t.len() { t[i + 1] << 63 } else { 0 };
        t[i] = (t[i] >> 1) | up;
        i += 1;
    }
    t
}

impl<P: Fp51Config<N>, const N: usize> Fp51<P, N> {
    /// Wraps limbs that are already in Montgomery form, each below 2^51, value below p.
    #[inline(always)]
    pub const fn from_limbs(limbs: [u64; N]) -> Self {
        Fp51 {
            limbs,
            _field: PhantomData,
        }
    }

    /// The Montgomery-form limbs.
    #[inline(always)]
    pub const fn limbs(&self) -> [u64; N] {
        self.limbs
    }

    /// The same element as a 64-bit [`Fp`] constant, at compile time: `Fp` holds `a·2^(64M)`,
    /// this type `a·2^(51N)`, so it is `51N − 64M` modular doublings of the words, or halvings
    /// where that is negative (BN254: 5 × 51 = 255 < 256).
    pub const fn from_fp64_const<Q: FpConfig<M>, const M: usize>(x: &Fp<Q, M>) -> Self {
        let p = &P::FIELD.modulus;
        let q = &Q::FIELD.modulus;
        let mut i = 0;
        while i < p.len() {
            assert!(p[i] == q[i], "converting between different fields");
            i += 1;
        }
        let mut t = words::widen(x.mont());
        let (r51, r64) = (LIMB_BITS as usize * N, 64 * M);
        let mut i = 0;
        while i < r51.abs_diff(r64) {
            t = if r51 > r64 {
                words::double_mod(&t, p)
            } else {
                half_mod(&t, p)
            };
            i += 1;
        }
        Self::from_limbs(words::to_limbs(&t, LIMB_BITS))
    }

    /// Montgomery product on 51-bit limbs with FMA (`fastmsm_mont::emmart`).
    #[inline(always)]
    fn mont_mul(a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        emmart_mul_paired::<BestLanes, N>(a, b, &P::EMMART)
    }
}

/// Conversion between a 64-bit [`Fp`] and its 51-bit twin, one Montgomery product each way (the
/// exponents of [`crate::radix30::ToRadix30`] with 51 in place of 30).
pub trait ToRadix51: PrimeField {
    /// The 51-bit twin field.
    type R51: PrimeField;
    /// This element in 51-bit limbs.
    fn to_r51(&self) -> Self::R51;
    /// The 64-bit element of a 51-bit one.
    fn from_r51(x: &Self::R51) -> Self;
}

/// 2^e mod p as `N` limbs of `w` bits.
const fn pow2_limbs<const N: usize>(field: &FieldParams, e: u32, w: u32) -> [u64; N] {
    words::to_limbs(&field.pow2_mod(e), w)
}

impl<P: Fp51Config<N>, const N: usize> PrimeField for Fp51<P, N> {
    const ZERO: Self = Self::from_limbs([0; N]);
    /// 1 in Montgomery form: 2^(51N) mod p.
    const ONE: Self = Self::from_limbs(P::EMMART.mont.r);

    fn params() -> &'static FieldParams {
        P::FIELD
    }

    #[inline(always)]
    fn double(&self) -> Self {
        *self + *self
    }

    #[inline(always)]
    fn square(&self) -> Self {
        *self * *self
    }

    fn inverse(&self) -> Option<Self> {
        if self.is_zero() {
            return None;
        }
        let mut two = [0u64; words::WORDS];
        two[0] = 2;
        Some(self.pow(&words::sub(&P::FIELD.modulus, &two)))
    }

    /// Left-to-right square-and-multiply from the exponent's top set bit.
    fn pow(&self, e: &[u64]) -> Self {
        pow_from_top(self, e)
    }

    #[inline(always)]
    fn is_zero(&self) -> bool {
        let mut any = 0u64;
        for j in 0..N {
            any |= self.limbs[j];
        }
        any == 0
    }

    fn from_canonical(x: &Canonical) -> Option<Self> {
        if !P::FIELD.is_reduced(x) {
            return None;
        }
        let plain: [u64; N] = words::to_limbs(x, LIMB_BITS);
        Some(Self::from_limbs(Self::mont_mul(&plain, &P::EMMART.mont.r2)))
    }

    fn to_canonical(&self) -> Canonical {
        words::from_limbs(&Self::mont_mul(&self.limbs, &P::EMMART.mont.one), LIMB_BITS)
    }

    fn from_u64(x: u64) -> Self {
        let mut c = [0u64; words::WORDS];
        c[0] = x;
        Self::from_canonical(&c).expect("every modulus of fastmsm-mont exceeds 2^64")
    }

    /// The products in lockstep, row by row (`fastmsm_mont::emmart::emmart_mul_interleaved`).
    #[inline(always)]
    fn mul_many<const K: usize>(a: [Self; K], b: [Self; K]) -> [Self; K] {
        let out = emmart_mul_interleaved::<BestLanes, N, K>(
            core::array::from_fn(|i| &a[i].limbs),
            core::array::from_fn(|i| &b[i].limbs),
            &P::EMMART,
        );
        out.map(Self::from_limbs)
    }

    /// The squares as products in lockstep (no dedicated squaring: in the paired schedule it
    /// would save only part of the a·a half of a product).
    #[inline(always)]
    fn square_many<const K: usize>(a: [Self; K]) -> [Self; K] {
        Self::mul_many(a, a)
    }

    /// Below 2p where 4p ≤ 2^(51N) (`fastmsm_mont::emmart::emmart_mul_interleaved_lazy`, whose
    /// comment has the bound): the BLS12 base fields and BLS12-377's scalar field, not BN254's.
    #[inline(always)]
    fn mul_many_lazy<const K: usize>(a: [Self; K], b: [Self; K]) -> [Self; K] {
        let out = emmart_mul_interleaved_lazy::<BestLanes, N, K>(
            core::array::from_fn(|i| &a[i].limbs),
            core::array::from_fn(|i| &b[i].limbs),
            &P::EMMART,
        );
        out.map(Self::from_limbs)
    }

    /// a − b + p, one borrow chain (`fastmsm_mont::primitives::sub_lazy_radix`), where lazy
    /// products accept operands below 2p (the same fields as [`PrimeField::mul_many_lazy`]).
    #[inline(always)]
    fn sub_lazy(self, rhs: Self) -> Self {
        if P::EMMART.lazy {
            Self::from_limbs(sub_lazy_radix(
                &self.limbs,
                &rhs.limbs,
                &P::EMMART.mont.p,
                LIMB_BITS,
            ))
        } else {
            self - rhs
        }
    }
}

impl<P: Fp51Config<N>, const N: usize> Add for Fp51<P, N> {
    type Output = Self;
    /// a + b mod p (`fastmsm_mont::primitives::add_mod_radix`).
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Self::from_limbs(add_mod_radix(
            &self.limbs,
            &rhs.limbs,
            &P::EMMART.mont.p,
            LIMB_BITS,
        ))
    }
}

impl<P: Fp51Config<N>, const N: usize> Sub for Fp51<P, N> {
    type Output = Self;
    /// a − b mod p (`fastmsm_mont::primitives::sub_mod_radix`).
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Self::from_limbs(sub_mod_radix(
            &self.limbs,
            &rhs.limbs,
            &P::EMMART.mont.p,
            LIMB_BITS,
        ))
    }
}

impl<P: Fp51Config<N>, const N: usize> Mul for Fp51<P, N> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self::from_limbs(Self::mont_mul(&self.limbs, &rhs.limbs))
    }
}

element_traits!(Fp51, Fp51Config, limbs, "/r51");

macro_rules! fp51_config {
    ($(#[$doc:meta])* $config:ident, $alias:ident, $module:ident, $fp64:ty) => {
        #[doc = concat!("Config of [`", stringify!($alias), "`]: `fastmsm_mont::fields::", stringify!($module), "::EMMART`.")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $config;
        impl Fp51Config<{ fields::$module::N51 }> for $config {
            const FIELD: &'static FieldParams = &fields::$module::FIELD;
            const EMMART: EmmartParams<{ fields::$module::N51 }> = fields::$module::EMMART;
        }
        $(#[$doc])*
        pub type $alias = Fp51<$config, { fields::$module::N51 }>;

        impl ToRadix51 for $fp64 {
            type R51 = $alias;
            #[inline]
            fn to_r51(&self) -> $alias {
                const N51: usize = fields::$module::N51;
                const N64: usize = fields::$module::N64;
                const TO: [u64; N51] = pow2_limbs(
                    &fields::$module::FIELD,
                    2 * LIMB_BITS * N51 as u32 - 64 * N64 as u32,
                    LIMB_BITS,
                );
                // x·2^(64·N64) as 51-bit limbs, times 2^(102·N51 − 64·N64), divided by 2^(51·N51)
                let plain: [u64; N51] = words::to_limbs(&words::widen(self.mont()), LIMB_BITS);
                Fp51::from_limbs(<$alias>::mont_mul(&plain, &TO))
            }
            #[inline]
            fn from_r51(x: &$alias) -> $fp64 {
                const N51: usize = fields::$module::N51;
                const N64: usize = fields::$module::N64;
                const BACK: [u64; N64] = pow2_limbs(
                    &fields::$module::FIELD,
                    128 * N64 as u32 - LIMB_BITS * N51 as u32,
                    64,
                );
                let plain: [u64; N64] = words::truncate(&words::from_limbs(&x.limbs(), LIMB_BITS));
                // Fp's product divides by 2^(64·N64): x·2^(51·N51) · 2^(128·N64 − 51·N51) / 2^(64·N64)
                Fp::from_mont(plain) * Fp::from_mont(BACK)
            }
        }
    };
}

fp51_config!(
    /// BN254 base field, 5 limbs of 51 bits.
    Bn254Fq51Config, Bn254Fq51, bn254_fq, Bn254Fq
);
fp51_config!(
    /// BN254 scalar field, 5 limbs of 51 bits.
    Bn254Fr51Config, Bn254Fr51, bn254_fr, Bn254Fr
);
fp51_config!(
    /// BLS12-377 base field, 8 limbs of 51 bits.
    Bls12_377Fq51Config, Bls12_377Fq51, bls12_377_fq, Bls12_377Fq
);
fp51_config!(
    /// BLS12-377 scalar field (Ed-on-BLS12-377's base field), 5 limbs of 51 bits.
    Bls12_377Fr51Config, Bls12_377Fr51, bls12_377_fr, Bls12_377Fr
);
fp51_config!(
    /// BLS12-381 base field, 8 limbs of 51 bits.
    Bls12_381Fq51Config, Bls12_381Fq51, bls12_381_fq, Bls12_381Fq
);
fp51_config!(
    /// BLS12-381 scalar field, 5 limbs of 51 bits.
    Bls12_381Fr51Config, Bls12_381Fr51, bls12_381_fr, Bls12_381Fr
);

/// A short Weierstrass curve whose base field has a 51-bit twin, paired with its twin curve.
pub trait SwTwin51: SwCurve<Base: ToRadix51> {
    /// The same curve over `<Self::Base as ToRadix51>::R51`.
    type Twin: SwCurve<Base = <Self::Base as ToRadix51>::R51>;
}

/// A twisted Edwards curve whose base field has a 51-bit twin, paired with its twin curve.
pub trait TeTwin51: TeCurve<Base: ToRadix51> {
    /// The same curve over `<Self::Base as ToRadix51>::R51`.
    type Twin: TeCurve<Base = <Self::Base as ToRadix51>::R51>;
}

macro_rules! sw_twin51 {
    ($(#[$doc:meta])* $twin:ident, $curve:ty, $field:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $twin;
        impl SwCurve for $twin {
            type Base = $field;
            const NAME: &'static str = <$curve as SwCurve>::NAME;
            const B: $field = <$field>::from_fp64_const(&<$curve as SwCurve>::B);
            const GENERATOR_X: $field = <$field>::from_fp64_const(&<$curve as SwCurve>::GENERATOR_X);
            const GENERATOR_Y: $field = <$field>::from_fp64_const(&<$curve as SwCurve>::GENERATOR_Y);
            const SCALAR_MODULUS: Canonical = <$curve as SwCurve>::SCALAR_MODULUS;
        }
        impl SwTwin51 for $curve {
            type Twin = $twin;
        }
    };
}

sw_twin51!(
    /// [`Bn254`] over 51-bit limbs.
    Bn254R51, Bn254, Bn254Fq51
);
sw_twin51!(
    /// [`Bls12_377`] over 51-bit limbs.
    Bls12_377R51, Bls12_377, Bls12_377Fq51
);
sw_twin51!(
    /// [`Bls12_381`] over 51-bit limbs.
    Bls12_381R51, Bls12_381, Bls12_381Fq51
);

/// [`EdBls12_377`] over 51-bit limbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdBls12_377R51;
impl TeCurve for EdBls12_377R51 {
    type Base = Bls12_377Fr51;
    const NAME: &'static str = <EdBls12_377 as TeCurve>::NAME;
    const D: Bls12_377Fr51 = Fp51::from_fp64_const(&<EdBls12_377 as TeCurve>::D);
    const GENERATOR_X: Bls12_377Fr51 =
        Fp51::from_fp64_const(&<EdBls12_377 as TeCurve>::GENERATOR_X);
    const GENERATOR_Y: Bls12_377Fr51 =
        Fp51::from_fp64_const(&<EdBls12_377 as TeCurve>::GENERATOR_Y);
    const SCALAR_MODULUS: Canonical = <EdBls12_377 as TeCurve>::SCALAR_MODULUS;
}
impl TeTwin51 for EdBls12_377 {
    type Twin = EdBls12_377R51;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twin_constants_match() {
        assert_eq!(
            <Bls12_377R51 as SwCurve>::GENERATOR_X.to_canonical(),
            <Bls12_377 as SwCurve>::GENERATOR_X.to_canonical()
        );
        // BN254 and Ed-on-BLS12-377 are converted by halvings (51·5 < 64·4)
        assert_eq!(
            <Bn254R51 as SwCurve>::GENERATOR_Y.to_canonical(),
            <Bn254 as SwCurve>::GENERATOR_Y.to_canonical()
        );
        assert_eq!(
            <EdBls12_377R51 as TeCurve>::D,
            <EdBls12_377 as TeCurve>::D.to_r51()
        );
    }
}
