//! Pippenger's bucket method with projective buckets, on validated input: decompose, accumulate,
//! reduce, combine ([`crate::msm`] with [`crate::Algorithm::Pippenger`]).

use fastmsm_curves::horner;

use crate::MsmGroup;
use crate::batch_affine::{BatchAffineStats, accumulate_batch_affine};
use crate::bucket::accumulate_window;
use crate::config::{Accumulation, Reduction};
use crate::cuzk::{smvp, transpose};
use crate::digits::{decompose_all, num_windows};
use crate::reduce::{running_sum, running_sum_split};
use crate::scalar::Scalar;

/// The bucket method with window width `c` on validated, non-empty input, every scalar below
/// `bound` (r, or 2^b for the half-length scalars of GLV): the windows cover `bound − 1`.
pub(crate) fn bucket_method<G: MsmGroup>(
    points: &[G::Affine],
    scalars: &[Scalar],
    bound: &Scalar,
    c: u32,
    accumulation: &Accumulation,
    reduction: Reduction,
    stats: &mut BatchAffineStats,
) -> G {
    let n = points.len();
    // ANCHOR: msm_pipeline
    let windows = num_windows(c, bound);
    let buckets = 1usize << (c - 1);
    let digits = decompose_all(scalars, c, windows);

    let window_sums: Vec<G> = digits
        .chunks(n)
        .map(|d| {
            let b = match accumulation {
                Accumulation::Projective => accumulate_window::<G>(points, d, buckets),
                Accumulation::BatchAffine(ba) => {
                    accumulate_batch_affine::<G>(points, d, buckets, ba, stats)
                }
                Accumulation::Csr => smvp::<G>(points, &transpose(d, buckets)),
            };
            match reduction {
                Reduction::RunningSum => running_sum(&b),
                Reduction::Split(t) => running_sum_split(&b, t),
            }
        })
        .collect();
    horner(&window_sums, c)
    // ANCHOR_END: msm_pipeline
}
