//! The GPU MSM: host side of `shaders/msm.wgsl` (stages listed there). One code path for every
//! curve and for native wgpu and WebGPU in the browser: the field functions, the curve formulas and
//! the stages are assembled into one module per (curve, limb width), with constants from Rust.
//!
//! A [`GpuMsm`] is built once per curve ([`GpuMsm::builder`]: limb width, kernel form and device
//! profile, all fixed from then on) and answers four calls, each through the same checks:
//!
//! * [`GpuMsm::run`]: typed points and scalars ([`GpuPoint`]: ours, and arkworks' with `ark`);
//! * [`GpuMsm::run_packed`]: the packed 32-bit layout ([`pack_points`], [`pack_scalars`]);
//! * [`GpuMsm::run_resident`]: against bases kept on the device ([`GpuMsm::upload_bases`]);
//! * [`GpuMsm::run_batch`]: many MSMs, each with its own points (host or resident) and scalars.
//!
//! Every call takes [`RunOptions`] (plan overrides, stage timing, the host's trace) and returns an
//! [`MsmOutput`]: the result and how it was computed.

mod batch;
pub mod build;
pub mod combine;
pub mod contract;
pub mod curve;
#[doc(hidden)]
pub mod inspect;
pub mod loops;
pub mod plan;
mod points;
#[cfg(target_arch = "wasm32")]
mod precompile;
mod precompute;
mod resident;
mod run;
pub mod stage;
pub mod submit;
mod trace;
mod upload;

use fastmsm_curves::Canonical;
use fastmsm_mont::LimbConstants;

pub use batch::{BatchMsm, Points};
pub use build::{GpuMsmBuilder, ProfileChoice, Progress};
pub use combine::AffineOut;
pub use curve::{
    GeneralAdd, GpuCurve, MixedAdd, PREFIX_THREADS, WORKGROUP_SIZE, shader_source, shader_source_in,
};
pub use plan::{Packing, Plan, SmvpPass, default_window_bits, reduction_segments};
pub use points::{GpuPoint, Layout};
#[cfg(feature = "experiments")]
pub(crate) use precompute::field_inverse_source;
pub use resident::Bases;
pub use stage::Stage;
pub use trace::HostSpan;
pub use upload::{DEFAULT_PIECE_BYTES, UploadPath};

use crate::mont_wgsl::KernelForm;
use crate::profile::DeviceProfile;
use crate::{GpuContext, GpuError};
use run::{BatchPoints, Resources, Run};
use std::sync::Mutex;

