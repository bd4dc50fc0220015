//! The GLV lattice, its short basis, and the per-scalar decomposition that rounds against it.
//!
//! The pairs (a, b) with a + b·λ ≡ 0 (mod r) form a lattice L of index r in ℤ². Splitting k means
//! finding a lattice point close to (k, 0): the difference (k1, k2) = (k, 0) − v then satisfies
//! k1 + k2·λ ≡ k and is as short as the basis allows. [`short_basis`] finds two vectors of L of
//! length about √r by the extended Euclidean algorithm on (r, λ), as Gallant, Lambert and
//! Vanstone do; [`Decomposer`] rounds (k, 0) in that basis (Babai's rounding) with precomputed
//! fixed-point multipliers, so the per-scalar work is a few word products and no division.

use num_bigint::{BigInt, BigUint, Sign};

use super::wide::{self, I256, MULTIPLIER_WORDS, SHIFT_BITS};
use crate::scalar::Scalar;

/// An integer as a sign and a magnitude below 2^256.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SignedScalar {
    /// Is the value negative (never set for zero)?
    pub negative: bool,
    /// |value|.
    pub magnitude: Scalar,
}

impl SignedScalar {
    /// From two's complement.
    pub(crate) fn from_i256(a: &I256) -> Self {
        let (negative, magnitude) = wide::to_sign_magnitude(a);
        SignedScalar {
            negative,
            magnitude,
        }
    }

    /// The value as a big integer.
    pub fn to_bigint(&self) -> BigInt {
        let m = BigInt::from(words_to_big(&self.magnitude));
        if self.negative { -m } else { m }
    }
}

/// Little-endian words as a big integer.
pub fn words_to_big(w: &[u64]) -> BigUint {
    let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    BigUint::from_bytes_le(&bytes)
}

/// A big integer as `N` little-endian words; panics if it does not fit.
pub fn big_to_words<const N: usize>(b: &BigUint) -> [u64; N] {
    let digits = b.to_u64_digits();
    assert!(digits.len() <= N, "{b} does not fit {N} words");
    let mut out = [0u64; N];
    out[..digits.len()].copy_from_slice(&digits);
    out
}

fn signed_from_big(b: &BigInt) -> SignedScalar {
    SignedScalar {
        negative: b.sign() == Sign::Minus,
        magnitude: big_to_words(b.magnitude()),
    }
}

// ANCHOR: short_basis
/// Two short vectors (a1, b1), (a2, b2) spanning {(a, b) : a + b·λ ≡ 0 (mod r)}, for 0 < λ < r.
///
/// The extended Euclidean algorithm on (r, λ) produces remainders r_i and coefficients t_i with
/// r_i ≡ t_i·λ (mod r), so every (r_i, −t_i) lies in the lattice. The remainders shrink while
/// |t_i| grows, and r_i·|t_(i+1)| + r_(i+1)·|t_i| = r; stopping at the first remainder below √r
/// balances the two. The first vector is that remainder's; the second is the shorter of its two
/// neighbours' (Gallant, Lambert, Vanstone 2001, §4).
pub fn short_basis(r: &BigInt, lambda: &BigInt) -> [(BigInt, BigInt); 2] {
    // (r_prev, t_prev), (r_cur, t_cur): consecutive remainders, r_i ≡ t_i·λ (mod r)
    let (mut r_prev, mut t_prev) = (r.clone(), BigInt::from(0));
    let (mut r_cur, mut t_cur) = (lambda.clone(), BigInt::from(1));
    // stop at the first r_cur < √r, compared exactly as r_cur² < r
    while &r_cur * &r_cur >= *r {
        let q = &r_prev / &r_cur;
        let r_next = &r_prev - &q * &r_cur;
        let t_next = &t_prev - &q * &t_cur;
        (r_prev, t_prev) = (r_cur, t_cur);
        (r_cur, t_cur) = (r_next, t_next);
    }
    let q = &r_prev / &r_cur;
    let (r_next, t_next) = (&r_prev - &q * &r_cur, &t_prev - &q * &t_cur);
    let v1 = (r_cur, -t_cur);
    let before = (r_prev, -t_prev);
    let after = (r_next, -t_next);
    let norm2 = |v: &(BigInt, BigInt)| &v.0 * &v.0 + &v.1 * &v.1;
    let v2 = if norm2(&before) <= norm2(&after) {
        before
    } else {
        after
    };
    [v1, v2]
}
// ANCHOR_END: short_basis

/// round(num / den) to the nearest integer, halves away from zero; den ≠ 0.
fn round_div(num: &BigInt, den: &BigInt) -> BigInt {
    let q = (num.magnitude() * 2u8 + den.magnitude()) / (den.magnitude() * 2u8);
    let q = BigInt::from(q);
    if (num.sign() == Sign::Minus) != (den.sign() == Sign::Minus) {
        -q
    } else {
        q
    }
}

/// A rounding multiplier g ≈ 2^m·x for a rational x, as a sign and words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Multiplier {
    negative: bool,
    words: [u64; MULTIPLIER_WORDS],
}

impl Multiplier {
    /// round(2^m · num / den).
    fn new(num: &BigInt, den: &BigInt) -> Self {
        let g = round_div(&(num << SHIFT_BITS), den);
        Multiplier {
            negative: g.sign() == Sign::Minus,
            words: big_to_words(g.magnitude()),
        }
    }

