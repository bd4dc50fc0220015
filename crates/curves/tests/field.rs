//! The field element type against arkworks, for the four base fields the curves use (and the
//! scalar fields that `fastmsm-mont` defines).

mod common;

use ark_ff::PrimeField as ArkPrimeField;
use common::{ark_fe, canonical, fe, rng};
use fastmsm_curves::field::{self, PrimeField};

fn check<F: PrimeField, A: ArkPrimeField>(seed: u64) {
    let mut r = rng(seed);
    let p = F::params().modulus;
    assert_eq!(p, canonical(A::MODULUS.as_ref()), "{}", F::params().name);
    let minus_one = A::zero() - A::one();
    let mut values: Vec<A> = vec![
        A::zero(),
        A::one(),
        A::from(2u64),
        minus_one,
        minus_one - A::one(),
    ];
    for _ in 0..40 {
        values.push(A::rand(&mut r));
    }
    for &a in &values {
        let x: F = fe(a);
        assert_eq!(
            x.to_canonical(),
            canonical(a.into_bigint().as_ref()),
            "round trip"
        );
        assert_eq!(ark_fe::<A, F>(x), a);
        assert_eq!(-x, fe(-a), "neg");
        assert_eq!(x.double(), fe(a.double()), "double");
        assert_eq!(x.square(), fe(a.square()), "square");
        assert_eq!(x.is_zero(), a == A::zero());
        match a.inverse() {
            None => assert_eq!(x.inverse(), None),
            Some(ai) => {
                assert_eq!(x.inverse(), Some(fe(ai)), "inverse");
                assert_eq!(x * x.inverse().unwrap(), F::ONE);
            }
        }
        for &b in &values[..10] {
            let y: F = fe(b);
            assert_eq!(x + y, fe(a + b), "add");
            assert_eq!(x - y, fe(a - b), "sub");
            // a lazy difference is only an operand of products, which reduce it
            assert_eq!(x.sub_lazy(y) * F::ONE, fe(a - b), "sub_lazy");
            assert_eq!(x.sub_lazy(y) * y, fe((a - b) * b), "sub_lazy times");
            assert_eq!(x * y, fe(a * b), "mul");
        }
    }
    // Canonical input must be below p.
    assert_eq!(F::from_canonical(&p), None, "p is rejected");
    let mut p_minus_1 = p;
    p_minus_1[0] -= 1;
    assert_eq!(F::from_canonical(&p_minus_1), Some(-F::ONE));
    assert_eq!(F::from_u64(7), fe(A::from(7u64)));
    assert_eq!(F::ZERO, fe(A::zero()));
    assert_eq!(F::ONE, fe(A::one()));
    // pow against arkworks with a random exponent
    let a = A::rand(&mut r);
    let e = A::rand(&mut r).into_bigint();
    assert_eq!(fe::<F, A>(a).pow(e.as_ref()), fe(a.pow(e)), "pow");
}

#[test]
fn bn254_fq() {
    check::<field::Bn254Fq, ark_bn254::Fq>(1);
}
#[test]
fn bn254_fr() {
    check::<field::Bn254Fr, ark_bn254::Fr>(2);
}
#[test]
fn bls12_377_fq() {
    check::<field::Bls12_377Fq, ark_bls12_377::Fq>(3);
}
#[test]
fn bls12_377_fr() {
    check::<field::Bls12_377Fr, ark_bls12_377::Fr>(4);
}
#[test]
fn bls12_381_fq() {
    check::<field::Bls12_381Fq, ark_bls12_381::Fq>(5);
}
#[test]
fn bls12_381_fr() {
    check::<field::Bls12_381Fr, ark_bls12_381::Fr>(6);
}

// The 30-bit twins of the same fields (fastmsm_curves::radix30), against the same oracles, and the
// conversions between the two representations.
mod radix30 {
    use super::*;
    use fastmsm_curves::radix30::{self as r30, ToRadix30};

    fn convert<F: ToRadix30, A: ArkPrimeField>(seed: u64) {
        let mut r = rng(seed);
        let minus_one = A::zero() - A::one();
        let mut values = vec![A::zero(), A::one(), minus_one];
        for _ in 0..40 {
            values.push(A::rand(&mut r));
        }
        for a in values {
            let x: F = fe(a);
            let y: F::R30 = fe(a);
            assert_eq!(x.to_r30(), y, "64 → 30 bits");
            assert_eq!(F::from_r30(&y), x, "30 → 64 bits");
        }
    }

