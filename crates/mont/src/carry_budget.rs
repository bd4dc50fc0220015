//! The carry budget: how many limb products an accumulator can sum before it must carry.
//!
//! With `w`-bit limbs every product is at most (2^w − 1)². A `B`-bit accumulator (B = 64 for the
//! i64 of WebAssembly, B = 32 for the u32 of WGSL) that is being summed into also holds, at the
//! moment it is split, a left-over limb below 2^w and one incoming carry below 2^(B−w). So the
//! largest safe number of products is the largest k with
//!
//! k·(2^w − 1)² + (2^w − 1) + (2^(B−w) − 1) ≤ 2^B − 1.
//!
//! Each step of the reduced-radix loop adds two products (xᵢ·yⱼ and qᵢ·pⱼ) to a column, so a
//! column can go `n_safe = ⌊k/2⌋` steps between carries (Mitscha-Baude's `nSafe`).

// ANCHOR: carry_budget
/// The carry budget of `limb_bits`-bit limbs in an `acc_bits`-bit accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CarryBudget {
    /// Limb width w.
    pub limb_bits: u32,
    /// Accumulator width B.
    pub acc_bits: u32,
    /// k: products (each ≤ (2^w−1)²) that fit alongside a left-over limb and one carry.
    pub products_per_carry: u64,
    /// ⌊k/2⌋: loop steps (two products each) between carries. 0 means even one step overflows, and
    /// the loop must carry after every single product, as CIOS does.
    pub n_safe: u64,
}

/// Computes the [`CarryBudget`] exactly, in 128-bit integers. Needs `2 ≤ w` and `2w ≤ B ≤ 64`.
pub const fn carry_budget(limb_bits: u32, acc_bits: u32) -> CarryBudget {
    assert!(limb_bits >= 2 && acc_bits <= 64 && 2 * limb_bits <= acc_bits);
    let w = limb_bits;
    let max_limb = (1u128 << w) - 1;
    let max_product = max_limb * max_limb;
    let max_carry = (1u128 << (acc_bits - w)) - 1;
    let capacity = (1u128 << acc_bits) - 1;
    let k = (capacity - max_limb - max_carry) / max_product;
    CarryBudget {
        limb_bits,
        acc_bits,
        products_per_carry: k as u64,
        n_safe: (k / 2) as u64,
    }
}
// ANCHOR_END: carry_budget

/// One row of the limb-size table for a given modulus size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CarryBudgetRow {
    /// Limb width w.
    pub limb_bits: u32,
    /// Limbs n, with w·n > bits (so R > 2p, no spill limb).
    pub limbs: usize,
    /// w·n, the bits of R.
    pub r_bits: u32,
    /// 2n: the most products that ever land in one column of the product-scanning sum.
    pub max_terms: u64,
    /// The budget for this width.
    pub budget: CarryBudget,
}

/// The table of Mitscha-Baude (ZPrize 2022, 64-bit accumulators) and Derei & Koh (ZPrize 2023,
/// 32-bit accumulators), derived rather than typed: for each limb width, the limb count, the
/// worst-case number of terms, the carry-free terms k and `nSafe`.
pub fn carry_budget_table(
    modulus_bits: u32,
    acc_bits: u32,
    limb_widths: impl IntoIterator<Item = u32>,
) -> Vec<CarryBudgetRow> {
    limb_widths
        .into_iter()
        .map(|w| {
            let limbs = crate::params::limbs_with_spare_bit(modulus_bits, w);
            CarryBudgetRow {
                limb_bits: w,
                limbs,
                r_bits: limbs as u32 * w,
                max_terms: 2 * limbs as u64,
                budget: carry_budget(w, acc_bits),
            }
        })
        .collect()
}
