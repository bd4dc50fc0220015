//! The carry-budget table, computed in code and checked against values reasoned out by hand.

use fastmsm_mont::{carry_budget, carry_budget_table};
use num_bigint::BigUint;

/// k is the *largest* count that fits: k products, a left-over limb and a carry fit; k + 1 do not.
#[test]
fn products_per_carry_is_exact() {
    for (acc, widths) in [(32u32, 2..=16u32), (64, 2..=32)] {
        for w in widths {
            let b = carry_budget(w, acc);
            let fits = |k: u64| {
                let max_limb = (BigUint::from(1u32) << w) - 1u32;
                let max_carry = (BigUint::from(1u32) << (acc - w)) - 1u32;
                BigUint::from(k) * &max_limb * &max_limb + &max_limb + max_carry
                    < (BigUint::from(1u32) << acc)
            };
            let k = b.products_per_carry;
            assert!(k >= 1, "w={w}, B={acc}");
            assert!(fits(k), "w={w}, B={acc}: {k} products must fit");
            assert!(
                !fits(k + 1),
                "w={w}, B={acc}: {} products must not fit",
                k + 1
            );
            assert_eq!(b.n_safe, k / 2);
        }
    }
}

/// Derei & Koh's WebGPU table (ZPrize 2023) for a 254-bit field and u32 accumulators, reasoned
/// independently: a w-bit product is below 2^(2w), so about 2^(32−2w) of them fit in 32 bits.
/// Their printed k column (257, 65, 17, 5, 2) is one too high; their nSafe column agrees with
/// ⌊k/2⌋ for 12..15 bits. For 16 bits one product already fills the u32, so no step of two
/// products fits (nSafe = 0): 16-bit limbs need CIOS, which is what they ran.
#[test]
fn webgpu_table_for_254_bits() {
    let rows = carry_budget_table(254, 32, 12..=16);
    let got: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                r.limb_bits,
                r.limbs,
                r.r_bits,
                r.max_terms,
                r.budget.products_per_carry,
                r.budget.n_safe,
            )
        })
        .collect();
    let expected = vec![
        // w, n, N = w·n, max terms 2n, k, nSafe
        (12, 22, 264, 44, 256, 128),
        (13, 20, 260, 40, 64, 32),
        (14, 19, 266, 38, 16, 8),
        (15, 17, 255, 34, 4, 2),
        (16, 16, 256, 32, 1, 0),
    ];
    assert_eq!(got, expected);
    // The 13-bit sweet spot: nSafe = 32 ≥ n = 20, so no carry is ever needed inside the loop.
    assert!(rows[1].budget.n_safe as usize >= rows[1].limbs);
}

/// The same for a 377-bit field (BLS12-377 base field, the ZPrize 2023 WebGPU curve): 30 limbs of
/// 13 bits, still under nSafe = 32.
#[test]
fn webgpu_table_for_377_bits() {
    let rows = carry_budget_table(377, 32, [13, 14]);
    assert_eq!(
        (rows[0].limbs, rows[0].r_bits, rows[0].budget.n_safe),
        (30, 390, 32)
    );
    assert_eq!((rows[1].limbs, rows[1].budget.n_safe), (27, 8));
}

/// Mitscha-Baude's table (ZPrize 2022) for BLS12-381 and 64-bit accumulators: k = 2^(64−2w).
#[test]
fn wasm_table_for_381_bits() {
    let rows = carry_budget_table(381, 64, [32, 31, 30, 29, 28, 26]);
    let got: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                r.limb_bits,
                r.limbs,
                r.r_bits,
                r.max_terms,
                r.budget.products_per_carry,
                r.budget.n_safe,
            )
        })
        .collect();
    let expected = vec![
        (32, 12, 384, 24, 1, 0),
        (31, 13, 403, 26, 4, 2),
        (30, 13, 390, 26, 16, 8),
        (29, 14, 406, 28, 64, 32),
        (28, 14, 392, 28, 256, 128),
        (26, 15, 390, 30, 4096, 2048),
    ];
    assert_eq!(got, expected);
    // 30 bits: nSafe = 8 < 13 limbs, so one carry in the middle of each row; 29 bits and below
    // need none inside the loop.
    assert!(rows[2].budget.n_safe < rows[2].limbs as u64);
    assert!(rows[3].budget.n_safe >= rows[3].limbs as u64);
}

#[test]
fn budget_rejects_impossible_widths() {
    assert!(std::panic::catch_unwind(|| carry_budget(17, 32)).is_err());
    assert!(std::panic::catch_unwind(|| carry_budget(1, 32)).is_err());
}
