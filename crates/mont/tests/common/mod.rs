//! Shared helpers: num-bigint conversions, deterministic randomness, edge-case inputs.
#![allow(dead_code)]

use fastmsm_mont::{Canonical, Field, WORDS};
use num_bigint::{BigUint, RandBigInt};
use num_traits::{One, Zero};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// Canonical words → BigUint.
pub fn big(x: &Canonical) -> BigUint {
    let mut digits = Vec::with_capacity(2 * WORDS);
    for w in x {
        digits.push(*w as u32);
        digits.push((*w >> 32) as u32);
    }
    BigUint::new(digits)
}

/// BigUint (below 2^384) → canonical words.
pub fn canon(x: &BigUint) -> Canonical {
    let digits = x.to_u64_digits();
    assert!(
        digits.len() <= WORDS,
        "value too large for a canonical element"
    );
    let mut out = [0u64; WORDS];
    out[..digits.len()].copy_from_slice(&digits);
    out
}

/// Any little-endian u64 slice → BigUint.
pub fn big_words(x: &[u64]) -> BigUint {
    x.iter()
        .rev()
        .fold(BigUint::zero(), |acc, w| (acc << 64u32) + BigUint::from(*w))
}

/// Little-endian limbs of `w` bits → BigUint.
pub fn big_limbs(limbs: &[u64], w: u32) -> BigUint {
    limbs.iter().rev().fold(BigUint::zero(), |acc, l| {
        assert!(
            w == 64 || *l < (1u64 << w),
            "limb {l:#x} does not fit {w} bits"
        );
        (acc << w) + BigUint::from(*l)
    })
}

/// The modulus as a BigUint, read from the crate (and checked against arkworks elsewhere).
pub fn modulus(f: Field) -> BigUint {
    big(&f.params().modulus)
}

/// A deterministic generator, one per test, so failures reproduce.
pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// A uniform element below p.
pub fn random_below(rng: &mut StdRng, p: &BigUint) -> BigUint {
    rng.gen_biguint_below(p)
}

/// 2^e.
pub fn pow2(e: u32) -> BigUint {
    BigUint::one() << e
}

/// x⁻¹ mod p (p prime), by Fermat.
pub fn inv_mod(x: &BigUint, p: &BigUint) -> BigUint {
    x.modpow(&(p - 2u32), p)
}

/// Inputs that stress carries and the final subtraction: 0, 1, 2, values just under p, halves,
/// powers of two, R mod p and R⁻¹ mod p for the given radices, and the values below p whose low
/// `w·j` bits are all ones (for each limb width in `widths`).
pub fn edge_values(f: Field, r_bits: &[u32], widths: &[u32]) -> Vec<BigUint> {
    let p = modulus(f);
    let bits = f.bits();
    let mut v: Vec<BigUint> = vec![
        BigUint::zero(),
        BigUint::one(),
        BigUint::from(2u32),
        BigUint::from(3u32),
        &p - 1u32,
        &p - 2u32,
        &p - 3u32,
        &p - 5u32,
        (&p - 1u32) >> 1u32,
        (&p + 1u32) >> 1u32,
        pow2(bits - 1) - 1u32,
        pow2(bits - 1),
        pow2(64) % &p,
        pow2(128) % &p,
        pow2(bits - 2) + 1u32,
    ];
    for &r in r_bits {
        let r_mod_p = pow2(r) % &p;
        v.push(inv_mod(&r_mod_p, &p));
        v.push(r_mod_p.clone());
        v.push((&r_mod_p * &r_mod_p) % &p);
    }
    for &w in widths {
        let mut shift = w;
        while shift < bits {
            // p with its low `shift` bits replaced by ones, minus p's own low bits: just under p
            let x = ((&p >> shift) << shift) - 1u32;
            v.push(x);
            shift += w;
        }
    }
    v.retain(|x| x < &p);
    v.sort();
    v.dedup();
    v
}
