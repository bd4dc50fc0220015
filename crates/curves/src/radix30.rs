//! The same fields and curves in a second representation, for WebAssembly: 30-bit limbs.
//!
//! [`crate::field::Fp`] multiplies 64-bit words with `u64 × u64 → u128` products. WebAssembly has
//! no such instruction (each product becomes four 32-bit multiplications and carry handling), and
//! there [`Fp`] is slower than ark-ff. Mitscha-Baude's reduced radix (ZPrize 2022; see
//! `fastmsm_mont::reduced_radix`) keeps `N` limbs of 30 bits in 64-bit words, so a limb product
//! leaves four bits of headroom and the Montgomery loop carries only every `nSafe` steps. The
//! `mont-bench` widget measures that product at about 1.5× ark-ff's speed in Chromium, and 2.5× the
//! speed of [`Fp`]'s (benches/results/mont-wasm-*.json).
//!
//! [`Fp30<P, N>`] is that representation as a [`PrimeField`]: `N` limbs, each below 2^30, holding
//! `a·2^(30N) mod p`, always fully reduced. The twin curves ([`Bn254R30`], [`Bls12_377R30`],
//! [`Bls12_381R30`], [`EdBls12_377R30`]) are the four curves of [`crate::curves`] over it: their
//! constants are *converted* from the 64-bit ones at compile time ([`Fp30::from_fp64_const`]),
//! never typed again. [`ToRadix30`] converts elements both ways with one product each, which is
//! how an MSM moves its points into this representation and its result back
//! (`fastmsm_msm::radix30`).

// Limb loops use index notation like fastmsm-mont.
#![allow(clippy::needless_range_loop)]

use core::fmt;
use core::marker::PhantomData;
use core::ops::{Add, Mul, Sub};

use fastmsm_mont::fields;
use fastmsm_mont::primitives::{add_mod_radix, sub_mod_radix};
use fastmsm_mont::reduced_radix::mont_mul_reduced_radix;
use fastmsm_mont::words::{self, Canonical};
use fastmsm_mont::{FieldParams, MontParams};

use crate::curves::{Bls12_377, Bls12_381, Bn254, EdBls12_377};
use crate::field::{
    Bls12_377Fq, Bls12_377Fr, Bls12_381Fq, Bls12_381Fr, Bn254Fq, Bn254Fr, Fp, FpConfig, PrimeField,
    element_traits, pow_from_top,
};
use crate::sw::SwCurve;
use crate::te::TeCurve;

/// Limb width of this representation.
pub const LIMB_BITS: u32 = 30;

/// What an [`Fp30`] needs: the modulus and its 30-bit Montgomery constants
/// (`fastmsm_mont::fields::*::R30`).
pub trait Fp30Config<const N: usize>:
    'static + Copy + Clone + fmt::Debug + PartialEq + Eq + Send + Sync
{
    /// The field's modulus and name.
    const FIELD: &'static FieldParams;
    /// Montgomery constants for `N` limbs of 30 bits (R = 2^(30N) > 2p).
    const MONT: MontParams<N>;
}

/// An element of the prime field `P` in Montgomery form with `N` limbs of 30 bits. The limbs are
/// stored as u32 (half the memory of u64 words: points and buckets move through the caches twice
/// as fast) and widened to u64 for arithmetic, which in WebAssembly costs nothing
/// (`i64.load32_u`).
pub struct Fp30<P: Fp30Config<N>, const N: usize> {
    limbs: [u32; N],
    _field: PhantomData<P>,
}

/// u64 limbs (each below 2^30) to u32.
#[inline(always)]
const fn narrow<const N: usize>(x: &[u64; N]) -> [u32; N] {
    let mut out = [0u32; N];
    let mut i = 0;
    while i < N {
        out[i] = x[i] as u32;
        i += 1;
    }
    out
}

