//! Bases resident on the GPU: the points are checked, uploaded and converted to Montgomery form
//! once ([`GpuMsm::upload_bases`]); every MSM after that uploads only its scalars
//! ([`GpuMsm::run_resident`], [`GpuMsm::run_batch`]). A prover that commits to many polynomials
//! over the same bases (an SRS) moves its points across the bus once instead of once per MSM.
//!
//! The converted points are kept in one buffer per batch of the plan of n points, so each batch
//! binds its own buffer exactly where the MSM would have converted that batch: the stages after
//! the conversion run unchanged.

use core::marker::PhantomData;

use super::curve::bit_length;
use super::points::Layout;
use super::precompute;
use super::run::Run;
use super::{
    GpuCurve, GpuMsm, MsmOutput, Plan, Resources, RunOptions, Source, TimingSource, bad_coordinate,
    count_points, count_scalars,
};
use crate::{GpuContext, GpuError};

/// Points converted and kept on the device, batch by batch.
pub(super) struct Resident {
    curve: GpuCurve,
    limb_bits: u32,
    n: usize,
    /// The batches the upload cut the points into (the plan's `batch` and `first_batch`).
    batch: usize,
    first_batch: usize,
    /// Copies of every point (precomputed multiples, [`RunOptions::precompute`]): batch i's
    /// chunk holds them one after another, copy t at t·(the batch's points).
    copies: u32,
    /// The window size the copies were computed for (their multiples are 2^(c·g·t)).
    window_bits: u32,
    chunks: Vec<wgpu::Buffer>,
    /// The estimated seconds of each submission of the upload's GPU work ([`super::submit`]).
    submissions: Vec<f64>,
}

/// Bases on the GPU for MSMs of the [`GpuMsm`] that uploaded them, in layout `L`: a point type,
/// whose MSMs take that type's scalars, or `u32` for bases uploaded packed, whose MSMs take packed
/// scalars. The device memory is freed when the value is dropped.
pub struct Bases<L> {
    pub(super) inner: Resident,
    _layout: PhantomData<fn() -> L>,
}

impl<A> core::fmt::Debug for Bases<A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Bases")
            .field("curve", &self.inner.curve)
            .field("points", &self.inner.n)
            .field("limb_bits", &self.inner.limb_bits)
            .field("batches", &self.inner.chunks.len())
            .field("copies", &self.inner.copies)
            .finish()
    }
}

impl<A> Bases<A> {
    /// How many points.
    pub fn len(&self) -> usize {
        self.inner.n
    }

    /// No points?
    pub fn is_empty(&self) -> bool {
        self.inner.n == 0
    }

    /// The curve of the points.
    pub fn curve(&self) -> GpuCurve {
        self.inner.curve
    }

    /// Copies of every point kept: 1, or the precomputed multiples asked for
    /// ([`RunOptions::precompute`]).
    pub fn copies(&self) -> u32 {
        self.inner.copies
    }

    /// Bytes of device memory the points take (every copy).
    pub fn device_bytes(&self) -> u64 {
        self.inner.chunks.iter().map(|c| c.size()).sum()
    }

    /// The command buffers of compute passes the upload submitted (the conversion, then the
    /// precomputed copies'), each as the seconds the profile's time model estimates for it:
    /// within [`RunOptions::max_submission_seconds`] as an MSM's are ([`super::submit`]).
    pub fn submissions(&self) -> &[f64] {
        &self.inner.submissions
    }
}

impl Resident {
    /// The converted points of batch `i`.
    pub(super) fn chunk(&self, i: usize) -> &wgpu::Buffer {
        &self.chunks[i]
    }

    /// Every batch's converted points, in order.
    pub(super) fn chunks(&self) -> &[wgpu::Buffer] {
        &self.chunks
    }

    /// The points of each batch: the first batch, then the others.
    pub(super) fn ranges(&self) -> Vec<std::ops::Range<usize>> {
        super::plan::batch_ranges(self.n, self.first_batch, self.batch)
    }

    /// Copies of every point kept (1: none precomputed).
    pub(super) fn copies(&self) -> u32 {
        self.copies
    }

