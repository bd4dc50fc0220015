//! What [`crate::msm`] takes besides the input, and what it returns: one [`MsmConfig`] value
//! that names the algorithm, the window, GLV, the field representation, the threading and the
//! checks; [`MsmOutput`] with the sum and what the run did; [`MsmError`] for what it refused.

use core::fmt;

use crate::all_affine::AllAffineStats;
use crate::batch_affine::{BatchAffineConfig, BatchAffineStats};
use crate::count::OpCounts;

/// One run of [`crate::msm`]: every choice the book's chapters compare, in one value. The
/// default is the fastest single-threaded path: the all-affine algorithm on 64-bit limbs, its
/// window from a sample of the scalars, no GLV, every point checked to lie on the curve.
///
/// ```
/// use fastmsm_msm::{Algorithm, MsmConfig, Window};
///
/// // the secret-scalar setting: the window from n only (see `Window::FromSize`)
/// let cfg = MsmConfig { window: Window::FromSize, ..MsmConfig::default() };
/// // Pippenger's projective buckets with a fixed width of 12 bits
/// let cfg = MsmConfig {
///     algorithm: Algorithm::pippenger(),
///     window: Window::Fixed(12),
///     ..MsmConfig::default()
/// };
/// # let _ = cfg;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MsmConfig {
    /// How buckets are filled and reduced.
    pub algorithm: Algorithm,
    /// The window width c, or the rule that picks it.
    pub window: Window,
    /// Split every scalar with the curve's GLV endomorphism ([`crate::glv`]) and run the MSM on
    /// 2n points with half-length scalars. Refused with [`MsmError::NoEndomorphism`] on
    /// Ed-on-BLS12-377. The endomorphism acts as λ only on the subgroup of order r, so on a curve
    /// whose cofactor is not 1 (BLS12-377, BLS12-381) GLV needs [`Points::InSubgroup`] or
    /// [`Points::InSubgroupUnchecked`]: with [`Points::OnCurve`] it is refused
    /// ([`MsmError::BadConfig`]) rather than risk a wrong sum.
    pub glv: bool,
    /// The field representation the MSM computes in.
    pub limbs: Limbs,
    /// Where the work runs.
    pub threads: Threads,
    /// What is checked about the points.
    pub points: Points,
    /// Also count the field operations of the run ([`crate::count`]): the same code over a
    /// field that counts, so several times slower. Only on 64-bit limbs and on this thread
    /// ([`Threads::One`] or [`Threads::Shares`]): the counters are per thread.
    pub count_ops: bool,
}

impl Default for MsmConfig {
    fn default() -> Self {
        MsmConfig {
            algorithm: Algorithm::AllAffine(AllAffineConfig::default()),
            window: Window::Auto,
            glv: false,
            limbs: Limbs::Mont64,
            threads: Threads::One,
            points: Points::OnCurve,
            count_ops: false,
        }
    }
}

/// How the buckets are filled and reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Pippenger's bucket method with projective buckets: each window's accumulation
    /// ([`Accumulation`]), then its reduction ([`Reduction`]), then Horner's rule.
    Pippenger {
        /// How buckets are filled.
        accumulation: Accumulation,
        /// How each window's buckets are reduced to Σ j·B_j.
        reduction: Reduction,
    },
    /// Every bucket addition affine: sorted accumulation and a batched reduction
    /// ([`crate::all_affine`]). The only algorithm that shares out over threads.
    AllAffine(AllAffineConfig),
}

impl Algorithm {
    /// Pippenger with mixed projective additions and one running sum per window.
    pub const fn pippenger() -> Self {
        Algorithm::Pippenger {
            accumulation: Accumulation::Projective,
            reduction: Reduction::RunningSum,
        }
    }

    /// Pippenger with batch-affine accumulation (default tuning) and one running sum.
    pub fn batch_affine() -> Self {
        Algorithm::Pippenger {
            accumulation: Accumulation::BatchAffine(BatchAffineConfig::default()),
            reduction: Reduction::RunningSum,
        }
    }
}

/// How [`Algorithm::Pippenger`] fills its buckets.
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

/// How [`Algorithm::Pippenger`] reduces each window's buckets to Σ j·B_j.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// One running sum ([`crate::reduce::running_sum`]).
    RunningSum,
    /// cuZK's split into this many independent segments ([`crate::reduce::running_sum_split`]).
    Split(usize),
}

/// Tuning of [`Algorithm::AllAffine`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllAffineConfig {
    /// The most additions that share one inversion in the accumulation: large enough that the
    /// inversion costs little per addition, small enough that the batch's denominators and prefix
    /// products stay in cache.
    pub accumulation_batch: usize,
    /// About how many additions one reduction batch should hold: each window's buckets are cut
    /// into ⌈`reduction_batch` / windows⌉ segments. `None`: [`crate::all_affine::segments`]'
    /// balance of inversions against segment corrections.
    pub reduction_batch: Option<usize>,
}

