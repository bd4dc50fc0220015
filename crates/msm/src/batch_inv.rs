//! Batch inversion: many field inverses for the price of one.
//!
//! **Montgomery's trick** (P. L. Montgomery, "Speeding the Pollard and elliptic curve methods of
//! factorization", Mathematics of Computation 48(177), 1987): with prefix products
//! c_i = a_0·…·a_i, one inversion gives c_{n−1}⁻¹, and walking back
//! a_i⁻¹ = c_{i−1}·c_i⁻¹, c_{i−1}⁻¹ = a_i·c_i⁻¹ recovers every inverse: 3(n − 1) multiplications
//! and one inversion for n elements.
//!
//! **Zeros.** A zero would make every prefix product zero and the one inversion impossible. Here a
//! zero is skipped (it multiplies the prefix by 1, not 0) and comes out as zero, so the other
//! elements still get their inverses.
//!
//! **Tree variant.** Emmart & Wu's ZPrize 2023 FPGA MSM (Yrrid/Ingonyama) combines inputs as the
//! leaves of a product tree and inverts only the root; going back down, each child's inverse is
//! its parent's inverse times its sibling. The same 3n multiplications, but each level is a batch
//! of independent products (good for pipelines and SIMD), where the prefix chain is one long
//! dependency. [`batch_inverse_tree`] is that shape, with the same zero rule.

use fastmsm_curves::field::PrimeField;

// ANCHOR: batch_inversion
/// Replaces every nonzero element of `v` by its inverse, leaving zeros as zeros, with one field
/// inversion (Montgomery's trick). The elements at even and at odd positions form two chains that
/// run side by side and meet at the one inversion: each step has two independent products
/// ([`PrimeField::mul_many`]), which the CPU overlaps, where one chain waits for every product
/// before the next. Scratch space: one
/// vector of prefix-product pairs.
pub fn batch_inverse<F: PrimeField>(v: &mut [F]) {
    batch_inverse_chains::<F, false>(v);
}

/// [`batch_inverse`] whose inverses may be left not fully reduced, as
/// [`PrimeField::mul_many_lazy`] leaves them: for inverses that are only multiplied (the
/// denominators of affine additions), each one is a product the lazy field saves its final
/// subtraction on.
pub fn batch_inverse_lazy<F: PrimeField>(v: &mut [F]) {
    batch_inverse_chains::<F, true>(v);
}

/// The products that give the inverses themselves: lazy or fully reduced.
#[inline(always)]
fn inverses<F: PrimeField, const LAZY: bool, const K: usize>(a: [F; K], b: [F; K]) -> [F; K] {
    if LAZY {
        F::mul_many_lazy(a, b)
    } else {
        F::mul_many(a, b)
    }
}

/// Both of the above: `LAZY` picks how the inverses themselves are multiplied out.
fn batch_inverse_chains<F: PrimeField, const LAZY: bool>(v: &mut [F]) {
    let n = v.len();
    let pairs = n / 2;
    // a zero multiplies its chain by 1, not 0
    let nonzero = |a: &F| if a.is_zero() { F::ONE } else { *a };
    // prefix[k] = products of the nonzero elements among v[0..2k] at even / odd positions
    let mut prefix = Vec::with_capacity(pairs);
    let mut acc = [F::ONE, F::ONE];
    for pair in v.chunks_exact(2) {
        prefix.push(acc);
        // lazy: the chain's products are only ever multiplied again
        acc = F::mul_many_lazy(acc, [nonzero(&pair[0]), nonzero(&pair[1])]);
    }
    // an odd last element joins the even chain
    let before_last = acc[0];
    if n % 2 == 1 {
        acc[0] = acc[0] * nonzero(&v[n - 1]);
    }
    // acc[0]·acc[1] is a product of nonzero elements: invertible (1 when there are none).
    let inv_both = (acc[0] * acc[1])
        .inverse()
        .expect("product of nonzero field elements");
    // inv[c] = (chain c's product so far)⁻¹
    let mut inv = [inv_both * acc[1], inv_both * acc[0]];
    if n % 2 == 1 && !v[n - 1].is_zero() {
        let a = v[n - 1];
        [v[n - 1]] = inverses::<F, LAZY, 1>([inv[0]], [before_last]);
        inv[0] = inv[0] * a;
    }
    for (pair, before) in v.chunks_exact_mut(2).zip(prefix).rev() {
        let a = [nonzero(&pair[0]), nonzero(&pair[1])];
        let a_inv = inverses::<F, LAZY, 2>(inv, before);
        inv = F::mul_many_lazy(inv, a);
        for (slot, inverse) in pair.iter_mut().zip(a_inv) {
            if !slot.is_zero() {
                *slot = inverse;
            }
        }
    }
}
// ANCHOR_END: batch_inversion

