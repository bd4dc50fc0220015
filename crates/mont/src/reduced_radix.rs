//! Mitscha-Baude's reduced-radix Montgomery multiplication: 26- to 30-bit limbs in 64-bit words.

use crate::carry_budget::carry_budget;
use crate::params::{MontParams, mask};
use crate::primitives::{normalize, normalize_and_reduce};

// ANCHOR: reduced_radix
/// Montgomery product with `W`-bit limbs (26 ≤ W ≤ 30) held in u64 words, carrying only every
/// `nSafe` steps (G. Mitscha-Baude, "montgomery: Fast MSM in WebAssembly", ZPrize 2022,
/// github.com/mitschabaude/montgomery, section "13 x 30 bit multiplication").
///
/// The loop is the iterative (FIOS) form: step (i, j) adds `x[i]·y[j] + q·p[j]` to column j and
/// moves it down to j − 1. A `W`-bit product leaves 64 − 2W bits of headroom, so the column sums
/// may grow unsplit for `nSafe` steps ([`crate::carry_budget()`]); the carry (shift + mask + add,
/// three Wasm instructions) is done only at steps with `j % nSafe == 0`, and its value joins the
/// very next step. The modulus must satisfy w·N > bits (R > 2p): then the top column never
/// overflows a limb and no spill word is kept. Inputs below p give an output below p.
#[inline(always)]
pub fn mont_mul_reduced_radix<const W: u32, const N: usize>(
    x: &[u64; N],
    y: &[u64; N],
    k: &MontParams<N>,
) -> [u64; N] {
    normalize_and_reduce(&columns::<W, N>(x, y, k), &k.p, W)
}

/// The column sums of the product above, before carries and the final subtraction.
#[inline(always)]
fn columns<const W: u32, const N: usize>(
    x: &[u64; N],
    y: &[u64; N],
    k: &MontParams<N>,
) -> [u64; N] {
    let n_safe = const {
        assert!(W >= 26 && W <= 30, "reduced radix is for 26..=30-bit limbs");
        carry_budget(W, 64).n_safe as usize
    };
    debug_assert_eq!(k.width, W);
    let m = mask(W);
    let p = &k.p;
    let mut s = [0u64; N]; // column sums, not necessarily below 2^W
    for &xi in x.iter() {
        let t = s[0] + xi * y[0];
        let q = t.wrapping_mul(k.mu) & m;
        let mut c = (t + q * p[0]) >> W; // the low W bits are zero by the choice of q
        for j in 1..N {
            let mut t = s[j] + xi * y[j] + q * p[j];
            if (j - 1) % n_safe == 0 {
                t += c; // the carry made one step ago
            }
            if j % n_safe == 0 {
                c = t >> W;
                s[j - 1] = t & m;
            } else {
                s[j - 1] = t;
            }
        }
        // a carry made at the last step becomes the new top column
        s[N - 1] = if (N - 1) % n_safe == 0 { c } else { 0 };
    }
    s
}
// ANCHOR_END: reduced_radix

// ANCHOR: reduced_radix_lazy
/// The same product without the final subtraction: inputs below 2p give an output below 2p,
/// which can go straight into the next product. That needs R > 4p (two spare bits in w·N);
/// leaving the representation ([`crate::chain`]'s `decode`) subtracts p once if needed.
#[inline(always)]
pub fn mont_mul_reduced_radix_lazy<const W: u32, const N: usize>(
    x: &[u64; N],
    y: &[u64; N],
    k: &MontParams<N>,
) -> [u64; N] {
    debug_assert!(has_two_spare_bits(k), "lazy reduction needs R > 4p");
    normalize(&columns::<W, N>(x, y, k), W)
}
// ANCHOR_END: reduced_radix_lazy

/// R > 4p: the condition under which products of values below 2p stay below 2p.
pub const fn has_two_spare_bits<const N: usize>(k: &MontParams<N>) -> bool {
    let mut top = N;
    while top > 0 && k.p[top - 1] == 0 {
        top -= 1;
    }
    // the bit length of p, counted over w-bit limbs
    let bits = if top == 0 {
        0
    } else {
        (top as u32 - 1) * k.width + (64 - k.p[top - 1].leading_zeros())
    };
    bits + 2 <= k.width * N as u32
}
