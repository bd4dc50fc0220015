//! Every derived constant, recomputed independently with num-bigint, and the moduli and
//! Montgomery constants cross-checked against arkworks.

use crate::common::*;
use ark_ff::PrimeField;
use fastmsm_mont::fields::{self, Field};
use fastmsm_mont::no_carry::{NoCarryParams, no_carry_applies};
use fastmsm_mont::params::{FieldParams, MontParams, limbs_covering, limbs_with_spare_bit};
use fastmsm_mont::{limb_constants, words};
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Checks one representation's constants from first principles.
fn check_mont(field: Field, width: u32, limbs: usize, p: &[u64], mu: u64, r: &[u64], r2: &[u64]) {
    let pm = modulus(field);
    let ctx = format!("{field} w={width} n={limbs}");
    assert_eq!(p.len(), limbs, "{ctx}: limb count");
    assert_eq!(big_limbs(p, width), pm, "{ctx}: p in limbs");
    assert!(
        limbs as u32 * width >= field.bits(),
        "{ctx}: R must exceed p"
    );
    // μ·p ≡ −1 (mod 2^w), and μ < 2^w
    let two_w = pow2(width);
    assert!(BigUint::from(mu) < two_w, "{ctx}: mu too wide");
    assert_eq!(
        (BigUint::from(mu) * &pm + 1u32) % &two_w,
        BigUint::zero(),
        "{ctx}: mu"
    );
    let log2_r = limbs as u32 * width;
    assert_eq!(big_limbs(r, width), pow2(log2_r) % &pm, "{ctx}: R mod p");
    assert_eq!(
        big_limbs(r2, width),
        pow2(2 * log2_r) % &pm,
        "{ctx}: R^2 mod p"
    );
}

macro_rules! check_field_module {
    ($m:ident, $field:expr) => {{
        use fields::$m as m;
        let f = $field;
        assert_eq!(m::FIELD, *f.params());
        assert_eq!(m::N64, limbs_covering(f.bits(), 64));
        check_mont(f, 64, m::N64, &m::W64.p, m::W64.mu, &m::W64.r, &m::W64.r2);
        assert_eq!(m::W64.one, {
            let mut one = [0u64; m::N64];
            one[0] = 1;
            one
        });
        let b = &m::BOS;
        check_mont(f, 32, m::N32, &b.mont.p, b.mont.mu, &b.mont.r, &b.mont.r2);
        assert_eq!(
            b.p.iter().map(|&x| x as u64).collect::<Vec<_>>(),
            b.mont.p.to_vec()
        );
        // the Bos algorithm uses +p⁻¹: p·p_inv ≡ 1 (mod 2³²)
        assert_eq!(
            (BigUint::from(b.p_inv) * modulus(f)) % pow2(32),
            BigUint::one(),
            "{f}: Bos p_inv"
        );
        let e = &m::EMMART;
        check_mont(f, 51, m::N51, &e.mont.p, e.mont.mu, &e.mont.r, &e.mont.r2);
        for (pf, pi) in e.p_f64.iter().zip(e.mont.p.iter()) {
            assert_eq!(*pf as u64, *pi);
        }
        check_mont(f, 26, m::N26, &m::R26.p, m::R26.mu, &m::R26.r, &m::R26.r2);
        check_mont(f, 27, m::N27, &m::R27.p, m::R27.mu, &m::R27.r, &m::R27.r2);
        check_mont(f, 28, m::N28, &m::R28.p, m::R28.mu, &m::R28.r, &m::R28.r2);
        check_mont(f, 29, m::N29, &m::R29.p, m::R29.mu, &m::R29.r, &m::R29.r2);
        check_mont(f, 30, m::N30, &m::R30.p, m::R30.mu, &m::R30.r, &m::R30.r2);
        for (w, n) in [
            (26, m::N26),
            (27, m::N27),
            (28, m::N28),
            (29, m::N29),
            (30, m::N30),
        ] {
            // reduced radix keeps no spill limb: R > 2p
            assert!(
                pow2(w * n as u32) > modulus(f) * 2u32,
                "{f}: w={w} needs a spare bit"
            );
            assert_eq!(n, limbs_with_spare_bit(f.bits(), w));
        }
        macro_rules! twin {
            ($g:expr, $n:expr, $w:expr) => {{
                let g = &$g;
                assert_eq!(g.width, $w);
                let wide = |x: &[u32]| x.iter().map(|&v| v as u64).collect::<Vec<_>>();
                check_mont(f, $w, $n, &wide(&g.p), g.mu as u64, &g.wide.r, &wide(&g.r2));
                // the run-time table for the GPU crate gives the same numbers
                let lc = limb_constants(f.params(), $w).unwrap();
                assert_eq!(lc.limbs, $n);
                assert_eq!(lc.modulus, g.p.to_vec());
                assert_eq!(lc.mu, g.mu);
                assert_eq!(lc.r_squared, g.r2.to_vec());
                assert!(pow2($w * $n as u32) > modulus(f) * 2u32);
            }};
        }
        twin!(m::G12, m::N12, 12);
        twin!(m::G13, m::N13, 13);
        twin!(m::G14, m::N14, 14);
        twin!(m::G15, m::N15, 15);
        twin!(m::G16, m::N16, 16);
        // Barrett
        let bp = &m::BARRETT;
        let n = f.bits();
        assert_eq!(bp.n, n);
        let m_big = pow2(2 * n) / modulus(f);
        assert_eq!(big_words(&bp.m), m_big, "{f}: Barrett m");
        assert_eq!(m_big.bits(), n as u64 + 1, "{f}: m has n + 1 bits");
        assert_eq!(bp.spare, 64 * m::N64 as u32 - n);
        let shifted = (&m_big << bp.spare) - pow2(64 * m::N64 as u32);
        assert_eq!(big_words(&bp.m_shifted_low), shifted, "{f}: Domb's m'");
    }};
}

