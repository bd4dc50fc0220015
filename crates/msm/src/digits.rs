//! Signed-digit decomposition of scalars ("signed bucket indices").
//!
//! Cut a scalar k into c-bit chunks, k = Σ_w chunk_w·2^(c·w), chunk_w ∈ [0, 2^c). Pippenger's
//! method would need 2^c − 1 buckets per window. Rewriting each chunk of 2^(c−1) or more as
//! chunk − 2^c and carrying 1 into the next window gives digits d_w ∈ [−2^(c−1), 2^(c−1) − 1]
//! with k = Σ_w d_w·2^(c·w); since −P is free on an elliptic curve, a negative digit adds −P into
//! bucket |d_w|, and 2^(c−1) buckets suffice: half as many. Radix-2^c signed digits in this range
//! are those of Bernstein, Duif, Lange, Schwabe, Yang, "High-speed high-security signatures"
//! (CHES 2011, radix 16, digits −8…7); for MSM buckets the technique was popularised in ZPrize 2022
//! (drouyang.eth, "Signed bucket index", <https://hackmd.io/@drouyang/signed-bucket-index>) and is
//! described in Derei & Koh's ZPrize 2023 write-up, whose "shifted" storage form
//! d + 2^(c−1) ∈ [0, 2^c) is [`to_shifted`].
//!
//! **The final carry.** The top window can carry out too. With K = ⌈b/c⌉ windows (b = bits of
//! r − 1) the largest integer the digits can spell is M_K = Σ_w (2^(c−1) − 1)·2^(c·w), every
//! window `0111…1`. Digits from [−2^(c−1), 2^(c−1)) are a complete residue system mod 2^c, so each
//! integer in range has exactly one K-digit spelling, the one the carry loop finds, and a scalar
//! leaves a carry exactly when it exceeds M_K. So the worst case is r − 1: [`num_windows`]
//! decomposes r − 1 and adds one window when it carries. That window holds the carry, a digit
//! 0 or 1. Whether it is needed depends on the curve and c (for BLS12-377 and c = 16 it is not:
//! r's top 16 bits are 0x12ab < 2^15, the case Derei & Koh note), so it is computed, not assumed.

use crate::scalar::{self, Scalar};

/// Bits `[j·c, j·c + c)` of `k` (zero past the end), for 1 ≤ c ≤ 32.
#[inline(always)]
pub fn chunk(k: &Scalar, j: usize, c: u32) -> u32 {
    let lo = j * c as usize;
    let (w, s) = (lo / 64, lo % 64);
    if w >= 4 {
        return 0;
    }
    let mut v = k[w] >> s;
    if s + c as usize > 64 && w + 1 < 4 {
        v |= k[w + 1] << (64 - s);
    }
    (v & ((1u64 << c) - 1)) as u32
}

// ANCHOR: signed_digits
/// Writes the signed c-bit digits of `k` into `out` (one per window, least significant first) and
/// returns the carry left over after the last window: 0 when `k = Σ out[w]·2^(c·w)` exactly.
/// Every digit lies in [−2^(c−1), 2^(c−1) − 1]. Requires 2 ≤ c ≤ 16.
#[inline]
pub fn decompose_into(k: &Scalar, c: u32, out: &mut [i32]) -> u32 {
    debug_assert!((2..=16).contains(&c));
    let half = 1i32 << (c - 1);
    let full = 1i32 << c;
    let mut carry = 0;
    for (w, d) in out.iter_mut().enumerate() {
        let v = chunk(k, w, c) as i32 + carry;
        if v >= half {
            *d = v - full;
            carry = 1;
        } else {
            *d = v;
            carry = 0;
        }
    }
    carry as u32
}
// ANCHOR_END: signed_digits

// ANCHOR: num_windows
/// The number of windows for scalars below `r` at width c: ⌈b/c⌉ with b the bit length of r − 1,
/// plus one when r − 1 (the largest scalar, hence the worst case: see the module docs) leaves a
/// final carry.
pub fn num_windows(c: u32, r: &Scalar) -> usize {
    assert!((2..=16).contains(&c), "window width {c} outside 2..=16");
    let max = scalar::minus_one(r);
    let k = scalar::bit_len(&max).div_ceil(c) as usize;
    let mut digits = vec![0; k];
    k + decompose_into(&max, c, &mut digits) as usize
}
// ANCHOR_END: num_windows

/// The signed digits of `k` in `windows` windows, or `None` if they cannot hold it (a carry is
/// left over).
pub fn signed_digits(k: &Scalar, c: u32, windows: usize) -> Option<Vec<i32>> {
    assert!((2..=16).contains(&c), "window width {c} outside 2..=16");
    let mut out = vec![0; windows];
    (decompose_into(k, c, &mut out) == 0).then_some(out)
}

