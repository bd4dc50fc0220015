//! A check of the data contract between arkworks and sppark that needs no GPU: the arrays the
//! benchmark hands to sppark's GPU MSM are summed by sppark's own host-side point arithmetic (the
//! arithmetic its Pippenger finishes with on the CPU) and the result, read back as the GPU result
//! is, must equal arkworks' MSM. A wrong limb order, Montgomery radix, scalar form or result
//! coordinate system fails here. It runs at every start of the benchmark and after every build.

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::{AffineRepr, CurveConfig};
use ark_ff::{AdditiveGroup, Field, PrimeField, UniformRand};
use ark_std::rand::{SeedableRng, rngs::StdRng};

use crate::inputs::{Input, generate, reference};
use crate::sppark::{self, Curve};

/// Random points and scalars with the edge cases appended: the identity, P beside −P, the same
/// point twice, and the scalars 0, 1 and r − 1.
fn edge_input<P: SWCurveConfig>(random: usize) -> Input<P> {
    let mut input = generate::<P>(random, "uniform", 7).expect("known pattern");
    let mut rng = StdRng::seed_from_u64(11);
    let p = input.points[0];
    let q = input.points[1];
    let zero = P::ScalarField::ZERO;
    let one = P::ScalarField::ONE;
    let minus_one = -one;
    let edges = [
        (Affine::<P>::zero(), P::ScalarField::rand(&mut rng)),
        (p, P::ScalarField::rand(&mut rng)),
        (-p, P::ScalarField::rand(&mut rng)),
        (q, P::ScalarField::rand(&mut rng)),
        (q, P::ScalarField::rand(&mut rng)),
        (input.points[2], zero),
        (input.points[3], one),
        (input.points[4], minus_one),
    ];
    for (point, k) in edges {
        input.points.push(point);
        input.scalars.push(k);
    }
    // No longer consecutive multiples: the reference is arkworks' MSM.
    input.first_multiple = None;
    input
}

fn check_curve<C: Curve>() -> Result<(), String> {
    if C::field_bytes() != 8 * C::LIMBS {
        return Err(format!(
            "{}: sppark's fp_t is {} bytes, the driver assumes {} limbs",
            C::NAME,
            C::field_bytes(),
            C::LIMBS
        ));
    }
    // Two sums: the full set with its edge cases, and one whose answer is the identity (P, −P).
    let full = edge_input::<C::Config>(40);
    let p = full.points[5];
    let k = <C::Config as CurveConfig>::ScalarField::from_bigint(3u64.into()).unwrap();
    let cancelling = Input::<C::Config> {
        points: vec![p, -p],
        scalars: vec![k, k],
        first_multiple: None,
    };
    for (what, input) in [("random and edge inputs", &full), ("P and -P", &cancelling)] {
        let expected = reference(input);
        let mut out = vec![0u64; 3 * C::LIMBS];
        C::host_msm(
            &mut out,
            &sppark::points::<C>(&input.points),
            &sppark::scalars::<C>(&input.scalars),
        );
        let got = sppark::affine::<C>(&out);
        if got != expected {
            return Err(format!(
                "{} {what}: sppark's host arithmetic on the benchmark's arrays gives {got}, arkworks {expected}",
                C::NAME
            ));
        }
    }
    Ok(())
}

/// Every curve; the first mismatch as an error.
pub fn run() -> Result<(), String> {
    check_curve::<sppark::Bls12_377>()?;
    check_curve::<sppark::Bls12_381>()?;
    check_curve::<sppark::Bn254>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_arithmetic_agrees_with_arkworks() {
        run().unwrap();
    }

    /// The check can fail: scalars handed over in Montgomery form instead of canonical give
    /// another sum.
    #[test]
    fn a_wrong_scalar_form_is_caught() {
        type C = sppark::Bn254;
        let input = edge_input::<<C as Curve>::Config>(8);
        let montgomery: Vec<u64> = input.scalars.iter().flat_map(|k| k.0.0).collect();
        let mut out = vec![0u64; 3 * C::LIMBS];
        C::host_msm(&mut out, &sppark::points::<C>(&input.points), &montgomery);
        assert_ne!(sppark::affine::<C>(&out), reference(&input));
    }
}
