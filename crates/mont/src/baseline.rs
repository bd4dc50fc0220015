//! The arkworks baseline: the same chained loop with ark-ff's `Fp` multiplication (feature `ark`).
//!
//! ark-ff 0.5 multiplies with the no-carry CIOS on 64-bit limbs when the modulus allows (all six
//! fields here), written with `u128` products: the natural yardstick, compiled to the same target.

use crate::error::MontError;
use crate::fields::Field;
use crate::words::{Canonical, truncate, widen};
use ark_ff::{BigInt, PrimeField};

fn chain<F: PrimeField<BigInt = BigInt<N>>, const N: usize>(
    x: &Canonical,
    y: &Canonical,
    iters: u64,
) -> Canonical {
    let mut acc = F::from_bigint(BigInt::new(truncate(x))).expect("checked below p");
    let y = F::from_bigint(BigInt::new(truncate(y))).expect("checked below p");
    for _ in 0..iters {
        acc *= *core::hint::black_box(&y); // re-read each step, as `chain::run_chain` does
    }
    widen(&acc.into_bigint().0)
}

/// `x·y^iters mod p` by `iters` dependent ark-ff multiplications (plus the conversions).
#[inline(never)]
pub fn ark_chained_mul(
    field: Field,
    x: &Canonical,
    y: &Canonical,
    iters: u64,
) -> Result<Canonical, MontError> {
    let fp = field.params();
    if !fp.is_reduced(x) {
        return Err(MontError::NotReduced { field, input: "x" });
    }
    if !fp.is_reduced(y) {
        return Err(MontError::NotReduced { field, input: "y" });
    }
    Ok(match field {
        Field::Bn254Fq => chain::<ark_bn254::Fq, 4>(x, y, iters),
        Field::Bn254Fr => chain::<ark_bn254::Fr, 4>(x, y, iters),
        Field::Bls12_377Fq => chain::<ark_bls12_377::Fq, 6>(x, y, iters),
        Field::Bls12_377Fr => chain::<ark_bls12_377::Fr, 4>(x, y, iters),
        Field::Bls12_381Fq => chain::<ark_bls12_381::Fq, 6>(x, y, iters),
        Field::Bls12_381Fr => chain::<ark_bls12_381::Fr, 4>(x, y, iters),
    })
}
