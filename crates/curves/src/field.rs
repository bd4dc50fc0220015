//! Prime-field elements over the moduli of `fastmsm-mont`, kept in Montgomery form.
//!
//! [`Fp<P, N>`] is `N` little-endian 64-bit words holding `a·R mod p` (R = 2^(64·N)), always fully
//! reduced (below p). Products use the 64-bit-limb Montgomery product of `fastmsm-mont`: gnark's
//! no-carry CIOS where the modulus allows it (all six fields of the book do), plain CIOS otherwise.
//! Additions and subtractions are the usual add-then-conditionally-subtract. Inversion is Fermat's
//! little theorem, `a⁻¹ = a^(p−2)`: slow, but it runs once per conversion to affine.
//!
//! The only typed constant per field is its modulus, in [`fastmsm_mont::fields`]; the config
//! types below only point at it.

// Word loops use index notation (s[j], p[j]) like the algorithms in fastmsm-mont.
#![allow(clippy::needless_range_loop)]

use core::fmt;
use core::marker::PhantomData;
use core::ops::{Add, Mul, Neg, Sub};

use fastmsm_mont::cios::cios;
use fastmsm_mont::fields;
use fastmsm_mont::no_carry::{NoCarryNotApplicable, NoCarryParams, cios_no_carry};
use fastmsm_mont::primitives::{adc, sbb, subtract_p_if_needed};
use fastmsm_mont::words::{self, Canonical};
use fastmsm_mont::{FieldParams, MontParams};

/// What an [`Fp`] needs to know about its field: the modulus and its derived 64-bit Montgomery
/// constants, all taken from [`fastmsm_mont::fields`].
pub trait FpConfig<const N: usize>:
    'static + Copy + Clone + fmt::Debug + PartialEq + Eq + Send + Sync
{
    /// The field's modulus and name.
    const FIELD: &'static FieldParams;
    /// Montgomery constants for 64-bit limbs (μ, R mod p, R² mod p).
    const MONT: MontParams<N>;
    /// The no-carry CIOS constants, when the modulus's top word allows them.
    const NO_CARRY: Result<NoCarryParams<N>, NoCarryNotApplicable>;
}

/// An element of the prime field described by `P`, in Montgomery form, `N` 64-bit words.
pub struct Fp<P: FpConfig<N>, const N: usize> {
    mont: [u64; N],
    _field: PhantomData<P>,
}

/// The arithmetic the curve formulas use, implemented by every [`Fp`]. Curves are generic over
/// this trait, so a formula reads the same for every field.
pub trait PrimeField:
    'static
    + Copy
    + Eq
    + fmt::Debug
    + Send
    + Sync
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// The field's modulus and name.
    fn params() -> &'static FieldParams;
    /// `2a`.
    fn double(&self) -> Self;
    /// `a²`.
    fn square(&self) -> Self;
    /// `a⁻¹`, or `None` for zero.
    fn inverse(&self) -> Option<Self>;
    /// `a^e` for an exponent given as little-endian 64-bit words.
    fn pow(&self, e: &[u64]) -> Self;
    /// Is this zero?
    fn is_zero(&self) -> bool;
    /// From a canonical integer (not Montgomery form); `None` if it is not below p.
    fn from_canonical(x: &Canonical) -> Option<Self>;
    /// To the canonical integer (out of Montgomery form).
    fn to_canonical(&self) -> Canonical;
    /// A small integer.
    fn from_u64(x: u64) -> Self;
    /// `K` independent products `a[i]·b[i]`. A representation whose single product waits on its
    /// own dependency chain computes them side by side ([`crate::radix51`]); by default they are
    /// `K` ordinary products.
    #[inline(always)]
    fn mul_many<const K: usize>(a: [Self; K], b: [Self; K]) -> [Self; K] {
        core::array::from_fn(|i| a[i] * b[i])
    }
    /// `K` independent squares, computed side by side where [`PrimeField::mul_many`] is.
    #[inline(always)]
    fn square_many<const K: usize>(a: [Self; K]) -> [Self; K] {
        a.map(|x| x.square())
    }
    /// [`PrimeField::mul_many`] whose results may be left not fully reduced (below 2p, congruent
    /// to the products) where the representation has room for it ([`crate::radix51`]). Such a
    /// result may only be an operand of further products (`*`, [`PrimeField::square`],
    /// [`PrimeField::mul_many`], this), which accept it and reduce fully; never of comparisons,
    /// additions or conversions. By default the products are fully reduced.
    #[inline(always)]
    fn mul_many_lazy<const K: usize>(a: [Self; K], b: [Self; K]) -> [Self; K] {
        Self::mul_many(a, b)
    }
    /// `self − rhs`, possibly not fully reduced (below 2p, congruent) where the representation
    /// has room for it ([`crate::radix51`]), under the rules of [`PrimeField::mul_many_lazy`]'s
    /// results: only ever an operand of products. It may be p when `self = rhs`, so it must not be
    /// one where that can happen and a zero would be tested (a batch inversion's input). By
    /// default the difference is fully reduced.
    #[inline(always)]
    fn sub_lazy(self, rhs: Self) -> Self {
        self - rhs
    }
}