// ANCHOR: batch_inversion_tree
/// Same result as [`batch_inverse`], through a product tree: level 0 is `v` (zeros replaced by 1),
/// each level above holds products of pairs, the root is inverted once, and inverses flow down:
/// left child⁻¹ = parent⁻¹ · right child, right child⁻¹ = parent⁻¹ · left child.
pub fn batch_inverse_tree<F: PrimeField>(v: &mut [F]) {
    if v.is_empty() {
        return;
    }
    let mut levels: Vec<Vec<F>> = vec![
        v.iter()
            .map(|a| if a.is_zero() { F::ONE } else { *a })
            .collect(),
    ];
    while levels.last().expect("non-empty").len() > 1 {
        let below = levels.last().expect("non-empty");
        let above = below
            .chunks(2)
            .map(|pair| {
                if pair.len() == 2 {
                    pair[0] * pair[1]
                } else {
                    pair[0]
                }
            })
            .collect();
        levels.push(above);
    }
    let mut inv = vec![
        levels.last().expect("non-empty")[0]
            .inverse()
            .expect("product of nonzero elements"),
    ];
    for below in levels.iter().rev().skip(1) {
        let mut next = Vec::with_capacity(below.len());
        for (pair, parent_inv) in below.chunks(2).zip(&inv) {
            if pair.len() == 2 {
                next.push(*parent_inv * pair[1]);
                next.push(*parent_inv * pair[0]);
            } else {
                next.push(*parent_inv);
            }
        }
        inv = next;
    }
    for (a, i) in v.iter_mut().zip(inv) {
        if !a.is_zero() {
            *a = i;
        }
    }
}
// ANCHOR_END: batch_inversion_tree

#[cfg(test)]
mod tests {
    use super::*;
    use fastmsm_curves::field::{Bls12_381Fq, Bn254Fq};
    use fastmsm_curves::radix51::{Bls12_377Fq51, Bn254Fq51};

    fn check<F: PrimeField>(inv: fn(&mut [F])) {
        let xs: Vec<F> = (0..40u64)
            .map(|i| {
                if i % 7 == 3 || i == 0 || i == 39 {
                    F::ZERO
                } else {
                    F::from_u64(i * i + 17).square()
                }
            })
            .collect();
        for len in 0..xs.len() {
            let mut v = xs[..len].to_vec();
            inv(&mut v);
            for (a, b) in xs[..len].iter().zip(&v) {
                if a.is_zero() {
                    assert!(b.is_zero(), "zero stays zero");
                } else {
                    assert_eq!(*a * *b, F::ONE, "len {len}: a·a⁻¹ = 1");
                }
            }
        }
        let mut all_zero = vec![F::ZERO; 5];
        inv(&mut all_zero);
        assert!(all_zero.iter().all(|a| a.is_zero()));
    }

    #[test]
    fn montgomery_trick_with_zeros() {
        check::<Bn254Fq>(batch_inverse);
        check::<Bls12_381Fq>(batch_inverse);
    }

    #[test]
    fn lazy_inverses_are_inverses() {
        // lazy where 4p ≤ R (BLS12-377), fully reduced otherwise (BN254); a·a⁻¹ through a full
        // product, which accepts the lazy operand
        check::<Bls12_377Fq51>(batch_inverse_lazy);
        check::<Bls12_377Fq51>(batch_inverse);
        check::<Bn254Fq51>(batch_inverse_lazy);
        check::<Bls12_381Fq>(batch_inverse_lazy);
    }

    #[test]
    fn tree_with_zeros() {
        check::<Bn254Fq>(batch_inverse_tree);
        check::<Bls12_381Fq>(batch_inverse_tree);
    }
}