    /// n for packed `scalars` against these bases, if they suit `msm` and have as many scalars.
    pub(super) fn check_scalars(&self, msm: &GpuMsm, scalars: &[u32]) -> Result<usize, GpuError> {
        if self.curve != msm.curve {
            return Err(GpuError::CurveMismatch {
                expected: msm.curve,
                given: self.curve,
            });
        }
        if self.limb_bits != msm.constants.limb_bits {
            return Err(GpuError::BasesMismatch(format!(
                "were converted to {}-bit limbs, this MSM uses {}-bit limbs",
                self.limb_bits, msm.constants.limb_bits
            )));
        }
        let k = count_scalars(scalars)?;
        if k != self.n {
            return Err(GpuError::InputLength {
                points: self.n,
                scalars: k,
            });
        }
        Ok(k)
    }

    /// The plan of an MSM over these bases: `options`, with the batches the upload made.
    pub(super) fn plan(
        &self,
        msm: &GpuMsm,
        ctx: &GpuContext,
        options: &RunOptions,
    ) -> Result<Plan, GpuError> {
        if options.precompute.is_some_and(|c| c != self.copies) {
            return Err(GpuError::BasesMismatch(format!(
                "keep {} copies of every point; RunOptions::precompute names no other count for \
                 their MSMs",
                self.copies
            )));
        }
        // Precomputed copies hold multiples for the window size they were made for.
        let window_bits = match options.window_bits {
            Some(c) if self.copies > 1 && c != self.window_bits => {
                return Err(GpuError::BasesMismatch(format!(
                    "were precomputed for {}-bit windows, these options ask for {c}",
                    self.window_bits
                )));
            }
            _ if self.copies > 1 => Some(self.window_bits),
            chosen => chosen,
        };
        let options = RunOptions {
            batch: Some(self.batch),
            first_batch: (self.first_batch < self.n).then_some(self.first_batch),
            precompute: Some(self.copies),
            window_bits,
            ..*options
        };
        let plan = msm.plan(ctx, self.n, &options)?;
        if plan.batch_ranges().len() != self.chunks.len()
            || (plan.batch, plan.first_batch) != (self.batch, self.first_batch)
        {
            return Err(GpuError::BasesMismatch(format!(
                "were uploaded in batches of {} points (the first {}), these options give {} (the first {})",
                self.batch, self.first_batch, plan.batch, plan.first_batch
            )));
        }
        Ok(plan)
    }
}

