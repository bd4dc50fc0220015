//! The benchmark's inputs: the very points and scalars that our GPU benchmark
//! (crates/msm-gpu/examples/msm_bench.rs, `inputs`) draws for the same curve, n, pattern and seed
//! (it seeds with log2 n). Its generator is private to that example, so the draws are repeated here
//! in the same order with the same arkworks RNG: a start point g·k, then n consecutive multiples of
//! the generator (distinct, never the identity), normalised in one batch; a pool of 64 scalars; then
//! the n scalars of the pattern.

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::UniformRand;
use ark_std::rand::{Rng, SeedableRng, rngs::StdRng};

pub const PATTERNS: [&str; 3] = ["uniform", "small", "equal"];

pub struct Input<P: SWCurveConfig> {
    pub points: Vec<Affine<P>>,
    pub scalars: Vec<P::ScalarField>,
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
    let g = Affine::<P>::generator();
    let mut acc = g * P::ScalarField::rand(&mut rng);
    let projective: Vec<Projective<P>> = (0..n)
        .map(|_| {
            acc += g;
            acc
        })
        .collect();
    let points = Projective::<P>::normalize_batch(&projective);
    let pool: Vec<P::ScalarField> = (0..64).map(|_| P::ScalarField::rand(&mut rng)).collect();
    let scalars = (0..n)
        .map(|_| match pattern {
            "uniform" => P::ScalarField::rand(&mut rng),
            "small" if rng.gen_range(0..10) < 9 => P::ScalarField::from(rng.gen_range(0u64..1024)),
            "small" => P::ScalarField::rand(&mut rng),
            _ => pool[rng.gen_range(0..pool.len())],
        })
        .collect();
    Ok(Input { points, scalars })
}

/// arkworks' MSM (ark-ec's parallel feature: every core), the reference every run is checked against.
pub fn reference<P: SWCurveConfig>(input: &Input<P>) -> Affine<P> {
    Projective::<P>::msm(&input.points, &input.scalars)
        .expect("as many points as scalars")
        .into_affine()
}