/// Are two canonical integers equal? (`const` comparison of moduli.)
const fn same_modulus(a: &Canonical, b: &Canonical) -> bool {
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl<P: Fp30Config<N>, const N: usize> Fp30<P, N> {
    /// Wraps limbs that are already in Montgomery form, each below 2^30, value below p.
    #[inline(always)]
    pub const fn from_limbs(limbs: [u64; N]) -> Self {
        Fp30 {
            limbs: narrow(&limbs),
            _field: PhantomData,
        }
    }

    /// The Montgomery-form limbs, widened to u64.
    #[inline(always)]
    pub const fn limbs(&self) -> [u64; N] {
        let mut out = [0u64; N];
        let mut i = 0;
        while i < N {
            out[i] = self.limbs[i] as u64;
            i += 1;
        }
        out
    }

    /// A constant from a canonical integer (`x·2^(30N) mod p` by modular doublings, compile time
    /// only). Panics if `x ≥ p`.
    pub const fn from_canonical_const(x: &Canonical) -> Self {
        let p = &P::FIELD.modulus;
        assert!(P::FIELD.is_reduced(x), "constant not below the modulus");
        let mut t = *x;
        let mut i = 0;
        while i < LIMB_BITS as usize * N {
            t = words::double_mod(&t, p);
            i += 1;
        }
        Self::from_limbs(words::to_limbs(&t, LIMB_BITS))
    }

    /// The same element as a 64-bit [`Fp`] constant, at compile time: `Fp` holds `a·2^(64M)`, this
    /// type `a·2^(30N)`, so it is `30N − 64M` modular doublings of the words. This is how the twin
    /// curves' constants are made from the ones typed in [`crate::curves`].
    pub const fn from_fp64_const<Q: FpConfig<M>, const M: usize>(x: &Fp<Q, M>) -> Self {
        let p = &P::FIELD.modulus;
        assert!(
            same_modulus(p, &Q::FIELD.modulus),
            "converting between different fields"
        );
        assert!(LIMB_BITS as usize * N >= 64 * M, "R30 must be at least R64");
        let mut t = words::widen(x.mont());
        let mut i = 0;
        while i < LIMB_BITS as usize * N - 64 * M {
            t = words::double_mod(&t, p);
            i += 1;
        }
        Self::from_limbs(words::to_limbs(&t, LIMB_BITS))
    }

    /// Montgomery product on 30-bit limbs (`fastmsm_mont::reduced_radix`).
    #[inline(always)]
    fn mont_mul(a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        mont_mul_reduced_radix::<LIMB_BITS, N>(a, b, &P::MONT)
    }
}

// ANCHOR: radix30_convert
/// Conversion between a 64-bit [`Fp`] and its 30-bit twin, one Montgomery product each way.
///
/// Into 30 bits: the 64-bit form holds x·2^(64M); read as a plain integer and multiplied (30-bit
/// Montgomery product, which divides by 2^(30N)) by the constant 2^(60N − 64M) mod p, it becomes
/// x·2^(30N). Back: the 64-bit product (dividing by 2^(64M)) of x·2^(30N) and 2^(128M − 30N) mod p
/// gives x·2^(64M).
pub trait ToRadix30: PrimeField {
    /// The 30-bit twin field.
    type R30: PrimeField;
    /// This element in 30-bit limbs.
    fn to_r30(&self) -> Self::R30;
    /// The 64-bit element of a 30-bit one.
    fn from_r30(x: &Self::R30) -> Self;
}
// ANCHOR_END: radix30_convert

/// 2^e mod p as `N` limbs of `w` bits.
const fn pow2_limbs<const N: usize>(field: &FieldParams, e: u32, w: u32) -> [u64; N] {
    words::to_limbs(&field.pow2_mod(e), w)
}

impl<P: Fp30Config<N>, const N: usize> PrimeField for Fp30<P, N> {
    const ZERO: Self = Self::from_limbs([0; N]);
    /// 1 in Montgomery form: 2^(30N) mod p.
    const ONE: Self = Self::from_limbs(P::MONT.r);

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
        let mut any = 0u32;
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
        Some(Self::from_limbs(Self::mont_mul(&plain, &P::MONT.r2)))
    }

    fn to_canonical(&self) -> Canonical {
        words::from_limbs(&Self::mont_mul(&self.limbs(), &P::MONT.one), LIMB_BITS)
    }

    fn from_u64(x: u64) -> Self {
        let mut c = [0u64; words::WORDS];
        c[0] = x;
        Self::from_canonical(&c).expect("every modulus of fastmsm-mont exceeds 2^64")
    }
}