#[test]
fn typed_constants_match_num_bigint_for_every_field_and_width() {
    check_field_module!(bn254_fq, Field::Bn254Fq);
    check_field_module!(bn254_fr, Field::Bn254Fr);
    check_field_module!(bls12_377_fq, Field::Bls12_377Fq);
    check_field_module!(bls12_377_fr, Field::Bls12_377Fr);
    check_field_module!(bls12_381_fq, Field::Bls12_381Fq);
    check_field_module!(bls12_381_fr, Field::Bls12_381Fr);
}

fn ark_modulus<F: PrimeField>() -> BigUint {
    F::MODULUS.into()
}

#[test]
fn moduli_match_arkworks() {
    let pairs = [
        (Field::Bn254Fq, ark_modulus::<ark_bn254::Fq>(), 254),
        (Field::Bn254Fr, ark_modulus::<ark_bn254::Fr>(), 254),
        (Field::Bls12_377Fq, ark_modulus::<ark_bls12_377::Fq>(), 377),
        (Field::Bls12_377Fr, ark_modulus::<ark_bls12_377::Fr>(), 253),
        (Field::Bls12_381Fq, ark_modulus::<ark_bls12_381::Fq>(), 381),
        (Field::Bls12_381Fr, ark_modulus::<ark_bls12_381::Fr>(), 255),
    ];
    for (f, ark_p, bits) in pairs {
        assert_eq!(modulus(f), ark_p, "{f}");
        assert_eq!(f.bits(), bits, "{f}");
    }
}

#[test]
fn montgomery_constants_match_arkworks() {
    // arkworks stores R = 2^(64N) mod p, R² mod p and INV = −p⁻¹ mod 2⁶⁴ for 64-bit limbs.
    fn check<const N: usize>(
        k: &MontParams<N>,
        r: ark_ff::BigInt<N>,
        r2: ark_ff::BigInt<N>,
        inv: u64,
    ) {
        assert_eq!(k.r, r.0);
        assert_eq!(k.r2, r2.0);
        assert_eq!(k.mu, inv);
    }
    type B254q = ark_bn254::FqConfig;
    type B254r = ark_bn254::FrConfig;
    type B377q = ark_bls12_377::FqConfig;
    type B377r = ark_bls12_377::FrConfig;
    type B381q = ark_bls12_381::FqConfig;
    type B381r = ark_bls12_381::FrConfig;
    use ark_ff::MontConfig;
    check::<4>(&fields::bn254_fq::W64, B254q::R, B254q::R2, B254q::INV);
    check::<4>(&fields::bn254_fr::W64, B254r::R, B254r::R2, B254r::INV);
    check::<6>(&fields::bls12_377_fq::W64, B377q::R, B377q::R2, B377q::INV);
    check::<4>(&fields::bls12_377_fr::W64, B377r::R, B377r::R2, B377r::INV);
    check::<6>(&fields::bls12_381_fq::W64, B381q::R, B381q::R2, B381q::INV);
    check::<4>(&fields::bls12_381_fr::W64, B381r::R, B381r::R2, B381r::INV);
}

