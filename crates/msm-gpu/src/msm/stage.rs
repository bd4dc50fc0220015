//! The stages of `shaders/msm.wgsl`, one compute entry point each. Their names are the entry
//! points' and also the keys of stage times in reports and benchmark files.

use core::fmt;

use super::contract::Binding;
use super::curve::{PREFIX_THREADS, WORKGROUP_SIZE};

/// One compute entry point of msm.wgsl.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Every bucket set to the identity, once before the first batch.
    InitBuckets,
    /// Packed input words to Montgomery-form limbs (and the coordinate check).
    ConvertPoints,
    /// Scalars to signed c-bit digits per window; points counted per bucket (and the scalar check).
    Decompose,
    /// Per window, bucket counts to CSR row pointers.
    Prefix,
    /// Per window, point indices grouped by bucket (CSR entries).
    Scatter,
    /// Bucket accumulation over chunks of K entries; runs cut by a chunk go to head slots.
    Smvp,
    /// One level of summing head slots into their buckets.
    SmvpCombine,
    /// Batch-affine bucket accumulation (an experiment, shaders/experiments/smvp_affine.wgsl):
    /// `lanes` chunks per invocation, affine sums under one shared inversion per round; replaces
    /// `smvp` in that form.
    #[cfg(feature = "experiments")]
    SmvpAffine,
    /// The batch-affine form's bucket sums added into the projective buckets.
    #[cfg(feature = "experiments")]
    BucketMerge,
    /// Per (window, segment), Σ b·S_b over the segment's buckets.
    Reduce,
    /// One level of the tree sum of each window's segment partials.
    Fold,
    /// Each window's sum out of Montgomery form, for the host's Horner combination.
    WindowOut,
}

impl Stage {
    /// Every stage, in pipeline order: `init_buckets` once, the next five per batch of points
    /// (`smvp_combine` once per level), the last three once (`fold` once per tree level).
    pub const ALL: [Stage; 10] = [
        Stage::InitBuckets,
        Stage::ConvertPoints,
        Stage::Decompose,
        Stage::Prefix,
        Stage::Scatter,
        Stage::Smvp,
        Stage::SmvpCombine,
        Stage::Reduce,
        Stage::Fold,
        Stage::WindowOut,
    ];

    /// The stages the batch-affine SMVP adds (their entry points exist only in its module).
    #[cfg(feature = "experiments")]
    pub const BATCH_AFFINE: [Stage; 2] = [Stage::SmvpAffine, Stage::BucketMerge];

    /// The entry point's name in msm.wgsl, which is also the stage's name in reports.
    pub fn entry_point(self) -> &'static str {
        match self {
            Stage::InitBuckets => "init_buckets",
            Stage::ConvertPoints => "convert_points",
            Stage::Decompose => "decompose",
            Stage::Prefix => "prefix",
            Stage::Scatter => "scatter",
            Stage::Smvp => "smvp",
            Stage::SmvpCombine => "smvp_combine",
            #[cfg(feature = "experiments")]
            Stage::SmvpAffine => "smvp_affine",
            #[cfg(feature = "experiments")]
            Stage::BucketMerge => "bucket_merge",
            Stage::Reduce => "reduce",
            Stage::Fold => "fold",
            Stage::WindowOut => "window_out",
        }
    }

    /// The stage with that entry-point name, or `None`.
    pub fn from_name(name: &str) -> Option<Self> {
        #[cfg(feature = "experiments")]
        let all = Self::ALL.into_iter().chain(Self::BATCH_AFFINE);
        #[cfg(not(feature = "experiments"))]
        let all = Self::ALL.into_iter();
        all.into_iter().find(|s| s.entry_point() == name)
    }

    /// Invocations per workgroup of the entry point (its `@workgroup_size`).
    pub fn workgroup_size(self) -> u32 {
        match self {
            Stage::Prefix => PREFIX_THREADS,
            _ => WORKGROUP_SIZE,
        }
    }

    /// Bytes of workgroup storage the entry point uses (`prefix`'s running totals).
    pub fn workgroup_storage_bytes(self) -> u32 {
        match self {
            Stage::Prefix => 4 * PREFIX_THREADS,
            _ => 0,
        }
    }

    /// The bindings the entry point uses: its bind-group layout holds exactly these.
    pub fn bindings(self) -> &'static [Binding] {
        use Binding::*;
        match self {
            Stage::InitBuckets => &[Params, Buckets],
            Stage::ConvertPoints => &[Params, PointsIn, Points, Errors],
            Stage::Decompose => &[Params, Scalars, Digits, Counts, Errors],
            Stage::Prefix => &[Params, Counts, Offsets],
            Stage::Scatter => &[Params, Digits, Counts, Offsets, Entries],
            Stage::Smvp => &[Params, Points, Digits, Offsets, Entries, Buckets, HeadsOut],
            Stage::SmvpCombine => &[Params, Digits, Offsets, Entries, Buckets, HeadsIn, HeadsOut],
            #[cfg(feature = "experiments")]
            Stage::SmvpAffine => &[
                Params, Points, Digits, Offsets, Entries, HeadsOut, BucketSums, LaneValues,
            ],
            #[cfg(feature = "experiments")]
            Stage::BucketMerge => &[Params, Buckets, BucketSums],
            Stage::Reduce => &[Params, Buckets, Partials],
            Stage::Fold => &[Params, Partials],
            Stage::WindowOut => &[Params, Partials, WindowSums],
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.entry_point())
    }
}
