//! Emmart's product with the two SIMD lanes on two *independent* products: lane 0 computes
//! a₀·b₀, lane 1 computes a₁·b₁, each the scalar schedule of [`crate::emmart::emmart_mul`].
//!
//! [`crate::emmart::emmart_mul_interleaved`] gives the lanes neighbouring columns of one product and
//! runs two products side by side: every row then reads its finished column back out of the
//! vectors (four lane extracts) and widens two scalars into vectors (two splats). Here a row of
//! both products is one vector of a-limbs against one vector of b-limbs, the quotient digits of
//! both come out of one column vector, and a column's exact value leaves as a carry with one
//! vector shift: fewer shuffles between the scalar and the vector units, the remaining cost of
//! the paired schedule. Same inputs (limbs below 2⁵¹, values below 2p) and outputs as the
//! interleaved product with K = 2.

use crate::emmart::{EmmartParams, LIMB_BITS, MAX_LIMBS, reduce_full, reduce_lazy};

const MASK: u64 = (1 << LIMB_BITS) - 1;

/// Two f64 lanes with a fused multiply-add, and two i64 lanes for the raw-bit column sums.
pub trait PairLanes: Copy {
    /// Two doubles.
    type F: Copy;
    /// Two 64-bit integers.
    type I: Copy;
    /// `(x, y)`.
    fn pair(x: f64, y: f64) -> Self::F;
    /// `(x, x)`.
    fn splat(x: f64) -> Self::F;
    /// Lane-wise [`crate::emmart::split_product`]: the raw bits of the high and the low halves.
    fn split(x: Self::F, y: Self::F) -> (Self::I, Self::I);
    /// `(v, v)`.
    fn int(v: u64) -> Self::I;
    /// Lane-wise wrapping add.
    fn add(a: Self::I, b: Self::I) -> Self::I;
    /// Lane-wise wrapping subtract.
    fn sub(a: Self::I, b: Self::I) -> Self::I;
    /// Lane-wise arithmetic shift right by 51.
    fn shr(a: Self::I) -> Self::I;
    /// Lane 0 or 1.
    fn lane(a: Self::I, lane: usize) -> u64;
    /// Both lanes' quotient digits `(raw·μ) mod 2⁵¹`, as doubles.
    #[inline(always)]
    fn quotient(raw: Self::I, mu: u64) -> Self::F {
        let q = |l| (Self::lane(raw, l).wrapping_mul(mu) & MASK) as i64 as f64;
        Self::pair(q(0), q(1))
    }
}

/// Portable lanes: pairs of scalars with `f64::mul_add` (the tests' reference; slow on wasm32).
#[derive(Clone, Copy, Debug)]
pub struct PortablePair;

