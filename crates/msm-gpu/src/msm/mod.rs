//! The GPU MSM: host side of `shaders/msm.wgsl` (stages listed there). One code path for every
//! curve and for native wgpu and WebGPU in the browser: the field functions, the curve formulas and
//! the stages are assembled into one module per (curve, limb width), with constants from Rust.

pub mod combine;
pub mod curve;
pub mod plan;

use fastmsm_curves::Canonical;
use fastmsm_mont::{LimbConstants, limb_constants};

pub use combine::AffineOut;
pub use curve::{GpuCurve, WORKGROUP_SIZE, shader_source};
pub use plan::{Plan, SmvpPass, default_window_bits};

use crate::transfer::{dispatch_grid, read_u32};
use crate::{GpuContext, GpuError};

/// Every entry point of msm.wgsl, in pipeline order: `init_buckets` once, the next five per batch
/// of points (`smvp_combine` once per level), the last three once (`fold` once per tree level).
const STAGES: [&str; 10] = ["init_buckets", "convert_points", "decompose", "prefix", "scatter", "smvp", "smvp_combine", "reduce", "fold", "window_out"];

/// Bindings of msm.wgsl each stage touches (auto layouts hold only those; must match the shader).
fn stage_bindings(stage: &str) -> &'static [u32] {
    match stage {
        "convert_points" => &[0, 1, 2],
        "decompose" => &[0, 3, 4, 5],
        "prefix" => &[0, 5, 6],
        "scatter" => &[0, 4, 5, 6, 7],
        "init_buckets" => &[0, 8],
        "smvp" => &[0, 2, 4, 6, 7, 8, 12],
        "smvp_combine" => &[0, 4, 6, 7, 8, 11, 12],
        "reduce" => &[0, 8, 9],
        "fold" => &[0, 9],
        "window_out" => &[0, 9, 10],
        _ => unreachable!("unknown stage {stage}"),
    }
}

