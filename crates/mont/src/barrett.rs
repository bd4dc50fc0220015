//! Barrett reduction: vanilla (Barrett 1986) and Barrett–Domb (Ingonyama, ZPrize 2022), on
//! 64-bit limbs. Elements stay in ordinary form: no conversion in or out.

use crate::params::FieldParams;
use crate::primitives::{mac, sbb};
use crate::words::{self, WORDS};

/// Constants for Barrett reduction modulo p, with N 64-bit words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BarrettParams<const N: usize> {
    /// p in words.
    pub p: [u64; N],
    /// n, the bit length of p.
    pub n: u32,
    /// m = ⌊4ⁿ / p⌋ (n + 1 bits), in the first N + 1 words.
    pub m: [u64; WORDS + 1],
    /// Spare bits in the top word: s = 64N − n.
    pub spare: u32,
    /// Barrett–Domb: the low 64N bits of m·2^s. (m·2^s has 64N + 1 bits and its top bit is known,
    /// so it is never stored; the code adds H instead of multiplying by it.)
    pub m_shifted_low: [u64; N],
}

impl<const N: usize> BarrettParams<N> {
    /// Derives the constants from the modulus.
    pub const fn new(field: &FieldParams) -> Self {
        assert!(N <= WORDS && N as u32 * 64 >= field.bits);
        let n = field.bits;
        let spare = 64 * N as u32 - n;
        // Barrett–Domb shifts z right by 2n − 64N bits; our fields all have n > 32N.
        assert!(2 * n >= 64 * N as u32, "Barrett-Domb here needs n >= 32N");
        let m = field.barrett_m();
        let mut m_shifted_low = [0u64; N];
        let mut i = 0;
        while i < N {
            // word i of m << spare
            let lo = if spare == 0 { m[i] } else { m[i] << spare };
            let carry_in = if spare == 0 || i == 0 {
                0
            } else {
                m[i - 1] >> (64 - spare)
            };
            m_shifted_low[i] = lo | carry_in;
            i += 1;
        }
        BarrettParams {
            p: words::truncate(&field.modulus),
            n,
            m,
            spare,
            m_shifted_low,
        }
    }

    /// The most conditional subtractions Barrett–Domb can need (see [`barrett_domb_mul`]).
    pub const fn domb_max_corrections(&self) -> u32 {
        let truncation = (N as u64).div_ceil(1u64 << self.spare) as u32;
        let rounding = if self.spare == 0 { 3 } else { 2 };
        rounding + truncation
    }
}

/// `out = a·b` (full product; `out.len() == a.len() + b.len()`).
#[inline(always)]
fn mul_full(a: &[u64], b: &[u64], out: &mut [u64]) {
    out.fill(0);
    for i in 0..a.len() {
        let mut c = 0;
        for j in 0..b.len() {
            (out[i + j], c) = mac(out[i + j], a[i], b[j], c);
        }
        out[i + b.len()] = c;
    }
}

/// `out = (a·b) mod 2^(64·out.len())`: only the columns below `out.len()` (an "LSB multiply").
#[inline(always)]
fn mul_low(a: &[u64], b: &[u64], out: &mut [u64]) {
    out.fill(0);
    let len = out.len();
    for i in 0..a.len().min(len) {
        let mut c = 0;
        for j in 0..b.len().min(len - i) {
            (out[i + j], c) = mac(out[i + j], a[i], b[j], c);
        }
        if i + b.len() < len {
            out[i + b.len()] = c;
        }
    }
}

/// `out` = bits `[shift, shift + 64·out.len())` of `x`.
#[inline(always)]
fn shr_bits(x: &[u64], shift: u32, out: &mut [u64]) {
    let w = (shift / 64) as usize;
    let b = shift % 64;
    for (i, o) in out.iter_mut().enumerate() {
        let lo = x.get(w + i).copied().unwrap_or(0);
        let hi = x.get(w + i + 1).copied().unwrap_or(0);
        *o = if b == 0 {
            lo
        } else {
            (lo >> b) | (hi << (64 - b))
        };
    }
}

/// `r ← r − p` while `r ≥ p`; `r` has N + 1 words. Returns how many subtractions ran.
#[inline(always)]
fn correct<const N: usize>(r: &mut [u64; WORDS + 1], p: &[u64; N]) -> u32 {
    let mut count = 0;
    loop {
        let mut d = [0u64; WORDS + 1];
        let mut borrow = 0;
        for j in 0..=N {
            let pj = if j < N { p[j] } else { 0 };
            (d[j], borrow) = sbb(r[j], pj, borrow);
        }
        if borrow == 1 {
            return count;
        }
        *r = d;
        count += 1;
    }
}