    #[test]
    fn bn254_fq() {
        check::<r30::Bn254Fq30, ark_bn254::Fq>(11);
        convert::<field::Bn254Fq, ark_bn254::Fq>(21);
    }
    #[test]
    fn bn254_fr() {
        check::<r30::Bn254Fr30, ark_bn254::Fr>(12);
        convert::<field::Bn254Fr, ark_bn254::Fr>(22);
    }
    #[test]
    fn bls12_377_fq() {
        check::<r30::Bls12_377Fq30, ark_bls12_377::Fq>(13);
        convert::<field::Bls12_377Fq, ark_bls12_377::Fq>(23);
    }
    #[test]
    fn bls12_377_fr() {
        check::<r30::Bls12_377Fr30, ark_bls12_377::Fr>(14);
        convert::<field::Bls12_377Fr, ark_bls12_377::Fr>(24);
    }
    #[test]
    fn bls12_381_fq() {
        check::<r30::Bls12_381Fq30, ark_bls12_381::Fq>(15);
        convert::<field::Bls12_381Fq, ark_bls12_381::Fq>(25);
    }
    #[test]
    fn bls12_381_fr() {
        check::<r30::Bls12_381Fr30, ark_bls12_381::Fr>(16);
        convert::<field::Bls12_381Fr, ark_bls12_381::Fr>(26);
    }
}

// The 51-bit twins (fastmsm_curves::radix51: Emmart's FMA product, here on its portable lanes),
// against the same oracles, with inputs near powers of two and near p, and the conversions.
mod radix51 {
    use super::*;
    use fastmsm_curves::radix51::{self as r51, ToRadix51};

    fn convert<F: ToRadix51, A: ArkPrimeField>(seed: u64) {
        let mut r = rng(seed);
        let minus_one = A::zero() - A::one();
        let mut values = vec![A::zero(), A::one(), minus_one];
        for _ in 0..40 {
            values.push(A::rand(&mut r));
        }
        for a in values {
            let x: F = fe(a);
            let y: F::R51 = fe(a);
            assert_eq!(x.to_r51(), y, "64 → 51 bits");
            assert_eq!(F::from_r51(&y), x, "51 → 64 bits");
        }
    }

    /// Products and sums of values near 2^k (every limb boundary of 51 bits and others) and near
    /// p, in every combination, against arkworks.
    fn near_powers_of_two<F: PrimeField, A: ArkPrimeField>() {
        let bits = F::params().bits;
        let two = A::from(2u64);
        let mut values = vec![];
        for k in (0..bits)
            .step_by(17)
            .chain([50, 51, 52, 101, 102, 153, 255, 306, 357])
        {
            if k >= bits {
                continue;
            }
            let p2 = two.pow([k as u64]);
            values.extend([p2, p2 - A::one(), p2 + A::one(), -p2]);
        }
        for &a in &values {
            for &b in &values {
                let (x, y): (F, F) = (fe(a), fe(b));
                assert_eq!(x * y, fe(a * b), "mul");
                assert_eq!(x + y, fe(a + b), "add");
                assert_eq!(x - y, fe(a - b), "sub");
            }
            assert_eq!(fe::<F, A>(a).square(), fe(a.square()), "square");
        }
    }

    #[test]
    fn bn254_fq() {
        check::<r51::Bn254Fq51, ark_bn254::Fq>(31);
        near_powers_of_two::<r51::Bn254Fq51, ark_bn254::Fq>();
        convert::<field::Bn254Fq, ark_bn254::Fq>(41);
    }
    #[test]
    fn bn254_fr() {
        check::<r51::Bn254Fr51, ark_bn254::Fr>(32);
        convert::<field::Bn254Fr, ark_bn254::Fr>(42);
    }
    #[test]
    fn bls12_377_fq() {
        check::<r51::Bls12_377Fq51, ark_bls12_377::Fq>(33);
        near_powers_of_two::<r51::Bls12_377Fq51, ark_bls12_377::Fq>();
        convert::<field::Bls12_377Fq, ark_bls12_377::Fq>(43);
    }
    #[test]
    fn bls12_377_fr() {
        check::<r51::Bls12_377Fr51, ark_bls12_377::Fr>(34);
        convert::<field::Bls12_377Fr, ark_bls12_377::Fr>(44);
    }
    #[test]
    fn bls12_381_fq() {
        check::<r51::Bls12_381Fq51, ark_bls12_381::Fq>(35);
        near_powers_of_two::<r51::Bls12_381Fq51, ark_bls12_381::Fq>();
        convert::<field::Bls12_381Fq, ark_bls12_381::Fq>(45);
    }
    #[test]
    fn bls12_381_fr() {
        check::<r51::Bls12_381Fr51, ark_bls12_381::Fr>(36);
        convert::<field::Bls12_381Fr, ark_bls12_381::Fr>(46);
    }
}

/// Compile-time constants (`from_hex`, by doublings) agree with run-time conversion (by R²).
#[test]
fn const_and_runtime_conversion_agree() {
    const X: field::Bls12_381Fq = field::Fp::from_hex("0x1234567890abcdef1234567890abcdef");
    let mut c = [0u64; 6];
    c[0] = 0x1234567890abcdef;
    c[1] = 0x1234567890abcdef;
    assert_eq!(Some(X), field::Bls12_381Fq::from_canonical(&c));
    assert_eq!(
        format!("{X:?}"),
        "bls12-381-fq(0x1234567890abcdef1234567890abcdef)"
    );
    assert_eq!(format!("{:?}", field::Bn254Fq::ZERO), "bn254-fq(0x0)");
}