// ANCHOR: digit_at
/// Digit `w` of [`decompose_into`]'s signed digits of `k`, without the windows below it.
///
/// The carry into window w is 1 exactly when the integer below it, `k mod 2^(c·w)`, exceeds the
/// largest value its w digits can spell, `M_w = Σ_{i<w} (2^(c−1) − 1)·2^(c·i)` (every chunk
/// `0111…1`): the lower digits then spell `k mod 2^(c·w) − 2^(c·w)`. Comparing with M_w from
/// the top chunk down settles the carry at the first chunk that differs from `0111…1`, nearly
/// always the first. A share that owns a few windows of all the points computes just those.
#[inline]
pub fn digit_at(k: &Scalar, w: usize, c: u32) -> i32 {
    debug_assert!((2..=16).contains(&c));
    let half = 1u32 << (c - 1);
    let mut carry = 0;
    for j in (0..w).rev() {
        let v = chunk(k, j, c);
        if v != half - 1 {
            carry = (v > half - 1) as i32;
            break;
        }
    }
    let v = chunk(k, w, c) as i32 + carry;
    if v >= half as i32 { v - (1 << c) } else { v }
}
// ANCHOR_END: digit_at

/// The digits of many scalars, laid out window-major (`out[w·n + i]` is digit w of scalar i), the
/// order bucket accumulation reads them. Panics if a scalar does not fit `windows` windows.
pub fn decompose_all(scalars: &[Scalar], c: u32, windows: usize) -> Vec<i32> {
    let n = scalars.len();
    let mut out = vec![0; n * windows];
    let mut one = vec![0; windows];
    for (i, k) in scalars.iter().enumerate() {
        let carry = decompose_into(k, c, &mut one);
        assert_eq!(
            carry, 0,
            "scalar {i} needs more than {windows} windows of {c} bits"
        );
        for (w, &d) in one.iter().enumerate() {
            out[w * n + i] = d;
        }
    }
    out
}

// ANCHOR: shifted
/// Derei & Koh's shifted form: d + 2^(c−1), an unsigned c-bit value (0 stands for −2^(c−1),
/// 2^(c−1) for digit 0). The GPU stages store digits this way.
pub fn to_shifted(d: i32, c: u32) -> u32 {
    let s = d + (1 << (c - 1));
    debug_assert!(
        (0..1 << c).contains(&s),
        "digit {d} out of range for c = {c}"
    );
    s as u32
}

/// Inverse of [`to_shifted`].
pub fn from_shifted(s: u32, c: u32) -> i32 {
    s as i32 - (1 << (c - 1))
}
// ANCHOR_END: shifted

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_straddle_words() {
        let k = [0xffff_0000_0000_0000, 0x1234, 0, 0x8000_0000_0000_0000];
        assert_eq!(chunk(&k, 3, 16), 0xffff);
        assert_eq!(chunk(&k, 4, 16), 0x1234);
        // bits 60..72: top nibble of word 0 and low byte of word 1
        assert_eq!(chunk(&k, 5, 12), 0x34f);
        assert_eq!(chunk(&k, 15, 16), 0x8000);
        assert_eq!(chunk(&k, 16, 16), 0);
    }

    #[test]
    fn seed_writeup_example() {
        // Derei & Koh: c = 5, 255 → shifted [15, 24], 301 → [29, 25].
        let d = signed_digits(&[255, 0, 0, 0], 5, 2).unwrap();
        assert_eq!(d, vec![-1, 8]);
        assert_eq!(
            d.iter().map(|&x| to_shifted(x, 5)).collect::<Vec<_>>(),
            vec![15, 24]
        );
        let d = signed_digits(&[301, 0, 0, 0], 5, 2).unwrap();
        assert_eq!(
            d.iter().map(|&x| to_shifted(x, 5)).collect::<Vec<_>>(),
            vec![29, 25]
        );
        assert_eq!(from_shifted(15, 5), -1);
    }

    #[test]
    fn one_digit_is_the_decomposition_s() {
        // splitmix64 words, and the patterns where carries chain: 0111…1 runs, all ones, 2^(c−1)
        let mut state = 11u64;
        let mut word = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        for c in 2..=16u32 {
            let mut scalars: Vec<Scalar> = (0..200)
                .map(|_| [word(), word(), word(), word() >> 3])
                .collect();
            // every chunk 0111…1: the carry question ties all the way down
            let mut tie = [0u64; 4];
            for j in 0..(253 / c as usize) {
                for b in 0..(c - 1) as usize {
                    let at = j * c as usize + b;
                    tie[at / 64] |= 1 << (at % 64);
                }
            }
            let mut over = tie;
            over[0] |= 1 << (c - 1);
            scalars.extend([
                tie,
                over,
                [0; 4],
                [1, 0, 0, 0],
                [u64::MAX, u64::MAX, u64::MAX, u64::MAX >> 3],
            ]);
            scalars.push([1 << (c - 1), 0, 0, 0]);
            let windows = 256usize.div_ceil(c as usize) + 1;
            let mut d = vec![0; windows];
            for k in &scalars {
                decompose_into(k, c, &mut d);
                for (w, &want) in d.iter().enumerate() {
                    assert_eq!(digit_at(k, w, c), want, "c = {c}, w = {w}, k = {k:x?}");
                }
            }
        }
    }

    #[test]
    fn carry_needs_a_window() {
        // 2^(c-1) itself: one digit cannot hold it (−2^(c−1) with a carry), two can.
        assert!(signed_digits(&[8, 0, 0, 0], 4, 1).is_none());
        assert_eq!(signed_digits(&[8, 0, 0, 0], 4, 2).unwrap(), vec![-8, 1]);
    }
}