    /// round(k·g / 2^m), as two's complement: the coefficient c ≈ k·x.
    fn apply(&self, k: &Scalar) -> I256 {
        let c = wide::mul_shift_round(k, &self.words);
        wide::from_sign_magnitude(self.negative, &c)
    }
}

/// A scalar split k ≡ k1 + k2·λ (mod r).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// k1.
    pub k1: SignedScalar,
    /// k2.
    pub k2: SignedScalar,
}

/// Splits scalars below r against a short basis of the GLV lattice: everything derived once, the
/// per-scalar work in fixed-width words ([`Decomposer::decompose`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decomposer {
    /// The basis (a1, b1), (a2, b2), two's complement.
    basis: [[I256; 2]; 2],
    /// The same basis, signed.
    basis_signed: [[SignedScalar; 2]; 2],
    /// g1 ≈ 2^m·b2/D and g2 ≈ −2^m·b1/D, D = a1·b2 − a2·b1 = ±r.
    g: [Multiplier; 2],
    /// Inclusive bounds on |k1| and |k2|, proved in [`Decomposer::new`].
    bounds: [Scalar; 2],
}

impl Decomposer {
    /// The decomposer for the lattice of λ modulo r. Panics unless 0 < λ < r < 2^256.
    pub fn new(r: &BigUint, lambda: &BigUint) -> Self {
        assert!(
            lambda > &BigUint::from(0u8) && lambda < r,
            "λ must lie in (0, r)"
        );
        let (r, lambda) = (BigInt::from(r.clone()), BigInt::from(lambda.clone()));
        let [(a1, b1), (a2, b2)] = short_basis(&r, &lambda);
        let det = &a1 * &b2 - &a2 * &b1;
        assert_eq!(
            det.magnitude(),
            r.magnitude(),
            "the basis must span the whole lattice"
        );
        let g = [Multiplier::new(&b2, &det), Multiplier::new(&(-&b1), &det)];
        // ANCHOR: bound
        // Babai's rounding: (k, 0) = μ1·v1 + μ2·v2 with μ1 = k·b2/D, μ2 = −k·b1/D, and
        // (k1, k2) = (μ1 − c1)·v1 + (μ2 − c2)·v2. The multiplier g is 2^m·μ/k to within ½, so
        // k·g/2^m is μ to within k/2^(m+1) < r/2^(m+1), and c (its rounding) is μ to within
        // δ = ½ + r/2^(m+1). Hence |k1| ≤ δ(|a1| + |a2|) and |k2| ≤ δ(|b1| + |b2|), floored
        // because k1, k2 are integers.
        let bound = |x: &BigInt, y: &BigInt| {
            let s = x.magnitude() + y.magnitude();
            let one = BigUint::from(1u8);
            (s * ((&one << SHIFT_BITS) + r.magnitude())) >> (SHIFT_BITS + 1)
        };
        // ANCHOR_END: bound
        let bounds = [
            big_to_words(&bound(&a1, &a2)),
            big_to_words(&bound(&b1, &b2)),
        ];
        let s = |x: &BigInt| signed_from_big(x);
        let basis_signed = [[s(&a1), s(&b1)], [s(&a2), s(&b2)]];
        let tc = |x: &SignedScalar| wide::from_sign_magnitude(x.negative, &x.magnitude);
        Decomposer {
            basis: basis_signed.map(|v| v.map(|x| tc(&x))),
            basis_signed,
            g,
            bounds,
        }
    }

    // ANCHOR: decompose
    /// Splits `k` (below r): c1 = round(k·b2/D), c2 = round(−k·b1/D), then
    /// (k1, k2) = (k, 0) − c1·(a1, b1) − c2·(a2, b2). Every step is modulo 2^256, exact because
    /// |k1|, |k2| are far below 2^255 (see [`Decomposer::bounds`]).
    pub fn decompose(&self, k: &Scalar) -> Split {
        let [[a1, b1], [a2, b2]] = &self.basis;
        let c1 = self.g[0].apply(k);
        let c2 = self.g[1].apply(k);
        let k1 = wide::wrapping_sub(
            &wide::wrapping_sub(k, &wide::wrapping_mul(&c1, a1)),
            &wide::wrapping_mul(&c2, a2),
        );
        let k2 = wide::wrapping_sub(
            &wide::wrapping_neg(&wide::wrapping_mul(&c1, b1)),
            &wide::wrapping_mul(&c2, b2),
        );
        Split {
            k1: SignedScalar::from_i256(&k1),
            k2: SignedScalar::from_i256(&k2),
        }
    }
    // ANCHOR_END: decompose

    /// The short basis [(a1, b1), (a2, b2)].
    pub fn basis(&self) -> [[SignedScalar; 2]; 2] {
        self.basis_signed
    }

    /// Inclusive bounds [B1, B2] with |k1| ≤ B1 and |k2| ≤ B2 for every k below r.
    pub fn bounds(&self) -> [Scalar; 2] {
        self.bounds
    }

    /// The number of bits b with |k1|, |k2| < 2^b for every scalar: the half-length the MSM's
    /// windows must cover.
    pub fn half_bits(&self) -> u32 {
        self.bounds
            .iter()
            .map(crate::scalar::bit_len)
            .max()
            .expect("two bounds")
    }
}