// ANCHOR: barrett
/// Every intermediate value of one vanilla Barrett reduction (what [`barrett_steps`] computes),
/// so that a reader or a test can follow the estimate and its correction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BarrettSteps<const N: usize> {
    /// z₁ = ⌊z / 2ⁿ⁻¹⌋, below 2ⁿ⁺¹: the first N + 1 words.
    pub z1: [u64; WORDS + 1],
    /// z₁·m: the first 2N + 2 words.
    pub z1_m: [u64; 2 * WORDS + 2],
    /// The quotient estimate q̂ = ⌊z₁·m / 2ⁿ⁺¹⌋, at most 2 below ⌊z/p⌋.
    pub q_hat: [u64; N],
    /// z − q̂·p before the correction, below 3p: the first N + 1 words.
    pub uncorrected: [u64; WORDS + 1],
    /// How many times p was subtracted from it (at most 2).
    pub corrections: u32,
    /// z mod p.
    pub remainder: [u64; N],
}

/// Vanilla Barrett reduction of `z < p²` (P. Barrett, "Implementing the Rivest Shamir and Adleman
/// Public Key Encryption Algorithm on a Standard Digital Signal Processor", CRYPTO '86; in the form
/// of Menezes, van Oorschot, Vanstone, Handbook of Applied Cryptography, Algorithm 14.42, with
/// base 2), keeping every step.
///
/// Estimate the quotient `⌊z/p⌋` as `q̂ = ⌊⌊z / 2ⁿ⁻¹⌋ · m / 2ⁿ⁺¹⌋` with `m = ⌊4ⁿ/p⌋`: two
/// shifts and one multiplication instead of a division. `q̂` is at most 2 below the true quotient,
/// so `z − q̂·p < 3p` and at most two subtractions finish. Every product here is computed in full;
/// [`barrett_domb_mul`] shows which halves are really needed.
#[inline(always)]
pub fn barrett_steps<const N: usize>(z: &[u64], k: &BarrettParams<N>) -> BarrettSteps<N> {
    debug_assert_eq!(z.len(), 2 * N);
    let mut z1 = [0u64; WORDS + 1]; // z >> (n − 1) < 2ⁿ⁺¹: N + 1 words
    shr_bits(z, k.n - 1, &mut z1[..=N]);
    let mut z1_m = [0u64; 2 * WORDS + 2];
    mul_full(&z1[..=N], &k.m[..=N], &mut z1_m[..2 * N + 2]);
    let mut q_hat = [0u64; N]; // q̂ ≤ z/p < p: N words
    shr_bits(&z1_m[..2 * N + 2], k.n + 1, &mut q_hat);
    let mut qp = [0u64; 2 * WORDS];
    mul_full(&q_hat, &k.p, &mut qp[..2 * N]);
    // r = z − q̂·p, which is below 3p, so its words above N are zero
    let mut r = [0u64; WORDS + 1];
    let mut borrow = 0;
    for j in 0..2 * N {
        let d;
        (d, borrow) = sbb(z[j], qp[j], borrow);
        if j <= N {
            r[j] = d;
        } else {
            debug_assert_eq!(d, 0);
        }
    }
    let uncorrected = r;
    let corrections = correct(&mut r, &k.p);
    BarrettSteps {
        z1,
        z1_m,
        q_hat,
        uncorrected,
        corrections,
        remainder: core::array::from_fn(|j| r[j]),
    }
}
// ANCHOR_END: barrett

/// [`barrett_steps`] without the intermediate values: the remainder and the number of correcting
/// subtractions.
#[inline]
pub fn barrett_reduce<const N: usize>(z: &[u64], k: &BarrettParams<N>) -> ([u64; N], u32) {
    let steps = barrett_steps(z, k);
    (steps.remainder, steps.corrections)
}

/// `a·b mod p` by [`barrett_reduce`]; inputs and output are ordinary (not Montgomery) elements.
#[inline]
pub fn barrett_mul<const N: usize>(a: &[u64; N], b: &[u64; N], k: &BarrettParams<N>) -> [u64; N] {
    let mut z = [0u64; 2 * WORDS];
    mul_full(a, b, &mut z[..2 * N]);
    barrett_reduce(&z[..2 * N], k).0
}