/// Choices a caller may make; the defaults suit any device.
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmOptions {
    /// Window size c (default: from n, see [`default_window_bits`]).
    pub window_bits: Option<u32>,
    /// Bind no buffer larger than this (default: the device's limit). Small values force batching.
    pub max_binding_bytes: Option<u64>,
    /// Time every stage. With GPU timestamps this is free; without, the host waits after each stage.
    pub stage_timing: bool,
    /// Entries per SMVP invocation, K ≥ 2 (default: from n, see [`Plan::new`]).
    pub chunk: Option<u32>,
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
    pub result: AffineOut,
    pub plan: Plan,
    pub timing: TimingSource,
    /// Seconds per stage, summed over batches (fold: over levels), in pipeline order.
    pub stages: Vec<(&'static str, f64)>,
    /// Host clock, seconds: `validate` (input checks), `setup` (buffers, parameters), `gpu` (from the
    /// first upload to the window sums read back: the stages above plus transfers and waits),
    /// `timestamps` (reading the stage times back), `combine` (Horner on the CPU).
    pub host: Vec<(&'static str, f64)>,
}

/// Compiled stages for one (curve, limb width).
pub struct GpuMsm {
    pub curve: GpuCurve,
    pub constants: LimbConstants,
    pipelines: Vec<(&'static str, wgpu::ComputePipeline)>,
}

impl GpuMsm {
    /// Compiles every stage (once; reuse the value for every MSM of this curve).
    pub async fn new(ctx: &GpuContext, curve: GpuCurve, limb_bits: u32) -> Result<Self, GpuError> {
        Self::with_source_edit(ctx, curve, limb_bits, &|s| s).await
    }

    /// As [`GpuMsm::new`], with the assembled WGSL passed through `edit` first: for experiments
    /// (the benchmark's `--edit` variants) that time a change before it goes into the shaders.
    #[doc(hidden)]
    pub async fn with_source_edit(ctx: &GpuContext, curve: GpuCurve, limb_bits: u32, edit: &dyn Fn(String) -> String) -> Result<Self, GpuError> {
        if !crate::field::LIMB_WIDTHS.contains(&limb_bits) {
            return Err(GpuError::Input(format!("{limb_bits}-bit limbs: supported {:?}", crate::field::LIMB_WIDTHS)));
        }
        let constants = limb_constants(curve.base_field().params(), limb_bits).map_err(|e| GpuError::Input(e.to_string()))?;
        let source = edit(shader_source(curve, &constants)?);
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = ctx.device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("msm"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let pipelines = STAGES
            .iter()
            .map(|&entry| {
                let pipeline = ctx.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(entry),
                    layout: None,
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    cache: None,
                });
                (entry, pipeline)
            })
            .collect();
        if let Some(error) = scope.pop().await {
            return Err(GpuError::Validation(format!("MSM shaders for {}: {error}", curve.name())));
        }
        Ok(Self { curve, constants, pipelines })
    }

    fn pipeline(&self, stage: &str) -> &wgpu::ComputePipeline {
        &self.pipelines.iter().find(|(s, _)| *s == stage).expect("known stage").1
    }

    /// Σ kᵢ·Pᵢ from canonical affine points ((0, 0) is the short-Weierstrass identity; the Edwards
    /// identity is (0, 1)) and scalars below r. Packs the input and calls [`GpuMsm::run_packed`].
    pub async fn run(&self, ctx: &GpuContext, points: &[(Canonical, Canonical)], scalars: &[[u64; 4]], options: &MsmOptions, now: &dyn Fn() -> f64) -> Result<MsmOutput, GpuError> {
        self.run_packed(ctx, &pack_points(self.curve, points), &pack_scalars(scalars), options, now).await
    }

    /// The MSM over packed input: per point, x then y as little-endian 32-bit words
    /// ([`GpuCurve::coord_words`] each); per scalar, 8 little-endian words. Points must be on the
    /// curve (callers such as the CLI check); coordinates ≥ p and scalars ≥ r are rejected here.
    pub async fn run_packed(&self, ctx: &GpuContext, points: &[u32], scalars: &[u32], options: &MsmOptions, now: &dyn Fn() -> f64) -> Result<MsmOutput, GpuError> {
        let mut host = Vec::new();
        let mut clock = now();
        let mut lap = |phase: &'static str, host: &mut Vec<(&'static str, f64)>| {
            let t = now();
            host.push((phase, t - clock));
            clock = t;
        };
        let n = validate(self.curve, points, scalars)?;
        lap("validate", &mut host);
        let limit = options.max_binding_bytes.unwrap_or(u64::MAX).min(ctx.limits.max_storage_buffer_binding_size).min(ctx.limits.max_buffer_size);
        let plan = Plan::new(self.curve, self.constants.limbs, n, options.window_bits, options.chunk, limit)?;
        let timestamps = ctx.features.contains(wgpu::Features::TIMESTAMP_QUERY);
        let timing = match (timestamps, options.stage_timing) {
            (true, _) => TimingSource::GpuTimestamps,
            (false, true) => TimingSource::HostWaits,
            (false, false) => TimingSource::None,
        };
        if n == 0 {
            return Ok(MsmOutput { result: combine::combine(self.curve, &[], plan.window_bits)?, plan, timing, stages: Vec::new(), host });
        }
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut run = Run::new(ctx, self, &plan, timing, now);
        lap("setup", &mut host);
        let coord_words = 2 * self.curve.coord_words();
        for (b, start) in (0..n).step_by(plan.batch).enumerate() {
            let end = (start + plan.batch).min(n);
            run.batch(b == 0, &points[start * coord_words..end * coord_words], &scalars[start * 8..end * 8]).await?;
        }
        let words = run.finish().await?;
        lap("gpu", &mut host);
        let stages = run.stage_times().await?;
        if let Some(error) = scope.pop().await {
            return Err(GpuError::Validation(error.to_string()));
        }
        lap("timestamps", &mut host);
        let w = self.constants.limb_bits;
        let coords: Vec<Canonical> = words.chunks(self.constants.limbs).map(|l| join_limbs(l, w)).collect();
        let result = combine::combine(self.curve, &coords, plan.window_bits)?;
        lap("combine", &mut host);
        Ok(MsmOutput { result, plan, timing, stages, host })
    }
}

/// The words of msm.wgsl's `Params` for one pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Params {
    n: u32,
    level: u32,
    scale: u32,
    chunks: u32,
    stride: u32,
}