/// Choices for one call; the defaults suit any device. The plan's fields override what the
/// device profile would choose; the others say what to measure.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// Window size c (default: from n, see [`default_window_bits`]).
    pub window_bits: Option<u32>,
    /// Bind no buffer larger than this (default: the device's limit). Small values force batching.
    pub max_binding_bytes: Option<u64>,
    /// Entries per SMVP invocation when every window is full, K ≥ 2 (default: one wave of
    /// invocations per batch, [`DeviceProfile::smvp_wave`]; the GPU lowers it when the scalars
    /// leave windows part-empty).
    pub chunk: Option<u32>,
    /// Reduction segments per window: a power of two, at most the buckets per window (default:
    /// the profile's reduction budget across all windows, see [`reduction_segments`]).
    pub segments: Option<u32>,
    /// Points per batch, a multiple of 64 when below n (default: where the upload overlaps the
    /// GPU's work, natively and with [`UploadPath::Pipelined`], from the profile's
    /// `two_batches_from` points, a quarter of them first and the rest in a second batch, else one
    /// batch; fewer points per batch where the binding limit requires). There the host's copy of
    /// one batch's input overlaps the GPU's work on the batch before it.
    pub batch: Option<usize>,
    /// Points in the first batch, a multiple of 64 below n and not above the batch size (default:
    /// as many as the others, or the quarter above). With it and no `batch`, the rest goes in one
    /// batch. A smaller first batch leaves less of the host's copy before the GPU can start.
    pub first_batch: Option<usize>,
    /// How the input reaches the GPU (default: a kept staging buffer natively, pieces through a
    /// ring of them in the browser; [`UploadPath::Auto`]).
    pub upload: UploadPath,
    /// Time every stage ([`MsmOutput::stages`]). With GPU timestamps this is free; without, the
    /// host waits after each stage.
    pub stage_timing: bool,
    /// Record the host's timeline ([`MsmOutput::host_trace`]): each upload call, submit, wait and
    /// map.
    pub host_trace: bool,
    /// A diagnostic: after each batch's upload, wait until the GPU has it, so that the host's
    /// trace shows when the input arrived. Adds a round trip per batch.
    pub wait_after_upload: bool,
    /// The clock of [`MsmOutput::host`] and the trace, in seconds (default: a monotonic clock
    /// natively, `Date.now()` in WebAssembly; a page passes `performance.now()`).
    pub clock: fn() -> f64,
    /// [`GpuMsm::upload_bases`] only: keep this many copies of every base, copy t holding
    /// 2^(c·g·t)·P for the plan's window size c and g = ⌈W/copies⌉, so that each MSM over them
    /// sums g windows instead of W (and the window rule, seeing copies × n points, picks a larger
    /// c). Costs copies × the points' device memory ([`Bases::device_bytes`]) and, once, the
    /// doublings. MSMs over the bases take it from them; the other calls refuse it.
    pub precompute: Option<u32>,
    /// The longest one submission of GPU work may take by the profile's estimate, in seconds
    /// (infinite: no bound). A phone's driver resets the device after about two seconds of one
    /// submission; the plan shortens the SMVP's chunks and the reduction's segments, and the run
    /// cuts long dispatches into several submissions ([`submit`]). Default (`None`):
    /// [`submit::DEFAULT_MAX_SUBMISSION_SECONDS`] on a GPU, and no bound on a CPU adapter (a
    /// software renderer such as lavapipe or SwiftShader), which no watchdog watches and whose
    /// speed, the estimate's basis, moves with the load of the host.
    pub max_submission_seconds: Option<f64>,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            window_bits: None,
            max_binding_bytes: None,
            chunk: None,
            segments: None,
            batch: None,
            first_batch: None,
            upload: UploadPath::default(),
            stage_timing: false,
            host_trace: false,
            wait_after_upload: false,
            clock: crate::clock::seconds,
            precompute: None,
            max_submission_seconds: None,
        }
    }
}

/// Where stage times come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimingSource {
    /// Timestamp queries written by the GPU at the start and end of each compute pass.
    GpuTimestamps,
    /// Host clock around each stage, waiting for the GPU after each (adds the waits to the total).
    HostWaits,
    /// Stage timing not requested and no timestamps available.
    None,
}