// ANCHOR: barrett_domb
/// Barrett–Domb multiplication `a·b mod p` (Y. Domb, "Multi-Precision Fast Modular
/// Multiplication", Ingonyama, 2022, github.com/ingonyama-zk/papers; used for WebGPU by Derei &
/// Koh, ZPrize 2023). Returns the product and the number of correcting subtractions.
///
/// Two ideas cut the work of vanilla Barrett from about 3N² to about 2N² word products:
/// 1. *Align to words.* Shift z right by 2n − 64N bits to get `H` (exactly N words), and store
///    m·2^s (s = spare bits of the top word) without its known top bit 2^(64N). Then
///    `q̂ = ⌊(H + ⌊H·m'/2^(64N)⌋) / 2^s⌋`, and only the *high* half of `H·m'` matters.
/// 2. *Compute only the needed halves.* The high half is approximated from the columns ≥ N − 1
///    (an "MSB multiply"; the dropped columns are worth less than N units), and since the
///    remainder is small, `z − q̂·p` is computed modulo 2^(64(N+1)) from the low columns only
///    (an "LSB multiply").
///
/// The estimate is low by at most 2 (rounding) + ⌈N / 2^s⌉ (truncation); see
/// [`BarrettParams::domb_max_corrections`].
pub fn barrett_domb_mul_counted<const N: usize>(
    a: &[u64; N],
    b: &[u64; N],
    k: &BarrettParams<N>,
) -> ([u64; N], u32) {
    let mut z = [0u64; 2 * WORDS];
    mul_full(a, b, &mut z[..2 * N]);
    // 1. H = z >> (2n − 64N), exactly N words
    let mut h = [0u64; WORDS];
    shr_bits(&z[..2 * N], 2 * k.n - 64 * N as u32, &mut h[..N]);
    // 2. T = H + MSB(H·m'): columns N−1 and up; column N−1 only feeds its carry
    let mut acc = [0u64; WORDS + 2]; // acc[c − (N−1)] is column c
    for i in 0..N {
        let j0 = (N - 1).saturating_sub(i);
        let mut c = 0;
        for j in j0..N {
            let col = i + j - (N - 1);
            (acc[col], c) = mac(acc[col], h[i], k.m_shifted_low[j], c);
        }
        // propagate into the next column(s)
        let mut col = i + N - (N - 1);
        while c != 0 && col < N + 2 {
            let (s, c2) = crate::primitives::adc(acc[col], c, 0);
            acc[col] = s;
            c = c2;
            col += 1;
        }
    }
    // T = H + acc[1..] (the high part), N + 1 words
    let mut t = [0u64; WORDS + 1];
    let mut c = 0;
    for j in 0..N {
        (t[j], c) = crate::primitives::adc(acc[j + 1], h[j], c);
    }
    t[N] = acc[N + 1] + c;
    // q̂ = T >> s (below p, so N words)
    let mut q = [0u64; WORDS];
    shr_bits(&t[..=N], k.spare, &mut q[..N]);
    // 3. r = (z − q̂·p) mod 2^(64(N+1)), from the low N + 1 columns only
    let mut qp = [0u64; WORDS + 1];
    mul_low(&q[..N], &k.p, &mut qp[..=N]);
    let mut r = [0u64; WORDS + 1];
    let mut borrow = 0;
    for j in 0..=N {
        (r[j], borrow) = sbb(z[j], qp[j], borrow);
    }
    let count = correct(&mut r, &k.p);
    (core::array::from_fn(|j| r[j]), count)
}
// ANCHOR_END: barrett_domb

/// `a·b mod p` by Barrett–Domb.
#[inline]
pub fn barrett_domb_mul<const N: usize>(
    a: &[u64; N],
    b: &[u64; N],
    k: &BarrettParams<N>,
) -> [u64; N] {
    barrett_domb_mul_counted(a, b, k).0
}

/// Vanilla Barrett with its correction count, for tests.
pub fn barrett_mul_counted<const N: usize>(
    a: &[u64; N],
    b: &[u64; N],
    k: &BarrettParams<N>,
) -> ([u64; N], u32) {
    let mut z = [0u64; 2 * WORDS];
    mul_full(a, b, &mut z[..2 * N]);
    barrett_reduce(&z[..2 * N], k)
}

// ANCHOR: to_montgomery
/// Into Montgomery form with Barrett: `x·R mod p` for a given `R mod p`. This is how Derei & Koh's
/// WebGPU MSM converts its inputs, since a plain modular product is what Barrett computes.
pub fn to_montgomery<const N: usize>(
    x: &[u64; N],
    r_mod_p: &[u64; N],
    k: &BarrettParams<N>,
) -> [u64; N] {
    barrett_mul(x, r_mod_p, k)
}
// ANCHOR_END: to_montgomery