impl GpuMsm {
    /// Checks `points` (on the curve, for typed points), uploads them and converts them on the
    /// device once, for any number of MSMs with new scalars ([`GpuMsm::run_resident`],
    /// [`GpuMsm::run_batch`]). The points are kept in the batches of the plan of n points with
    /// `options` (its `batch`, `first_batch` and `max_binding_bytes`); the MSMs over them run in
    /// those batches. Packed points (`&[u32]`) give bases whose MSMs take packed scalars; their
    /// coordinates at or above p are refused ([`GpuError::CoordinateOutOfRange`]). With
    /// `options.precompute`, every point's multiples are computed here too and kept beside it
    /// (that many times the memory, [`Bases::device_bytes`]), for the plan's window size.
    ///
    /// ```no_run
    /// use ark_bn254::{Fr, G1Affine, G1Projective};
    /// use fastmsm_gpu::GpuContext;
    /// use fastmsm_gpu::msm::{BatchMsm, GpuCurve, GpuMsm, Points, RunOptions};
    ///
    /// # async fn commit_all(srs: &[G1Affine], polys: &[Vec<Fr>]) -> Result<(), fastmsm_gpu::GpuError> {
    /// let ctx = GpuContext::new().await?;
    /// let gpu = GpuMsm::builder(GpuCurve::Bn254).build(&ctx).await?;
    /// let options = RunOptions::default();
    /// let bases = gpu.upload_bases(&ctx, srs, &options).await?; // the points cross once
    /// let first: G1Projective = gpu.run_resident(&ctx, &bases, &polys[0], &options).await?.result;
    /// let msms: Vec<_> = polys
    ///     .iter()
    ///     .map(|p| BatchMsm { points: Points::Resident(&bases), scalars: p })
    ///     .collect();
    /// let all = gpu.run_batch(&ctx, &msms, &options).await?;
    /// # Ok(()) }
    /// ```
    pub async fn upload_bases<L: Layout>(
        &self,
        ctx: &GpuContext,
        points: &[L],
        options: &RunOptions,
    ) -> Result<Bases<L>, GpuError> {
        let points = L::pack_points(self.curve, points)?;
        let n = count_points(self.curve, &points)?;
        let copies = options.precompute.unwrap_or(1);
        if !(1..=precompute::MAX_COPIES).contains(&copies) {
            return Err(GpuError::Input(format!(
                "{copies} precomputed copies of each base: supported 1..={}",
                precompute::MAX_COPIES
            )));
        }
        let plan = self.plan(ctx, n, options)?;
        // Copy t takes the scalar's windows t·g..; one past the last window would hold nothing.
        let all_windows = (bit_length(&self.curve.scalar_modulus()) + 1).div_ceil(plan.window_bits);
        if (copies - 1) * plan.windows >= all_windows {
            return Err(GpuError::Input(format!(
                "{copies} precomputed copies of {} windows of {} bits each: the scalars have {} \
                 windows, so copies past the {}th would stay unused",
                plan.windows,
                plan.window_bits,
                all_windows,
                all_windows.div_ceil(plan.windows)
            )));
        }
        let point_bytes = (2 * self.constants.limbs * 4) as u64 * copies as u64;
        let ranges = if n == 0 {
            Vec::new()
        } else {
            plan.batch_ranges()
        };
        let chunks: Vec<wgpu::Buffer> = ranges
            .iter()
            .map(|r| {
                ctx.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("resident bases"),
                    size: r.len() as u64 * point_bytes,
                    // COPY_SRC: run_batch copies them into a pass shared with other MSMs.
                    usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: false,
                })
            })
            .collect();
        let mut submissions = Vec::new();
        if n > 0 {
            let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
            // The buffers of the MSMs to come: with timestamp queries where the device has them.
            let timestamps = ctx.features.contains(wgpu::Features::TIMESTAMP_QUERY);
            let resources = self.take_resources(ctx, &plan, timestamps);
            let now: &dyn Fn() -> f64 = &options.clock;
            let mut run = Run::new(ctx, self, resources, TimingSource::None, now);
            let coord_words = 2 * self.curve.coord_words();
            for (range, chunk) in ranges.iter().zip(&chunks) {
                let words = &points[range.start * coord_words..range.end * coord_words];
                run.convert(range.start, words, chunk).await?;
            }
            let bad = run.bad_coordinate().await;
            submissions = std::mem::take(&mut run.submissions);
            self.keep_resources(run.into_resources());
            if let Some(error) = scope.pop().await {
                return Err(GpuError::Validation(error.to_string()));
            }
            if let Some(c) = bad? {
                return Err(bad_coordinate(c));
            }
            if copies > 1 {
                let doublings = plan.window_bits * plan.windows;
                let more = self
                    .precompute_copies(ctx, &chunks, &ranges, copies, doublings, &plan.submit)
                    .await?;
                submissions.extend(more);
            }
        }
        Ok(Bases {
            inner: Resident {
                curve: self.curve,
                limb_bits: self.constants.limb_bits,
                n,
                batch: plan.batch,
                first_batch: plan.first_batch,
                copies,
                window_bits: plan.window_bits,
                chunks,
                submissions,
            },
            _layout: PhantomData,
        })
    }

    /// `Σ scalars[i]·bases[i]` against bases already on the device: only the scalars cross. The
    /// points stay in the batches of the upload (the options' `batch` and `first_batch` are not
    /// used); a binding limit that cannot hold those batches is refused
    /// ([`GpuError::BasesMismatch`]).
    pub async fn run_resident<L: Layout>(
        &self,
        ctx: &GpuContext,
        bases: &Bases<L>,
        scalars: &[L::Scalar],
        options: &RunOptions,
    ) -> Result<MsmOutput<L::Output>, GpuError> {
        let now = options.clock;
        let start = now();
        let scalars = L::pack_scalars(scalars);
        let packed = now() - start;
        let mut out = self
            .run_from(ctx, Source::Resident(&bases.inner), &scalars, options)
            .await?;
        out.host[0].1 += packed;
        out.try_map(L::output)
    }

    /// The device buffers of the last plan run if they fit `plan`, else new ones.
    pub(super) fn take_resources(
        &self,
        ctx: &GpuContext,
        plan: &Plan,
        timestamps: bool,
    ) -> Resources {
        let cached = self
            .resources
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .filter(|r| r.fits(plan, timestamps));
        cached.unwrap_or_else(|| Resources::new(ctx, self, plan, timestamps))
    }

    /// Keeps device buffers for the next MSM with the same plan.
    pub(super) fn keep_resources(&self, resources: Resources) {
        *self.resources.lock().unwrap_or_else(|e| e.into_inner()) = Some(resources);
    }
}