/// The buffers and bind groups of one MSM, and the stage clock. Every pass's parameters sit in one
/// buffer, written once, each record at its own aligned offset: the passes of a batch go to the GPU
/// in one submission.
struct Run<'a> {
    ctx: &'a GpuContext,
    msm: &'a GpuMsm,
    plan: &'a Plan,
    buffers: Vec<wgpu::Buffer>,
    /// Parameter records, in the order of their offsets in the params buffer.
    records: Vec<Params>,
    record_bytes: u64,
    bind_groups: Vec<((&'static str, usize, bool), wgpu::BindGroup)>,
    encoder: Option<wgpu::CommandEncoder>,
    timing: TimingSource,
    queries: Option<wgpu::QuerySet>,
    /// Stage of each timestamped pass, in order.
    passes: Vec<&'static str>,
    host_times: Vec<(&'static str, f64)>,
    now: &'a dyn Fn() -> f64,
}

// Binding numbers of msm.wgsl.
const PARAMS: usize = 0;
const POINTS_IN: usize = 1;
const SCALARS: usize = 3;
const WINDOW_SUMS: usize = 10;
const HEADS_IN: u32 = 11;
const HEADS_OUT: u32 = 12;

impl<'a> Run<'a> {
    fn new(ctx: &'a GpuContext, msm: &'a GpuMsm, plan: &'a Plan, timing: TimingSource, now: &'a dyn Fn() -> f64) -> Self {
        let limbs = msm.constants.limbs;
        let point_words = 4 * limbs;
        let (batch, windows, buckets) = (plan.batch, plan.windows as usize, plan.buckets as usize);
        let records = Self::records(plan);
        let record_bytes = (12 * 4u64).next_multiple_of(ctx.limits.min_storage_buffer_offset_alignment as u64);
        let buffer = |label: &str, words: usize, usage: wgpu::BufferUsages| {
            ctx.device.create_buffer(&wgpu::BufferDescriptor { label: Some(label), size: (words.max(1) * 4) as u64, usage, mapped_at_creation: false })
        };
        let storage = wgpu::BufferUsages::STORAGE;
        let copy_dst = wgpu::BufferUsages::COPY_DST;
        let heads = windows * plan.head_stride() as usize * point_words;
        let buffers = vec![
            buffer("params", records.len() * record_bytes as usize / 4, storage | copy_dst),
            buffer("points_in", batch * 2 * msm.curve.coord_words(), storage | copy_dst),
            buffer("points", batch * 2 * limbs, storage),
            buffer("scalars", batch * 8, storage | copy_dst),
            buffer("digits", windows * batch, storage),
            buffer("counts", windows * (buckets + 1), storage | copy_dst),
            buffer("offsets", windows * (buckets + 2), storage),
            buffer("entries", windows * batch, storage),
            buffer("buckets", windows * (buckets + 1) * point_words, storage),
            buffer("partials", windows * plan.segments as usize * point_words, storage),
            buffer("window_sums", windows * point_words, storage | wgpu::BufferUsages::COPY_SRC),
            buffer("heads A", heads, storage),
            buffer("heads B", heads, storage),
        ];
        let mut bytes = vec![0u8; records.len() * record_bytes as usize];
        for (i, r) in records.iter().enumerate() {
            let words = [r.n, plan.windows, plan.window_bits, plan.buckets, plan.segments, plan.chunk, plan::FAN_IN, r.level, r.scale, plan.head_stride(), r.chunks, r.stride];
            bytes[i * record_bytes as usize..][..48].copy_from_slice(bytemuck::cast_slice(&words));
        }
        ctx.queue.write_buffer(&buffers[PARAMS], 0, &bytes);
        let passes_per_batch = plan.smvp_passes(plan.batch).len() + 4;
        let max_passes = 1 + plan.batches() * passes_per_batch + 2 + plan.segments.trailing_zeros() as usize;
        let queries = (timing == TimingSource::GpuTimestamps).then(|| {
            ctx.device.create_query_set(&wgpu::QuerySetDescriptor { label: Some("stage times"), ty: wgpu::QueryType::Timestamp, count: 2 * max_passes as u32 })
        });
        Self {
            ctx, msm, plan, buffers, records, record_bytes, bind_groups: Vec::new(),
            encoder: None, timing, queries, passes: Vec::new(), host_times: Vec::new(), now,
        }
    }

    /// Every distinct parameter record the MSM's passes use.
    fn records(plan: &Plan) -> Vec<Params> {
        let mut out = vec![Params::default()];
        let mut add = |p: Params| {
            if !out.contains(&p) {
                out.push(p);
            }
        };
        for start in (0..plan.n).step_by(plan.batch) {
            let n = (plan.n - start).min(plan.batch);
            add(Params { n: n as u32, ..Default::default() });
            for pass in plan.smvp_passes(n) {
                add(Params { n: n as u32, level: pass.level, scale: pass.scale, chunks: pass.chunks, stride: 0 });
            }
        }
        let mut stride = plan.segments / 2;
        while stride >= 1 {
            add(Params { stride, ..Default::default() });
            stride /= 2;
        }
        out
    }

    fn encoder(&mut self) -> &mut wgpu::CommandEncoder {
        let ctx = self.ctx;
        self.encoder.get_or_insert_with(|| ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("msm") }))
    }

    fn submit(&mut self) {
        if let Some(encoder) = self.encoder.take() {
            self.ctx.queue.submit([encoder.finish()]);
        }
    }

    /// The bind group of `stage` with parameter record `params`; `swap` exchanges the two head
    /// buffers (the combine levels read the slots the previous level wrote).
    fn bind_group(&mut self, stage: &'static str, params: Params, swap: bool) -> wgpu::BindGroup {
        let record = self.records.iter().position(|r| *r == params).expect("every pass's record is written in Run::new");
        let key = (stage, record, swap);
        if let Some((_, group)) = self.bind_groups.iter().find(|(k, _)| *k == key) {
            return group.clone();
        }
        let entries: Vec<wgpu::BindGroupEntry> = stage_bindings(stage)
            .iter()
            .map(|&b| {
                let resource = match b as usize {
                    PARAMS => wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &self.buffers[PARAMS],
                        offset: record as u64 * self.record_bytes,
                        size: wgpu::BufferSize::new(48),
                    }),
                    _ => {
                        let heads = |b: u32| if (b == HEADS_OUT) != swap { HEADS_OUT } else { HEADS_IN } as usize;
                        let index = if b == HEADS_IN || b == HEADS_OUT { heads(b) } else { b as usize };
                        self.buffers[index].as_entire_binding()
                    }
                };
                wgpu::BindGroupEntry { binding: b, resource }
            })
            .collect();
        let layout = self.msm.pipeline(stage).get_bind_group_layout(0);
        let group = self.ctx.device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(stage), layout: &layout, entries: &entries });
        self.bind_groups.push((key, group.clone()));
        group
    }

    /// Records one stage over `workgroups` workgroups (of `prefix`: one per window).
    async fn pass(&mut self, stage: &'static str, params: Params, swap: bool, workgroups: u32) -> Result<(), GpuError> {
        let (x, y) = dispatch_grid(self.ctx, workgroups)?;
        let queries = self.queries.clone();
        let index = 2 * self.passes.len() as u32;
        let timestamp_writes = queries.as_ref().map(|q| wgpu::ComputePassTimestampWrites {
            query_set: q,
            beginning_of_pass_write_index: Some(index),
            end_of_pass_write_index: Some(index + 1),
        });
        if queries.is_some() {
            self.passes.push(stage);
        }
        let start = (self.now)();
        let pipeline = self.msm.pipeline(stage).clone();
        let bind_group = self.bind_group(stage, params, swap);
        {
            let mut pass = self.encoder().begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some(stage), timestamp_writes });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(x, y, 1);
        }
        if self.timing == TimingSource::HostWaits {
            self.submit();
            crate::bench::wait_idle(self.ctx).await?;
            self.host_times.push((stage, (self.now)() - start));
        }
        Ok(())
    }

    async fn batch(&mut self, first: bool, points: &[u32], scalars: &[u32]) -> Result<(), GpuError> {
        let n = scalars.len() / 8;
        let plan = self.plan;
        let groups = |threads: usize| (threads as u32).div_ceil(WORKGROUP_SIZE);
        if first {
            self.pass("init_buckets", Params::default(), false, groups(plan.windows as usize * (plan.buckets as usize + 1))).await?;
        }
        self.ctx.queue.write_buffer(&self.buffers[POINTS_IN], 0, bytemuck::cast_slice(points));
        self.ctx.queue.write_buffer(&self.buffers[SCALARS], 0, bytemuck::cast_slice(scalars));
        let counts = self.buffers[5].clone();
        self.encoder().clear_buffer(&counts, 0, None);
        let p = Params { n: n as u32, ..Default::default() };
        self.pass("convert_points", p, false, groups(n)).await?;
        self.pass("decompose", p, false, groups(n)).await?;
        self.pass("prefix", p, false, plan.windows).await?;
        self.pass("scatter", p, false, groups(n)).await?;
        for pass in plan.smvp_passes(n) {
            let stage = if pass.level == 0 { "smvp" } else { "smvp_combine" };
            let params = Params { n: n as u32, level: pass.level, scale: pass.scale, chunks: pass.chunks, stride: 0 };
            // Level ℓ writes heads B when ℓ is even, A when odd; it reads the other one.
            self.pass(stage, params, pass.level % 2 == 1, groups(plan.windows as usize * pass.chunks as usize)).await?;
        }
        self.submit();
        Ok(())
    }

    /// Reduction, fold and readback of the window sums.
    async fn finish(&mut self) -> Result<Vec<u32>, GpuError> {
        let (windows, segments) = (self.plan.windows as usize, self.plan.segments);
        let none = Params::default();
        self.pass("reduce", none, false, ((windows * segments as usize) as u32).div_ceil(WORKGROUP_SIZE)).await?;
        let mut stride = segments / 2;
        while stride >= 1 {
            self.pass("fold", Params { stride, ..none }, false, ((windows * stride as usize) as u32).div_ceil(WORKGROUP_SIZE)).await?;
            stride /= 2;
        }
        self.pass("window_out", none, false, (windows as u32).div_ceil(WORKGROUP_SIZE)).await?;
        self.submit();
        let words = windows * 4 * self.msm.constants.limbs;
        read_u32(self.ctx, &self.buffers[WINDOW_SUMS], words).await
    }

    /// Stage times in pipeline order, summed over repeats.
    async fn stage_times(&mut self) -> Result<Vec<(&'static str, f64)>, GpuError> {
        let samples: Vec<(&'static str, f64)> = match (&self.queries, self.timing) {
            (Some(queries), TimingSource::GpuTimestamps) => {
                let count = 2 * self.passes.len() as u32;
                let resolve = self.ctx.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("timestamps"),
                    size: count as u64 * 8,
                    usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: false,
                });
                let mut encoder = self.ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("timestamps") });
                encoder.resolve_query_set(queries, 0..count, &resolve, 0);
                self.ctx.queue.submit([encoder.finish()]);
                let raw = read_u32(self.ctx, &resolve, 2 * count as usize).await?;
                let ticks: Vec<u64> = raw.chunks(2).map(|w| w[0] as u64 | (w[1] as u64) << 32).collect();
                let period = self.ctx.queue.get_timestamp_period() as f64 * 1e-9;
                self.passes.iter().zip(ticks.chunks(2)).map(|(&s, t)| (s, t[1].saturating_sub(t[0]) as f64 * period)).collect()
            }
            _ => self.host_times.clone(),
        };
        let mut out: Vec<(&'static str, f64)> = Vec::new();
        for (stage, seconds) in samples {
            match out.iter_mut().find(|(s, _)| *s == stage) {
                Some(entry) => entry.1 += seconds,
                None => out.push((stage, seconds)),
            }
        }
        Ok(out)
    }
}

