//! The widgets' seeded MSM input: n points and scalars drawn from a seed, the same for the
//! cpu-msm, gpu-msm and cuzk-steps widgets (one seed, one input, whichever widget draws it).

use ark_ec::{CurveGroup, PrimeGroup};
use fastmsm_msm::{MsmGroup, Scalar};
use wasm_bindgen::JsValue;

use crate::ark_pair::{ArkAffine, ArkScalar, Pair};
use crate::js::err;
use crate::rng::SplitMix64;

/// Most points a widget input may hold (the cpu-msm and gpu-msm widgets draw the same inputs; in
/// both layouts they stay within a few hundred MB of WebAssembly memory).
pub(crate) const MAX_N: usize = 1 << 20;

/// `n` as a size, or an error naming it when it is 0 or above [`MAX_N`].
pub(crate) fn input_size(n: u32) -> Result<usize, JsValue> {
    let n = n as usize;
    if n == 0 || n > MAX_N {
        return Err(err(format_args!("n = {n}: choose 1 to 2^20 points")));
    }
    Ok(n)
}

/// The seeded input in arkworks' types (and the scalars as ours); `logs[i]` is the discrete
/// logarithm of `ark_points[i]` to the generator, when asked for.
pub(crate) struct ArkInputs<P: Pair> {
    pub ark_points: Vec<ArkAffine<P>>,
    pub ark_scalars: Vec<ArkScalar<P>>,
    pub scalars: Vec<Scalar>,
    /// Read by the gpu-msm widget's check ([`crate::gpu_msm`]).
    #[cfg(feature = "gpu")]
    pub logs: Option<Vec<ArkScalar<P>>>,
}

/// Points: a random walk P_{i+1} = P_i + B_{j(i)} over 16 random multiples B_j of the generator,
/// in arkworks' projective coordinates, then one batch normalisation to affine (n additions and
/// one inversion, instead of n scalar multiplications). Scalars: uniform below r. With `logs`,
/// the walk's discrete logarithms are summed alongside (one scalar-field addition per point).
/// `progress` hears fractions up to 0.7.
pub(crate) fn draw_ark<P: Pair>(
    n: usize,
    seed: u64,
    logs: bool,
    progress: &dyn Fn(f64, &str),
) -> ArkInputs<P> {
    let mut rng = SplitMix64::new(seed);
    let r = <P::Ours as MsmGroup>::SCALAR_MODULUS;
    let g = <P::Ark as PrimeGroup>::generator();
    let step_logs: Vec<Scalar> = (0..16).map(|_| rng.scalar_below(&r)).collect();
    let steps: Vec<ArkAffine<P>> = step_logs
        .iter()
        .map(|b| g.mul_bigint(b).into_affine())
        .collect();
    let step_logs: Vec<ArkScalar<P>> = step_logs.iter().map(P::ark_scalar).collect();
    let start = rng.scalar_below(&r);
    let mut acc = g.mul_bigint(start);
    let mut acc_log = P::ark_scalar(&start);
    let mut proj = Vec::with_capacity(n);
    let mut point_logs = Vec::with_capacity(if logs { n } else { 0 });
    let chunk = (n / 8).max(1);
    for i in 0..n {
        let j = (rng.next_u64() % 16) as usize;
        acc += steps[j];
        proj.push(acc);
        if logs {
            acc_log += step_logs[j];
            point_logs.push(acc_log);
        }
        if i % chunk == chunk - 1 {
            progress(0.6 * (i + 1) as f64 / n as f64, "drawing points");
        }
    }
    let ark_points = P::Ark::normalize_batch(&proj);
    drop(proj);
    progress(0.7, "drawing scalars");
    let scalars: Vec<Scalar> = (0..n).map(|_| rng.scalar_below(&r)).collect();
    let ark_scalars = scalars.iter().map(P::ark_scalar).collect();
    ArkInputs {
        ark_points,
        ark_scalars,
        scalars,
        #[cfg(feature = "gpu")]
        logs: logs.then_some(point_logs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ark_pair::{Bn254Pair, TePair};

    /// Each point is its logarithm times the generator, and a seed draws one input.
    #[cfg(feature = "gpu")]
    fn logs_are_the_points_logarithms<P: Pair>() {
        let a = draw_ark::<P>(20, 3, true, &|_, _| {});
        let g = <P::Ark as PrimeGroup>::generator();
        for (p, l) in a.ark_points.iter().zip(a.logs.as_ref().expect("asked for")) {
            assert_eq!((g * l).into_affine(), *p);
        }
        let b = draw_ark::<P>(20, 3, false, &|_, _| {});
        assert_eq!(a.ark_points, b.ark_points);
        assert_eq!(a.scalars, b.scalars);
        assert!(b.logs.is_none());
        let c = draw_ark::<P>(20, 4, false, &|_, _| {});
        assert_ne!(a.scalars, c.scalars, "another seed, another input");
    }

    #[test]
    #[cfg(feature = "gpu")]
    fn seeded_points_are_multiples_of_the_generator() {
        logs_are_the_points_logarithms::<Bn254Pair>();
        logs_are_the_points_logarithms::<TePair>();
    }
}
