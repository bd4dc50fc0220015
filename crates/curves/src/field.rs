//! Prime-field elements: one type, [`Fp<P, N>`], for every representation.
//!
//! An element is `N` limbs holding `a·R mod p` (Montgomery form, R = 2^(w·N) for limbs of w bits),
//! always fully reduced (below p). The config `P` ([`FpConfig`]) names the field, its constants
//! and its [`Backend`]: 64-bit words ([`Mont64`], the aliases below: [`Bn254Fq`], …), 30-bit limbs
//! ([`crate::radix30`]) or 51-bit limbs ([`crate::radix51`]). Everything that does not depend on
//! the representation is written here once: constants made at compile time, conversions from and
//! to canonical integers and between representations, inversion by Fermat's little theorem
//! (`a⁻¹ = a^(p−2)`: slow, but it runs once per conversion to affine), equality and `Debug`.
//!
//! The only typed constant per field is its modulus, in [`fastmsm_mont::fields`]; the configs
//! only point at it and at the limb constants derived from it there.

use core::fmt;
use core::marker::PhantomData;
use core::ops::{Add, Mul, Neg, Sub};

use fastmsm_mont::words::{self, Canonical};
use fastmsm_mont::{FieldParams, MontParams};

pub use crate::backend::{Backend, Limb, Mont64, Radix30, Radix51};

/// What an [`Fp`] needs to know about its field: the modulus, the backend that stores and
/// multiplies its elements, and that backend's constants for `N` limbs, all taken from
/// [`fastmsm_mont::fields`].
pub trait FpConfig<const N: usize>:
    'static + Copy + Clone + fmt::Debug + PartialEq + Eq + Send + Sync
{
    /// The representation: limb type and width, and the arithmetic.
    type Backend: Backend;
    /// The field's modulus and name.
    const FIELD: &'static FieldParams;
    /// Montgomery constants for `N` limbs of the backend's width (μ, p, R mod p, R² mod p).
    const MONT: MontParams<N>;
    /// The backend's own product constants.
    const PRODUCT: <Self::Backend as Backend>::Product<N>;
}

/// The limb type of the config `P`'s backend.
type LimbOf<P, const N: usize> = <<P as FpConfig<N>>::Backend as Backend>::Limb;

/// An element of the prime field described by `P`, in Montgomery form, `N` limbs of the width
/// of `P`'s backend.
pub struct Fp<P: FpConfig<N>, const N: usize> {
    limbs: [LimbOf<P, N>; N],
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
    /// own dependency chain computes them side by side ([`Radix51`]); by default they are
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
    /// to the products) where the representation has room for it ([`Radix51`]). Such a
    /// result may only be an operand of further products (`*`, [`PrimeField::square`],
    /// [`PrimeField::mul_many`], this), which accept it and reduce fully; never of comparisons,
    /// additions or conversions. By default the products are fully reduced.
    #[inline(always)]
    fn mul_many_lazy<const K: usize>(a: [Self; K], b: [Self; K]) -> [Self; K] {
        Self::mul_many(a, b)
    }
    /// `self − rhs`, possibly not fully reduced (below 2p, congruent) where the representation
    /// has room for it ([`Radix51`]), under the rules of [`PrimeField::mul_many_lazy`]'s
    /// results: only ever an operand of products. It may be p when `self = rhs`, so it must not be
    /// one where that can happen and a zero would be tested (a batch inversion's input). By
    /// default the difference is fully reduced.
    #[inline(always)]
    fn sub_lazy(self, rhs: Self) -> Self {
        self - rhs
    }
}

/// The same bytes read as u32 limbs, u64 limbs or the backend's limbs: how the `const` functions
/// below move between `[u64; N]` and `[L; N]`. Stable Rust cannot call a trait method in a
/// `const fn`, so they tell the two limb types (the only implementors of the sealed [`Limb`])
/// apart by [`Limb::BITS`] instead.
union Pun<L: Copy, const N: usize> {
    w32: [u32; N],
    w64: [u64; N],
    limbs: [L; N],
}

/// Limbs widened to u64 as stored limbs (each below 2^32 where `L` is u32).
#[inline(always)]
const fn narrow<L: Limb, const N: usize>(x: &[u64; N]) -> [L; N] {
    if L::BITS == 64 {
        // SAFETY: L is u64 (sealed), so [L; N] and [u64; N] are the same type.
        unsafe { Pun::<L, N> { w64: *x }.limbs }
    } else {
        let mut y = [0u32; N];
        let mut i = 0;
        while i < N {
            y[i] = x[i] as u32;
            i += 1;
        }
        // SAFETY: L is u32 (sealed), and the first 4N bytes of the union are y's.
        unsafe { Pun::<L, N> { w32: y }.limbs }
    }
}

