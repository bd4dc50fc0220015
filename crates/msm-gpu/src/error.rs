//! The crate's one error type: what failed (no adapter, the device, a shader template, the
//! caller's input) and, for input, where.

use thiserror::Error;

use crate::msm::GpuCurve;

/// Everything that can go wrong on the GPU path, each with a message a user can act on.
///
/// Input errors name what is wrong and where (an index counts from the whole input, whatever
/// batches the MSM ran in), so a caller can match on them; [`GpuError::is_input`] separates them
/// from failures of the device, after which a caller may want a fresh device.
#[derive(Debug, Error)]
pub enum GpuError {
    /// No adapter (GPU or software) could be found.
    #[error(
        "no GPU adapter found ({0}); natively install a Vulkan driver (e.g. Debian's mesa-vulkan-drivers), in a browser enable WebGPU"
    )]
    NoAdapter(String),
    /// The adapter would not open a device with the features and limits asked for.
    #[error("the adapter refused to open a device: {0}")]
    RequestDevice(String),
    /// The device rejected a shader, pipeline, buffer or dispatch, or was lost.
    #[error("the GPU rejected the work: {0}")]
    Validation(String),
    /// Mapping a buffer for reading failed.
    #[error("reading a result buffer back failed: {0}")]
    Readback(String),
    /// A shader template could not be filled in (a placeholder without a value).
    #[error("shader template: {0}")]
    Template(String),
    /// A bad option, file or profile: the message says which and why.
    #[error("bad input: {0}")]
    Input(String),
    /// Different numbers of points and scalars.
    #[error("{points} points but {scalars} scalars")]
    InputLength {
        /// Points given.
        points: usize,
        /// Scalars given.
        scalars: usize,
    },
    /// Packed words that are not a whole number of points or scalars.
    #[error("{words} {what} words is not a whole number of {what}s ({per_item} words each)")]
    PackedLength {
        /// `"point"` or `"scalar"`.
        what: &'static str,
        /// Words given.
        words: usize,
        /// Words per point or scalar.
        per_item: usize,
    },
    /// A scalar at or above the group order r (the first such).
    #[error("scalar {index} is not below the group order r")]
    ScalarOutOfRange {
        /// Its position in the input.
        index: usize,
    },
    /// A point coordinate at or above the base field's modulus p (the first such).
    #[error("point {index}: {coordinate} coordinate is not below p")]
    CoordinateOutOfRange {
        /// The point's position in the input.
        index: usize,
        /// `'x'` or `'y'`.
        coordinate: char,
    },
    /// A point whose coordinates do not satisfy the curve's equation (the first such).
    #[error("point {index} is not on the curve")]
    PointNotOnCurve {
        /// Its position in the input.
        index: usize,
    },
    /// Points of one curve given to the MSM compiled for another.
    #[error("points of {} given to the MSM of {}", given.name(), expected.name())]
    CurveMismatch {
        /// The MSM's curve.
        expected: GpuCurve,
        /// The points' curve.
        given: GpuCurve,
    },
    /// Resident bases that this MSM cannot use as they are: uploaded by an MSM of another limb
    /// width, or options that cut the points into other batches than the upload did.
    #[error("these resident bases {0}; upload them again with this MSM and its options")]
    BasesMismatch(String),
    /// The MSM needs more of a device limit than the adapter has.
    #[error("{what} needs {needed}, but the device allows at most {limit}")]
    LimitExceeded {
        /// The resource, in words.
        what: String,
        /// How much the MSM needs.
        needed: u64,
        /// The device's limit.
        limit: u64,
    },
    /// One MSM of a batch failed: which one, and why.
    #[error("MSM {msm} of the batch: {error}")]
    InBatch {
        /// Its position in the batch.
        msm: usize,
        /// What went wrong with it.
        error: Box<GpuError>,
    },
}

impl GpuError {
    /// Is this an error in what the caller gave (input, options, files), rather than a failure
    /// of the device or the adapter's limits?
    pub fn is_input(&self) -> bool {
        if let GpuError::InBatch { error, .. } = self {
            return error.is_input();
        }
        matches!(
            self,
            GpuError::Input(_)
                | GpuError::InputLength { .. }
                | GpuError::PackedLength { .. }
                | GpuError::ScalarOutOfRange { .. }
                | GpuError::CoordinateOutOfRange { .. }
                | GpuError::PointNotOnCurve { .. }
                | GpuError::CurveMismatch { .. }
                | GpuError::BasesMismatch(_)
        )
    }
}
