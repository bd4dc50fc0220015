//! The GPU MSM: host side of `shaders/msm.wgsl` (stages listed there). One code path for every
//! curve and for native wgpu and WebGPU in the browser: the field functions, the curve formulas and
//! the stages are assembled into one module per (curve, limb width), with constants from Rust.

pub mod affine;
pub mod combine;
pub mod contract;
pub mod curve;
#[doc(hidden)]
pub mod inspect;
pub mod loops;
pub mod plan;
mod points;
mod resident;
mod run;
pub mod stage;
mod trace;
mod upload;

use fastmsm_curves::Canonical;
use fastmsm_mont::{LimbConstants, limb_constants};

pub use affine::SmvpForm;
pub use combine::AffineOut;
pub use curve::{GeneralAdd, GpuCurve, MixedAdd, WORKGROUP_SIZE, shader_source, shader_source_in};
pub use plan::{Plan, SmvpPass, default_window_bits, reduction_segments};
pub use points::{GpuMsmOptions, GpuPoint};
pub use resident::Bases;
pub use stage::Stage;
pub use trace::HostSpan;
pub use upload::UploadPath;

use crate::mont_wgsl::KernelForm;
use crate::profile::DeviceProfile;
use crate::{GpuContext, GpuError};
use run::{BatchPoints, Resources, Run};
use std::sync::Mutex;