impl<P: FpConfig<N>, const N: usize> Fp<P, N> {
    /// Wraps words that are already in Montgomery form and below p.
    pub const fn from_mont(mont: [u64; N]) -> Self {
        Fp {
            mont,
            _field: PhantomData,
        }
    }

    /// The Montgomery-form words `a·R mod p`.
    pub const fn mont(&self) -> &[u64; N] {
        &self.mont
    }

    /// A constant from a canonical integer, usable in `const` items: `x·R mod p` by 64·N modular
    /// doublings (compile-time only; at run time [`PrimeField::from_canonical`] is one product).
    /// Panics if `x ≥ p`.
    pub const fn from_canonical_const(x: &Canonical) -> Self {
        let p = &P::FIELD.modulus;
        assert!(P::FIELD.is_reduced(x), "constant not below the modulus");
        let mut t = *x;
        let mut i = 0;
        while i < 64 * N {
            t = words::double_mod(&t, p);
            i += 1;
        }
        Self::from_mont(words::truncate(&t))
    }

    /// A constant from a big-endian hex string (see [`Fp::from_canonical_const`]).
    pub const fn from_hex(hex: &str) -> Self {
        Self::from_canonical_const(&words::parse_hex(hex))
    }

    /// Montgomery product `a·b·R⁻¹`: gnark's no-carry CIOS when the modulus allows it, CIOS
    /// otherwise. The choice is made on constants, so the branch folds away.
    #[inline(always)]
    fn mont_mul(a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        match &P::NO_CARRY {
            Ok(k) => cios_no_carry(a, b, k),
            Err(_) => cios(a, b, &P::MONT),
        }
    }
}

impl<P: FpConfig<N>, const N: usize> PrimeField for Fp<P, N> {
    const ZERO: Self = Self::from_mont([0; N]);
    /// 1 in Montgomery form: R mod p.
    const ONE: Self = Self::from_mont(P::MONT.r);

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
        // Fermat: a^(p−2) = a⁻¹ for a ≠ 0.
        let mut two = [0u64; words::WORDS];
        two[0] = 2;
        let e = words::sub(&P::FIELD.modulus, &two);
        Some(self.pow(&e))
    }

    fn pow(&self, e: &[u64]) -> Self {
        let mut acc = Self::ONE;
        for i in (0..64 * e.len()).rev() {
            acc = acc.square();
            if (e[i / 64] >> (i % 64)) & 1 == 1 {
                acc = acc * *self;
            }
        }
        acc
    }

    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.mont.iter().all(|&w| w == 0)
    }

    fn from_canonical(x: &Canonical) -> Option<Self> {
        if !P::FIELD.is_reduced(x) {
            return None;
        }
        let plain: [u64; N] = words::truncate(x);
        Some(Self::from_mont(Self::mont_mul(&plain, &P::MONT.r2)))
    }

    fn to_canonical(&self) -> Canonical {
        words::widen(&Self::mont_mul(&self.mont, &P::MONT.one))
    }

    fn from_u64(x: u64) -> Self {
        let mut c = [0u64; words::WORDS];
        c[0] = x;
        Self::from_canonical(&c).expect("every modulus of fastmsm-mont exceeds 2^64")
    }
}

impl<P: FpConfig<N>, const N: usize> Add for Fp<P, N> {
    type Output = Self;
    /// `a + b < 2p`: add with carry, then subtract p if the sum (with its carry) is ≥ p.
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        let mut s = [0u64; N];
        let mut c = 0;
        for j in 0..N {
            (s[j], c) = adc(self.mont[j], rhs.mont[j], c);
        }
        Self::from_mont(subtract_p_if_needed(&s, c, &P::MONT.p))
    }
}

impl<P: FpConfig<N>, const N: usize> Sub for Fp<P, N> {
    type Output = Self;
    /// `a − b`; if it borrows, add p back.
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        let mut d = [0u64; N];
        let mut borrow = 0;
        for j in 0..N {
            (d[j], borrow) = sbb(self.mont[j], rhs.mont[j], borrow);
        }
        if borrow == 1 {
            let mut c = 0;
            for j in 0..N {
                (d[j], c) = adc(d[j], P::MONT.p[j], c);
            }
        }
        Self::from_mont(d)
    }
}

impl<P: FpConfig<N>, const N: usize> Mul for Fp<P, N> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self::from_mont(Self::mont_mul(&self.mont, &rhs.mont))
    }
}

