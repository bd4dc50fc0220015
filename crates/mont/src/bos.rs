//! Bos–Montgomery two-way SIMD Montgomery multiplication on 32-bit limbs.

use crate::params::MontParams;
use crate::two_lane::TwoLane;

/// Constants for the two-lane algorithm: 32-bit limbs and the *positive* inverse p⁻¹ mod 2³².
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BosParams<const N: usize> {
    /// The ordinary Montgomery constants for 32-bit limbs (used for conversions).
    pub mont: MontParams<N>,
    /// p in 32-bit limbs.
    pub p: [u32; N],
    /// +p⁻¹ mod 2³² (note the sign: this algorithm subtracts q·p instead of adding it).
    pub p_inv: u32,
}

impl<const N: usize> BosParams<N> {
    /// Derives the constants from 32-bit Montgomery parameters.
    pub const fn new(mont: MontParams<N>) -> Self {
        assert!(mont.width == 32);
        // μ = −p⁻¹, so p⁻¹ = −μ (mod 2³²)
        let p_inv = (0u64.wrapping_sub(mont.mu) & 0xffff_ffff) as u32;
        BosParams {
            mont,
            p: crate::params::narrow(&mont.p),
            p_inv,
        }
    }
}

// ANCHOR: bos
/// Montgomery product by the two-way SIMD method of Bos, Montgomery, Shumow and Zaverucha
/// ("Montgomery Multiplication Using Vector Instructions", SAC 2013), as presented in Bos &
/// Montgomery, "Montgomery Arithmetic from a Software Perspective" (2017), §2.4.
///
/// Two independent accumulators run side by side, one per lane: D collects `a·b` and E collects
/// `q·p`, each divided by 2³² every step. Because `q` is chosen so that both lanes have the same
/// low word, the two divisions are exact for the difference, and `D − E ≡ a·b·R⁻¹`. Each of D and
/// E stays below p, so `D − E ∈ (−p, p)` and a single conditional addition of p finishes.
/// Generic over the lane implementation: [`crate::two_lane::Portable`] is the non-SIMD
/// counterpart, `Sse2` and `Simd128` are the vector ones.
#[inline(always)]
pub fn bos_mul<L: TwoLane, const N: usize>(
    a: &[u32; N],
    b: &[u32; N],
    k: &BosParams<N>,
) -> [u32; N] {
    let p = &k.p;
    // lane 0 multiplies by b[j], lane 1 by p[j]
    let bp: [L::Pair; N] = core::array::from_fn(|j| L::pair(b[j], p[j]));
    let mu_b0 = k.p_inv.wrapping_mul(b[0]);
    let mut de = [L::new(0, 0); N]; // lane 0: the limbs of D, lane 1: the limbs of E
    for &ai in a.iter() {
        let [d0, e0] = de[0].lanes();
        // q·p₀ ≡ aᵢ·b₀ + d₀ − e₀ (mod 2³²), so both lanes end in the same low word
        let q = mu_b0
            .wrapping_mul(ai)
            .wrapping_add(k.p_inv.wrapping_mul((d0 as u32).wrapping_sub(e0 as u32)));
        let aq = L::pair(ai, q);
        let mut carry = L::mul_add_add(aq, bp[0], de[0], L::new(0, 0)).high();
        for j in 1..N {
            let t = L::mul_add_add(aq, bp[j], carry, de[j]);
            de[j - 1] = t.low();
            carry = t.high();
        }
        de[N - 1] = carry;
    }
    // C = D − E, then add p back if it went negative
    let mut c = [0u32; N];
    let mut borrow = 0u64;
    for j in 0..N {
        let [d, e] = de[j].lanes();
        let diff = d.wrapping_sub(e).wrapping_sub(borrow);
        c[j] = diff as u32;
        borrow = (diff >> 63) & 1; // d, e < 2³²: a negative difference shows in the top bit
    }
    if borrow == 1 {
        let mut carry = 0u64;
        for j in 0..N {
            let s = c[j] as u64 + p[j] as u64 + carry;
            c[j] = s as u32;
            carry = s >> 32;
        }
    }
    c
}
// ANCHOR_END: bos

/// Converts a canonical element into Bos 32-bit limbs in Montgomery form.
pub fn to_mont<L: TwoLane, const N: usize>(x: &crate::Canonical, k: &BosParams<N>) -> [u32; N] {
    let x = crate::params::narrow(&k.mont.split(x));
    bos_mul::<L, N>(&x, &crate::params::narrow(&k.mont.r2), k)
}

/// Converts Bos limbs in Montgomery form back to a canonical element.
pub fn from_mont<L: TwoLane, const N: usize>(x: &[u32; N], k: &BosParams<N>) -> crate::Canonical {
    let y = bos_mul::<L, N>(x, &crate::params::narrow(&k.mont.one), k);
    k.mont.join(&crate::params::widen32(&y))
}
