//! The benchmark's inputs: the very points and scalars that our GPU benchmark
//! (crates/msm-gpu/examples/msm_bench.rs, `inputs`) draws for the same curve, n, pattern and seed
//! (it seeds with log2 n). Its generator is private to that example, so the draws are repeated here
//! in the same order with the same arkworks RNG: a start scalar a (the points are the n consecutive
//! multiples (a + 1)·G, …, (a + n)·G of the generator: distinct, never the identity), a pool of 64
//! scalars, then the n scalars of the pattern. The points are computed in slices on every core,
//! each slice from its own first multiple, which gives the same points as one running sum.

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::{One, UniformRand};
use ark_std::rand::{Rng, SeedableRng, rngs::StdRng};

pub const PATTERNS: [&str; 3] = ["uniform", "small", "equal"];

pub struct Input<P: SWCurveConfig> {
    pub points: Vec<Affine<P>>,
    pub scalars: Vec<P::ScalarField>,
    /// f where `points[i]` is (f + i)·G for every i (as generated); `None` once the points are
    /// anything else.
    pub first_multiple: Option<P::ScalarField>,
}

/// (f + i)·G for i < n, normalised: slices on every core, each from its own first multiple.
fn consecutive_multiples<P: SWCurveConfig>(first: P::ScalarField, n: usize) -> Vec<Affine<P>> {
    let g = Affine::<P>::generator();
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let part = n.div_ceil(cores).max(1);
    let mut points = vec![Affine::<P>::zero(); n];
    std::thread::scope(|s| {
        for (k, slice) in points.chunks_mut(part).enumerate() {
            s.spawn(move || {
                let mut acc = g * (first + P::ScalarField::from((k * part) as u64));
                let projective: Vec<Projective<P>> = (0..slice.len())
                    .map(|_| {
                        let p = acc;
                        acc += g;
                        p
                    })
                    .collect();
                slice.copy_from_slice(&Projective::<P>::normalize_batch(&projective));
            });
        }
    });
    points
}

/// uniform: uniform below r; small: 90% below 2^10, the rest uniform; equal: 64 distinct values.
pub fn generate<P: SWCurveConfig>(n: usize, pattern: &str, seed: u64) -> Result<Input<P>, String> {
    if !PATTERNS.contains(&pattern) {
        return Err(format!(
            "unknown pattern {pattern:?} (known: {})",
            PATTERNS.join(", ")
        ));
    }
    let mut rng = StdRng::seed_from_u64(seed);
    // The first point is a·G + G.
    let first = P::ScalarField::rand(&mut rng) + P::ScalarField::one();
    let points = consecutive_multiples::<P>(first, n);
    let pool: Vec<P::ScalarField> = (0..64).map(|_| P::ScalarField::rand(&mut rng)).collect();
    let scalars = (0..n)
        .map(|_| match pattern {
            "uniform" => P::ScalarField::rand(&mut rng),
            "small" if rng.gen_range(0..10) < 9 => P::ScalarField::from(rng.gen_range(0u64..1024)),
            "small" => P::ScalarField::rand(&mut rng),
            _ => pool[rng.gen_range(0..pool.len())],
        })
        .collect();
    Ok(Input {
        points,
        scalars,
        first_multiple: Some(first),
    })
}

/// The MSM every run is checked against. For generated points, Σ kᵢ·(f + i)·G = (Σ kᵢ·(f + i))·G:
/// exact, and n scalar products instead of an MSM (seconds at 2^24); otherwise arkworks' MSM
/// (ark-ec's parallel feature: every core).
pub fn reference<P: SWCurveConfig>(input: &Input<P>) -> Affine<P> {
    match input.first_multiple {
        Some(first) => {
            let mut multiple = first;
            let mut sum = P::ScalarField::from(0u64);
            for k in &input.scalars {
                sum += *k * multiple;
                multiple += P::ScalarField::one();
            }
            (Affine::<P>::generator() * sum).into_affine()
        }
        None => arkworks(input),
    }
}

/// arkworks' MSM of the input.
pub fn arkworks<P: SWCurveConfig>(input: &Input<P>) -> Affine<P> {
    Projective::<P>::msm(&input.points, &input.scalars)
        .expect("as many points as scalars")
        .into_affine()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut reference equals arkworks' MSM on every pattern, and the points are the
    /// consecutive multiples it assumes, whatever the number of slices.
    #[test]
    fn the_reference_is_arkworks_msm() {
        type P = ark_bls12_381::g1::Config;
        for pattern in PATTERNS {
            for n in [1, 7, 1000] {
                let input = generate::<P>(n, pattern, 5).unwrap();
                assert_eq!(reference(&input), arkworks(&input), "{pattern} {n}");
                let first = input.first_multiple.unwrap();
                let g = Affine::<P>::generator();
                let last = first + ark_bls12_381::Fr::from(n as u64 - 1);
                assert_eq!(
                    input.points[n - 1],
                    (g * last).into_affine(),
                    "{pattern} {n}"
                );
            }
        }
    }
}
