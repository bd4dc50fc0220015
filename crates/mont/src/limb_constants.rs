//! Constants for any limb width, as plain vectors: what the GPU crate injects into WGSL.
//!
//! The typed tables in [`crate::fields`] cover the widths this crate computes with. A shader
//! generator needs the same numbers for whatever width it is compiled for, so this module derives
//! them at run time with the very same `const fn`s.

use crate::carry_budget::{CarryBudget, carry_budget};
use crate::error::MontError;
use crate::params::{FieldParams, limbs_with_spare_bit};
use crate::words::{self, WORDS};

/// Everything a Montgomery (and Barrett) kernel with `limb_bits`-bit limbs needs, limbs
/// little-endian, each below 2^limb_bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimbConstants {
    /// The field's stable name.
    pub field: &'static str,
    /// Limb width w.
    pub limb_bits: u32,
    /// Limb count n = ⌊bits/w⌋ + 1, so R = 2^(w·n) > 2p.
    pub limbs: usize,
    /// p in n limbs.
    pub modulus: Vec<u32>,
    /// μ = −p⁻¹ mod 2^w.
    pub mu: u32,
    /// R mod p in n limbs (Montgomery form of 1).
    pub r_mod_p: Vec<u32>,
    /// R² mod p in n limbs.
    pub r_squared: Vec<u32>,
    /// Bit length of p, the n of Barrett's m = ⌊4ⁿ/p⌋.
    pub barrett_n: u32,
    /// Barrett's m = ⌊4ⁿ/p⌋ in ⌈(n+1)/w⌉ limbs.
    pub barrett_m: Vec<u32>,
    /// Carry budget for the accumulator this width is meant for: u32 (32 bits) when w ≤ 16, as
    /// in WGSL; u64 (64 bits) when w ≤ 32, as in Wasm's i64.
    pub budget: CarryBudget,
}

impl LimbConstants {
    /// `nSafe` for the accumulator of [`LimbConstants::budget`]; 0 means carry after every product.
    pub fn n_safe(&self) -> u64 {
        self.budget.n_safe
    }
}

// ANCHOR: limb_constants
/// Derives [`LimbConstants`] for `field` and any limb width `2 ≤ limb_bits ≤ 32`.
pub fn limb_constants(field: &FieldParams, limb_bits: u32) -> Result<LimbConstants, MontError> {
    if !(2..=32).contains(&limb_bits) {
        return Err(MontError::LimbWidth(limb_bits));
    }
    let w = limb_bits;
    let n = limbs_with_spare_bit(field.bits, w);
    let log2_r = n as u32 * w;
    let limbs_of = |x: &[u64], count: usize| -> Vec<u32> {
        (0..count).map(|i| words::limb_of(x, i, w) as u32).collect()
    };
    let m: [u64; WORDS + 1] = field.barrett_m();
    let acc_bits = if w <= 16 { 32 } else { 64 };
    Ok(LimbConstants {
        field: field.name,
        limb_bits: w,
        limbs: n,
        modulus: limbs_of(&field.modulus, n),
        mu: field.mu(w) as u32,
        r_mod_p: limbs_of(&field.pow2_mod(log2_r), n),
        r_squared: limbs_of(&field.pow2_mod(2 * log2_r), n),
        barrett_n: field.bits,
        barrett_m: limbs_of(&m, (field.bits + 1).div_ceil(w) as usize),
        budget: carry_budget(w, acc_bits),
    })
}
// ANCHOR_END: limb_constants
