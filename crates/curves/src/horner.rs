//! Horner's rule for the last step of every bucket-method MSM, on the CPU and after the GPU's
//! passes alike: the window sums W₀ … W₍ₖ₋₁₎ combine into Σ_w 2^(c·w)·W_w as
//! W₀ + 2^c·(W₁ + 2^c·(W₂ + …)), c doublings and one addition per window. It lives here, beside
//! [`Group`], so that both MSM crates use one copy.

use crate::Group;

// ANCHOR: horner
/// Σ_w 2^(c·w)·`windows[w]` by Horner's rule: from the top window down, c doublings then one
/// addition per window.
pub fn horner<G: Group>(windows: &[G], c: u32) -> G {
    let mut acc = G::identity();
    for w in windows.iter().rev() {
        for _ in 0..c {
            acc = acc.double();
        }
        acc = acc.add(w);
    }
    acc
}
// ANCHOR_END: horner
