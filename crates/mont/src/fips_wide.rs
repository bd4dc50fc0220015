//! FIPS (product scanning) on 64-bit limbs, written for the 64×64→128-bit multiply.
//!
//! WebAssembly's wide-arithmetic extension adds `i64.mul_wide_u` (both halves of a 64×64-bit
//! product) and `i64.add128` (a 128-bit addition on pairs of i64), but no carry flag. Built with
//! `-C target-feature=+wide-arithmetic`, rustc lowers `u64 as u128 * u64 as u128` to the first
//! and a `u128` addition to the second. Every carry of this product therefore lives inside a
//! `u128` addition: each column of the product is summed into two `u128` accumulators, one for
//! the low halves of its 64×64 products and one for the high halves, and the carry into the next
//! column is one shift and one addition. On x86-64 and AArch64 the same Rust is the same
//! algorithm, with the native multiply.

use crate::params::MontParams;
use crate::primitives::subtract_p_if_needed;

/// Adds the 128-bit product `x·y` to a column: its low half to `lo`, its high half to `hi`.
/// Two `u128` sums never overflow here: a column holds at most 2N + 1 terms below 2⁶⁴ each.
#[inline(always)]
fn add_product(lo: &mut u128, hi: &mut u128, x: u64, y: u64) {
    let t = (x as u128) * (y as u128);
    *lo += t as u64 as u128;
    *hi += t >> 64;
}

// ANCHOR: fips_wide
/// Montgomery product `a·b·R⁻¹ mod p` (R = 2^(64N)) by product scanning: Koç, Acar, Kaliski,
/// "Analyzing and Comparing Montgomery Multiplication Algorithms", IEEE Micro 1996, Algorithm
/// "FIPS" (Finely Integrated Product Scanning).
///
/// Column k of `a·b + m·p` holds every `a[j]·b[k−j]` and `m[j]·p[k−j]`. Columns 0..N choose
/// `m[k]` so that the column's low word vanishes; columns N..2N−1 are the result's words. The
/// paper keeps a column in a three-word accumulator (t, u, v) with add-with-carry; here the value
/// of a column is `lo + hi·2⁶⁴`, and the next column starts from `(lo >> 64) + hi`.
/// The total is below p² + R·p, so the result, below 2p, needs one spill bit (`top`) and one
/// conditional subtraction. Inputs below p give an output below p; no condition on p.
#[inline(always)]
pub fn fips_wide<const N: usize>(a: &[u64; N], b: &[u64; N], k: &MontParams<N>) -> [u64; N] {
    let p = &k.p;
    let mut m = [0u64; N];
    let (mut lo, mut hi) = (0u128, 0u128);
    for i in 0..N {
        for j in 0..i {
            add_product(&mut lo, &mut hi, a[j], b[i - j]);
            add_product(&mut lo, &mut hi, m[j], p[i - j]);
        }
        add_product(&mut lo, &mut hi, a[i], b[0]);
        m[i] = (lo as u64).wrapping_mul(k.mu);
        add_product(&mut lo, &mut hi, m[i], p[0]);
        debug_assert_eq!(lo as u64, 0, "m[i] clears the low word of column i");
        (lo, hi) = ((lo >> 64) + hi, 0);
    }
    let mut t = [0u64; N];
    for i in N..2 * N - 1 {
        for j in i + 1 - N..N {
            add_product(&mut lo, &mut hi, a[j], b[i - j]);
            add_product(&mut lo, &mut hi, m[j], p[i - j]);
        }
        t[i - N] = lo as u64;
        (lo, hi) = ((lo >> 64) + hi, 0);
    }
    // column 2N − 1 has no products: only the carry, which is below 2p / 2^(64(N−1))
    t[N - 1] = lo as u64;
    let top = (lo >> 64) as u64;
    debug_assert!(top <= 1, "the result is below 2p < 2R");
    subtract_p_if_needed(&t, top, p)
}
// ANCHOR_END: fips_wide