/// Stored limbs widened to u64.
#[inline(always)]
const fn widen<L: Limb, const N: usize>(x: &[L; N]) -> [u64; N] {
    if L::BITS == 64 {
        // SAFETY: L is u64 (sealed).
        unsafe { Pun::<L, N> { limbs: *x }.w64 }
    } else {
        // SAFETY: L is u32 (sealed): the first 4N bytes are the limbs.
        let y = unsafe { Pun::<L, N> { limbs: *x }.w32 };
        let mut out = [0u64; N];
        let mut i = 0;
        while i < N {
            out[i] = y[i] as u64;
            i += 1;
        }
        out
    }
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

/// `x·2^shift mod p` for a signed shift, by modular doublings or halvings (compile time only).
const fn shift_mod(x: &Canonical, p: &Canonical, shift: i64) -> Canonical {
    let mut t = *x;
    let mut i = 0;
    while i < shift.unsigned_abs() {
        t = if shift > 0 {
            words::double_mod(&t, p)
        } else {
            half_mod(&t, p)
        };
        i += 1;
    }
    t
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

impl<P: FpConfig<N>, const N: usize> Fp<P, N> {
    /// Bits per limb of this representation.
    pub const LIMB_BITS: u32 = P::Backend::LIMB_BITS;

    /// Wraps limbs (widened to u64) that are already in Montgomery form, each below
    /// 2^[`Fp::LIMB_BITS`], value below p.
    #[inline(always)]
    pub const fn from_limbs(limbs: [u64; N]) -> Self {
        Fp {
            limbs: narrow(&limbs),
            _field: PhantomData,
        }
    }

    /// The Montgomery-form limbs, widened to u64.
    #[inline(always)]
    pub const fn limbs(&self) -> [u64; N] {
        widen(&self.limbs)
    }

    /// A constant from a canonical integer, usable in `const` items: `x·R mod p` by modular
    /// doublings (compile time only; at run time [`PrimeField::from_canonical`] is one product).
    /// Panics if `x ≥ p`.
    pub const fn from_canonical_const(x: &Canonical) -> Self {
        assert!(P::FIELD.is_reduced(x), "constant not below the modulus");
        let shift = (Self::LIMB_BITS as usize * N) as i64;
        let t = shift_mod(x, &P::FIELD.modulus, shift);
        Self::from_limbs(words::to_limbs(&t, Self::LIMB_BITS))
    }

    /// A constant from a big-endian hex string (see [`Fp::from_canonical_const`]).
    pub const fn from_hex(hex: &str) -> Self {
        Self::from_canonical_const(&words::parse_hex(hex))
    }

    /// The same element of the same field in another representation, at compile time: `x`
    /// holds `a·R_Q`, this type `a·R_P`, so it is the difference of the exponents in modular
    /// doublings (or halvings where R_P < R_Q). This is how the twin curves' constants are made
    /// from the ones typed in [`crate::curves`]. Panics if the fields differ.
    pub const fn convert_const<Q: FpConfig<M>, const M: usize>(x: &Fp<Q, M>) -> Self {
        let p = &P::FIELD.modulus;
        assert!(
            same_modulus(p, &Q::FIELD.modulus),
            "converting between different fields"
        );
        let from_bits = Fp::<Q, M>::LIMB_BITS;
        let t = words::from_limbs(&x.limbs(), from_bits);
        let shift = (Self::LIMB_BITS as usize * N) as i64 - (from_bits as usize * M) as i64;
        let t = shift_mod(&t, p, shift);
        Self::from_limbs(words::to_limbs(&t, Self::LIMB_BITS))
    }

    /// The same element in another representation of the same field, by one product of the
    /// target representation (see [`Conversion`]). The fields must be the same (checked at
    /// compile time).
    #[inline]
    pub fn convert<Q: FpConfig<M>, const M: usize>(&self) -> Fp<Q, M> {
        Conversion::<P, Q, N, M>::run(self)
    }

    #[inline(always)]
    fn mont_mul(a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        P::Backend::mul(a, b, &P::MONT, &P::PRODUCT)
    }

    /// `K` products of the backend's `many` form ([`Backend::mul_many`] or its lazy variant;
    /// a function item, so the call is static).
    #[inline(always)]
    fn side_by_side<const K: usize>(
        a: [Self; K],
        b: [Self; K],
        many: impl FnOnce(
            [&[u64; N]; K],
            [&[u64; N]; K],
            &MontParams<N>,
            &<P::Backend as Backend>::Product<N>,
        ) -> [[u64; N]; K],
    ) -> [Self; K] {
        let (a, b) = (a.map(|x| x.limbs()), b.map(|x| x.limbs()));
        let out = many(
            core::array::from_fn(|i| &a[i]),
            core::array::from_fn(|i| &b[i]),
            &P::MONT,
            &P::PRODUCT,
        );
        out.map(Self::from_limbs)
    }
}

// ANCHOR: convert
/// Conversion from the representation `P` (R_P = 2^(w_P·N)) to `Q` (R_Q = 2^(w_Q·M)) of one field,
/// by one Montgomery product of `Q`, which divides by R_Q.
///
/// `x` is stored as the integer x·R_P mod p. Read as a plain integer in `Q`'s limbs and multiplied
/// by the constant 2^(2·w_Q·M − w_P·N) mod p, it becomes x·R_P·R_Q²/(R_P·R_Q) = x·R_Q.
pub struct Conversion<P, Q, const N: usize, const M: usize>(PhantomData<(P, Q)>);

impl<P: FpConfig<N>, Q: FpConfig<M>, const N: usize, const M: usize> Conversion<P, Q, N, M> {
    /// 2^(2·w_Q·M − w_P·N) mod p in `Q`'s limbs, made at compile time for each pair.
    const FACTOR: [u64; M] = {
        assert!(
            same_modulus(&P::FIELD.modulus, &Q::FIELD.modulus),
            "converting between different fields"
        );
        let to = Q::Backend::LIMB_BITS;
        let e = 2 * to * M as u32 - P::Backend::LIMB_BITS * N as u32;
        words::to_limbs(&P::FIELD.pow2_mod(e), to)
    };

    /// `x` in the representation `Q`.
    #[inline(always)]
    fn run(x: &Fp<P, N>) -> Fp<Q, M> {
        let plain: [u64; M] = words::to_limbs(
            &words::from_limbs(&x.limbs(), P::Backend::LIMB_BITS),
            Q::Backend::LIMB_BITS,
        );
        Fp::from_limbs(Fp::<Q, M>::mont_mul(&plain, &Self::FACTOR))
    }
}
// ANCHOR_END: convert

/// `x^e` by left-to-right square-and-multiply (`e` as little-endian 64-bit words).
fn pow_from_top<F: PrimeField>(x: &F, e: &[u64]) -> F {
    square_and_multiply(*x, F::ONE, e, |a, b| a * b)
}

/// The ladder behind [`PrimeField::pow`], over any multiplication so that a test can count it.
/// It starts at the exponent's top set bit with `x` itself, so an exponent of `b` bits with `h`
/// set bits costs `b − 1` squarings and `h − 1` multiplications: a Fermat inversion, exponent
/// `p − 2`, costs what the field's own modulus asks (362 products for BN254), not what the
/// widest field's words would (the book derives the count in the curves chapter).
fn square_and_multiply<T: Copy>(x: T, one: T, e: &[u64], mul: impl Fn(T, T) -> T) -> T {
    let bits = e
        .iter()
        .rposition(|&w| w != 0)
        .map_or(0, |j| 64 * j + 64 - e[j].leading_zeros() as usize);
    let Some(top) = bits.checked_sub(1) else {
        return one;
    };
    let mut acc = x;
    for i in (0..top).rev() {
        acc = mul(acc, acc);
        if (e[i / 64] >> (i % 64)) & 1 == 1 {
            acc = mul(acc, x);
        }
    }
    acc
}

#[cfg(test)]
mod ladder_tests {
    use super::square_and_multiply;
    use core::cell::Cell;

    /// `x^e mod m` and the number of products the ladder took.
    fn counted(x: u128, e: &[u64], m: u128) -> (u128, usize) {
        let products = Cell::new(0);
        let r = square_and_multiply(x % m, 1 % m, e, |a, b| {
            products.set(products.get() + 1);
            a * b % m
        });
        (r, products.get())
    }

    fn naive(x: u128, e: &[u64], m: u128) -> u128 {
        let mut r = 1 % m;
        for i in (0..64 * e.len()).rev() {
            r = r * r % m;
            if (e[i / 64] >> (i % 64)) & 1 == 1 {
                r = r * (x % m) % m;
            }
        }
        r
    }

    #[test]
    fn the_ladder_costs_the_exponents_own_bits() {
        let m = (1u128 << 61) - 1; // a prime, so that products of residues fit a u128
        let cases: [&[u64]; 8] = [
            &[0],
            &[1],
            &[2],
            &[0b1011],
            &[u64::MAX],
            &[0, 1],
            &[0x8000_0000_0000_0001, 0, 0, 0, 0, 0],
            &[
                0x3c20_8c16_d87c_fd45,
                0x9781_6a91_6871_ca8d,
                0xb850_45b6_8181_585d,
                0x3064_4e72_e131_a029,
                0,
                0,
            ],
        ];
        for e in cases {
            let bits = e
                .iter()
                .rposition(|&w| w != 0)
                .map_or(0, |j| 64 * j + 64 - e[j].leading_zeros() as usize);
            let ones: usize = e.iter().map(|w| w.count_ones() as usize).sum();
            let expected = if bits == 0 {
                0
            } else {
                (bits - 1) + (ones - 1)
            };
            for x in [0u128, 1, 2, 0x1234_5678_9abc_def0, m - 1] {
                let (r, products) = counted(x, e, m);
                assert_eq!(r, naive(x, e, m), "{x}^{e:x?}");
                assert_eq!(products, expected, "products for {e:x?}");
            }
        }
        // The last case is BN254's p − 2 (254 bits, 110 set), words padded as the field's are:
        // 253 squarings and 109 multiplications.
        assert_eq!(counted(3, cases[7], m).1, 362);
    }
}

impl<P: FpConfig<N>, const N: usize> PrimeField for Fp<P, N> {
    const ZERO: Self = Self::from_limbs([0; N]);
    /// 1 in Montgomery form: R mod p.
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
        // Fermat: a^(p−2) = a⁻¹ for a ≠ 0.
        let mut two = [0u64; words::WORDS];
        two[0] = 2;
        Some(self.pow(&words::sub(&P::FIELD.modulus, &two)))
    }

    fn pow(&self, e: &[u64]) -> Self {
        pow_from_top(self, e)
    }

    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.limbs().iter().fold(0, |any, &w| any | w) == 0
    }

    fn from_canonical(x: &Canonical) -> Option<Self> {
        if !P::FIELD.is_reduced(x) {
            return None;
        }
        let plain: [u64; N] = words::to_limbs(x, Self::LIMB_BITS);
        Some(Self::from_limbs(Self::mont_mul(&plain, &P::MONT.r2)))
    }

    fn to_canonical(&self) -> Canonical {
        words::from_limbs(
            &Self::mont_mul(&self.limbs(), &P::MONT.one),
            Self::LIMB_BITS,
        )
    }

    fn from_u64(x: u64) -> Self {
        let mut c = [0u64; words::WORDS];
        c[0] = x;
        Self::from_canonical(&c).expect("every modulus of fastmsm-mont exceeds 2^64")
    }

    #[inline(always)]
    fn mul_many<const K: usize>(a: [Self; K], b: [Self; K]) -> [Self; K] {
        if P::Backend::SIDE_BY_SIDE {
            Self::side_by_side(a, b, P::Backend::mul_many)
        } else {
            core::array::from_fn(|i| a[i] * b[i])
        }
    }

    #[inline(always)]
    fn square_many<const K: usize>(a: [Self; K]) -> [Self; K] {
        if P::Backend::SIDE_BY_SIDE {
            Self::mul_many(a, a)
        } else {
            a.map(|x| x.square())
        }
    }

    #[inline(always)]
    fn mul_many_lazy<const K: usize>(a: [Self; K], b: [Self; K]) -> [Self; K] {
        if P::Backend::SIDE_BY_SIDE {
            Self::side_by_side(a, b, P::Backend::mul_many_lazy)
        } else {
            Self::mul_many(a, b)
        }
    }

    #[inline(always)]
    fn sub_lazy(self, rhs: Self) -> Self {
        Self::from_limbs(P::Backend::sub_lazy(
            &self.limbs(),
            &rhs.limbs(),
            &P::MONT,
            &P::PRODUCT,
        ))
    }
}

