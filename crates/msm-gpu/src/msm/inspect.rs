//! The intermediate buffers of one MSM, read back stage by stage, for tests that compare each GPU
//! stage with its CPU reference (`fastmsm_msm::cuzk`, `tests/stages.rs`). Hidden from the
//! documentation: a test hook, not part of the API.

use super::contract::Binding;
use super::run::{BatchPoints, Resources, Run};
use super::{GpuMsm, Plan, RunOptions, TimingSource, bad_coordinate, check_shape};
use crate::transfer::read_many;
use crate::{GpuContext, GpuError};

/// What each stage left on the device for an MSM of one batch, as 32-bit words in the shader's
/// layout (`msm::contract::BINDINGS` says how each is indexed).
#[derive(Clone, Debug)]
pub struct StageBuffers {
    /// The plan the stages ran with (one batch: `plan.batch == plan.n`).
    pub plan: Plan,
    /// `convert_points`: per point, x then y as Montgomery limbs.
    pub points: Vec<u32>,
    /// `decompose`: per window, per point, |digit| | sign bit.
    pub digits: Vec<u32>,
    /// Per window, B + 1 points per bucket: `decompose` counts them, `prefix` clears the counts and
    /// `scatter` counts them again as its cursors.
    pub counts: Vec<u32>,
    /// `prefix`: per window, B + 2 CSR row pointers.
    pub offsets: Vec<u32>,
    /// `scatter`: window j's CSR entries from word j·n, grouped by bucket.
    pub entries: Vec<u32>,
    /// `smvp` and `smvp_combine`: per window, B + 1 bucket sums (projective, Montgomery limbs).
    pub buckets: Vec<u32>,
    /// `reduce`, `fold`, `window_out`: per window, Σ b·S_b (four canonical coordinates).
    pub window_sums: Vec<u32>,
}

impl GpuMsm {
    /// Runs the MSM of packed `points` and `scalars` (one batch, at least one point) and reads
    /// back every stage's output before the reduction, then the window sums.
    #[doc(hidden)]
    pub async fn stage_buffers(
        &self,
        ctx: &GpuContext,
        points: &[u32],
        scalars: &[u32],
        options: &RunOptions,
    ) -> Result<StageBuffers, GpuError> {
        let n = check_shape(self.curve, points, scalars)?;
        let plan = self.plan(ctx, n, options)?;
        if n == 0 || plan.batches() != 1 {
            return Err(GpuError::Input(format!(
                "stage buffers are read for one batch of at least one point, not {n} points in {} batches",
                plan.batches()
            )));
        }
        let no_clock = || 0.0;
        let resources = Resources::new(ctx, self, &plan, false);
        let mut run = Run::new(ctx, self, resources, TimingSource::None, &no_clock);
        run.batch(0, BatchPoints::Packed(points), scalars).await?;
        // The one batch's passes, before the read-back of their buffers.
        run.submit();
        let (windows, buckets) = (plan.windows as usize, plan.buckets as usize);
        let point_words = 4 * self.constants.limbs;
        let res = run.resources();
        let layout = [
            (Binding::Points, n * 2 * self.constants.limbs),
            (Binding::Digits, windows * n),
            (Binding::Counts, windows * (buckets + 1)),
            (Binding::Offsets, windows * (buckets + 2)),
            (Binding::Entries, windows * n),
            (Binding::Buckets, windows * (buckets + 1) * point_words),
        ];
        let sources: Vec<_> = layout
            .iter()
            .map(|&(b, words)| (res.buffer(b), words))
            .collect();
        let mut words = read_many(ctx, &sources).await?;
        let mut parts = layout
            .iter()
            .map(|&(_, len)| words.drain(..len).collect::<Vec<u32>>());
        let mut next = || parts.next().expect("one part per buffer");
        let (points, digits, counts, offsets, entries, buckets) =
            (next(), next(), next(), next(), next(), next());
        let back = run.finish().await?;
        if let Some(c) = back.bad_coordinate {
            return Err(bad_coordinate(c));
        }
        if let Some(i) = back.bad_scalar {
            return Err(GpuError::ScalarOutOfRange { index: i as usize });
        }
        Ok(StageBuffers {
            plan,
            points,
            digits,
            counts,
            offsets,
            entries,
            buckets,
            window_sums: back.window_words,
        })
    }
}

/// The device memory of one plan, as [`GpuMsm`] allocates it: each binding's buffer and the
/// parameter records. Computed without a device, for the book's worked example
/// (`crates/msm-gpu/tests/book_numbers.rs`).
#[derive(Clone, Debug)]
pub struct PlanLayout {
    /// (variable name in msm.wgsl, bytes) of every buffer the plan allocates, by binding index;
    /// the errors share the window sums' buffer and have no entry.
    pub buffers: Vec<(&'static str, u64)>,
    /// Distinct parameter records in the `params` buffer.
    pub records: usize,
    /// Bytes of one record in the `params` buffer, padded to the offset alignment.
    pub record_bytes: u64,
    /// Bytes before the window sums in their buffer: the error words, padded likewise.
    pub header_bytes: u64,
}

/// The [`PlanLayout`] of `plan` for `curve` at the limb width of `constants`, on a device whose
/// `minStorageBufferOffsetAlignment` is `offset_alignment`.
#[doc(hidden)]
pub fn layout(
    curve: super::GpuCurve,
    constants: &fastmsm_mont::LimbConstants,
    plan: &Plan,
    offset_alignment: u64,
) -> PlanLayout {
    let records = super::run::record_count(plan);
    let record_bytes = super::contract::Params::BYTES.next_multiple_of(offset_alignment);
    let header_bytes = 8u64.next_multiple_of(offset_alignment);
    let buffers = Binding::ALL
        .iter()
        .filter_map(|&b| {
            let words = super::run::buffer_words(
                plan,
                constants.limbs,
                curve.coord_words(),
                records,
                record_bytes,
                header_bytes,
                b,
            )?;
            Some((b.info().name, (words.max(1) * 4) as u64))
        })
        .collect();
    PlanLayout {
        buffers,
        records,
        record_bytes,
        header_bytes,
    }
}