/// Negation, `Clone`, `Copy`, `PartialEq`, `Eq` and `Debug` for a field element type
/// `$ty<P, N>` whose config trait is `$config` and whose words are the array field `$words`
/// (`Fp`, `Fp30`, `Fp51`). Manual impls: derives would demand `P: Clone` etc. through the
/// PhantomData. Elements are always fully reduced, so word equality is field equality; it is taken
/// as an OR of XORs, since `==` on the arrays becomes a `memcmp` call. `$tag` names the
/// representation in the `Debug` form (e.g. `bn254-fq/r30(0x3)`).
macro_rules! element_traits {
    ($ty:ident, $config:ident, $words:ident, $tag:literal) => {
        impl<P: $config<N>, const N: usize> core::ops::Neg for $ty<P, N> {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                Self::ZERO - self
            }
        }
        impl<P: $config<N>, const N: usize> Clone for $ty<P, N> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<P: $config<N>, const N: usize> Copy for $ty<P, N> {}
        impl<P: $config<N>, const N: usize> PartialEq for $ty<P, N> {
            #[inline(always)]
            fn eq(&self, other: &Self) -> bool {
                let mut diff = 0;
                for j in 0..N {
                    diff |= self.$words[j] ^ other.$words[j];
                }
                diff == 0
            }
        }
        impl<P: $config<N>, const N: usize> Eq for $ty<P, N> {}
        impl<P: $config<N>, const N: usize> core::fmt::Debug for $ty<P, N> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                $crate::field::fmt_element(f, P::FIELD.name, $tag, &self.to_canonical())
            }
        }
    };
}
pub(crate) use element_traits;

element_traits!(Fp, FpConfig, mont, "");

/// Writes `name` + `tag` + `(0x…)`, the canonical value `c` in hex: the `Debug` form of every
/// field element type (`tag` names the representation, e.g. `/r30`).
pub fn fmt_element(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    tag: &str,
    c: &Canonical,
) -> fmt::Result {
    write!(f, "{name}{tag}(0x")?;
    let mut started = false;
    for w in c.iter().rev() {
        if started {
            write!(f, "{w:016x}")?;
        } else if *w != 0 {
            write!(f, "{w:x}")?;
            started = true;
        }
    }
    if !started {
        f.write_str("0")?;
    }
    f.write_str(")")
}

/// `x^e` by left-to-right square-and-multiply from the exponent's top set bit (`e` as
/// little-endian 64-bit words): [`PrimeField::pow`] of the reduced-radix twins.
pub fn pow_from_top<F: PrimeField>(x: &F, e: &[u64]) -> F {
    let mut acc = F::ONE;
    let top = e
        .iter()
        .rposition(|&w| w != 0)
        .map_or(0, |j| 64 * j + 64 - e[j].leading_zeros() as usize);
    for i in (0..top).rev() {
        acc = acc.square();
        if (e[i / 64] >> (i % 64)) & 1 == 1 {
            acc = acc * *x;
        }
    }
    acc
}

macro_rules! fp_config {
    ($(#[$doc:meta])* $config:ident, $alias:ident, $module:ident) => {
        #[doc = concat!("Config of [`", stringify!($alias), "`]: points at `fastmsm_mont::fields::", stringify!($module), "`.")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $config;
        impl FpConfig<{ fields::$module::N64 }> for $config {
            const FIELD: &'static FieldParams = &fields::$module::FIELD;
            const MONT: MontParams<{ fields::$module::N64 }> = fields::$module::W64;
            const NO_CARRY: Result<NoCarryParams<{ fields::$module::N64 }>, NoCarryNotApplicable> =
                fields::$module::NO_CARRY;
        }
        $(#[$doc])*
        pub type $alias = Fp<$config, { fields::$module::N64 }>;
    };
}

fp_config!(
    /// BN254 base field (4 words).
    Bn254FqConfig, Bn254Fq, bn254_fq
);
fp_config!(
    /// BN254 scalar field (4 words).
    Bn254FrConfig, Bn254Fr, bn254_fr
);
fp_config!(
    /// BLS12-377 base field (6 words).
    Bls12_377FqConfig, Bls12_377Fq, bls12_377_fq
);
fp_config!(
    /// BLS12-377 scalar field (4 words); also the base field of Ed-on-BLS12-377.
    Bls12_377FrConfig, Bls12_377Fr, bls12_377_fr
);
fp_config!(
    /// BLS12-381 base field (6 words).
    Bls12_381FqConfig, Bls12_381Fq, bls12_381_fq
);
fp_config!(
    /// BLS12-381 scalar field (4 words).
    Bls12_381FrConfig, Bls12_381Fr, bls12_381_fr
);
