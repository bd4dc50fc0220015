//! The reduced-radix product with its two multiplication streams in two SIMD lanes.
//!
//! Each FIOS step (i, j) of [`crate::reduced_radix`] makes two independent 30×30-bit products,
//! `x[i]·y[j]` and `q·p[j]`. Here they are one two-lane multiply (`i64x2.extmul_low_i32x4_u` on
//! wasm simd128, `pmuludq` on x86-64): lane 0 accumulates the x·y stream and lane 1 the q·p
//! stream of a column, and a column's value is the sum of its two lanes. The scalar unit keeps
//! the lowest few columns, where q is chosen and the sequential dependency lives; the vector unit
//! carries the rest, so the two kinds of multiplier work side by side.

use crate::params::{MontParams, mask};
use crate::primitives::{normalize, subtract_p_if_needed_radix};
use crate::two_lane::TwoLane;

/// Limb width: 30-bit limbs fit the 32-bit multiplicands of the two-lane multiply, and a lane
/// takes up to 15 products below 2⁶⁰ without overflowing 64 bits.
pub const W: u32 = 30;

/// How many of the lowest columns stay scalar. The scalar unit's multiplier and the vector
/// unit's then share the work; more scalar columns also leave fewer lane pairs to hold in the
/// 16 vector registers of x86-64 (13 limbs would need 24). 3 and 4 were the fastest of a sweep
/// over 2..=7 in V8 (the book's ledger has it).
pub const fn scalar_columns(n: usize) -> usize {
    if n <= SCALAR_COLUMNS_SMALL_LIMIT {
        SCALAR_COLUMNS_SMALL
    } else {
        SCALAR_COLUMNS_LARGE
    }
}
const SCALAR_COLUMNS_SMALL_LIMIT: usize = 10;
const SCALAR_COLUMNS_SMALL: usize = 3;
const SCALAR_COLUMNS_LARGE: usize = 4;

/// Runs `$body` for `$i` = 0, 1, …, `$n` − 1 (at most 16), written out: `$n` is a constant, so
/// the compiler drops the arms past it.
macro_rules! unroll_16 {
    ($n:expr, $i:ident => $body:block) => {
        unroll_16!(@ $n, $i, $body, 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    };
    (@ $n:expr, $i:ident, $body:block, $($k:literal)*) => {
        $( if $k < $n { let $i: usize = $k; $body } )*
    };
}

// ANCHOR: reduced_radix_lanes
/// Montgomery product with 30-bit limbs, the x·y and q·p products of each step side by side in
/// the two lanes of `L`; lazy like [`crate::reduced_radix::mont_mul_reduced_radix_lazy`]
/// (operands and result below 2p, which needs R > 4p; operands below p need only R > 2p).
///
/// Columns 0..S ([`scalar_columns`]) are scalar u64 sums; columns S..N are lane pairs. A lane
/// gains one product per step and is folded into scalar column S − 1 after at most N − 1 steps,
/// and a scalar column gains two per step for S steps, so with N ≤ 16 and S ≤ 7 nothing
/// overflows 64 bits and no carry is needed but two: column 0's shift by W, and the split of
/// each folded lane pair into its low W bits and the rest (`hi`, which joins the next fold).
#[inline(always)]
pub fn mont_mul_lanes<L: TwoLane, const N: usize>(
    x: &[u64; N],
    y: &[u64; N],
    k: &MontParams<N>,
) -> [u64; N] {
    debug_assert!(
        crate::reduced_radix::has_two_spare_bits(k),
        "lazy products need R > 4p"
    );
    mont_mul_lanes_split::<L, N>(x, y, k, const { scalar_columns(N) })
}

/// [`mont_mul_lanes`] for operands below p, with the result reduced below p (one conditional
/// subtraction; needs only R > 2p): the drop-in for [`crate::reduced_radix::mont_mul_reduced_radix`].
#[inline(always)]
pub fn mont_mul_lanes_reduced<L: TwoLane, const N: usize>(
    x: &[u64; N],
    y: &[u64; N],
    k: &MontParams<N>,
) -> [u64; N] {
    let t = mont_mul_lanes_split::<L, N>(x, y, k, const { scalar_columns(N) });
    subtract_p_if_needed_radix(&t, 0, &k.p, W)
}

/// [`mont_mul_lanes`] with `s` scalar columns (2 ≤ s ≤ 7, s < N), for measuring the split.
#[inline(always)]
pub fn mont_mul_lanes_split<L: TwoLane, const N: usize>(
    x: &[u64; N],
    y: &[u64; N],
    k: &MontParams<N>,
    s: usize,
) -> [u64; N] {
    const { assert!(N <= 16, "a lane takes at most 15 products") };
    assert!(
        (2..=7).contains(&s) && s < N,
        "2 ≤ s ≤ 7 scalar columns, fewer than the limbs"
    );
    debug_assert_eq!(k.width, W);
    let m = mask(W);
    let p = &k.p;
    // (y[j], p[j]) side by side: the second operand of every two-lane product
    let yp: [L::Pair; N] = core::array::from_fn(|j| L::pair(y[j] as u32, p[j] as u32));
    let zero = L::new(0, 0);
    let mut c = [0u64; N]; // scalar columns 0..s
    let mut v = [zero; N]; // lane-pair columns s..N
    let mut hi = 0u64;
    // Both loops written out: in a loop, the compiler moves the widening of a loop-invariant
    // operand (yp[j] over i, xq over j) out of it, which turns the 32×32-bit two-lane multiply
    // into a 64×64-bit one that x86-64 engines emulate with three multiplies.
    unroll_16!(N, i => {
        let xi = x[i];
        // column 0: choose q so that the column is divisible by 2^W, and shift it out
        let t = c[0] + xi * y[0];
        let q = t.wrapping_mul(k.mu) & m;
        let mut carry = (t + q * p[0]) >> W;
        // scalar columns move down one
        for j in 1..s {
            c[j - 1] = c[j] + xi * y[j] + q * p[j] + carry;
            carry = 0;
        }
        // column s gets its products in the lanes and is folded into scalar column s − 1
        let xq = L::pair(xi as u32, q as u32);
        let [a, b] = L::mul_add(xq, yp[s], v[s]).lanes();
        c[s - 1] = (a & m) + (b & m) + hi;
        hi = (a >> W) + (b >> W);
        // the other columns: one two-lane product each, moving down one
        unroll_16!(N - 1, below => {
            let j = below + 1;
            if j > s {
                v[below] = L::mul_add(xq, yp[j], v[j]);
            }
        });
        v[N - 1] = zero;
    });
    for j in s..N {
        let [a, b] = v[j].lanes();
        c[j] = (a & m) + (b & m) + hi;
        hi = (a >> W) + (b >> W);
    }
    debug_assert_eq!(hi, 0, "the value is below 2p < 2^(W·N)");
    normalize(&c, W)
}
// ANCHOR_END: reduced_radix_lanes
