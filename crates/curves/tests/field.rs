//! One template for every field and every representation: each of the six fields of the book in
//! 64-bit words, 30-bit limbs and 51-bit limbs (Emmart's product, here on its portable lanes)
//! against arkworks, on edge values (0, 1, 2, p − 1, p − 2, values around every limb boundary
//! and around 2^64, 2^128, …) and random ones. Test names say what failed, e.g.
//! `bls12_377::fq::radix30::mul_matches_arkworks`.

use crate::common::{ark_fe, canonical, fe, rng};
use ark_ff::PrimeField as ArkPrimeField;

use fastmsm_curves::field::{self, Backend, Fp, FpConfig, PrimeField, TwinField};
use fastmsm_curves::{radix30 as r30, radix51 as r51};

/// The edge values of a field whose limbs are `w` bits wide: 0, 1, 2, p − 1, p − 2, and
/// 2^k − 1, 2^k, 2^k + 1 and −2^k for k at every limb boundary of `w` bits and of 64 bits
/// (the carries of both representations), and near the top bit of p.
fn edges<A: ArkPrimeField>(w: u32) -> Vec<A> {
    let bits = A::MODULUS_BIT_SIZE;
    let two = A::from(2u64);
    let mut out = vec![A::zero(), A::one(), two, -A::one(), -two];
    let mut ks: Vec<u32> = (1..)
        .map(|i| i * w)
        .take_while(|&k| k < bits)
        .chain((1..).map(|i| i * 64).take_while(|&k| k < bits))
        .chain([bits - 2, bits - 1])
        .collect();
    ks.sort_unstable();
    ks.dedup();
    for k in ks {
        let p2 = two.pow([k as u64]);
        out.extend([p2 - A::one(), p2, p2 + A::one(), -p2]);
    }
    out
}

/// Edge values and `random` random ones, each with its conversion to `F`.
fn values<F: PrimeField, A: ArkPrimeField>(w: u32, seed: u64, random: usize) -> Vec<(A, F)> {
    let mut r = rng(seed);
    let mut v = edges::<A>(w);
    v.extend((0..random).map(|_| A::rand(&mut r)));
    v.into_iter().map(|a| (a, fe(a))).collect()
}

/// Runs `check` on every pair of the edges and a few random values.
fn pairs<F: PrimeField, A: ArkPrimeField>(w: u32, seed: u64, check: impl Fn((A, F), (A, F))) {
    let v = values::<F, A>(w, seed, 4);
    for &a in &v {
        for &b in &v {
            check(a, b);
        }
    }
}

/// Runs `check` on the edges and many random values.
fn singles<F: PrimeField, A: ArkPrimeField>(w: u32, seed: u64, check: impl Fn(A, F)) {
    for (a, x) in values::<F, A>(w, seed, 40) {
        check(a, x);
    }
}

fn add_matches_arkworks<F: PrimeField, A: ArkPrimeField>(w: u32, seed: u64) {
    pairs::<F, A>(w, seed, |(a, x), (b, y)| {
        assert_eq!(x + y, fe(a + b), "{a} + {b}");
    });
}

fn sub_matches_arkworks<F: PrimeField, A: ArkPrimeField>(w: u32, seed: u64) {
    pairs::<F, A>(w, seed, |(a, x), (b, y)| {
        assert_eq!(x - y, fe(a - b), "{a} − {b}");
    });
}

fn mul_matches_arkworks<F: PrimeField, A: ArkPrimeField>(w: u32, seed: u64) {
    pairs::<F, A>(w, seed, |(a, x), (b, y)| {
        assert_eq!(x * y, fe(a * b), "{a} · {b}");
    });
}

/// `mul_many` and its lazy form (results below 2p, only ever operands of products), and the
/// lazy difference, as their callers use them.
fn side_by_side_products_match_arkworks<F: PrimeField, A: ArkPrimeField>(w: u32, seed: u64) {
    pairs::<F, A>(w, seed, |(a, x), (b, y)| {
        let [p, q] = F::mul_many([x, y], [y, x + y]);
        assert_eq!((p, q), (fe(a * b), fe(b * (a + b))), "mul_many {a}, {b}");
        let [l] = F::mul_many_lazy([x], [y]);
        assert_eq!(l * F::ONE, fe(a * b), "mul_many_lazy {a} · {b}");
        assert_eq!(F::mul_many([l], [y]), [fe(a * b * b)], "lazy as an operand");
        assert_eq!(x.sub_lazy(y) * F::ONE, fe(a - b), "sub_lazy {a} − {b}");
        assert_eq!(x.sub_lazy(y) * y, fe((a - b) * b), "sub_lazy · {b}");
        assert_eq!(F::square_many([x, y]), [fe(a.square()), fe(b.square())]);
    });
}

