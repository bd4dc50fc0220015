//! Emmart's floating-point Montgomery multiplication: 51-bit limbs multiplied with f64 FMA.

use crate::params::MontParams;
use crate::primitives::subtract_p_if_needed_radix;

/// Limb width: 51 bits, one less than the f64 significand, because WebAssembly's
/// `f64x2.relaxed_madd` gives no control over the rounding mode.
pub const LIMB_BITS: u32 = 51;
/// The largest limb count supported by the fixed scratch (8 × 51 = 408 bits).
pub const MAX_LIMBS: usize = 8;
const MASK: u64 = (1 << LIMB_BITS) - 1;

// ANCHOR: emmart_constants
/// c₁ = 2¹⁰³ (bits 0x4660000000000000). Adding it to a product below 2¹⁰² pins the exponent at 103,
/// so the 52-bit significand holds bits 51..103 of the product, rounded.
pub const C1: f64 = f64::from_bits(0x4660_0000_0000_0000);
/// c₂ = 2¹⁰³ + 3·2⁵¹ (bits 0x4660000000000003). `c₂ − hi` is exact and re-centres the low half.
pub const C2: f64 = f64::from_bits(0x4660_0000_0000_0003);
/// Bits of 3·2⁵¹ = 1.5·2⁵², the value around which the low half lands (exponent 52).
pub const LO_BIAS: u64 = 0x4338_0000_0000_0000;
/// Bits of c₁: the high half's bits minus this are the high half as an integer.
pub const HI_BIAS: u64 = 0x4660_0000_0000_0000;
// ANCHOR_END: emmart_constants

// ANCHOR: emmart_split
/// Splits the exact product of two integers below 2⁵¹ into a high and a low part with two FMAs:
/// `a·b = H·2⁵¹ + L` where `H = round(a·b / 2⁵¹)` and `L ∈ [−2⁵⁰, 2⁵⁰]` (signed!).
///
/// Returns the *raw bits* `(HI_BIAS + H, LO_BIAS + L)`. Both biases have zero low 51 bits, so raw
/// bits can be summed with wrapping integer adds and the biases removed once per column, the
/// bookkeeping trick of Emmart, Zheng and Weems (2018).
#[inline(always)]
pub fn split_product(a: f64, b: f64) -> (u64, u64) {
    let hi = a.mul_add(b, C1); // 2¹⁰³ + H·2⁵¹: the FMA rounds a·b to a multiple of 2⁵¹
    let lo = a.mul_add(b, C2 - hi); // a·b − H·2⁵¹ + 3·2⁵¹, exact: it lies in [2⁵², 2⁵³)
    (hi.to_bits(), lo.to_bits())
}
// ANCHOR_END: emmart_split

/// Emmart constants: the ordinary 51-bit Montgomery constants plus p as f64 and the per-column
/// bias that the raw-bit sums carry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EmmartParams<const N: usize> {
    /// 51-bit Montgomery constants.
    pub mont: MontParams<N>,
    /// The limbs of p as (exact) doubles.
    pub p_f64: [f64; N],
    /// `bias[k]` = what the raw-bit sums of column k exceed its true value by (mod 2⁶⁴).
    pub bias: [u64; 2 * MAX_LIMBS],
    /// p's limbs paired for the paired schedule: `(p[2m], p[2m+1])`, zero past the end.
    pub p_pairs: [[f64; 2]; PAIRS],
    /// The column biases of the paired schedule (a zero lane past the end of an odd N adds
    /// biases too).
    pub bias_paired: [u64; 2 * MAX_LIMBS],
    /// May products skip their final subtraction ([`emmart_mul_interleaved_lazy`])? True when
    /// 4p ≤ R = 2^(51·N), here tested as bits(p) + 2 ≤ 51·N.
    pub lazy: bool,
    /// Is a full product's final subtraction rare enough for a branch on the top limb? True when
    /// R/p is 2^10 or more (a result reaches p about once in 4p/R products) and p's top limb has
    /// 10 bits or more (a top limb below p's rules out all but about 2^(51(N−1))/p of them):
    /// the BLS12 base fields. See [`emmart_mul_interleaved`].
    pub rare_subtraction: bool,
}