/// One MSM's answer and how it was computed. `T` is the answer's type: the point type's output
/// for typed points ([`GpuPoint::Output`]), [`AffineOut`] for packed ones.
#[derive(Clone, Debug)]
pub struct MsmOutput<T = AffineOut> {
    /// Σ kᵢ·Pᵢ.
    pub result: T,
    /// The plan the MSM ran with: window size, batches, chunk, segments.
    pub plan: Plan,
    /// Where [`MsmOutput::stages`] came from.
    pub timing: TimingSource,
    /// Seconds per stage, summed over batches (fold: over levels), in pipeline order.
    pub stages: Vec<(Stage, f64)>,
    /// Host clock, seconds: `validate` (input shape), `setup` (buffers and parameters, unless the
    /// last MSM had the same plan), `upload` (the host's part of the input copy), `gpu` (from the
    /// first upload to the read-back of the window sums, checks and stage times, less the
    /// upload), `combine` (Horner on the CPU).
    pub host: Vec<(&'static str, f64)>,
    /// With [`RunOptions::host_trace`]: the host's timeline, seconds from the MSM's start (empty
    /// otherwise).
    pub host_trace: Vec<HostSpan>,
    /// The command buffers of compute passes submitted to the GPU's queue, each as the seconds
    /// the profile's time model estimates for it ([`submit`]; the input's copies and the
    /// read-back go apart): one per batch where its passes fit the bound, more where the bound
    /// cut the work ([`RunOptions::max_submission_seconds`]) or stages are timed by host waits.
    pub submissions: Vec<f64>,
}

impl<T> MsmOutput<T> {
    /// The same output with the answer converted by `f`.
    fn try_map<U>(
        self,
        f: impl FnOnce(T) -> Result<U, GpuError>,
    ) -> Result<MsmOutput<U>, GpuError> {
        Ok(MsmOutput {
            result: f(self.result)?,
            plan: self.plan,
            timing: self.timing,
            stages: self.stages,
            host: self.host,
            host_trace: self.host_trace,
            submissions: self.submissions,
        })
    }
}

/// Compiled stages for one (curve, limb width), and the device profile its default plans come
/// from. Built by [`GpuMsm::builder`]; nothing about it changes afterwards.
pub struct GpuMsm {
    /// The curve the stages were compiled for.
    pub curve: GpuCurve,
    /// The base field's constants at the compiled limb width (limbs, modulus, Montgomery R), which
    /// the host uses to size buffers and to read the window sums back.
    pub constants: LimbConstants,
    /// How the kernels were generated.
    pub form: KernelForm,
    /// Chunks each level-0 SMVP invocation takes: 1, or the lanes of the batch-affine experiment.
    pub(crate) lanes: u32,
    /// The SMVP's form (the batch-affine experiments' workgroup and inversion).
    #[cfg(feature = "experiments")]
    pub(crate) smvp: crate::experiments::batch_affine::SmvpForm,
    /// Per stage of [`GpuMsm::stages`], in its order: its pipeline and the bind-group layout of its
    /// bindings.
    pipelines: Vec<(wgpu::ComputePipeline, wgpu::BindGroupLayout)>,
    /// Device buffers of the last plan run, reused by the next MSM with the same plan (taken out
    /// while an MSM runs, so concurrent MSMs never share them).
    resources: Mutex<Option<Resources>>,
    /// What the default plan knows about the device.
    profile: DeviceProfile,
}

impl GpuMsm {
    /// The device profile the default plan uses, fixed when the MSM was built.
    pub fn profile(&self) -> &DeviceProfile {
        &self.profile
    }

    /// The same compiled stages planning with `profile` instead: a new value, sharing the
    /// pipelines (nothing is compiled). The limb width and kernel form stay those compiled.
    pub fn with_profile(&self, profile: DeviceProfile) -> GpuMsm {
        GpuMsm {
            curve: self.curve,
            constants: self.constants.clone(),
            form: self.form,
            lanes: self.lanes,
            #[cfg(feature = "experiments")]
            smvp: self.smvp,
            pipelines: self.pipelines.clone(),
            resources: Mutex::new(None),
            profile,
        }
    }

    /// The plan an MSM of `n` points would run with `options` on this device.
    pub fn plan(&self, ctx: &GpuContext, n: usize, options: &RunOptions) -> Result<Plan, GpuError> {
        let packing = Packing {
            msms: 1,
            copies: options.precompute.unwrap_or(1),
        };
        self.plan_packed(ctx, n, packing, options)
    }

    /// The plan of `packing.msms` MSMs of `n / msms` points each in one pass, or of one MSM over
    /// `packing.copies` copies of its points.
    pub(crate) fn plan_packed(
        &self,
        ctx: &GpuContext,
        n: usize,
        packing: Packing,
        options: &RunOptions,
    ) -> Result<Plan, GpuError> {
        let limit = options
            .max_binding_bytes
            .unwrap_or(u64::MAX)
            .min(self.profile.binding_limit.unwrap_or(u64::MAX))
            .min(ctx.limits.max_storage_buffer_binding_size)
            .min(ctx.limits.max_buffer_size);
        let options = &RunOptions {
            max_submission_seconds: Some(options.max_submission_seconds.unwrap_or(
                if ctx.info.device_type == wgpu::DeviceType::Cpu {
                    f64::INFINITY
                } else {
                    submit::DEFAULT_MAX_SUBMISSION_SECONDS
                },
            )),
            ..*options
        };
        let plan_within = |limit: u64| {
            Plan::with_lanes(
                self.curve,
                &self.constants,
                n,
                options,
                limit,
                &self.profile,
                self.lanes,
                self.loop_budget(ctx),
                packing,
            )
        };
        let plan = plan_within(limit)?;
        // The input's staging buffer (a packed point and scalar per point, not bound) can be
        // larger than the bound buffers where limbs are wide (29- to 32-bit): it must stay within
        // the buffer limit, which with WebGPU's defaults is twice the binding limit.
        let staging = plan.batch as u64 * 4 * (2 * self.curve.coord_words() as u64 + 8);
        let most = ctx.limits.max_buffer_size;
        if staging <= most {
            return Ok(plan);
        }
        plan_within((limit as u128 * most as u128 / staging as u128) as u64)
    }