// ANCHOR: radix30_add_sub
impl<P: Fp30Config<N>, const N: usize> Add for Fp30<P, N> {
    type Output = Self;
    /// a + b mod p ([`add_mod_radix`]).
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Self::from_limbs(add_mod_radix(
            &self.limbs(),
            &rhs.limbs(),
            &P::MONT.p,
            LIMB_BITS,
        ))
    }
}

impl<P: Fp30Config<N>, const N: usize> Sub for Fp30<P, N> {
    type Output = Self;
    /// a − b mod p ([`sub_mod_radix`]).
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Self::from_limbs(sub_mod_radix(
            &self.limbs(),
            &rhs.limbs(),
            &P::MONT.p,
            LIMB_BITS,
        ))
    }
}
// ANCHOR_END: radix30_add_sub

impl<P: Fp30Config<N>, const N: usize> Mul for Fp30<P, N> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self::from_limbs(Self::mont_mul(&self.limbs(), &rhs.limbs()))
    }
}

element_traits!(Fp30, Fp30Config, limbs, "/r30");

macro_rules! fp30_config {
    ($(#[$doc:meta])* $config:ident, $alias:ident, $module:ident, $fp64:ty) => {
        #[doc = concat!("Config of [`", stringify!($alias), "`]: `fastmsm_mont::fields::", stringify!($module), "::R30`.")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $config;
        impl Fp30Config<{ fields::$module::N30 }> for $config {
            const FIELD: &'static FieldParams = &fields::$module::FIELD;
            const MONT: MontParams<{ fields::$module::N30 }> = fields::$module::R30;
        }
        $(#[$doc])*
        pub type $alias = Fp30<$config, { fields::$module::N30 }>;

        impl ToRadix30 for $fp64 {
            type R30 = $alias;
            #[inline]
            fn to_r30(&self) -> $alias {
                const N30: usize = fields::$module::N30;
                const N64: usize = fields::$module::N64;
                const TO: [u64; N30] = pow2_limbs(
                    &fields::$module::FIELD,
                    2 * LIMB_BITS * N30 as u32 - 64 * N64 as u32,
                    LIMB_BITS,
                );
                let plain: [u64; N30] = words::to_limbs(&words::widen(self.mont()), LIMB_BITS);
                Fp30::from_limbs(<$alias>::mont_mul(&plain, &TO))
            }
            #[inline]
            fn from_r30(x: &$alias) -> $fp64 {
                const N30: usize = fields::$module::N30;
                const N64: usize = fields::$module::N64;
                const BACK: [u64; N64] = pow2_limbs(
                    &fields::$module::FIELD,
                    128 * N64 as u32 - LIMB_BITS * N30 as u32,
                    64,
                );
                let plain: [u64; N64] = words::truncate(&words::from_limbs(&x.limbs(), LIMB_BITS));
                // Fp's product divides by 2^(64·N64): x·2^(30·N30) · 2^(128·N64 − 30·N30) / 2^(64·N64)
                Fp::from_mont(plain) * Fp::from_mont(BACK)
            }
        }
    };
}

fp30_config!(
    /// BN254 base field, 9 limbs of 30 bits.
    Bn254Fq30Config, Bn254Fq30, bn254_fq, Bn254Fq
);
fp30_config!(
    /// BN254 scalar field, 9 limbs of 30 bits.
    Bn254Fr30Config, Bn254Fr30, bn254_fr, Bn254Fr
);
fp30_config!(
    /// BLS12-377 base field, 13 limbs of 30 bits.
    Bls12_377Fq30Config, Bls12_377Fq30, bls12_377_fq, Bls12_377Fq
);
fp30_config!(
    /// BLS12-377 scalar field (Ed-on-BLS12-377's base field), 9 limbs of 30 bits.
    Bls12_377Fr30Config, Bls12_377Fr30, bls12_377_fr, Bls12_377Fr
);
fp30_config!(
    /// BLS12-381 base field, 13 limbs of 30 bits.
    Bls12_381Fq30Config, Bls12_381Fq30, bls12_381_fq, Bls12_381Fq
);
fp30_config!(
    /// BLS12-381 scalar field, 9 limbs of 30 bits.
    Bls12_381Fr30Config, Bls12_381Fr30, bls12_381_fr, Bls12_381Fr
);

/// A short Weierstrass curve whose base field has a 30-bit twin, paired with its twin curve.
pub trait SwTwin30: SwCurve<Base: ToRadix30> {
    /// The same curve over `<Self::Base as ToRadix30>::R30`.
    type Twin: SwCurve<Base = <Self::Base as ToRadix30>::R30>;
}

/// A twisted Edwards curve whose base field has a 30-bit twin, paired with its twin curve.
pub trait TeTwin30: TeCurve<Base: ToRadix30> {
    /// The same curve over `<Self::Base as ToRadix30>::R30`.
    type Twin: TeCurve<Base = <Self::Base as ToRadix30>::R30>;
}

// ANCHOR: radix30_twins
macro_rules! sw_twin30 {
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
        impl SwTwin30 for $curve {
            type Twin = $twin;
        }
    };
}

sw_twin30!(
    /// [`Bn254`] over 30-bit limbs.
    Bn254R30, Bn254, Bn254Fq30
);
sw_twin30!(
    /// [`Bls12_377`] over 30-bit limbs.
    Bls12_377R30, Bls12_377, Bls12_377Fq30
);
sw_twin30!(
    /// [`Bls12_381`] over 30-bit limbs.
    Bls12_381R30, Bls12_381, Bls12_381Fq30
);

/// [`EdBls12_377`] over 30-bit limbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdBls12_377R30;
impl TeCurve for EdBls12_377R30 {
    type Base = Bls12_377Fr30;
    const NAME: &'static str = <EdBls12_377 as TeCurve>::NAME;
    const D: Bls12_377Fr30 = Fp30::from_fp64_const(&<EdBls12_377 as TeCurve>::D);
    const GENERATOR_X: Bls12_377Fr30 =
        Fp30::from_fp64_const(&<EdBls12_377 as TeCurve>::GENERATOR_X);
    const GENERATOR_Y: Bls12_377Fr30 =
        Fp30::from_fp64_const(&<EdBls12_377 as TeCurve>::GENERATOR_Y);
    const SCALAR_MODULUS: Canonical = <EdBls12_377 as TeCurve>::SCALAR_MODULUS;
}
impl TeTwin30 for EdBls12_377 {
    type Twin = EdBls12_377R30;
}
// ANCHOR_END: radix30_twins

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<F: ToRadix30>() {
        for k in [0u64, 1, 2, 3, 0xdead_beef, u64::MAX] {
            let x = F::from_u64(k).square() + F::from_u64(k);
            let y = x.to_r30();
            assert_eq!(y.to_canonical(), x.to_canonical(), "same value");
            assert_eq!(F::from_r30(&y), x, "and back");
        }
        let m1 = -F::ONE;
        assert_eq!(m1.to_r30(), -F::R30::ONE);
    }

    #[test]
    fn conversions_round_trip() {
        round_trip::<Bn254Fq>();
        round_trip::<Bn254Fr>();
        round_trip::<Bls12_377Fq>();
        round_trip::<Bls12_377Fr>();
        round_trip::<Bls12_381Fq>();
        round_trip::<Bls12_381Fr>();
    }

    #[test]
    fn twin_constants_match() {
        assert_eq!(
            <Bls12_377R30 as SwCurve>::GENERATOR_X.to_canonical(),
            <Bls12_377 as SwCurve>::GENERATOR_X.to_canonical()
        );
        assert_eq!(
            <Bn254R30 as SwCurve>::B.to_canonical(),
            <Bn254 as SwCurve>::B.to_canonical()
        );
        assert_eq!(
            <EdBls12_377R30 as TeCurve>::D,
            <EdBls12_377 as TeCurve>::D.to_r30()
        );
        assert_eq!(
            Bls12_381Fq30::from_canonical_const(&[5, 0, 0, 0, 0, 0]),
            Bls12_381Fq30::from_u64(5)
        );
    }
}