impl<P: FpConfig<N>, const N: usize> Add for Fp<P, N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Self::from_limbs(P::Backend::add(&self.limbs(), &rhs.limbs(), &P::MONT.p))
    }
}

impl<P: FpConfig<N>, const N: usize> Sub for Fp<P, N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Self::from_limbs(P::Backend::sub(&self.limbs(), &rhs.limbs(), &P::MONT.p))
    }
}

impl<P: FpConfig<N>, const N: usize> Mul for Fp<P, N> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self::from_limbs(Self::mont_mul(&self.limbs(), &rhs.limbs()))
    }
}

impl<P: FpConfig<N>, const N: usize> Neg for Fp<P, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self::ZERO - self
    }
}

// Manual impls: derives would demand `P: Clone` etc. through the PhantomData.
impl<P: FpConfig<N>, const N: usize> Clone for Fp<P, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P: FpConfig<N>, const N: usize> Copy for Fp<P, N> {}

/// Elements are always fully reduced, so limb equality is field equality. It is taken as an OR
/// of XORs, since `==` on the arrays becomes a `memcmp` call.
impl<P: FpConfig<N>, const N: usize> PartialEq for Fp<P, N> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.limbs(), other.limbs());
        let mut diff = 0;
        for j in 0..N {
            diff |= a[j] ^ b[j];
        }
        diff == 0
    }
}
impl<P: FpConfig<N>, const N: usize> Eq for Fp<P, N> {}