impl PairLanes for PortablePair {
    type F = [f64; 2];
    type I = [u64; 2];
    #[inline(always)]
    fn pair(x: f64, y: f64) -> [f64; 2] {
        [x, y]
    }
    #[inline(always)]
    fn splat(x: f64) -> [f64; 2] {
        [x, x]
    }
    #[inline(always)]
    fn split(x: [f64; 2], y: [f64; 2]) -> ([u64; 2], [u64; 2]) {
        let (h0, l0) = crate::emmart::split_product(x[0], y[0]);
        let (h1, l1) = crate::emmart::split_product(x[1], y[1]);
        ([h0, h1], [l0, l1])
    }
    #[inline(always)]
    fn int(v: u64) -> [u64; 2] {
        [v, v]
    }
    #[inline(always)]
    fn add(a: [u64; 2], b: [u64; 2]) -> [u64; 2] {
        [a[0].wrapping_add(b[0]), a[1].wrapping_add(b[1])]
    }
    #[inline(always)]
    fn sub(a: [u64; 2], b: [u64; 2]) -> [u64; 2] {
        [a[0].wrapping_sub(b[0]), a[1].wrapping_sub(b[1])]
    }
    #[inline(always)]
    fn shr(a: [u64; 2]) -> [u64; 2] {
        [
            ((a[0] as i64) >> LIMB_BITS) as u64,
            ((a[1] as i64) >> LIMB_BITS) as u64,
        ]
    }
    #[inline(always)]
    fn lane(a: [u64; 2], lane: usize) -> u64 {
        a[lane]
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
pub use relaxed::RelaxedPair;

#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
mod relaxed {
    use super::{LIMB_BITS, PairLanes};
    use crate::emmart::{C1, C2};
    use core::arch::wasm32::*;

    /// WebAssembly relaxed-SIMD lanes: `f64x2.relaxed_madd` for the two products' halves,
    /// `i64x2` arithmetic for their columns. Correct only where the engine fuses the multiply-add;
    /// [`crate::emmart::fma_self_test`] probes the same instruction.
    #[derive(Clone, Copy, Debug)]
    pub struct RelaxedPair;

    impl PairLanes for RelaxedPair {
        type F = v128;
        type I = v128;
        #[inline(always)]
        fn pair(x: f64, y: f64) -> v128 {
            f64x2(x, y)
        }
        #[inline(always)]
        fn splat(x: f64) -> v128 {
            f64x2_splat(x)
        }
        #[inline(always)]
        fn split(x: v128, y: v128) -> (v128, v128) {
            let hi = f64x2_relaxed_madd(x, y, f64x2_splat(C1));
            let lo = f64x2_relaxed_madd(x, y, f64x2_sub(f64x2_splat(C2), hi));
            (hi, lo)
        }
        #[inline(always)]
        fn int(v: u64) -> v128 {
            u64x2_splat(v)
        }
        #[inline(always)]
        fn add(a: v128, b: v128) -> v128 {
            i64x2_add(a, b)
        }
        #[inline(always)]
        fn sub(a: v128, b: v128) -> v128 {
            i64x2_sub(a, b)
        }
        #[inline(always)]
        fn shr(a: v128) -> v128 {
            i64x2_shr(a, LIMB_BITS)
        }
        #[inline(always)]
        fn lane(a: v128, lane: usize) -> u64 {
            if lane == 0 {
                u64x2_extract_lane::<0>(a)
            } else {
                u64x2_extract_lane::<1>(a)
            }
        }
    }
}

/// The lanes of [`emmart_mul_pair`] in this build.
#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
pub type BestPair = RelaxedPair;
/// The lanes of [`emmart_mul_pair`] in this build.
#[cfg(not(all(target_arch = "wasm32", target_feature = "relaxed-simd")))]
pub type BestPair = PortablePair;

/// One row of both products: `a[I]·b`, then `q·p` with q clearing column I, then column I's
/// exact value leaves as the carry. `I` is a const generic so that every column index is known
/// at compile time (the accumulators stay in locals, not in an indexed array).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn row<L: PairLanes, const N: usize, const I: usize>(
    col: &mut [L::I; 2 * MAX_LIMBS],
    carry: &mut L::I,
    af: &[L::F; N],
    bf: &[L::F; N],
    pf: &[L::F; N],
    k: &EmmartParams<N>,
) {
    if I >= N {
        return;
    }
    for j in 0..N {
        let (h, l) = L::split(af[I], bf[j]);
        col[I + j] = L::add(col[I + j], l);
        col[I + j + 1] = L::add(col[I + j + 1], h);
    }
    // the biases have zero low 51 bits: the raw sum's low bits are exact
    let q = L::quotient(L::add(col[I], *carry), k.mont.mu);
    for j in 0..N {
        let (h, l) = L::split(q, pf[j]);
        col[I + j] = L::add(col[I + j], l);
        col[I + j + 1] = L::add(col[I + j + 1], h);
    }
    let exact = L::sub(L::add(col[I], *carry), L::int(k.bias[I]));
    *carry = L::shr(exact); // exact: the column is ≡ 0 (mod 2⁵¹)
}

// ANCHOR: emmart_pair
/// Two independent products `a[0]·b[0]` and `a[1]·b[1]`, one in each lane: each product's limbs
/// below R and the bit above them (`emmart_mul_interleaved`'s unreduced form).
#[inline(always)]
pub fn emmart_mul_pair_unreduced<L: PairLanes, const N: usize>(
    a: [&[u64; N]; 2],
    b: [&[u64; N]; 2],
    k: &EmmartParams<N>,
) -> ([[u64; N]; 2], [i64; 2]) {
    const { assert!(N <= MAX_LIMBS) };
    // limbs below 2⁵¹: the signed conversion is exact (and one instruction)
    let af: [L::F; N] =
        core::array::from_fn(|i| L::pair(a[0][i] as i64 as f64, a[1][i] as i64 as f64));
    let bf: [L::F; N] =
        core::array::from_fn(|j| L::pair(b[0][j] as i64 as f64, b[1][j] as i64 as f64));
    let pf: [L::F; N] = core::array::from_fn(|j| L::splat(k.p_f64[j]));
    let mut col = [L::int(0); 2 * MAX_LIMBS];
    let mut carry = L::int(0);
    macro_rules! rows {
        ($($i:literal)*) => { $( row::<L, N, $i>(&mut col, &mut carry, &af, &bf, &pf, k); )* };
    }
    rows!(0 1 2 3 4 5 6 7); // MAX_LIMBS rows; those with I ≥ N vanish at compile time
    let mut out = [[0u64; N]; 2];
    for j in 0..N {
        let c = N + j;
        let v = L::add(L::sub(col[c], L::int(k.bias[c])), carry);
        out[0][j] = L::lane(v, 0) & MASK;
        out[1][j] = L::lane(v, 1) & MASK;
        carry = L::shr(v);
    }
    (out, [L::lane(carry, 0) as i64, L::lane(carry, 1) as i64])
}
// ANCHOR_END: emmart_pair

/// Two independent products, fully reduced (below p): the same outputs as
/// [`crate::emmart::emmart_mul_interleaved`] with K = 2.
#[inline(always)]
pub fn emmart_mul_pair<L: PairLanes, const N: usize>(
    a: [&[u64; N]; 2],
    b: [&[u64; N]; 2],
    k: &EmmartParams<N>,
) -> [[u64; N]; 2] {
    let (out, carry) = emmart_mul_pair_unreduced::<L, N>(a, b, k);
    [
        reduce_full(&out[0], carry[0], k),
        reduce_full(&out[1], carry[1], k),
    ]
}

/// Two independent lazy products (below 2p where [`EmmartParams::lazy`]): the same outputs as
/// [`crate::emmart::emmart_mul_interleaved_lazy`] with K = 2.
#[inline(always)]
pub fn emmart_mul_pair_lazy<L: PairLanes, const N: usize>(
    a: [&[u64; N]; 2],
    b: [&[u64; N]; 2],
    k: &EmmartParams<N>,
) -> [[u64; N]; 2] {
    let (out, carry) = emmart_mul_pair_unreduced::<L, N>(a, b, k);
    [
        reduce_lazy(&out[0], carry[0], k),
        reduce_lazy(&out[1], carry[1], k),
    ]
}
