//! Choosing the window width c from n.
//!
//! With K(c) windows (⌈b/c⌉, plus one when the final carry needs it: [`crate::digits::num_windows`])
//! and 2^(c−1) buckets per window, the group additions of the MSM are about
//!
//! ```text
//! cost(c) = K(c) · (n + 2^c)
//! ```
//!
//! n mixed additions to fill each window's buckets, plus 2·2^(c−1) = 2^c additions for its
//! running-sum reduction ([`crate::reduce::running_sum`]). The c doublings per window of the Horner
//! step add up to about b whatever c is, so they do not move the choice. **The rule: c is the
//! width in 2..=16 that minimises cost(c)**, the smaller one on a tie. For 253-bit scalars it
//! gives c = 13 at n = 2^16 and c = 15 at n = 2^18, close to the ln n + 2 of arkworks' heuristic.

use crate::digits::num_windows;
use crate::scalar::Scalar;

/// The smallest and largest window widths the MSM supports.
pub const WINDOW_RANGE: core::ops::RangeInclusive<u32> = 2..=16;

// ANCHOR: window_size
/// The additions cost model above, for n points, width c, scalars below r.
pub fn cost(n: usize, c: u32, r: &Scalar) -> u64 {
    num_windows(c, r) as u64 * (n as u64 + (1u64 << c))
}

/// The window width for an MSM of n points with scalars below r: argmin of [`cost`] over 2..=16.
pub fn window_size(n: usize, r: &Scalar) -> u32 {
    WINDOW_RANGE
        .min_by_key(|&c| (cost(n, c, r), c))
        .expect("non-empty range")
}
// ANCHOR_END: window_size

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MsmGroup;
    use crate::{Bls12_377G1, Bn254G1};

    #[test]
    fn rule_examples() {
        let r = Bls12_377G1::SCALAR_MODULUS;
        assert_eq!(window_size(0, &r), 2);
        assert_eq!(window_size(1, &r), 2);
        assert_eq!(window_size(1 << 16, &r), 13);
        assert_eq!(window_size(1 << 18, &r), 15);
        assert_eq!(window_size(1 << 30, &r), 16);
        // non-decreasing in n
        let r = Bn254G1::SCALAR_MODULUS;
        let mut last = 2;
        for e in 0..28 {
            let c = window_size(1 << e, &r);
            assert!(c >= last, "window shrank at n = 2^{e}");
            last = c;
        }
    }
}