impl Default for AllAffineConfig {
    fn default() -> Self {
        AllAffineConfig {
            accumulation_batch: 4096,
            reduction_batch: None,
        }
    }
}

/// The window width c.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// The algorithm's own rule. Pippenger: the cost model of [`crate::window::window_size`],
    /// from n alone. All-affine: [`crate::window::window_size_sampled`], which counts the nonzero
    /// digits of a sample of the scalars, so the width, and with it the whole schedule, depends on
    /// the scalar values.
    Auto,
    /// [`crate::window::window_size`] for every algorithm: from n (and the bound on the
    /// scalars, r or the GLV halves' bound) only, never from the scalar values. The setting for
    /// secret scalars (the security chapter's advice); the rest of the MSM stays variable-time.
    FromSize,
    /// This width, 2..=16.
    Fixed(u32),
}

/// The field representation the MSM computes in: the points are converted once, the result
/// converted back (`fastmsm_curves::twin`). The same sum in every one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limbs {
    /// 64-bit Montgomery words (`fastmsm-mont`): the fast one natively.
    Mont64,
    /// 30-bit limbs (`fastmsm_curves::radix30`): the fast one in WebAssembly without extensions.
    Radix30,
    /// 51-bit limbs, Emmart's floating-point product (`fastmsm_curves::radix51`): fast in
    /// WebAssembly with relaxed SIMD, slow (software FMA) elsewhere.
    Radix51,
}

/// Where the MSM runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// On this thread.
    One,
    /// Cut into one share per thread of rayon's current pool ([`crate::split`]) and run there
    /// (native threads; in a browser the book's pool of Web Workers runs the same shares). [`Algorithm::AllAffine`] only;
    /// needs the crate's `rayon` feature.
    Pool,
    /// Cut into this many shares ([`crate::split`]), run one after another on this thread: the
    /// same sum as one piece, the check that web workers' shares add up.
    Shares(usize),
}

/// What [`crate::msm`] checks about the points. Coordinates are field elements, so they are
/// always below p.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Points {
    /// Every point lies on the curve (about 3 field products a point, a few percent of the
    /// MSM). Enough for the sum without GLV on every curve: the MSM computes the integer
    /// combination Σ kᵢ·Pᵢ, which is what arkworks computes, for any curve point.
    OnCurve,
    /// Every point lies on the curve and in the subgroup of order r. BN254's curve has prime
    /// order (cofactor 1), so that is the curve check there; on BLS12-377, BLS12-381 and
    /// Ed-on-BLS12-377 (cofactors (x − 1)²/3, (x − 1)²/3 and 4) it costs one scalar
    /// multiplication by r per point, tens of times the MSM itself: check the points once when
    /// they are loaded, then use [`Points::InSubgroupUnchecked`]. Points of small order carry
    /// bits of secret scalars into the sum (the security chapter).
    InSubgroup,
    /// Every point lies on the curve (checked) and in the subgroup of order r (the caller's
    /// word, not checked): points validated once before, by [`crate::check_points`] or by
    /// arkworks' validating deserialisation. A point outside the subgroup gives a wrong sum
    /// with GLV.
    InSubgroupUnchecked,
}

/// The result of [`crate::msm`]: the sum and what the run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MsmOutput<P> {
    /// `Σ scalars[i]·points[i]`.
    pub sum: P,
    /// The window, the accumulation's counts and (with [`MsmConfig::count_ops`]) the field
    /// operations.
    pub stats: MsmStats,
}

/// What one run of [`crate::msm`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MsmStats {
    /// The window width used (0 when there was nothing to add).
    pub window: u32,
    /// Batch-affine accumulation counts (all zero for the other accumulations).
    pub batch_affine: BatchAffineStats,
    /// All-affine counts, summed over the shares (all zero for the other algorithms).
    pub all_affine: AllAffineStats,
    /// Field operations, with [`MsmConfig::count_ops`].
    pub ops: Option<OpCounts>,
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
    /// Point `index` does not satisfy the curve equation.
    PointNotOnCurve {
        /// Position of the first offending point.
        index: usize,
    },
    /// Point `index` lies on the curve but not in the subgroup of order r.
    PointNotInSubgroup {
        /// Position of the first offending point.
        index: usize,
    },
    /// A configuration that cannot run (a window width outside 2..=16, a split into zero
    /// segments, threads for an algorithm that does not share out, …): the message says which.
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
            MsmError::PointNotOnCurve { index } => write!(f, "point {index} is not on the curve"),
            MsmError::PointNotInSubgroup { index } => {
                write!(f, "point {index} is not in the subgroup of order r")
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
