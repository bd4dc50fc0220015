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

use crate::config::Window;
use crate::digits::{decompose_into, num_windows};
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

/// How many scalars [`window_size_sampled`] decomposes per width.
pub const WINDOW_SAMPLE: usize = 512;

// ANCHOR: window_size_sampled
/// [`window_size`] for these `scalars` (all below `bound`), with K(c) counting each window by the
/// share of nonzero digits it gets in an evenly spaced sample of them, since a window of zeros
/// costs nothing to fill. That matters for the top window: when b is just above a multiple of c,
/// or the scalars stay well below `bound` (GLV halves of BLS12-377 are below 2^125.1, their bound
/// is 2^126), it only catches the carries of the window below it, a few percent of the points,
/// and c costs less than K(c) = ⌈b/c⌉ (+1) says. The widths tried are c₀ − 1 ..= c₀ + 3 around
/// [`window_size`]'s c₀, and another one must cost 2% less than c₀ on this count to replace it:
/// the count leaves out what grows with c (bucket memory, the reduction's scattered reads; at
/// 2^16 points c = 14 ran 3% slower than c = 13, which the count puts within 1%).
pub fn window_size_sampled(scalars: &[Scalar], bound: &Scalar) -> u32 {
    let n = scalars.len();
    let step = n.div_ceil(WINDOW_SAMPLE).max(1);
    window_size_sampled_from(n, scalars.iter().step_by(step), bound)
}

/// [`window_size_sampled`] for n scalars of which the caller took the evenly spaced `sample`
/// (every ⌈n / [`WINDOW_SAMPLE`]⌉-th): a caller that splits the scalars later, or shares the
/// MSM out, picks the same c without building them all.
pub fn window_size_sampled_from<'a>(
    n: usize,
    sample: impl Iterator<Item = &'a Scalar>,
    bound: &Scalar,
) -> u32 {
    let c0 = window_size(n, bound);
    let sample: Vec<&Scalar> = sample.collect();
    let mut digits = Vec::new();
    let mut weighted = |c: u32| {
        let windows = num_windows(c, bound);
        digits.resize(windows, 0);
        let nonzero: usize = sample
            .iter()
            .map(|k| {
                decompose_into(k, c, &mut digits);
                digits.iter().filter(|&&d| d != 0).count()
            })
            .sum();
        // K(c)·(n + 2^c) with K(c) = nonzero / sample size, in integers
        nonzero as u128 * (n as u128 + (1u128 << c)) / sample.len().max(1) as u128
    };
    let lo = c0.saturating_sub(1).max(*WINDOW_RANGE.start());
    let hi = (c0 + 3).min(*WINDOW_RANGE.end());
    let costs: Vec<(u128, u32)> = (lo..=hi).map(|c| (weighted(c), c)).collect();
    // c0 lies in [lo, hi] (window_size stays in WINDOW_RANGE); its cost is counted once.
    let at_c0 = costs
        .iter()
        .find(|e| e.1 == c0)
        .map(|e| e.0)
        .unwrap_or_else(|| weighted(c0));
    match costs.into_iter().min() {
        Some((cost, c)) if cost * 50 < at_c0 * 49 => c,
        _ => c0,
    }
}
// ANCHOR_END: window_size_sampled

/// The width `rule` gives for these scalars (all below `bound`, after any GLV split): `Fixed`
/// as it is, `FromSize` from their number only, `Auto` from a sample of them where the algorithm
/// is `sampled` (all-affine), else from their number.
pub(crate) fn choose(rule: Window, sampled: bool, scalars: &[Scalar], bound: &Scalar) -> u32 {
    match rule {
        Window::Fixed(c) => c,
        Window::Auto if sampled => window_size_sampled(scalars, bound),
        Window::Auto | Window::FromSize => window_size(scalars.len(), bound),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MsmGroup;
    use crate::{Bls12_377G1, Bn254G1};

    #[test]
    fn sampled_rule_counts_the_top_window() {
        // splitmix64: spread, reproducible words
        let mut state = 7u64;
        let mut word = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        // GLV-like halves: below 2^125 against a bound of 2^126; c = 14 leaves its tenth window
        // with only carries, which are rare here
        let bound: Scalar = [0, 1 << 62, 0, 0];
        let halves: Vec<Scalar> = (0..1 << 17).map(|_| [word(), word() >> 3, 0, 0]).collect();
        assert_eq!(window_size(1 << 17, &bound), 13);
        assert_eq!(window_size_sampled(&halves, &bound), 14);
        // uniform 253-bit scalars fill every window: the plain rule's choice
        let r = Bls12_377G1::SCALAR_MODULUS;
        let uniform: Vec<Scalar> = (0..1 << 16)
            .map(|_| [word(), word(), word(), word() >> 4])
            .filter(|k| k.iter().rev().lt(r.iter().rev()))
            .collect();
        assert_eq!(
            window_size_sampled(&uniform, &r),
            window_size(uniform.len(), &r)
        );
        // no scalars, or only zeros: no cost anywhere, the plain rule stands
        assert_eq!(window_size_sampled(&[], &r), window_size(0, &r));
        assert_eq!(
            window_size_sampled(&[[0; 4]; 100], &r),
            window_size(100, &r)
        );
    }

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
