//! `fastmsm_msm::ark::msm` against arkworks' `VariableBaseMSM` on every curve: random inputs of a
//! few sizes, zero and r − 1 scalars, the identity among the bases, no points, and lengths that
//! differ.

use ark_ec::{AdditiveGroup, AffineRepr, VariableBaseMSM};
use ark_ff::{Field, UniformRand};
use fastmsm_msm::MsmError;
use fastmsm_msm::ark::{ArkMsm, msm};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn matches_arkworks<G: ArkMsm + VariableBaseMSM>() {
    let mut rng = StdRng::seed_from_u64(19);
    for n in [0usize, 1, 3, 200] {
        let mut bases: Vec<G::Affine> =
            (0..n).map(|_| G::rand(&mut rng).into_affine()).collect();
        let mut scalars: Vec<G::ScalarField> =
            (0..n).map(|_| G::ScalarField::rand(&mut rng)).collect();
        if n >= 3 {
            bases[1] = G::Affine::zero();
            scalars[0] = G::ScalarField::ZERO;
            scalars[2] = -G::ScalarField::ONE;
        }
        let ours: G = msm(&bases, &scalars).expect("same lengths");
        let theirs = G::msm(&bases, &scalars).expect("same lengths");
        assert_eq!(ours, theirs, "n = {n}");
    }
    let base = G::rand(&mut rng).into_affine();
    assert_eq!(
        msm::<G>(&[base, base], &[G::ScalarField::ONE]),
        Err(MsmError::LengthMismatch { points: 2, scalars: 1 }),
        "two bases, one scalar"
    );
}

#[test]
fn bn254_matches_arkworks() {
    matches_arkworks::<ark_bn254::G1Projective>();
}

#[test]
fn bls12_377_matches_arkworks() {
    matches_arkworks::<ark_bls12_377::G1Projective>();
}

#[test]
fn bls12_381_matches_arkworks() {
    matches_arkworks::<ark_bls12_381::G1Projective>();
}

#[test]
fn ed_on_bls12_377_matches_arkworks() {
    matches_arkworks::<ark_ed_on_bls12_377::EdwardsProjective>();
}
