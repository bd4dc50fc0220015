//! The arkworks bridge (`fastmsm_curves::ark`), one template run for every curve: points there and
//! back (random multiples of the generator, the identity, the generator itself), and scalars there
//! and back with the edges r − 1 (accepted) and r (refused).

use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{BigInteger, UniformRand};
use fastmsm_curves::ark::{scalar_from_ark, scalar_to_ark};
use fastmsm_curves::{sw, te};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// Round trips for one curve: `Ours` is our affine type, `A` arkworks' affine type.
fn points_round_trip<A, Ours>(generator: Ours, identity: Ours, on_curve: fn(&Ours) -> bool)
where
    A: AffineRepr + From<Ours>,
    Ours: From<A> + Copy + PartialEq + core::fmt::Debug,
{
    let mut rng = StdRng::seed_from_u64(19);
    let ours = Ours::from(A::generator());
    assert_eq!(ours, generator, "arkworks' generator converts to ours");
    assert_eq!(
        A::from(identity),
        A::zero(),
        "our identity converts to arkworks'"
    );
    assert_eq!(
        Ours::from(A::zero()),
        identity,
        "arkworks' identity converts to ours"
    );
    for _ in 0..8 {
        let a: A = (A::generator() * A::ScalarField::rand(&mut rng)).into_affine();
        let p = Ours::from(a);
        assert!(on_curve(&p), "a converted point is on our curve: {p:?}");
        assert_eq!(A::from(p), a, "a random point comes back unchanged");
    }
}

fn scalars_round_trip<F: ark_ff::PrimeField<BigInt = ark_ff::BigInt<4>>>() {
    let mut rng = StdRng::seed_from_u64(20);
    for _ in 0..8 {
        let s = F::rand(&mut rng);
        assert_eq!(
            scalar_to_ark::<F>(&scalar_from_ark(&s)),
            Some(s),
            "random scalar round trip"
        );
    }
    let minus_one = -F::ONE;
    assert_eq!(scalar_from_ark(&minus_one), {
        let mut r = F::MODULUS;
        r.sub_with_borrow(&ark_ff::BigInt::from(1u64));
        r.0
    });
    assert_eq!(
        scalar_to_ark::<F>(&F::MODULUS.0),
        None,
        "r itself is refused"
    );
    assert_eq!(scalar_to_ark::<F>(&[0; 4]), Some(F::ZERO));
}

#[test]
fn bn254_points_and_scalars_convert_both_ways() {
    points_round_trip::<ark_bn254::G1Affine, sw::Affine<fastmsm_curves::Bn254>>(
        sw::Affine::GENERATOR,
        sw::Affine::IDENTITY,
        sw::Affine::is_on_curve,
    );
    scalars_round_trip::<ark_bn254::Fr>();
}

#[test]
fn bls12_377_points_and_scalars_convert_both_ways() {
    points_round_trip::<ark_bls12_377::G1Affine, sw::Affine<fastmsm_curves::Bls12_377>>(
        sw::Affine::GENERATOR,
        sw::Affine::IDENTITY,
        sw::Affine::is_on_curve,
    );
    scalars_round_trip::<ark_bls12_377::Fr>();
}

#[test]
fn bls12_381_points_and_scalars_convert_both_ways() {
    points_round_trip::<ark_bls12_381::G1Affine, sw::Affine<fastmsm_curves::Bls12_381>>(
        sw::Affine::GENERATOR,
        sw::Affine::IDENTITY,
        sw::Affine::is_on_curve,
    );
    scalars_round_trip::<ark_bls12_381::Fr>();
}

#[test]
fn ed_on_bls12_377_points_and_scalars_convert_both_ways() {
    points_round_trip::<ark_ed_on_bls12_377::EdwardsAffine, te::Affine<fastmsm_curves::EdBls12_377>>(
        te::Affine::GENERATOR,
        te::Affine::IDENTITY,
        te::Affine::is_on_curve,
    );
    scalars_round_trip::<ark_ed_on_bls12_377::Fr>();
}
