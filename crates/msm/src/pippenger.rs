//! The MSM driver: validate, decompose, accumulate, reduce, combine.

use core::fmt;

use crate::MsmGroup;
use crate::batch_affine::{BatchAffineConfig, BatchAffineStats, accumulate_batch_affine};
use crate::bucket::accumulate_window;
use crate::cuzk::{smvp, transpose};
use crate::digits::{decompose_all, num_windows};
use crate::reduce::{running_sum, running_sum_split};
use fastmsm_curves::horner;
use crate::scalar::{Scalar, first_out_of_range};
use crate::window::{WINDOW_RANGE, window_size};

/// How buckets are filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accumulation {
    /// Mixed projective additions ([`crate::bucket`]).
    Projective,
    /// Batch-affine additions with deferred collisions ([`crate::batch_affine`]).
    BatchAffine(BatchAffineConfig),
    /// cuZK's form: each window transposed to CSR, then one sum per bucket row ([`crate::cuzk`],
    /// the CPU reference of the GPU stages).
    Csr,
}

/// How each window's buckets are reduced to Σ j·B_j.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// One running sum ([`running_sum`]).
    RunningSum,
    /// cuZK's split into this many independent segments ([`running_sum_split`]).
    Split(usize),
}

/// Choices for [`msm_with`]. The default is what [`msm`] uses: window from n, projective
/// accumulation, one running sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MsmConfig {
    /// Window width c in 2..=16, or `None` for [`window_size`]'s choice.
    pub window: Option<u32>,
    /// Bucket accumulation.
    pub accumulation: Accumulation,
    /// Bucket reduction.
    pub reduction: Reduction,
    /// Split every scalar with the curve's GLV endomorphism ([`crate::glv`]) and run the MSM on
    /// 2n points with half-length scalars. Correct for points of order r (the plain path is
    /// correct for any curve point); refused with [`MsmError::NoEndomorphism`] on a curve
    /// without the endomorphism.
    pub glv: bool,
}

impl Default for MsmConfig {
    fn default() -> Self {
        MsmConfig {
            window: None,
            accumulation: Accumulation::Projective,
            reduction: Reduction::RunningSum,
            glv: false,
        }
    }
}

/// Why an MSM was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MsmError {
    /// Different numbers of points and scalars.
    LengthMismatch {
        /// Points given.
        points: usize,
        /// Scalars given.
        scalars: usize,
    },
    /// Scalar `index` is not below the group order r.
    ScalarOutOfRange {
        /// Position of the first offending scalar.
        index: usize,
    },
    /// A window width outside 2..=16, or a split into zero segments.
    BadConfig(String),
    /// The GLV option on a curve that has no cheap endomorphism (Ed-on-BLS12-377).
    NoEndomorphism {
        /// The curve's name.
        curve: &'static str,
    },
}

impl fmt::Display for MsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MsmError::LengthMismatch { points, scalars } => {
                write!(f, "{points} points but {scalars} scalars")
            }
            MsmError::ScalarOutOfRange { index } => {
                write!(f, "scalar {index} is not below the group order r")
            }
            MsmError::BadConfig(why) => f.write_str(why),
            MsmError::NoEndomorphism { curve } => {
                write!(
                    f,
                    "{curve} has no GLV endomorphism; run it without the GLV option"
                )
            }
        }
    }
}

impl std::error::Error for MsmError {}

/// `Σ scalars[i]·points[i]` with the default configuration.
pub fn msm<G: MsmGroup>(points: &[G::Affine], scalars: &[Scalar]) -> Result<G, MsmError> {
    msm_with(points, scalars, &MsmConfig::default())
}

/// `Σ scalars[i]·points[i]` with the given configuration.
pub fn msm_with<G: MsmGroup>(
    points: &[G::Affine],
    scalars: &[Scalar],
    cfg: &MsmConfig,
) -> Result<G, MsmError> {
    msm_with_stats(points, scalars, cfg, &mut BatchAffineStats::default())
}

/// [`msm_with`], adding the batch-affine operation counts (all windows) to `stats`.
pub fn msm_with_stats<G: MsmGroup>(
    points: &[G::Affine],
    scalars: &[Scalar],
    cfg: &MsmConfig,
    stats: &mut BatchAffineStats,
) -> Result<G, MsmError> {
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch {
            points: points.len(),
            scalars: scalars.len(),
        });
    }
    let r = G::SCALAR_MODULUS;
    if let Some(index) = first_out_of_range(scalars, &r) {
        return Err(MsmError::ScalarOutOfRange { index });
    }
    if let Some(c) = cfg.window
        && !WINDOW_RANGE.contains(&c)
    {
        return Err(MsmError::BadConfig(format!(
            "window width {c} outside 2..=16"
        )));
    }
    if cfg.reduction == Reduction::Split(0) {
        return Err(MsmError::BadConfig("split into zero segments".into()));
    }
    if cfg.glv {
        let split =
            G::glv_expand(points, scalars).ok_or(MsmError::NoEndomorphism { curve: G::NAME })?;
        return Ok(bucket_method(
            &split.points,
            &split.scalars,
            &split.bound,
            cfg,
            stats,
        ));
    }
    Ok(bucket_method(points, scalars, &r, cfg, stats))
}

/// The bucket method on validated input, every scalar below `bound` (r, or 2^b for the
/// half-length scalars of GLV): the windows cover `bound − 1`.
fn bucket_method<G: MsmGroup>(
    points: &[G::Affine],
    scalars: &[Scalar],
    bound: &Scalar,
    cfg: &MsmConfig,
    stats: &mut BatchAffineStats,
) -> G {
    let n = points.len();
    if n == 0 {
        return G::identity();
    }

    // ANCHOR: msm_pipeline
    let c = cfg.window.unwrap_or_else(|| window_size(n, bound));
    let windows = num_windows(c, bound);
    let buckets = 1usize << (c - 1);
    let digits = decompose_all(scalars, c, windows);

    let window_sums: Vec<G> = digits
        .chunks(n)
        .map(|d| {
            let b = match &cfg.accumulation {
                Accumulation::Projective => accumulate_window::<G>(points, d, buckets),
                Accumulation::BatchAffine(ba) => {
                    accumulate_batch_affine::<G>(points, d, buckets, ba, stats)
                }
                Accumulation::Csr => smvp::<G>(points, &transpose(d, buckets)),
            };
            match cfg.reduction {
                Reduction::RunningSum => running_sum(&b),
                Reduction::Split(t) => running_sum_split(&b, t),
            }
        })
        .collect();
    horner(&window_sums, c)
    // ANCHOR_END: msm_pipeline
}