/// Choices a caller may make; the defaults suit any device.
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmOptions {
    /// Window size c (default: from n, see [`default_window_bits`]).
    pub window_bits: Option<u32>,
    /// Bind no buffer larger than this (default: the device's limit). Small values force batching.
    pub max_binding_bytes: Option<u64>,
    /// Time every stage. With GPU timestamps this is free; without, the host waits after each stage.
    pub stage_timing: bool,
    /// Entries per SMVP invocation when every window is full, K ≥ 2 (default: one wave of
    /// invocations per batch, [`DeviceProfile::smvp_wave`]; the GPU lowers it when the scalars
    /// leave windows part-empty).
    pub chunk: Option<u32>,
    /// Reduction segments per window: a power of two, at most the buckets per window (default:
    /// the profile's reduction budget across all windows, see [`reduction_segments`]).
    pub segments: Option<u32>,
    /// Points per batch, a multiple of 64 when below n (default: natively, from the profile's
    /// `two_batches_from` points, a quarter of them first and the rest in a second batch, else one batch; fewer points per
    /// batch where the binding limit requires). Natively, the host's copy of one batch's input
    /// overlaps the GPU's work on the batch before it.
    pub batch: Option<usize>,
    /// Points in the first batch, a multiple of 64 below n and not above the batch size (default:
    /// as many as the others, or the quarter above). With it and no `batch`, the rest goes in one
    /// batch. A smaller first batch leaves less of the host's copy before the GPU can start.
    pub first_batch: Option<usize>,
    /// How the input reaches the GPU (default: a kept staging buffer natively, `writeBuffer` in
    /// the browser).
    pub upload: UploadPath,
    /// A diagnostic: after each batch's upload, wait until the GPU has it, so that
    /// [`MsmOutput::host_trace`] shows when the input arrived. Adds a round trip per batch.
    pub wait_after_upload: bool,
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

/// One MSM's answer and how it was computed.
#[derive(Clone, Debug)]
pub struct MsmOutput {
    /// Σ kᵢ·Pᵢ as canonical affine coordinates (or the identity).
    pub result: AffineOut,
    /// The plan the MSM ran with: window size, batches, chunk, segments.
    pub plan: Plan,
    /// Where [`MsmOutput::stages`] came from.
    pub timing: TimingSource,
    /// Seconds per stage, summed over batches (fold: over levels), in pipeline order.
    pub stages: Vec<(Stage, f64)>,
    /// Host clock, seconds: `validate` (input shape), `setup` (buffers and parameters, unless the
    /// last MSM had the same plan), `gpu` (from the first upload to the read-back of the window
    /// sums, checks and stage times: the stages above plus transfers and waits), `combine`
    /// (Horner on the CPU).
    pub host: Vec<(&'static str, f64)>,
    /// With stage timing: the host's timeline, seconds from the MSM's start: each upload call,
    /// submit, wait and map, then the error check and the combine (empty otherwise).
    pub host_trace: Vec<HostSpan>,
}

/// Compiled stages for one (curve, limb width).
pub struct GpuMsm {
    /// The curve the stages were compiled for.
    pub curve: GpuCurve,
    /// The base field's constants at the compiled limb width (limbs, modulus, Montgomery R), which
    /// the host uses to size buffers and to read the window sums back.
    pub constants: LimbConstants,
    /// How the kernels were generated.
    pub form: KernelForm,
    /// How the SMVP adds each bucket's points.
    pub smvp: SmvpForm,
    /// Per stage of [`GpuMsm::stages`], in its order: its pipeline and the bind-group layout of its
    /// bindings.
    pipelines: Vec<(wgpu::ComputePipeline, wgpu::BindGroupLayout)>,
    /// Device buffers of the last plan run, reused by the next MSM with the same plan (taken out
    /// while an MSM runs, so concurrent MSMs never share them).
    resources: Mutex<Option<Resources>>,
    /// What the default plan knows about the device ([`GpuMsm::set_profile`]).
    profile: Mutex<DeviceProfile>,
}

impl GpuMsm {
    /// Compiles every stage at `limb_bits`-bit limbs, with the `portable` profile until one is set
    /// ([`GpuMsm::set_profile`]). [`GpuMsm::new`] picks the width and the profile for the device.
    pub async fn with_limb_bits(
        ctx: &GpuContext,
        curve: GpuCurve,
        limb_bits: u32,
    ) -> Result<Self, GpuError> {
        Self::with_form(ctx, curve, limb_bits, KernelForm::Unrolled).await
    }

    /// As [`GpuMsm::with_limb_bits`], with the kernels generated in `form` (a device profile's choice).
    pub async fn with_form(
        ctx: &GpuContext,
        curve: GpuCurve,
        limb_bits: u32,
        form: KernelForm,
    ) -> Result<Self, GpuError> {
        Self::build(ctx, curve, limb_bits, form, &|s| s).await
    }

    /// As [`GpuMsm::with_form`], with the SMVP in `smvp` (short Weierstrass curves only for the
    /// batch-affine form).
    pub async fn with_smvp(
        ctx: &GpuContext,
        curve: GpuCurve,
        limb_bits: u32,
        form: KernelForm,
        smvp: SmvpForm,
    ) -> Result<Self, GpuError> {
        Self::build_with(ctx, curve, limb_bits, form, smvp, &|s| s).await
    }

    /// Compiles every stage from the assembled source passed through `edit` (the identity but
    /// for experiments, `crate::experiments`).
    pub(crate) async fn build(
        ctx: &GpuContext,
        curve: GpuCurve,
        limb_bits: u32,
        form: KernelForm,
        edit: &dyn Fn(String) -> String,
    ) -> Result<Self, GpuError> {
        Self::build_with(ctx, curve, limb_bits, form, SmvpForm::Projective, edit).await
    }

    async fn build_with(
        ctx: &GpuContext,
        curve: GpuCurve,
        limb_bits: u32,
        form: KernelForm,
        smvp: SmvpForm,
        edit: &dyn Fn(String) -> String,
    ) -> Result<Self, GpuError> {
        crate::field::check_limb_bits(ctx, limb_bits)?;
        check_limits(ctx)?;
        let constants = limb_constants(curve.base_field().params(), limb_bits)
            .map_err(|e| GpuError::Input(e.to_string()))?;
        let source = edit(affine::shader_source_for(curve, &constants, form, smvp)?);
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = ctx
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("msm"),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
        let pipelines = Self::stages_of(smvp)
            .iter()
            .map(|&stage| {
                let entries: Vec<_> = stage.bindings().iter().map(|b| b.layout_entry()).collect();
                let label = Some(stage.entry_point());
                let layout =
                    ctx.device
                        .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                            label,
                            entries: &entries,
                        });
                let pipeline_layout =
                    ctx.device
                        .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                            label,
                            bind_group_layouts: &[Some(&layout)],
                            immediate_size: 0,
                        });
                let pipeline =
                    ctx.device
                        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                            label,
                            layout: Some(&pipeline_layout),
                            module: &module,
                            entry_point: label,
                            compilation_options: Default::default(),
                            cache: None,
                        });
                (pipeline, layout)
            })
            .collect();
        if let Some(error) = scope.pop().await {
            return Err(GpuError::Validation(format!(
                "MSM shaders for {}: {error}",
                curve.name()
            )));
        }
        Ok(Self {
            curve,
            constants,
            form,
            smvp,
            pipelines,
            resources: Mutex::new(None),
            profile: Mutex::new(DeviceProfile::fallback(
                "not calibrated (see fastmsm_gpu::calibrate::prepare)",
            )),
        })
    }

    /// The device profile the default plan uses: `portable` until a caller sets one, which
    /// [`crate::calibrate::prepare`] does with a calibrated, cached or named profile.
    pub fn profile(&self) -> DeviceProfile {
        self.profile
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Replaces the device profile the default plan reads; later MSMs plan with it.
    pub fn set_profile(&self, profile: DeviceProfile) {
        *self.profile.lock().unwrap_or_else(|e| e.into_inner()) = profile;
    }

    /// The plan an MSM of `n` points would run with `options` on this device.
    pub fn plan(&self, ctx: &GpuContext, n: usize, options: &MsmOptions) -> Result<Plan, GpuError> {
        let limit = options
            .max_binding_bytes
            .unwrap_or(u64::MAX)
            .min(ctx.limits.max_storage_buffer_binding_size)
            .min(ctx.limits.max_buffer_size);
        let profile = self.profile.lock().unwrap_or_else(|e| e.into_inner());
        let loops = self.loop_budget(ctx);
        Plan::with_smvp(
            self.curve,
            &self.constants,
            n,
            options,
            limit,
            &profile,
            self.smvp,
            loops,
        )
    }

    /// What one invocation of this MSM's kernels may run on `ctx`'s device, where its loops are
    /// cut short ([`crate::GpuContext::loop_limit`]).
    pub fn loop_budget(&self, ctx: &GpuContext) -> Option<loops::LoopBudget> {
        ctx.loop_limit
            .map(|l| loops::LoopBudget::new(l, &self.constants, self.form, self.smvp))
    }

    /// The stages compiled for an SMVP form: [`Stage::ALL`], and the batch-affine ones after them.
    fn stages_of(smvp: SmvpForm) -> Vec<Stage> {
        let affine = matches!(smvp, SmvpForm::BatchAffine { .. });
        let extra = if affine {
            &Stage::BATCH_AFFINE[..]
        } else {
            &[]
        };
        Stage::ALL.iter().chain(extra).copied().collect()
    }

    fn pipeline(&self, stage: Stage) -> &(wgpu::ComputePipeline, wgpu::BindGroupLayout) {
        // Self::stages_of's order, without building the list on every pass.
        let all = Stage::ALL.len();
        let i = Stage::ALL.iter().position(|&s| s == stage).or_else(|| {
            let affine = Stage::BATCH_AFFINE.iter().position(|&s| s == stage)?;
            Some(all + affine).filter(|&i| i < self.pipelines.len())
        });
        &self.pipelines[i.expect("the stage is compiled for this SMVP form")]
    }

    /// Σ kᵢ·Pᵢ from canonical affine points ((0, 0) is the short-Weierstrass identity; the Edwards
    /// identity is (0, 1)) and scalars below r, with options and a clock for the stage times.
    /// Packs the input and calls [`GpuMsm::run_packed`]. For typed points, [`GpuMsm::msm`].
    pub async fn run_timed(
        &self,
        ctx: &GpuContext,
        points: &[(Canonical, Canonical)],
        scalars: &[[u64; 4]],
        options: &MsmOptions,
        now: &dyn Fn() -> f64,
    ) -> Result<MsmOutput, GpuError> {
        self.run_packed(
            ctx,
            &pack_points(self.curve, points),
            &pack_scalars(scalars),
            options,
            now,
        )
        .await
    }

    /// The MSM over packed input: per point, x then y as little-endian 32-bit words
    /// ([`GpuCurve::coord_words`] each); per scalar, 8 little-endian words. Points must be on the
    /// curve (callers such as the CLI check); coordinates ≥ p and scalars ≥ r are rejected (the
    /// GPU checks them while it converts the input and reports the first of each).
    pub async fn run_packed(
        &self,
        ctx: &GpuContext,
        points: &[u32],
        scalars: &[u32],
        options: &MsmOptions,
        now: &dyn Fn() -> f64,
    ) -> Result<MsmOutput, GpuError> {
        self.run_from(ctx, Source::Packed(points), scalars, options, now)
            .await
    }

    /// The MSM of `points` (packed, or resident on the device) and packed `scalars`.
    async fn run_from(
        &self,
        ctx: &GpuContext,
        points: Source<'_>,
        scalars: &[u32],
        options: &MsmOptions,
        now: &dyn Fn() -> f64,
    ) -> Result<MsmOutput, GpuError> {
        let mut host = Vec::new();
        let mut clock = now();
        let origin = clock;
        let mut lap = |phase: &'static str, host: &mut Vec<(&'static str, f64)>| {
            let t = now();
            host.push((phase, t - clock));
            clock = t;
        };
        let n = match points {
            Source::Packed(points) => check_shape(self.curve, points, scalars)?,
            Source::Resident(bases) => bases.check_scalars(self, scalars)?,
        };
        lap("validate", &mut host);
        let plan = match points {
            Source::Packed(_) => self.plan(ctx, n, options)?,
            Source::Resident(bases) => bases.plan(self, ctx, options)?,
        };
        let timestamps = ctx.features.contains(wgpu::Features::TIMESTAMP_QUERY);
        let timing = match (timestamps, options.stage_timing) {
            (true, _) => TimingSource::GpuTimestamps,
            (false, true) => TimingSource::HostWaits,
            (false, false) => TimingSource::None,
        };
        if n == 0 {
            return Ok(MsmOutput {
                result: combine::combine(self.curve, &[], plan.window_bits)?,
                plan,
                timing,
                stages: Vec::new(),
                host,
                host_trace: Vec::new(),
            });
        }
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let timestamps = timing == TimingSource::GpuTimestamps;
        let resources = self.take_resources(ctx, &plan, timestamps);
        let trace = trace::Trace::new(now, origin, options.stage_timing);
        let mut run = Run::new(ctx, self, resources, timing, now).with_host(
            trace,
            options.upload,
            options.wait_after_upload,
        );
        lap("setup", &mut host);
        let coord_words = 2 * self.curve.coord_words();
        for (i, range) in plan.batch_ranges().into_iter().enumerate() {
            let (start, end) = (range.start, range.end);
            let batch_points = match points {
                Source::Packed(points) => {
                    BatchPoints::Packed(&points[start * coord_words..end * coord_words])
                }
                Source::Resident(bases) => BatchPoints::Resident(bases.chunk(i)),
            };
            run.batch(start, batch_points, &scalars[start * 8..end * 8])
                .await?;
        }
        let back = run.finish().await?;
        let upload = run.upload_seconds;
        let mut trace = std::mem::replace(&mut run.trace, trace::Trace::new(now, origin, false));
        self.keep_resources(run.into_resources());
        lap("gpu", &mut host);
        // Of that, the host's part of the input copy: its own phase.
        host.last_mut().expect("gpu phase").1 -= upload;
        host.insert(host.len() - 1, ("upload", upload));
        let t = trace.start();
        if let Some(error) = scope.pop().await {
            return Err(GpuError::Validation(error.to_string()));
        }
        trace.end(t, || "error scope".into());
        if let Some(c) = back.bad_coordinate {
            return Err(bad_coordinate(c));
        }
        if let Some(i) = back.bad_scalar {
            return Err(GpuError::ScalarOutOfRange { index: i as usize });
        }
        let stages = back.stages;
        let w = self.constants.limb_bits;
        let coords: Vec<Canonical> = back
            .window_words
            .chunks(self.constants.limbs)
            .map(|l| join_limbs(l, w))
            .collect();
        let t = trace.start();
        let result = combine::combine(self.curve, &coords, plan.window_bits)?;
        trace.end(t, || "combine".into());
        lap("combine", &mut host);
        Ok(MsmOutput {
            result,
            plan,
            timing,
            stages,
            host,
            host_trace: trace.spans(),
        })
    }
}

