//! Scalars: little-endian `[u64; 4]` integers below the group order r.
//!
//! The MSM treats a scalar as the integer it is, never reduced: the digits of [`crate::digits`]
//! add up to exactly `k`, so `Σ kᵢ·Pᵢ` is the same integer combination arkworks computes, for any
//! points. Scalars at or above r are rejected ([`crate::MsmError::ScalarOutOfRange`]) before anything
//! runs.

use fastmsm_curves::Canonical;

/// A scalar: 256 bits, little-endian 64-bit words.
pub type Scalar = [u64; 4];

/// The low four words of a canonical integer; panics (at compile time in a `const`) if the two
/// top words are not zero. Every scalar-field modulus of the book has at most 255 bits.
pub const fn from_canonical(x: &Canonical) -> Scalar {
    assert!(x[4] == 0 && x[5] == 0, "scalar modulus wider than 256 bits");
    [x[0], x[1], x[2], x[3]]
}

/// `a < b` as integers.
pub const fn less_than(a: &Scalar, b: &Scalar) -> bool {
    let mut i = 4;
    while i > 0 {
        i -= 1;
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

/// `a − 1`, for `a ≥ 1`.
pub const fn minus_one(a: &Scalar) -> Scalar {
    let mut out = *a;
    let mut i = 0;
    while i < 4 {
        let (d, borrow) = out[i].overflowing_sub(1);
        out[i] = d;
        if !borrow {
            return out;
        }
        i += 1;
    }
    panic!("minus_one(0)");
}

/// Number of significant bits of `a`.
pub const fn bit_len(a: &Scalar) -> u32 {
    let mut i = 4;
    while i > 0 {
        i -= 1;
        if a[i] != 0 {
            return 64 * i as u32 + (64 - a[i].leading_zeros());
        }
    }
    0
}

/// The index of the first scalar that is not below `r`, if any.
pub(crate) fn first_out_of_range(scalars: &[Scalar], r: &Scalar) -> Option<usize> {
    scalars.iter().position(|k| !less_than(k, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_and_bits() {
        let r = [5, 0, 0, 1];
        assert!(less_than(&[4, 0, 0, 1], &r));
        assert!(!less_than(&r, &r));
        assert!(less_than(&[u64::MAX, u64::MAX, u64::MAX, 0], &r));
        assert!(!less_than(&[0, 0, 0, 2], &r));
        assert_eq!(minus_one(&[0, 0, 0, 1]), [u64::MAX, u64::MAX, u64::MAX, 0]);
        assert_eq!(minus_one(&[7, 1, 0, 0]), [6, 1, 0, 0]);
        assert_eq!(bit_len(&[0, 0, 0, 1]), 193);
        assert_eq!(bit_len(&[1, 0, 0, 0]), 1);
        assert_eq!(bit_len(&[0; 4]), 0);
        assert_eq!(first_out_of_range(&[[1, 0, 0, 0], r, [0; 4]], &r), Some(1));
        assert_eq!(first_out_of_range(&[[1, 0, 0, 0]], &r), None);
    }
}