fn square_neg_double_match_arkworks<F: PrimeField, A: ArkPrimeField>(w: u32, seed: u64) {
    singles::<F, A>(w, seed, |a, x| {
        assert_eq!(x.square(), fe(a.square()), "{a}²");
        assert_eq!(-x, fe(-a), "−{a}");
        assert_eq!(x.double(), fe(a.double()), "2·{a}");
        assert_eq!(x.is_zero(), a == A::zero(), "{a} is zero");
    });
}

fn inverse_matches_arkworks<F: PrimeField, A: ArkPrimeField>(w: u32, seed: u64) {
    // each inversion is an exponentiation: the edges and a few random values
    for (a, x) in values::<F, A>(w, seed, 4) {
        match a.inverse() {
            None => assert_eq!(x.inverse(), None, "0 has no inverse"),
            Some(ai) => {
                assert_eq!(x.inverse(), Some(fe(ai)), "{a}⁻¹");
                assert_eq!(x * x.inverse().unwrap(), F::ONE, "{a}·{a}⁻¹");
            }
        }
    }
    let mut r = rng(seed);
    let (a, e) = (A::rand(&mut r), A::rand(&mut r).into_bigint());
    assert_eq!(fe::<F, A>(a).pow(e.as_ref()), fe(a.pow(e)), "pow");
    assert_eq!(fe::<F, A>(a).pow(&[]), F::ONE, "x⁰");
}

/// To and from canonical integers: every value round-trips, p is refused, constants agree.
fn canonical_round_trip<F: PrimeField, A: ArkPrimeField>(w: u32, seed: u64) {
    let p = F::params().modulus;
    assert_eq!(p, canonical(A::MODULUS.as_ref()), "{}", F::params().name);
    singles::<F, A>(w, seed, |a, x| {
        assert_eq!(x.to_canonical(), canonical(a.into_bigint().as_ref()), "{a}");
        assert_eq!(ark_fe::<A, F>(x), a);
    });
    assert_eq!(F::from_canonical(&p), None, "p is refused");
    assert_eq!(
        F::from_canonical(&[u64::MAX; 6]),
        None,
        "2^384 − 1 is refused"
    );
    let mut p_minus_1 = p;
    p_minus_1[0] -= 1;
    assert_eq!(F::from_canonical(&p_minus_1), Some(-F::ONE));
    assert_eq!(F::from_u64(7), fe(A::from(7u64)));
    assert_eq!(F::from_u64(u64::MAX), fe(A::from(u64::MAX)));
    assert_eq!(F::ZERO, fe(A::zero()));
    assert_eq!(F::ONE, fe(A::one()));
}

/// The representation `B` against the 64-bit form `T` of the same field: conversions both ways
/// (one product each) on the edges and random values.
fn twin_conversion_round_trips<T: TwinField<B>, B: Backend, A: ArkPrimeField>(w: u32, seed: u64) {
    singles::<T, A>(w, seed, |a, x| {
        let y: T::Twin = fe(a);
        assert_eq!(x.to_twin(), y, "{a} to the twin");
        assert_eq!(T::from_twin(&y), x, "{a} back");
    });
}

/// The whole template for one field in one representation: a module of tests named for what
/// they check.
macro_rules! field_tests {
    ($repr:ident: $config:ty, $n:expr, twin of $f64:ty, $ark:ty, $seed:expr) => {
        pub mod $repr {
            use super::*;
            type F = Fp<$config, { $n }>;
            type A = $ark;
            type B = <$config as FpConfig<{ $n }>>::Backend;
            const W: u32 = <B as Backend>::LIMB_BITS;
            #[test]
            fn add_matches_arkworks() {
                super::add_matches_arkworks::<F, A>(W, $seed);
            }
            #[test]
            fn sub_matches_arkworks() {
                super::sub_matches_arkworks::<F, A>(W, $seed + 1);
            }
            #[test]
            fn mul_matches_arkworks() {
                super::mul_matches_arkworks::<F, A>(W, $seed + 2);
            }
            #[test]
            fn side_by_side_products_match_arkworks() {
                super::side_by_side_products_match_arkworks::<F, A>(W, $seed + 3);
            }
            #[test]
            fn square_neg_double_match_arkworks() {
                super::square_neg_double_match_arkworks::<F, A>(W, $seed + 4);
            }
            #[test]
            fn inverse_matches_arkworks() {
                super::inverse_matches_arkworks::<F, A>(W, $seed + 5);
            }
            #[test]
            fn canonical_round_trip() {
                super::canonical_round_trip::<F, A>(W, $seed + 6);
            }
            #[test]
            fn twin_conversion_round_trips() {
                super::twin_conversion_round_trips::<$f64, B, A>(W, $seed + 7);
            }
        }
    };
}