    /// What one invocation of this MSM's kernels may run on `ctx`'s device, where its loops are
    /// cut short ([`crate::GpuContext::loop_limit`]).
    pub fn loop_budget(&self, ctx: &GpuContext) -> Option<loops::LoopBudget> {
        let budget = ctx
            .loop_limit
            .map(|l| loops::LoopBudget::new(l, &self.constants, self.form, self.lanes));
        #[cfg(feature = "experiments")]
        let budget = budget.map(|b| {
            let product = 1 + crate::mont_wgsl::product_loop_iterations(&self.constants, self.form);
            let round = self
                .smvp
                .round_inversion_iterations(self.curve, &self.constants, product);
            b.with_round_inversion(self.lanes, product, round)
        });
        budget
    }

    /// Invocations per workgroup of the level-0 SMVP kernel.
    #[cfg(feature = "experiments")]
    pub(crate) fn smvp_workgroup(&self) -> u32 {
        self.smvp.workgroup()
    }

    /// The stages compiled for `lanes` chunks per level-0 SMVP invocation: [`Stage::ALL`], and
    /// the batch-affine experiment's after them.
    fn stages_of(lanes: u32) -> Vec<Stage> {
        #[cfg(feature = "experiments")]
        if lanes > 1 {
            return Stage::ALL
                .iter()
                .chain(&Stage::BATCH_AFFINE)
                .copied()
                .collect();
        }
        let _ = lanes;
        Stage::ALL.to_vec()
    }

    fn pipeline(&self, stage: Stage) -> &(wgpu::ComputePipeline, wgpu::BindGroupLayout) {
        // Self::stages_of's order, without building the list on every pass.
        let i = Stage::ALL.iter().position(|&s| s == stage);
        #[cfg(feature = "experiments")]
        let i = i.or_else(|| {
            let affine = Stage::BATCH_AFFINE.iter().position(|&s| s == stage)?;
            Some(Stage::ALL.len() + affine).filter(|&i| i < self.pipelines.len())
        });
        &self.pipelines[i.expect("the stage is compiled for this SMVP form")]
    }

    /// `Σ scalars[i]·points[i]` over typed points: ours or arkworks' ([`GpuPoint`]). Every point
    /// is checked on the curve ([`GpuError::PointNotOnCurve`]), the GPU checks scalars below r
    /// ([`GpuError::ScalarOutOfRange`]).
    ///
    /// ```no_run
    /// use ark_bn254::{Fr, G1Affine, G1Projective};
    /// use fastmsm_gpu::GpuContext;
    /// use fastmsm_gpu::msm::{GpuCurve, GpuMsm, RunOptions};
    ///
    /// # async fn prove(bases: &[G1Affine], scalars: &[Fr]) -> Result<(), fastmsm_gpu::GpuError> {
    /// let ctx = GpuContext::new().await?;
    /// let gpu = GpuMsm::builder(GpuCurve::Bn254).build(&ctx).await?;
    /// let commitment: G1Projective = gpu.run(&ctx, bases, scalars, &RunOptions::default()).await?.result;
    /// # Ok(()) }
    /// ```
    pub async fn run<A: GpuPoint>(
        &self,
        ctx: &GpuContext,
        points: &[A],
        scalars: &[A::Scalar],
        options: &RunOptions,
    ) -> Result<MsmOutput<A::Output>, GpuError> {
        self.run_host(ctx, points, scalars, options).await
    }

    /// The MSM over packed input: per point, x then y as little-endian 32-bit words
    /// ([`GpuCurve::coord_words`] each; the identity as (0, 0) in short Weierstrass form, (0, 1)
    /// in twisted Edwards form); per scalar, 8 little-endian words ([`pack_points`],
    /// [`pack_scalars`]). The points must be on the curve (packed, they are not checked there);
    /// coordinates ≥ p and scalars ≥ r are refused, by index (the GPU checks them while it
    /// converts the input).
    pub async fn run_packed(
        &self,
        ctx: &GpuContext,
        points: &[u32],
        scalars: &[u32],
        options: &RunOptions,
    ) -> Result<MsmOutput, GpuError> {
        self.run_host(ctx, points, scalars, options).await
    }