/// The margin, in bits, of both tests of [`EmmartParams::rare_subtraction`].
const RARE_SUBTRACTION_BITS: u32 = 10;

impl<const N: usize> EmmartParams<N> {
    /// Derives the constants.
    pub const fn new(mont: MontParams<N>) -> Self {
        assert!(mont.width == LIMB_BITS && N <= MAX_LIMBS);
        let mut p_f64 = [0f64; N];
        let mut i = 0;
        while i < N {
            p_f64[i] = mont.p[i] as f64;
            i += 1;
        }
        // Column k receives the low halves of pairs with i + j = k and the high halves of pairs with
        // i + j = k − 1, from both the a·b and the q·p products.
        let mut bias = [0u64; 2 * MAX_LIMBS];
        let mut k = 0;
        while k < 2 * N {
            let lows = 2 * pairs_on_diagonal(N, k as i64);
            let highs = 2 * pairs_on_diagonal(N, k as i64 - 1);
            bias[k] = LO_BIAS
                .wrapping_mul(lows)
                .wrapping_add(HI_BIAS.wrapping_mul(highs));
            k += 1;
        }
        EmmartParams {
            mont,
            p_f64,
            bias,
            p_pairs: pair_even(&p_f64),
            bias_paired: paired_bias(N),
            lazy: bit_len_limbs(&mont.p) + 2 <= LIMB_BITS * N as u32,
            rare_subtraction: bit_len_limbs(&mont.p) + RARE_SUBTRACTION_BITS
                <= LIMB_BITS * N as u32
                && bit_len_limbs(&mont.p) >= LIMB_BITS * (N as u32 - 1) + RARE_SUBTRACTION_BITS,
        }
    }
}

/// Bit length of a value in 51-bit limbs.
const fn bit_len_limbs<const N: usize>(x: &[u64; N]) -> u32 {
    let mut i = N;
    while i > 0 {
        i -= 1;
        if x[i] != 0 {
            return LIMB_BITS * i as u32 + 64 - x[i].leading_zeros();
        }
    }
    0
}

/// Vector pairs needed by the paired schedule.
pub const PAIRS: usize = MAX_LIMBS / 2 + 1;

/// Limb j of `v`, or 0 outside [0, N).
const fn limb_or_zero<const N: usize>(v: &[f64; N], j: i64) -> f64 {
    if j >= 0 && (j as usize) < N {
        v[j as usize]
    } else {
        0.0
    }
}

/// `(v[2m], v[2m+1])`: the pairs row i adds at columns (i + 2m, i + 2m + 1).
const fn pair_even<const N: usize>(v: &[f64; N]) -> [[f64; 2]; PAIRS] {
    let mut out = [[0.0; 2]; PAIRS];
    let mut m = 0;
    while m < PAIRS {
        out[m] = [
            limb_or_zero(v, 2 * m as i64),
            limb_or_zero(v, 2 * m as i64 + 1),
        ];
        m += 1;
    }
    out
}

/// Pairs per row of the paired schedule.
const fn pairs_per_row(n: usize) -> usize {
    n.div_ceil(2)
}

/// Simulates the paired schedule's lane counts: `bias[c]` is the bias of column c at the moment
/// it is read (row c for c < N, the end for c ≥ N). Zero lanes still add c₁ and 3·2⁵¹.
const fn paired_bias(n: usize) -> [u64; 2 * MAX_LIMBS] {
    let mut lo = [0u64; 2 * MAX_LIMBS];
    let mut hi = [0u64; 2 * MAX_LIMBS];
    let mut bias = [0u64; 2 * MAX_LIMBS];
    let mut i = 0;
    while i < n {
        let mut m = 0;
        while m < pairs_per_row(n) {
            let c = i + 2 * m;
            // two rows (a·b and q·p), two lanes each
            lo[c] += 2;
            lo[c + 1] += 2;
            hi[c] += 2;
            hi[c + 1] += 2;
            m += 1;
        }
        bias[i] = column_bias(&lo, &hi, i);
        i += 1;
    }
    let mut c = n;
    while c < 2 * n {
        bias[c] = column_bias(&lo, &hi, c);
        c += 1;
    }
    bias
}