/// Refuses an adapter whose limits are below what the stages need, naming the limit: storage
/// buffers bound by one stage (`smvp` and `smvp_combine` bind 7), and the workgroup size.
pub fn check_limits(ctx: &GpuContext) -> Result<(), GpuError> {
    let most_buffers = Stage::ALL
        .iter()
        .map(|s| s.bindings().len())
        .max()
        .unwrap_or(0) as u64;
    let l = &ctx.limits;
    for (what, needed, limit) in [
        (
            "storage buffers per shader stage (maxStorageBuffersPerShaderStage)",
            most_buffers,
            l.max_storage_buffers_per_shader_stage as u64,
        ),
        (
            "workgroup size x (maxComputeWorkgroupSizeX)",
            WORKGROUP_SIZE as u64,
            l.max_compute_workgroup_size_x as u64,
        ),
        (
            "invocations per workgroup (maxComputeInvocationsPerWorkgroup)",
            WORKGROUP_SIZE as u64,
            l.max_compute_invocations_per_workgroup as u64,
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
    if points.len() % per_item != 0 {
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
    if scalars.len() % 8 != 0 {
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

/// Packs canonical affine coordinates into the little-endian words `run_packed` takes.
pub fn pack_points(curve: GpuCurve, points: &[(Canonical, Canonical)]) -> Vec<u32> {
    let words = curve.coord_words();
    points
        .iter()
        .flat_map(|(x, y)| [x, y])
        .flat_map(|v| words32(v, words))
        .collect()
}

/// Packs scalars (four little-endian u64 words, below r) into the eight little-endian u32 words
/// per scalar that `run_packed` takes.
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