    /// The MSM of host points in either layout: checked and packed, then [`GpuMsm::run_from`].
    async fn run_host<L: Layout>(
        &self,
        ctx: &GpuContext,
        points: &[L],
        scalars: &[L::Scalar],
        options: &RunOptions,
    ) -> Result<MsmOutput<L::Output>, GpuError> {
        let now = options.clock;
        let start = now();
        let (points, scalars) = L::pack(self.curve, points, scalars)?;
        let checked = now() - start;
        let mut out = self
            .run_from(ctx, Source::Packed(&points), &scalars, options)
            .await?;
        out.host[0].1 += checked;
        out.try_map(L::output)
    }

    /// The one path every call takes: checks the shape of the packed input, plans, runs the
    /// batches, and reports the GPU's input checks by index before any result.
    async fn run_from(
        &self,
        ctx: &GpuContext,
        points: Source<'_>,
        scalars: &[u32],
        options: &RunOptions,
    ) -> Result<MsmOutput, GpuError> {
        let mut laps = Laps::start(options.clock);
        let n = match points {
            Source::Packed(points) => check_shape(self.curve, points, scalars)?,
            Source::Resident(bases) => bases.check_scalars(self, scalars)?,
        };
        laps.lap("validate");
        let plan = match points {
            Source::Packed(_) if options.precompute.is_some_and(|c| c != 1) => {
                return Err(GpuError::Input(
                    "precomputed copies (RunOptions::precompute) are kept by upload_bases; \
                     this MSM's points come from the host"
                        .into(),
                ));
            }
            Source::Packed(_) => self.plan(ctx, n, options)?,
            Source::Resident(bases) => bases.plan(self, ctx, options)?,
        };
        let timing = timing_source(ctx, options);
        if n == 0 {
            return Ok(MsmOutput {
                result: combine::combine(self.curve, &[], plan.window_bits)?,
                plan,
                timing,
                stages: Vec::new(),
                host: laps.host,
                host_trace: Vec::new(),
                // Nothing ran on the GPU.
                submissions: Vec::new(),
            });
        }
        let (back, mut trace) = self
            .execute(ctx, points, scalars, &plan, options, Vec::new(), &mut laps)
            .await?;
        if let Some(c) = back.bad_coordinate {
            return Err(bad_coordinate(c));
        }
        if let Some(i) = back.bad_scalar {
            return Err(GpuError::ScalarOutOfRange { index: i as usize });
        }
        let t = trace.start();
        let result = self.combine_windows(&back.window_words, plan.window_bits)?;
        trace.end(t, || "combine".into());
        laps.lap("combine");
        Ok(MsmOutput {
            result,
            plan,
            timing,
            stages: back.stages,
            host: laps.host,
            host_trace: trace.spans(),
            submissions: back.submissions,
        })
    }