const fn column_bias(lo: &[u64; 2 * MAX_LIMBS], hi: &[u64; 2 * MAX_LIMBS], c: usize) -> u64 {
    let below = if c > 0 { hi[c - 1] } else { 0 };
    LO_BIAS
        .wrapping_mul(lo[c])
        .wrapping_add(HI_BIAS.wrapping_mul(below))
}

/// Number of (i, j) in [0, n)² with i + j = k.
const fn pairs_on_diagonal(n: usize, k: i64) -> u64 {
    let n = n as i64;
    if k < 0 || k > 2 * n - 2 {
        0
    } else if k < n {
        (k + 1) as u64
    } else {
        (2 * n - 1 - k) as u64
    }
}

/// Adds the split products `x·ys[j]` into the raw-bit columns: low halves into `lo[off + j]`, high
/// halves into `hi[off + j]` (which stand for column off + j + 1).
#[inline(always)]
fn add_row<const N: usize>(
    lo: &mut [u64; 2 * MAX_LIMBS],
    hi: &mut [u64; 2 * MAX_LIMBS],
    off: usize,
    x: f64,
    ys: &[f64; N],
) {
    for j in 0..N {
        let (h, l) = split_product(x, ys[j]);
        lo[off + j] = lo[off + j].wrapping_add(l);
        hi[off + j] = hi[off + j].wrapping_add(h);
    }
}

/// Which multiply-add [`emmart_mul_paired`] uses in this build (through [`BestLanes`]):
/// `"f64x2.relaxed_madd"` or `"f64::mul_add"`.
pub const fn fma_backend() -> &'static str {
    if cfg!(all(target_arch = "wasm32", target_feature = "relaxed-simd")) {
        "f64x2.relaxed_madd"
    } else {
        "f64::mul_add"
    }
}

// ANCHOR: emmart_mul
/// Montgomery product with 51-bit limbs and floating-point FMA (N. Emmart, J. Zheng, C. Weems,
/// "Faster Modular Exponentiation Using Double Precision Floating Point Arithmetic on the GPU",
/// ARITH 2018; and Emmart's WebAssembly field code for ZPrize 2023, Yrrid Software).
///
/// Same schedule as CIOS, but the columns are integer sums of raw f64 bits: row i adds
/// `a[i]·b` and then `q·p`, each product split into a high and a low half by [`split_product`].
/// Column i is then complete; its biases come off in one subtraction and its exact value (a
/// multiple of 2⁵¹) moves up as a signed carry. The result is the upper N columns.
#[inline]
pub fn emmart_mul<const N: usize>(a: &[u64; N], b: &[u64; N], k: &EmmartParams<N>) -> [u64; N] {
    const { assert!(N <= MAX_LIMBS) };
    let mu = k.mont.mu;
    let af: [f64; N] = core::array::from_fn(|i| a[i] as f64);
    let bf: [f64; N] = core::array::from_fn(|i| b[i] as f64);
    let mut lo = [0u64; 2 * MAX_LIMBS];
    let mut hi = [0u64; 2 * MAX_LIMBS];
    let mut carry = 0i64; // exact value moving into column i
    for i in 0..N {
        add_row(&mut lo, &mut hi, i, af[i], &bf);
        let below = if i > 0 { hi[i - 1] } else { 0 };
        let raw = lo[i].wrapping_add(below).wrapping_add(carry as u64);
        // the biases have zero low 51 bits, so the raw sum's low bits are exact
        let q = raw.wrapping_mul(mu) & MASK;
        add_row(&mut lo, &mut hi, i, q as f64, &k.p_f64);
        let below = if i > 0 { hi[i - 1] } else { 0 };
        let column = lo[i]
            .wrapping_add(below)
            .wrapping_add(carry as u64)
            .wrapping_sub(k.bias[i]) as i64;
        carry = column >> LIMB_BITS; // exact: column ≡ 0 (mod 2⁵¹)
    }
    let mut out = [0u64; N];
    for j in 0..N {
        let c = N + j;
        let column = lo[c].wrapping_add(hi[c - 1]).wrapping_sub(k.bias[c]) as i64 + carry;
        out[j] = column as u64 & MASK;
        carry = column >> LIMB_BITS;
    }
    // the value is below 2p, which may reach 2^(51·N): carry is the bit above
    subtract_p_if_needed_radix(&out, carry as u64, &k.mont.p, LIMB_BITS)
}
// ANCHOR_END: emmart_mul