#[test]
fn limb_constants_for_every_width_match_num_bigint() {
    for f in Field::ALL {
        let p = modulus(f);
        for w in 2..=32u32 {
            let lc = limb_constants(f.params(), w).unwrap();
            let n = lc.limbs;
            assert_eq!(n as u32, f.bits() / w + 1, "{f} w={w}");
            assert!(pow2(w * n as u32) > &p * 2u32);
            let as64 = |v: &[u32]| v.iter().map(|&x| x as u64).collect::<Vec<_>>();
            check_mont(
                f,
                w,
                n,
                &as64(&lc.modulus),
                lc.mu as u64,
                &as64(&lc.r_mod_p),
                &as64(&lc.r_squared),
            );
            assert_eq!(
                big_limbs(&as64(&lc.barrett_m), w),
                pow2(2 * f.bits()) / &p,
                "{f} w={w}: Barrett m"
            );
            assert_eq!(lc.barrett_n, f.bits());
            assert_eq!(lc.budget.limb_bits, w);
            assert_eq!(lc.budget.acc_bits, if w <= 16 { 32 } else { 64 });
        }
        assert!(limb_constants(f.params(), 1).is_err());
        assert!(limb_constants(f.params(), 33).is_err());
    }
}

#[test]
fn mu_comes_from_the_lowest_limb_not_the_top_of_p_inverse() {
    // The erratum: μ = −p⁻¹ mod 2^w depends on p mod 2^w only. Recompute it from the lowest limb
    // alone, and show that "the most significant limb of p⁻¹ mod R" is a different number.
    for f in Field::ALL {
        let p = modulus(f);
        for w in [13u32, 16, 26, 30, 32, 51, 64] {
            let low = &p % pow2(w);
            let from_low = (pow2(w) - inv_of_odd(&low, w)) % pow2(w);
            assert_eq!(BigUint::from(f.params().mu(w)), from_low, "{f} w={w}");
            let n = f.bits() / w + 1;
            let r = pow2(w * n);
            let p_inv_mod_r = inv_of_odd(&(&p % &r), w * n);
            let top_limb = &p_inv_mod_r >> (w * (n - 1));
            assert_ne!(
                top_limb, from_low,
                "{f} w={w}: the two readings coincide by accident"
            );
        }
    }
}

/// x⁻¹ mod 2^bits for odd x, by num-bigint's modular inverse.
fn inv_of_odd(x: &BigUint, bits: u32) -> BigUint {
    x.modinv(&pow2(bits))
        .expect("odd numbers are invertible mod 2^k")
}

#[test]
fn no_carry_condition_holds_for_the_six_fields_and_fails_for_full_top_words() {
    for f in Field::ALL {
        let top = f.params().modulus[limbs_covering(f.bits(), 64) - 1];
        assert!(no_carry_applies(top), "{f}");
    }
    assert!(fields::bn254_fq::NO_CARRY.is_ok());
    assert!(fields::bls12_381_fq::NO_CARRY.is_ok());
    // Curve25519's p = 2^255 − 19: top word 0x7fff…ffff, one too many.
    const P25519: FieldParams = FieldParams::from_hex(
        "curve25519",
        "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
    );
    let e = NoCarryParams::new(MontParams::<4>::new(&P25519, 64)).unwrap_err();
    assert_eq!(e.top_limb, 0x7fff_ffff_ffff_ffff);
    // secp256k1's p uses the whole top word.
    const SECP: FieldParams = FieldParams::from_hex(
        "secp256k1",
        "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    );
    assert!(NoCarryParams::new(MontParams::<4>::new(&SECP, 64)).is_err());
    // the boundary: 2^63 − 2 qualifies, 2^63 − 1 does not
    assert!(no_carry_applies((1 << 63) - 2));
    assert!(!no_carry_applies((1 << 63) - 1));
}

#[test]
fn word_helpers_round_trip() {
    let mut g = rng(7);
    for f in Field::ALL {
        let p = modulus(f);
        for _ in 0..50 {
            let x = canon(&random_below(&mut g, &p));
            for w in [12u32, 13, 16, 26, 30, 32, 51, 64] {
                let n = f.bits().div_ceil(w) as usize;
                let limbs: Vec<u64> = (0..n).map(|i| words::limb_of(&x, i, w)).collect();
                assert_eq!(big_limbs(&limbs, w), big(&x));
            }
            let l13: [u64; 30] = words::to_limbs(&x, 13);
            assert_eq!(words::from_limbs(&l13, 13), x);
            let l51: [u64; 8] = words::to_limbs(&x, 51);
            assert_eq!(words::from_limbs(&l51, 51), x);
        }
        assert_eq!(words::parse_hex(&format!("{:#x}", p)), f.params().modulus);
    }
    assert_eq!(words::parse_hex("0x1_0000_0000_0000_0000")[1], 1);
}