    /// Runs the batches of `plan` over `points` and `scalars` (`parts`: converted points copied
    /// in after the conversion, for packed MSMs over resident bases) and reads back the window
    /// sums and the input checks. Adds the phases `setup`, `upload` and `gpu` to `laps`.
    #[allow(clippy::too_many_arguments)]
    async fn execute<'a>(
        &'a self,
        ctx: &'a GpuContext,
        points: Source<'_>,
        scalars: &[u32],
        plan: &Plan,
        options: &'a RunOptions,
        parts: Vec<(u64, wgpu::Buffer, u64)>,
        laps: &mut Laps,
    ) -> Result<(run::Readback, trace::Trace<'a>), GpuError> {
        let now: &dyn Fn() -> f64 = &options.clock;
        let timing = timing_source(ctx, options);
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let timestamps = timing == TimingSource::GpuTimestamps;
        let resources = self.take_resources(ctx, plan, timestamps);
        let trace = trace::Trace::new(now, laps.origin, options.host_trace);
        let mut run = Run::new(ctx, self, resources, timing, now).with_host(
            trace,
            options.upload,
            options.wait_after_upload,
        );
        run.resident_parts = parts;
        laps.lap("setup");
        let coord_words = 2 * self.curve.coord_words();
        for (i, range) in plan.batch_ranges().into_iter().enumerate() {
            let (start, end) = (range.start, range.end);
            let batch_points = match points {
                Source::Packed(points) => BatchPoints::Packed(
                    &points[(start * coord_words).min(points.len())
                        ..(end * coord_words).min(points.len())],
                ),
                Source::Resident(bases) => BatchPoints::Resident(bases.chunk(i)),
            };
            run.batch(start, batch_points, &scalars[start * 8..end * 8])
                .await?;
        }
        let pending = run.submit_finish().await?;
        // Asked for now, the error scope's answer comes back with the map instead of after it (a
        // round trip to the browser's GPU process).
        let errors = scope.pop();
        let back = run.read_back(pending).await?;
        let upload = run.upload_seconds;
        let mut trace =
            std::mem::replace(&mut run.trace, trace::Trace::new(now, laps.origin, false));
        self.keep_resources(run.into_resources());
        laps.lap("gpu");
        // Of that, the host's part of the input copy: its own phase.
        laps.host.last_mut().expect("gpu phase").1 -= upload;
        let at = laps.host.len() - 1;
        laps.host.insert(at, ("upload", upload));
        let t = trace.start();
        if let Some(error) = errors.await {
            return Err(GpuError::Validation(error.to_string()));
        }
        trace.end(t, || "error scope".into());
        Ok((back, trace))
    }

    /// Σ_j 2^(c·j)·G_j over window sums read back in the shader's limbs (four coordinates of
    /// `limbs` limbs per window).
    fn combine_windows(&self, words: &[u32], window_bits: u32) -> Result<AffineOut, GpuError> {
        let w = self.constants.limb_bits;
        let coords: Vec<Canonical> = words
            .chunks(self.constants.limbs)
            .map(|l| join_limbs(l, w))
            .collect();
        combine::combine(self.curve, &coords, window_bits)
    }
}

/// Where stage times come from on `ctx` with `options`.
fn timing_source(ctx: &GpuContext, options: &RunOptions) -> TimingSource {
    let timestamps = ctx.features.contains(wgpu::Features::TIMESTAMP_QUERY);
    match (timestamps, options.stage_timing) {
        (true, _) => TimingSource::GpuTimestamps,
        (false, true) => TimingSource::HostWaits,
        (false, false) => TimingSource::None,
    }
}

/// The host phases of one call ([`MsmOutput::host`]), timed lap by lap.
pub(super) struct Laps {
    now: fn() -> f64,
    /// When the call started (the trace's origin).
    origin: f64,
    clock: f64,
    /// (phase, seconds) so far.
    host: Vec<(&'static str, f64)>,
}

impl Laps {
    fn start(now: fn() -> f64) -> Self {
        let t = now();
        Self {
            now,
            origin: t,
            clock: t,
            host: Vec::new(),
        }
    }