/// Checks that the multiply-add this build uses ([`BestLanes`]) is fused (one rounding), by
/// splitting products whose low halves an unfused multiply would lose. Always true natively
/// (`f64::mul_add` is an IEEE fma by contract); on wasm32 with relaxed SIMD it depends on the
/// engine and the CPU, and an unfused engine fails here instead of giving wrong products.
pub fn fma_self_test() -> bool {
    let cases: [(u64, u64); 4] = [
        (MASK, MASK),
        ((1 << 50) + 1, (1 << 50) + 3),
        (0x5_5555_5555_5555, 0x3_3333_3333_3333),
        (1 << 50, 1), // a tie: H rounds to even and L = +2⁵⁰
    ];
    cases.iter().all(|&(a, b)| {
        let (h, l) = BestLanes::split(
            BestLanes::splat(a as f64),
            BestLanes::load(&[b as f64, b as f64]),
        );
        (0..2).all(|lane| {
            let h = BestLanes::lane(h, lane).wrapping_sub(HI_BIAS) as i128;
            let l = BestLanes::lane(l, lane).wrapping_sub(LO_BIAS) as i64 as i128;
            (h << LIMB_BITS) + l == a as i128 * b as i128
        })
    })
}

/// Converts a canonical element into 51-bit limbs in Montgomery form.
pub fn to_mont<const N: usize>(x: &crate::Canonical, k: &EmmartParams<N>) -> [u64; N] {
    emmart_mul_paired::<BestLanes, N>(&k.mont.split(x), &k.mont.r2, k)
}

/// Converts 51-bit limbs in Montgomery form back to a canonical element.
pub fn from_mont<const N: usize>(x: &[u64; N], k: &EmmartParams<N>) -> crate::Canonical {
    k.mont
        .join(&emmart_mul_paired::<BestLanes, N>(x, &k.mont.one, k))
}

// ANCHOR: fma_lanes
/// Two f64 lanes with a fused multiply-add, and the raw bits of two products summed as u64s.
pub trait FmaLanes: Copy {
    /// Two raw-bit accumulators.
    type Bits: Copy;
    /// Both lanes equal to `x`.
    fn splat(x: f64) -> Self;
    /// Loads a pair.
    fn load(v: &[f64; 2]) -> Self;
    /// Lane-wise [`split_product`]: the raw bits of the high and the low halves.
    fn split(x: Self, y: Self) -> (Self::Bits, Self::Bits);
    /// Zero accumulators.
    fn zero() -> Self::Bits;
    /// Lane-wise wrapping add.
    fn add(a: Self::Bits, b: Self::Bits) -> Self::Bits;
    /// Lane 0 or 1.
    fn lane(b: Self::Bits, lane: usize) -> u64;
}

/// Portable lanes: two scalar `f64::mul_add`s (a hardware FMA natively; a slow software FMA on
/// wasm32, which has no scalar FMA instruction).
#[derive(Clone, Copy, Debug)]
pub struct PortableLanes([f64; 2]);

impl FmaLanes for PortableLanes {
    type Bits = [u64; 2];
    #[inline(always)]
    fn splat(x: f64) -> Self {
        PortableLanes([x, x])
    }
    #[inline(always)]
    fn load(v: &[f64; 2]) -> Self {
        PortableLanes(*v)
    }
    #[inline(always)]
    fn split(x: Self, y: Self) -> ([u64; 2], [u64; 2]) {
        let (h0, l0) = split_product(x.0[0], y.0[0]);
        let (h1, l1) = split_product(x.0[1], y.0[1]);
        ([h0, h1], [l0, l1])
    }
    #[inline(always)]
    fn zero() -> [u64; 2] {
        [0, 0]
    }
    #[inline(always)]
    fn add(a: [u64; 2], b: [u64; 2]) -> [u64; 2] {
        [a[0].wrapping_add(b[0]), a[1].wrapping_add(b[1])]
    }
    #[inline(always)]
    fn lane(b: [u64; 2], lane: usize) -> u64 {
        b[lane]
    }
}
// ANCHOR_END: fma_lanes

