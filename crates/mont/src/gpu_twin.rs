//! CPU twins of the WGSL Montgomery shaders: 12- to 16-bit limbs, u32 arithmetic only.
//!
//! WGSL has no 64-bit integers and no widening multiply, so a shader keeps limbs of at most 16 bits
//! in `u32`s and every product in one `u32`. These functions use exactly the operations a shader
//! has (u32 multiply, add, shift, mask; wrapping multiply for μ), in the same order, so a shader
//! can be tested against them limb for limb.

use crate::carry_budget::carry_budget;
use crate::params::{MontParams, narrow, widen32};

/// Montgomery constants narrowed to u32 limbs, the form a shader receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MontParams32<const N: usize> {
    /// Bits per limb.
    pub width: u32,
    /// p in limbs.
    pub p: [u32; N],
    /// μ = −p⁻¹ mod 2^w.
    pub mu: u32,
    /// R² mod p.
    pub r2: [u32; N],
    /// The integer 1.
    pub one: [u32; N],
    /// The 64-bit-stored constants these came from (for splitting and joining).
    pub wide: MontParams<N>,
}

impl<const N: usize> MontParams32<N> {
    /// Narrows limb constants of width ≤ 16.
    pub const fn new(wide: MontParams<N>) -> Self {
        assert!(wide.width <= 16);
        MontParams32 {
            width: wide.width,
            p: narrow(&wide.p),
            mu: wide.mu as u32,
            r2: narrow(&wide.r2),
            one: narrow(&wide.one),
            wide,
        }
    }
}

// ANCHOR: u32_nsafe
/// Montgomery product with `W`-bit limbs (12 ≤ W ≤ 15) in u32, carrying every `nSafe` steps: the
/// shader form of Mitscha-Baude's reduced-radix loop used by Derei & Koh for WebGPU (ZPrize 2023,
/// 13-bit limbs). For W = 12 and 13, `nSafe` (128, 32) exceeds the limb count of a ≤ 381-bit
/// field, so the only carries are the one at step 0 and the final pass; for 14 and 15 (8, 2) the
/// in-loop carries are real. Needs w·N > bits (R > 2p).
#[inline(always)]
pub fn mont_mul_u32_nsafe<const W: u32, const N: usize>(
    x: &[u32; N],
    y: &[u32; N],
    k: &MontParams32<N>,
) -> [u32; N] {
    let n_safe = const {
        assert!(
            W >= 12 && W <= 15,
            "the u32 nSafe loop is for 12..=15-bit limbs"
        );
        carry_budget(W, 32).n_safe as usize
    };
    debug_assert_eq!(k.width, W);
    let m: u32 = (1 << W) - 1;
    let p = &k.p;
    let mut s = [0u32; N];
    for &xi in x.iter() {
        let t = s[0] + xi * y[0];
        let q = t.wrapping_mul(k.mu) & m;
        let mut c = (t + q * p[0]) >> W;
        for j in 1..N {
            let mut t = s[j] + xi * y[j] + q * p[j];
            if (j - 1) % n_safe == 0 {
                t += c;
            }
            if j % n_safe == 0 {
                c = t >> W;
                s[j - 1] = t & m;
            } else {
                s[j - 1] = t;
            }
        }
        s[N - 1] = if (N - 1) % n_safe == 0 { c } else { 0 };
    }
    normalize_and_reduce_u32(&s, p, W)
}
// ANCHOR_END: u32_nsafe

// ANCHOR: u32_cios16
/// Montgomery product with 16-bit limbs in u32: CIOS, carrying after *every* product. One 16-bit
/// product already nearly fills a u32 ((2¹⁶−1)² + 2(2¹⁶−1) = 2³² − 1 exactly), so the two products
/// of a reduced-radix step cannot share an accumulator: `nSafe` would be 0. (Derei & Koh's table
/// lists 1 for this row; their 16-bit shader is in fact CIOS, as here.)
#[inline(always)]
pub fn mont_mul_u32_cios16<const N: usize>(
    x: &[u32; N],
    y: &[u32; N],
    k: &MontParams32<N>,
) -> [u32; N] {
    debug_assert_eq!(k.width, 16);
    const M: u32 = 0xffff;
    let p = &k.p;
    let mut t = [0u32; N];
    let mut t_hi = 0u32; // word N (the value stays below 2p < 2^(16N+1), so it is 0 or 1 between rows)
    for &xi in x.iter() {
        let mut c = 0u32;
        for j in 0..N {
            let s = t[j] + xi * y[j] + c;
            t[j] = s & M;
            c = s >> 16;
        }
        let top = t_hi + c; // below 2¹⁷
        let m = t[0].wrapping_mul(k.mu) & M;
        let mut c = (t[0] + m * p[0]) >> 16;
        for j in 1..N {
            let s = t[j] + m * p[j] + c;
            t[j - 1] = s & M;
            c = s >> 16;
        }
        let s = top + c;
        t[N - 1] = s & M;
        t_hi = s >> 16;
    }
    subtract_p_if_needed_u32(&t, t_hi, p, 16)
}
// ANCHOR_END: u32_cios16

/// Carries column sums (each below 2³²) into `w`-bit limbs, then subtracts p if needed.
#[inline(always)]
fn normalize_and_reduce_u32<const N: usize>(s: &[u32; N], p: &[u32; N], w: u32) -> [u32; N] {
    let m = (1u32 << w) - 1;
    let mut out = [0u32; N];
    let mut c = 0u32;
    for j in 0..N {
        let t = s[j] + c;
        out[j] = t & m;
        c = t >> w;
    }
    debug_assert_eq!(c, 0);
    subtract_p_if_needed_u32(&out, 0, p, w)
}

/// `t + top·2^(wN)` reduced below p, given it is below 2p; limbs below 2^w ≤ 2¹⁶.
#[inline(always)]
fn subtract_p_if_needed_u32<const N: usize>(
    t: &[u32; N],
    top: u32,
    p: &[u32; N],
    w: u32,
) -> [u32; N] {
    let m = (1u32 << w) - 1;
    let mut d = [0u32; N];
    let mut borrow = 0u32;
    for j in 0..N {
        let v = t[j].wrapping_sub(p[j]).wrapping_sub(borrow);
        d[j] = v & m;
        borrow = v >> 31;
    }
    if top >= borrow { d } else { *t }
}

/// The signature shared by the twins, so conversions can take either.
pub type MulU32<const N: usize> = fn(&[u32; N], &[u32; N], &MontParams32<N>) -> [u32; N];

/// Converts a canonical element into u32 limbs in Montgomery form, using the twin `mul`.
pub fn to_mont<const N: usize>(
    x: &crate::Canonical,
    k: &MontParams32<N>,
    mul: MulU32<N>,
) -> [u32; N] {
    mul(&narrow(&k.wide.split(x)), &k.r2, k)
}

/// Converts u32 limbs in Montgomery form back to a canonical element, using the twin `mul`.
pub fn from_mont<const N: usize>(
    x: &[u32; N],
    k: &MontParams32<N>,
    mul: MulU32<N>,
) -> crate::Canonical {
    k.wide.join(&widen32(&mul(x, &k.one, k)))
}
