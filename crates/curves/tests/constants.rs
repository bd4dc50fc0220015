//! Every curve constant against arkworks, and the facts the formulas rely on.

use crate::common::{ark_scalar_modulus, canonical, fe};
use ark_ec::short_weierstrass::SWCurveConfig;
use ark_ec::twisted_edwards::TECurveConfig;
use ark_ec::{AffineRepr, CurveConfig};
use ark_ff::PrimeField as ArkPrimeField;
use fastmsm_curves::field::PrimeField;
use fastmsm_curves::sw::{self, SwCurve};
use fastmsm_curves::te::{self, TeCurve};
use fastmsm_curves::{Bls12_377, Bls12_381, Bn254, EdBls12_377};

fn check_sw<C: SwCurve, P: SWCurveConfig>()
where
    P::BaseField: ArkPrimeField,
    P::ScalarField: ArkPrimeField,
{
    assert_eq!(
        C::Base::params().modulus,
        canonical(<P::BaseField as ArkPrimeField>::MODULUS.as_ref()),
        "{} base field",
        C::NAME
    );
    assert!(
        P::COEFF_A == <P::BaseField as ark_ff::Zero>::zero(),
        "{}: a = 0 is built into the formulas",
        C::NAME
    );
    assert_eq!(C::B, fe::<C::Base, _>(P::COEFF_B), "{} b", C::NAME);
    let (gx, gy) = P::GENERATOR.xy().unwrap();
    assert_eq!(
        C::GENERATOR_X,
        fe::<C::Base, _>(gx),
        "{} generator x",
        C::NAME
    );
    assert_eq!(
        C::GENERATOR_Y,
        fe::<C::Base, _>(gy),
        "{} generator y",
        C::NAME
    );
    assert_eq!(
        C::SCALAR_MODULUS,
        ark_scalar_modulus::<P::ScalarField>(),
        "{} r",
        C::NAME
    );
    assert_eq!(
        C::COFACTOR,
        canonical(<P as CurveConfig>::COFACTOR),
        "{} cofactor",
        C::NAME
    );
    assert!(sw::Affine::<C>::GENERATOR.is_on_curve());
    let off = sw::Affine::<C>::new_unchecked(C::GENERATOR_X, C::GENERATOR_Y + C::Base::ONE);
    assert!(
        !off.is_on_curve(),
        "{}: (gx, gy + 1) is off the curve",
        C::NAME
    );
    assert!(sw::Affine::<C>::new(off.x, off.y).is_none());
    assert!(sw::Affine::<C>::new(C::GENERATOR_X, C::GENERATOR_Y).is_some());
}

#[test]
fn bn254_g1() {
    check_sw::<Bn254, ark_bn254::g1::Config>();
}

#[test]
fn bls12_377_g1() {
    check_sw::<Bls12_377, ark_bls12_377::g1::Config>();
}

#[test]
fn bls12_381_g1() {
    check_sw::<Bls12_381, ark_bls12_381::g1::Config>();
}

#[test]
fn ed_on_bls12_377() {
    type P = ark_ed_on_bls12_377::EdwardsConfig;
    type C = EdBls12_377;
    type F = <C as TeCurve>::Base;
    assert_eq!(
        F::params().modulus,
        canonical(ark_ed_on_bls12_377::Fq::MODULUS.as_ref()),
        "base field = BLS12-377 Fr"
    );
    assert_eq!(
        fe::<F, _>(P::COEFF_A),
        -F::ONE,
        "a = −1 is built into the formulas"
    );
    assert_eq!(C::D, fe::<F, _>(P::COEFF_D), "d");
    assert_eq!(C::D, F::from_u64(3021), "d = 3021");
    assert_eq!(C::GENERATOR_X, fe::<F, _>(P::GENERATOR.x), "generator x");
    assert_eq!(C::GENERATOR_Y, fe::<F, _>(P::GENERATOR.y), "generator y");
    assert_eq!(
        C::SCALAR_MODULUS,
        ark_scalar_modulus::<ark_ed_on_bls12_377::Fr>(),
        "r"
    );
    assert_eq!(
        C::COFACTOR,
        canonical(<P as CurveConfig>::COFACTOR),
        "cofactor"
    );
    assert!(te::Affine::<C>::GENERATOR.is_on_curve());
    assert!(te::Affine::<C>::IDENTITY.is_on_curve() && te::Affine::<C>::IDENTITY.is_identity());
    let off = te::Affine::<C>::new_unchecked(C::GENERATOR_X, C::GENERATOR_Y + F::ONE);
    assert!(!off.is_on_curve() && te::Affine::<C>::new(off.x, off.y).is_none());
}

/// Completeness of add-2008-hwcd-3 (Hisil et al. 2008, §3.1; Bernstein–Lange): a = −1 must be a
/// square and d a non-square in the base field. Euler's criterion: x^((p−1)/2) = ±1.
#[test]
fn ed_on_bls12_377_addition_is_complete() {
    type F = <EdBls12_377 as TeCurve>::Base;
    let mut half = F::params().modulus;
    // (p − 1)/2: p is odd, so shifting right by one drops the 1.
    for i in 0..half.len() {
        half[i] = (half[i] >> 1)
            | if i + 1 < half.len() {
                half[i + 1] << 63
            } else {
                0
            };
    }
    assert_eq!((-F::ONE).pow(&half), F::ONE, "−1 is a square");
    assert_eq!(EdBls12_377::D.pow(&half), -F::ONE, "d is not a square");
}