#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
pub use relaxed::RelaxedLanes;

#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
mod relaxed {
    use super::{C1, C2, FmaLanes};
    use core::arch::wasm32::*;

    // ANCHOR: emmart_relaxed
    /// WebAssembly relaxed-SIMD lanes: `f64x2.relaxed_madd` for two products at once and
    /// `i64x2.add` for the raw bits. Correct only where the engine fuses the multiply-add (x86
    /// with FMA3, ARM64); [`super::fma_self_test`] checks.
    #[derive(Clone, Copy, Debug)]
    pub struct RelaxedLanes(v128);

    impl FmaLanes for RelaxedLanes {
        type Bits = v128;
        #[inline(always)]
        fn splat(x: f64) -> Self {
            RelaxedLanes(f64x2_splat(x))
        }
        #[inline(always)]
        fn load(v: &[f64; 2]) -> Self {
            // SAFETY: `v` is 16 readable bytes; wasm loads have no alignment requirement.
            RelaxedLanes(unsafe { v128_load(v.as_ptr() as *const v128) })
        }
        #[inline(always)]
        fn split(x: Self, y: Self) -> (v128, v128) {
            let hi = f64x2_relaxed_madd(x.0, y.0, f64x2_splat(C1));
            let lo = f64x2_relaxed_madd(x.0, y.0, f64x2_sub(f64x2_splat(C2), hi));
            (hi, lo)
        }
        #[inline(always)]
        fn zero() -> v128 {
            u64x2_splat(0)
        }
        #[inline(always)]
        fn add(a: v128, b: v128) -> v128 {
            i64x2_add(a, b)
        }
        #[inline(always)]
        fn lane(b: v128, lane: usize) -> u64 {
            if lane == 0 {
                u64x2_extract_lane::<0>(b)
            } else {
                u64x2_extract_lane::<1>(b)
            }
        }
    }
    // ANCHOR_END: emmart_relaxed
}

/// The lanes [`crate::Variant::EmmartFma`] runs on in this build.
#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
pub type BestLanes = RelaxedLanes;
/// The lanes [`crate::Variant::EmmartFma`] runs on in this build.
#[cfg(not(all(target_arch = "wasm32", target_feature = "relaxed-simd")))]
pub type BestLanes = PortableLanes;

/// Adds the row `s·v` (row `I`) in pairs: the pair `(v[2m], v[2m+1])` goes on columns
/// `(I+2m, I+2m+1)`. Two sets of vectors hold the raw-bit sums: `even[k]` columns (2k, 2k+1),
/// `odd[k]` columns (2k+1, 2k+2). An even row's low halves land on even-aligned columns and its
/// high halves (one column up) on odd-aligned ones; an odd row's the other way round. So every
/// row is N/2 full pairs (no zero lane for even N) and no vector is ever shuffled.
#[inline(always)]
fn add_row_paired<L: FmaLanes, const N: usize, const I: usize>(
    even: &mut [L::Bits; MAX_LIMBS],
    odd: &mut [L::Bits; MAX_LIMBS],
    s: f64,
    v: &[[f64; 2]; PAIRS],
) {
    let sv = L::splat(s);
    for m in 0..pairs_per_row(N) {
        let (h, l) = L::split(sv, L::load(&v[m]));
        if I % 2 == 0 {
            even[I / 2 + m] = L::add(even[I / 2 + m], l);
            odd[I / 2 + m] = L::add(odd[I / 2 + m], h);
        } else {
            odd[(I - 1) / 2 + m] = L::add(odd[(I - 1) / 2 + m], l);
            even[I.div_ceil(2) + m] = L::add(even[I.div_ceil(2) + m], h);
        }
    }
}

/// Column c of the raw-bit accumulators: its lane in `even` plus its lane in `odd`.
#[inline(always)]
fn column<L: FmaLanes>(even: &[L::Bits; MAX_LIMBS], odd: &[L::Bits; MAX_LIMBS], c: usize) -> u64 {
    let in_odd = if c > 0 {
        L::lane(odd[(c - 1) / 2], (c - 1) % 2)
    } else {
        0
    };
    L::lane(even[c / 2], c % 2).wrapping_add(in_odd)
}

