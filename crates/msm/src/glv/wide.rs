//! The fixed-width integer arithmetic of the per-scalar decomposition: no allocation, no division.
//!
//! Signed values are 256-bit two's complement in little-endian words. Arithmetic wraps modulo
//! 2^256; that is a ring homomorphism, so a chain of products and differences whose true result
//! lies in (−2^255, 2^255) comes out exact even when the intermediate values do not fit.

// Word loops index two arrays at once, as in fastmsm-mont.
#![allow(clippy::needless_range_loop)]

use crate::scalar::Scalar;

/// A 256-bit two's-complement integer.
pub type I256 = [u64; 4];

/// `a·b mod 2^256`.
pub fn wrapping_mul(a: &I256, b: &I256) -> I256 {
    let mut out = [0u64; 4];
    for i in 0..4 {
        let mut carry = 0u128;
        for j in 0..4 - i {
            let t = out[i + j] as u128 + a[i] as u128 * b[j] as u128 + carry;
            out[i + j] = t as u64;
            carry = t >> 64;
        }
    }
    out
}

/// `a − b mod 2^256`.
pub fn wrapping_sub(a: &I256, b: &I256) -> I256 {
    let mut out = [0u64; 4];
    let mut borrow = false;
    for i in 0..4 {
        let (d, b1) = a[i].overflowing_sub(b[i]);
        let (d, b2) = d.overflowing_sub(borrow as u64);
        out[i] = d;
        borrow = b1 || b2;
    }
    out
}

/// `−a mod 2^256`.
pub fn wrapping_neg(a: &I256) -> I256 {
    wrapping_sub(&[0; 4], a)
}

/// Sign and magnitude of a two's-complement value.
pub fn to_sign_magnitude(a: &I256) -> (bool, Scalar) {
    let negative = a[3] >> 63 == 1;
    (negative, if negative { wrapping_neg(a) } else { *a })
}

/// Two's complement of a sign and a magnitude below 2^255.
pub fn from_sign_magnitude(negative: bool, magnitude: &Scalar) -> I256 {
    debug_assert!(magnitude[3] >> 63 == 0, "magnitude needs 256 bits");
    if negative {
        wrapping_neg(magnitude)
    } else {
        *magnitude
    }
}

/// Words of the rounding multipliers; the shift is [`SHIFT_BITS`].
pub const MULTIPLIER_WORDS: usize = 5;
/// The fixed-point scale m: a multiplier g stands for g / 2^m.
pub const SHIFT_BITS: u32 = 384;

// ANCHOR: mul_shift_round
/// `⌊(k·g + 2^(m−1)) / 2^m⌋` for m = [`SHIFT_BITS`]: k·g/2^m rounded to the nearest integer
/// (halves up). One 4 × 5-word schoolbook product; the result is below 2^(256+320−384) = 2^192.
pub fn mul_shift_round(k: &Scalar, g: &[u64; MULTIPLIER_WORDS]) -> Scalar {
    let mut prod = [0u64; 4 + MULTIPLIER_WORDS];
    for i in 0..4 {
        let mut carry = 0u128;
        for j in 0..MULTIPLIER_WORDS {
            let t = prod[i + j] as u128 + k[i] as u128 * g[j] as u128 + carry;
            prod[i + j] = t as u64;
            carry = t >> 64;
        }
        prod[i + MULTIPLIER_WORDS] = carry as u64;
    }
    // add 2^(m−1): the top bit of word m/64 − 1, then carry up
    let half_word = (SHIFT_BITS / 64 - 1) as usize;
    let (s, mut carry) = prod[half_word].overflowing_add(1 << 63);
    prod[half_word] = s;
    for w in prod.iter_mut().skip(half_word + 1) {
        let (s, c) = w.overflowing_add(carry as u64);
        *w = s;
        carry = c;
    }
    let top = (SHIFT_BITS / 64) as usize;
    [prod[top], prod[top + 1], prod[top + 2], 0]
}
// ANCHOR_END: mul_shift_round

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_ring_ops() {
        let minus_three = wrapping_neg(&[3, 0, 0, 0]);
        assert_eq!(minus_three, [u64::MAX - 2, u64::MAX, u64::MAX, u64::MAX]);
        assert_eq!(to_sign_magnitude(&minus_three), (true, [3, 0, 0, 0]));
        assert_eq!(wrapping_mul(&minus_three, &minus_three), [9, 0, 0, 0]);
        assert_eq!(
            wrapping_mul(&minus_three, &[5, 0, 0, 0]),
            wrapping_neg(&[15, 0, 0, 0])
        );
        // a carry across every word
        assert_eq!(
            wrapping_mul(&[0, 1 << 63, 0, 0], &[2, 0, 0, 0]),
            [0, 0, 1, 0]
        );
        assert_eq!(
            wrapping_sub(&[0, 0, 1, 0], &[1, 0, 0, 0]),
            [u64::MAX, u64::MAX, 0, 0]
        );
        assert_eq!(from_sign_magnitude(true, &[3, 0, 0, 0]), minus_three);
        assert_eq!(from_sign_magnitude(false, &[3, 0, 0, 0]), [3, 0, 0, 0]);
    }

    #[test]
    fn rounding_at_the_half() {
        // g = 2^318 stands for 2^−66: k = 2^65 is exactly ½ (up to 1), 3·2^65 is 1.5 (up to 2),
        // 2^65 − 1 is just under ½ (down to 0)
        let g = [0, 0, 0, 0, 1 << 62];
        assert_eq!(mul_shift_round(&[0, 2, 0, 0], &g), [1, 0, 0, 0]);
        assert_eq!(mul_shift_round(&[0, 6, 0, 0], &g), [2, 0, 0, 0]);
        assert_eq!(mul_shift_round(&[0, 4, 0, 0], &g), [1, 0, 0, 0]);
        assert_eq!(mul_shift_round(&[u64::MAX, 1, 0, 0], &g), [0; 4]);
        // large: (2^255)·(2^319)/2^384 = 2^190
        assert_eq!(
            mul_shift_round(&[0, 0, 0, 1 << 63], &[0, 0, 0, 0, 1 << 63]),
            [0, 0, 1 << 62, 0]
        );
    }
}