/// Every representation of one field (module names `mont64`, `radix30`, `radix51`).
macro_rules! field_suite {
    ($curve:ident { $($field:ident: $module:ident, $ark:ty, [$c64:ty, $c30:ty, $c51:ty], $seed:expr;)+ }) => {
        mod $curve {
            $(
                pub mod $field {
                    use super::super::*;
                    use fastmsm_mont::fields::$module as m;
                    type F64 = Fp<$c64, { m::N64 }>;
                    field_tests!(mont64: $c64, m::N64, twin of F64, $ark, $seed);
                    field_tests!(radix30: $c30, m::N30, twin of F64, $ark, $seed + 10);
                    field_tests!(radix51: $c51, m::N51, twin of F64, $ark, $seed + 20);
                }
            )+
        }
    };
}

field_suite!(bn254 {
    fq: bn254_fq, ark_bn254::Fq,
        [field::Bn254FqConfig, r30::Bn254Fq30Config, r51::Bn254Fq51Config], 100;
    fr: bn254_fr, ark_bn254::Fr,
        [field::Bn254FrConfig, r30::Bn254Fr30Config, r51::Bn254Fr51Config], 200;
});
field_suite!(bls12_377 {
    fq: bls12_377_fq, ark_bls12_377::Fq,
        [field::Bls12_377FqConfig, r30::Bls12_377Fq30Config, r51::Bls12_377Fq51Config], 300;
    fr: bls12_377_fr, ark_bls12_377::Fr,
        [field::Bls12_377FrConfig, r30::Bls12_377Fr30Config, r51::Bls12_377Fr51Config], 400;
});
field_suite!(bls12_381 {
    fq: bls12_381_fq, ark_bls12_381::Fq,
        [field::Bls12_381FqConfig, r30::Bls12_381Fq30Config, r51::Bls12_381Fq51Config], 500;
    fr: bls12_381_fr, ark_bls12_381::Fr,
        [field::Bls12_381FrConfig, r30::Bls12_381Fr30Config, r51::Bls12_381Fr51Config], 600;
});

/// Compile-time constants (`from_hex`, by doublings) agree with run-time conversion (by R²), and
/// `Debug` names the field and the representation.
#[test]
fn const_and_runtime_conversion_agree() {
    const X: field::Bls12_381Fq = Fp::from_hex("0x1234567890abcdef1234567890abcdef");
    let mut c = [0u64; 6];
    c[0] = 0x1234567890abcdef;
    c[1] = 0x1234567890abcdef;
    assert_eq!(Some(X), field::Bls12_381Fq::from_canonical(&c));
    assert_eq!(
        format!("{X:?}"),
        "bls12-381-fq(0x1234567890abcdef1234567890abcdef)"
    );
    assert_eq!(format!("{:?}", field::Bn254Fq::ZERO), "bn254-fq(0x0)");
    const Y: r30::Bls12_381Fq30 = Fp::from_canonical_const(&[5, 0, 0, 0, 0, 0]);
    assert_eq!(Y, r30::Bls12_381Fq30::from_u64(5));
    assert_eq!(format!("{Y:?}"), "bls12-381-fq/r30(0x5)");
    // halvings (BN254: 5 × 51 < 4 × 64) and doublings agree with the run-time product
    const Z: r51::Bn254Fq51 = Fp::convert_const(&Fp::<field::Bn254FqConfig, 4>::from_hex("0xabc"));
    let z: r51::Bn254Fq51 = field::Bn254Fq::from_u64(0xabc).convert();
    assert_eq!(Z, z);
    assert_eq!(format!("{Z:?}"), "bn254-fq/r51(0xabc)");
}