/// Row `I` of the paired schedule: `a[I]·b`, then `q·p` with q clearing column I, then column I's
/// exact value leaves as a signed carry. `I` is a const generic so that every index is known at
/// compile time and the accumulators stay in registers (a `for` over rows would keep them in
/// memory: the parity, and so the pairing, would change at run time).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn paired_row<L: FmaLanes, const N: usize, const I: usize>(
    even: &mut [L::Bits; MAX_LIMBS],
    odd: &mut [L::Bits; MAX_LIMBS],
    carry: &mut i64,
    a: &[u64; N],
    b_pairs: &[[f64; 2]; PAIRS],
    k: &EmmartParams<N>,
) {
    if I >= N {
        return;
    }
    // limbs are below 2⁵¹, so converting as *signed* is exact and is one instruction (an unsigned
    // 64-bit conversion is a multi-instruction sequence on x86)
    add_row_paired::<L, N, I>(even, odd, a[I] as i64 as f64, b_pairs);
    let raw = column::<L>(even, odd, I).wrapping_add(*carry as u64);
    let q = raw.wrapping_mul(k.mont.mu) & MASK;
    add_row_paired::<L, N, I>(even, odd, q as i64 as f64, &k.p_pairs);
    let col = column::<L>(even, odd, I)
        .wrapping_add(*carry as u64)
        .wrapping_sub(k.bias_paired[I]) as i64;
    *carry = col >> LIMB_BITS;
}

// ANCHOR: emmart_paired
/// [`emmart_mul`] with two products per FMA instruction: the schedule of Emmart's WebAssembly code
/// for ZPrize 2023 (Yrrid Software), where the lanes of `f64x2.relaxed_madd` work on neighbouring
/// columns. The raw-bit sums live in two sets of vectors, one even-aligned and one odd-aligned
/// (see `add_row_paired`): a row's low halves go to one set and its high halves, a column up, to
/// the other, so every vector always holds the same two columns, nothing is shuffled and an even N
/// has no zero lane. [`EmmartParams::bias_paired`] accounts for the biases. Same inputs and output
/// as [`emmart_mul`].
#[inline(always)]
pub fn emmart_mul_paired<L: FmaLanes, const N: usize>(
    a: &[u64; N],
    b: &[u64; N],
    k: &EmmartParams<N>,
) -> [u64; N] {
    let [out] = emmart_mul_interleaved::<L, N, 1>([a], [b], k);
    out
}
// ANCHOR_END: emmart_paired

// ANCHOR: emmart_interleaved
/// `K` independent products of [`emmart_mul_paired`], computed row by row in lockstep: row I of
/// every product, then row I + 1 of every product, and so on.
///
/// Each row waits for the one before it: its quotient digit q needs the finished column I, so a
/// single product is a chain of N such steps (extract, multiply by μ, convert, FMA, add) and runs
/// at the chain's latency, not at the rate the CPU can issue its instructions. Two products one
/// after the other do not overlap either: each is several hundred instructions, more than the
/// out-of-order window holds. Side by side, row by row, one product's arithmetic fills the other's
/// waits. Same outputs as `K` calls of [`emmart_mul_paired`].
#[inline(always)]
pub fn emmart_mul_interleaved<L: FmaLanes, const N: usize, const K: usize>(
    a: [&[u64; N]; K],
    b: [&[u64; N]; K],
    k: &EmmartParams<N>,
) -> [[u64; N]; K] {
    let (out, carry) = interleaved_unreduced::<L, N, K>(a, b, k);
    core::array::from_fn(|x| reduce_full(&out[x], carry[x], k))
}
// ANCHOR_END: emmart_interleaved

/// The final subtraction of a product's unreduced limbs `t` and the bit above them: below p.
#[inline(always)]
pub(crate) fn reduce_full<const N: usize>(
    t: &[u64; N],
    carry: i64,
    k: &EmmartParams<N>,
) -> [u64; N] {
    // With a, b < 2p the result is t = (a·b + q·p)/R < p + 4p²/R: t ≥ p needs q·p/R within
    // 4p²/R of p. For the BLS12 base fields (R = 2^408, p < 2^382) a top limb below p's
    // settles t < p for all but about one product in 2^19, so a predicted branch replaces
    // the borrow chain and its selects.
    if !k.rare_subtraction {
        subtract_p_if_needed_radix(t, carry as u64, &k.mont.p, LIMB_BITS)
    } else if carry == 0 && t[N - 1] < k.mont.p[N - 1] {
        *t
    } else {
        subtract_rare(t, carry as u64, &k.mont.p)
    }
}