/// The field's name, the backend's tag and the canonical value in hex: `bn254-fq/r30(0x3)`.
impl<P: FpConfig<N>, const N: usize> fmt::Debug for Fp<P, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}(0x", P::FIELD.name, P::Backend::TAG)?;
        let mut started = false;
        for w in self.to_canonical().iter().rev() {
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
}

/// A field with a twin in the representation `B`: the same field, its elements converted both
/// ways with one product each ([`Fp::convert`]). How an MSM moves its points into a faster
/// representation and its result back (`fastmsm_msm::twin`). Every field is its own twin in its
/// own representation ([`Mont64`] here), where the conversions are copies.
pub trait TwinField<B: Backend>: PrimeField {
    /// The same field in the representation `B`.
    type Twin: PrimeField;
    /// This element in the representation `B`.
    fn to_twin(&self) -> Self::Twin;
    /// The element of a twin.
    fn from_twin(x: &Self::Twin) -> Self;
}

impl<P: FpConfig<N, Backend = Mont64>, const N: usize> TwinField<Mont64> for Fp<P, N> {
    type Twin = Self;
    #[inline(always)]
    fn to_twin(&self) -> Self {
        *self
    }
    #[inline(always)]
    fn from_twin(x: &Self) -> Self {
        *x
    }
}

/// Configs and aliases of the six fields of [`fastmsm_mont::fields`] in one representation, each
/// config pointing at that module's constants (`field::…` inside `mont:` and `product:` names the
/// field's module), and each alias the [`TwinField`] of its 64-bit field in that representation.
macro_rules! field_configs {
    (
        backend: $backend:ty, limbs: $n:ident,
        mont: $mont:expr, product: $product:expr;
        $( $(#[$doc:meta])* $config:ident, $alias:ident = $module:ident $(, twin of $fp64:ty)?; )+
    ) => { $(
        #[doc = concat!("Config of [`", stringify!($alias), "`]: `fastmsm_mont::fields::", stringify!($module), "`.")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $config;
        impl $crate::field::FpConfig<{ fastmsm_mont::fields::$module::$n }> for $config {
            type Backend = $backend;
            const FIELD: &'static fastmsm_mont::FieldParams = &fastmsm_mont::fields::$module::FIELD;
            const MONT: fastmsm_mont::MontParams<{ fastmsm_mont::fields::$module::$n }> = {
                use fastmsm_mont::fields::$module as field;
                $mont
            };
            const PRODUCT: <$backend as $crate::field::Backend>::Product<{ fastmsm_mont::fields::$module::$n }> = {
                #[allow(unused_imports)]
                use fastmsm_mont::fields::$module as field;
                $product
            };
        }
        $(#[$doc])*
        pub type $alias = $crate::field::Fp<$config, { fastmsm_mont::fields::$module::$n }>;
        $(
            impl $crate::field::TwinField<$backend> for $fp64 {
                type Twin = $alias;
                #[inline]
                fn to_twin(&self) -> $alias {
                    self.convert()
                }
                #[inline]
                fn from_twin(x: &$alias) -> $fp64 {
                    x.convert()
                }
            }
        )?
    )+ };
}
pub(crate) use field_configs;

field_configs! {
    backend: Mont64, limbs: N64, mont: field::W64, product: field::NO_CARRY;
    /// BN254 base field (4 words).
    Bn254FqConfig, Bn254Fq = bn254_fq;
    /// BN254 scalar field (4 words).
    Bn254FrConfig, Bn254Fr = bn254_fr;
    /// BLS12-377 base field (6 words).
    Bls12_377FqConfig, Bls12_377Fq = bls12_377_fq;
    /// BLS12-377 scalar field (4 words); also the base field of Ed-on-BLS12-377.
    Bls12_377FrConfig, Bls12_377Fr = bls12_377_fr;
    /// BLS12-381 base field (6 words).
    Bls12_381FqConfig, Bls12_381Fq = bls12_381_fq;
    /// BLS12-381 scalar field (4 words).
    Bls12_381FrConfig, Bls12_381Fr = bls12_381_fr;
}