    /// Ends the current phase as `phase`.
    fn lap(&mut self, phase: &'static str) {
        let t = (self.now)();
        self.host.push((phase, t - self.clock));
        self.clock = t;
    }
}

/// Refuses a device whose limits are below what the stages need, naming the limit: storage
/// buffers bound by one stage (`smvp` and `smvp_combine` bind 7), invocations per workgroup
/// (`prefix` runs 256) and workgroup storage (`prefix`'s running totals). WebGPU's default
/// limits (8 buffers, 256 invocations, 16 KiB) cover every stage.
pub fn check_limits(ctx: &GpuContext) -> Result<(), GpuError> {
    let most = |f: fn(Stage) -> u64| Stage::ALL.iter().map(|&s| f(s)).max().unwrap_or(0);
    let l = &ctx.limits;
    for (what, needed, limit) in [
        (
            "storage buffers per shader stage (maxStorageBuffersPerShaderStage)",
            most(|s| s.bindings().len() as u64),
            l.max_storage_buffers_per_shader_stage as u64,
        ),
        (
            "workgroup size x (maxComputeWorkgroupSizeX)",
            most(|s| s.workgroup_size().into()),
            l.max_compute_workgroup_size_x as u64,
        ),
        (
            "invocations per workgroup (maxComputeInvocationsPerWorkgroup)",
            most(|s| s.workgroup_size().into()),
            l.max_compute_invocations_per_workgroup as u64,
        ),
        (
            "workgroup storage in bytes (maxComputeWorkgroupStorageSize)",
            most(|s| s.workgroup_storage_bytes().into()),
            l.max_compute_workgroup_storage_size as u64,
        ),
    ] {
        if needed > limit {
            return Err(GpuError::LimitExceeded {
                what: format!("the MSM's {what}"),
                needed,
                limit,
            });
        }
    }
    Ok(())
}

/// Where an MSM's points come from.
#[derive(Clone, Copy)]
enum Source<'a> {
    /// Packed affine coordinates from the host.
    Packed(&'a [u32]),
    /// Points converted and kept on the device.
    Resident(&'a resident::Resident),
}

/// The error for the GPU's report of a bad coordinate, 2·point + (0 for x, 1 for y).
pub(crate) fn bad_coordinate(c: u32) -> GpuError {
    GpuError::CoordinateOutOfRange {
        index: c as usize / 2,
        coordinate: ['x', 'y'][c as usize % 2],
    }
}

/// Packed points of `curve`: whole points. Returns how many.
pub(crate) fn count_points(curve: GpuCurve, points: &[u32]) -> Result<usize, GpuError> {
    let per_item = 2 * curve.coord_words();
    if !points.len().is_multiple_of(per_item) {
        return Err(GpuError::PackedLength {
            what: "point",
            words: points.len(),
            per_item,
        });
    }
    Ok(points.len() / per_item)
}

/// Packed scalars: whole scalars. Returns how many.
pub(crate) fn count_scalars(scalars: &[u32]) -> Result<usize, GpuError> {
    if !scalars.len().is_multiple_of(8) {
        return Err(GpuError::PackedLength {
            what: "scalar",
            words: scalars.len(),
            per_item: 8,
        });
    }
    Ok(scalars.len() / 8)
}

/// Checks the packed input's shape: whole points and scalars, as many of each. Returns n. (The
/// values are checked on the GPU: coordinates below p, scalars below r.)
fn check_shape(curve: GpuCurve, points: &[u32], scalars: &[u32]) -> Result<usize, GpuError> {
    let n = count_points(curve, points)?;
    let k = count_scalars(scalars)?;
    if n != k {
        return Err(GpuError::InputLength {
            points: n,
            scalars: k,
        });
    }
    Ok(n)
}

/// The low `count` 32-bit words of `v`, least significant first.
pub(crate) fn words32(v: &Canonical, count: usize) -> Vec<u32> {
    v.iter()
        .flat_map(|&x| [x as u32, (x >> 32) as u32])
        .take(count)
        .collect()
}

/// The low `count` 32-bit words of `v` as a WGSL list (`1u, 2u, …`).
pub(crate) fn words32_list(v: &Canonical, count: usize) -> String {
    words32(v, count)
        .iter()
        .map(|w| format!("{w}u"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Packs canonical affine coordinates into the little-endian words [`GpuMsm::run_packed`] takes.
pub fn pack_points(curve: GpuCurve, points: &[(Canonical, Canonical)]) -> Vec<u32> {
    let words = curve.coord_words();
    points
        .iter()
        .flat_map(|(x, y)| [x, y])
        .flat_map(|v| words32(v, words))
        .collect()
}

/// Packs scalars (four little-endian u64 words, below r) into the eight little-endian u32 words
/// per scalar that [`GpuMsm::run_packed`] takes.
pub fn pack_scalars(scalars: &[[u64; 4]]) -> Vec<u32> {
    scalars
        .iter()
        .flat_map(|s| s.iter().flat_map(|&x| [x as u32, (x >> 32) as u32]))
        .collect()
}

fn join_limbs(limbs: &[u32], w: u32) -> Canonical {
    let mut v = [0u64; fastmsm_mont::WORDS];
    for (i, &l) in limbs.iter().enumerate() {
        let bit = i as u32 * w;
        let (word, shift) = ((bit / 64) as usize, bit % 64);
        // Limbs past the last word carry only zero bits (every value is below p).
        if word < v.len() {
            v[word] |= (l as u64) << shift;
        }
        if shift + w > 64 && word + 1 < v.len() {
            v[word + 1] |= (l as u64) >> (64 - shift);
        }
    }
    v
}