/// A lazy product's unreduced limbs: as they are where [`EmmartParams::lazy`] (below 2p), else
/// fully reduced.
#[inline(always)]
pub(crate) fn reduce_lazy<const N: usize>(
    t: &[u64; N],
    carry: i64,
    k: &EmmartParams<N>,
) -> [u64; N] {
    if k.lazy {
        debug_assert!(carry == 0, "a lazy product exceeded R");
        *t
    } else {
        subtract_p_if_needed_radix(t, carry as u64, &k.mont.p, LIMB_BITS)
    }
}

/// The final subtraction off the hot path where [`EmmartParams::rare_subtraction`] holds (the
/// attribute keeps it a branch, not a select that would run it every time).
#[cold]
#[inline(never)]
fn subtract_rare<const N: usize>(t: &[u64; N], top: u64, p: &[u64; N]) -> [u64; N] {
    subtract_p_if_needed_radix(t, top, p, LIMB_BITS)
}

// ANCHOR: emmart_lazy
/// [`emmart_mul_interleaved`] without the final conditional subtraction, where the modulus leaves
/// room for it ([`EmmartParams::lazy`]: 4p ≤ R); otherwise the same, fully reduced, products.
///
/// The bound: with inputs a, b < 2p and q < R, the Montgomery result is
/// t = (a·b + q·p)/R < (4p² + R·p)/R = p·(1 + 4p/R) ≤ 2p. So a lazy product is below 2p (and below
/// R: no carry above the top limb), and inputs below 2p are as good as reduced ones for every
/// product here — whose own final subtraction then brings the result below p. A lazy result is
/// only ever an operand of another product.
#[inline(always)]
pub fn emmart_mul_interleaved_lazy<L: FmaLanes, const N: usize, const K: usize>(
    a: [&[u64; N]; K],
    b: [&[u64; N]; K],
    k: &EmmartParams<N>,
) -> [[u64; N]; K] {
    let (out, carry) = interleaved_unreduced::<L, N, K>(a, b, k);
    core::array::from_fn(|x| reduce_lazy(&out[x], carry[x], k))
}
// ANCHOR_END: emmart_lazy

/// The rows of [`emmart_mul_interleaved`]: each product's limbs below R and the bit above them.
#[inline(always)]
fn interleaved_unreduced<L: FmaLanes, const N: usize, const K: usize>(
    a: [&[u64; N]; K],
    b: [&[u64; N]; K],
    k: &EmmartParams<N>,
) -> ([[u64; N]; K], [i64; K]) {
    const { assert!(N <= MAX_LIMBS) };
    let pairs: [_; K] = core::array::from_fn(|x| {
        let bf: [f64; N] = core::array::from_fn(|j| b[x][j] as i64 as f64);
        pair_even(&bf)
    });
    let mut even = [[L::zero(); MAX_LIMBS]; K];
    let mut odd = [[L::zero(); MAX_LIMBS]; K];
    let mut carry = [0i64; K];
    macro_rules! rows {
        ($($i:literal)*) => {
            $(
                for x in 0..K {
                    paired_row::<L, N, $i>(&mut even[x], &mut odd[x], &mut carry[x], a[x], &pairs[x], k);
                }
            )*
        };
    }
    rows!(0 1 2 3 4 5 6 7); // MAX_LIMBS rows; those with I ≥ N vanish at compile time
    let mut out = [[0u64; N]; K];
    for j in 0..N {
        let c = N + j;
        for x in 0..K {
            let col =
                column::<L>(&even[x], &odd[x], c).wrapping_sub(k.bias_paired[c]) as i64 + carry[x];
            out[x][j] = col as u64 & MASK;
            carry[x] = col >> LIMB_BITS;
        }
    }
    (out, carry)
}
