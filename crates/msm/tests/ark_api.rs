//! The front door over arkworks' types against arkworks' `VariableBaseMSM` on every curve: random
//! inputs of a few sizes, zero and r − 1 scalars, the identity among the bases, no points,
//! several configurations; lengths that differ and a base off the curve, refused by index.

use ark_ec::{AdditiveGroup, AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::{Field, UniformRand};
use fastmsm_msm::{Algorithm, Limbs, MsmConfig, MsmError, MsmPoint, Points, Threads, msm};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn configs() -> [MsmConfig; 4] {
    let d = MsmConfig::default();
    [
        d,
        MsmConfig {
            algorithm: Algorithm::batch_affine(),
            ..d
        },
        MsmConfig {
            limbs: Limbs::Radix30,
            threads: Threads::Pool,
            ..d
        },
        // arkworks' checked constructors keep points in the subgroup
        MsmConfig {
            glv: true,
            points: Points::InSubgroup,
            algorithm: Algorithm::pippenger(),
            ..d
        },
    ]
}

fn matches_arkworks<G>(glv: bool)
where
    G: VariableBaseMSM + CurveGroup,
    <G as CurveGroup>::Affine: MsmPoint<Scalar = G::ScalarField, Output = G>,
{
    let mut rng = StdRng::seed_from_u64(19);
    for n in [0usize, 1, 3, 200] {
        let mut bases: Vec<<G as CurveGroup>::Affine> =
            (0..n).map(|_| G::rand(&mut rng).into_affine()).collect();
        let mut scalars: Vec<G::ScalarField> =
            (0..n).map(|_| G::ScalarField::rand(&mut rng)).collect();
        if n >= 3 {
            bases[1] = <G as CurveGroup>::Affine::zero();
            scalars[0] = G::ScalarField::ZERO;
            scalars[2] = -G::ScalarField::ONE;
        }
        let theirs = G::msm(&bases, &scalars).expect("same lengths");
        for cfg in configs().into_iter().filter(|c| glv || !c.glv) {
            let ours: G = msm(&bases, &scalars, &cfg).expect("valid input").sum;
            assert_eq!(ours, theirs, "n = {n}, {cfg:?}");
        }
    }
    let base = G::rand(&mut rng).into_affine();
    assert_eq!(
        msm(&[base, base], &[G::ScalarField::ONE], &MsmConfig::default()).err(),
        Some(MsmError::LengthMismatch {
            points: 2,
            scalars: 1
        }),
        "two bases, one scalar"
    );
}

#[test]
fn bn254_matches_arkworks() {
    matches_arkworks::<ark_bn254::G1Projective>(true);
}

#[test]
fn bls12_377_matches_arkworks() {
    matches_arkworks::<ark_bls12_377::G1Projective>(true);
}

#[test]
fn bls12_381_matches_arkworks() {
    matches_arkworks::<ark_bls12_381::G1Projective>(true);
}

#[test]
fn ed_on_bls12_377_matches_arkworks() {
    matches_arkworks::<ark_ed_on_bls12_377::EdwardsProjective>(false);
}

/// `new_unchecked` lets arkworks build a point off the curve; the door refuses it by index.
#[test]
fn arkworks_points_off_the_curve_are_refused() {
    use ark_bls12_381::{Fq, Fr, G1Affine, G1Projective};
    let mut rng = StdRng::seed_from_u64(20);
    let mut bases: Vec<G1Affine> = (0..4)
        .map(|_| G1Projective::rand(&mut rng).into_affine())
        .collect();
    let (x, y) = bases[2].xy().unwrap();
    bases[2] = G1Affine::new_unchecked(x, y + Fq::ONE);
    let scalars: Vec<Fr> = (0..4).map(|_| Fr::rand(&mut rng)).collect();
    assert_eq!(
        msm(&bases, &scalars, &MsmConfig::default()).err(),
        Some(MsmError::PointNotOnCurve { index: 2 })
    );
    let (x, y) = ark_ed_on_bls12_377::EdwardsAffine::generator()
        .xy()
        .unwrap();
    let off =
        ark_ed_on_bls12_377::EdwardsAffine::new_unchecked(x, y + ark_ed_on_bls12_377::Fq::ONE);
    assert_eq!(
        msm(
            &[off],
            &[ark_ed_on_bls12_377::Fr::ONE],
            &MsmConfig::default()
        )
        .err(),
        Some(MsmError::PointNotOnCurve { index: 0 })
    );
}