/// Checks the packed input: whole points and scalars, the same count, coordinates below p,
/// scalars below r. Returns n.
fn validate(curve: GpuCurve, points: &[u32], scalars: &[u32]) -> Result<usize, GpuError> {
    let per_point = 2 * curve.coord_words();
    if points.len() % per_point != 0 {
        return Err(GpuError::Input(format!("{} point words is not a whole number of points ({per_point} words each)", points.len())));
    }
    if scalars.len() % 8 != 0 {
        return Err(GpuError::Input(format!("{} scalar words is not a whole number of scalars (8 words each)", scalars.len())));
    }
    let n = points.len() / per_point;
    if n != scalars.len() / 8 {
        return Err(GpuError::Input(format!("{n} points but {} scalars", scalars.len() / 8)));
    }
    let p = words32(&curve.base_field().params().modulus, curve.coord_words());
    let r = words32(&curve.scalar_modulus(), 8);
    if let Some(i) = points.chunks(curve.coord_words()).position(|c| !below(c, &p)) {
        return Err(GpuError::Input(format!("point {}: {} coordinate is not below p", i / 2, ["x", "y"][i % 2])));
    }
    if let Some(i) = scalars.chunks(8).position(|s| !below(s, &r)) {
        return Err(GpuError::Input(format!("scalar {i} is not below the group order r")));
    }
    Ok(n)
}

fn words32(v: &Canonical, count: usize) -> Vec<u32> {
    v.iter().flat_map(|&x| [x as u32, (x >> 32) as u32]).take(count).collect()
}

fn below(a: &[u32], b: &[u32]) -> bool {
    for i in (0..a.len()).rev() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

/// Packs canonical affine coordinates into the little-endian words `run_packed` takes.
pub fn pack_points(curve: GpuCurve, points: &[(Canonical, Canonical)]) -> Vec<u32> {
    let words = curve.coord_words();
    points.iter().flat_map(|(x, y)| [x, y]).flat_map(|v| words32(v, words)).collect()
}

pub fn pack_scalars(scalars: &[[u64; 4]]) -> Vec<u32> {
    scalars.iter().flat_map(|s| s.iter().flat_map(|&x| [x as u32, (x >> 32) as u32])).collect()
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
