//! One MSM on the device: the buffers and bind groups of a plan (kept by `GpuMsm` for the next call
//! with the same plan), the passes of each batch, and the read-back of the window sums, the input
//! checks and the stage times in one transfer.
//!
//! Each batch's passes go in one submission (the last batch's with the reduction), which ends
//! early only where the next pass would take it past the bound of [`super::submit`] (long
//! dispatches are sliced for it), or where stages are timed by host waits.

use super::contract::{Binding, Params};
use super::curve::{ADD_STEPS, PREFIX_THREADS};
use super::plan::{FAN_IN, Plan};
use super::trace::Trace;
use super::upload::{UploadPath, Uploader};
use super::{GpuMsm, Stage, TimingSource, submit};
use crate::transfer::{PendingRead, dispatch_grid, read_many, record_read};
use crate::{GpuContext, GpuError};

/// The members of [`Params`] that vary between passes; the others come from the plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Varying {
    n: u32,
    base: u32,
    level: u32,
    chunks: u32,
    stride: u32,
    offset: u32,
}

impl Varying {
    /// The whole record of a pass of `plan`.
    fn record(self, plan: &Plan) -> Params {
        Params {
            n: self.n,
            base: self.base,
            windows: plan.virtual_windows(),
            window_bits: plan.window_bits,
            buckets: plan.buckets,
            segments: plan.segments,
            // `n` is the stride: the batch's input points are n·msms/copies.
            threads: plan.smvp_threads(self.n as usize * plan.msms as usize / plan.copies as usize),
            msm_windows: plan.windows,
            copies: plan.copies,
            fan_in: FAN_IN,
            level: self.level,
            chunks: self.chunks,
            stride: self.stride,
            add_steps: ADD_STEPS,
            offset: self.offset,
        }
    }
}

/// `errors[0]`: least 2·i + c over coordinates c of points i that are not below p; `errors[1]`:
/// least index of a scalar not below r; `u32::MAX` where there is none.
pub const NO_ERROR: u32 = u32::MAX;

/// Device memory and bind groups for one plan.
pub(super) struct Resources {
    plan: Plan,
    /// Indexed by [`Binding`]: each binding's buffer; `None` for the errors, which sit at the head
    /// of the window sums' buffer so that one read-back fetches both.
    buffers: Vec<Option<wgpu::Buffer>>,
    /// Bytes before the window sums in their buffer: the errors, padded to the offset alignment.
    header_bytes: u64,
    /// Parameter records, in the order of their offsets in the params buffer.
    records: Vec<Varying>,
    record_bytes: u64,
    bind_groups: Vec<((Stage, usize, bool), wgpu::BindGroup)>,
    /// Timestamp queries (two per pass) and the buffer they resolve into.
    queries: Option<(wgpu::QuerySet, wgpu::Buffer, u32)>,
    uploader: Uploader,
}

impl Resources {
    pub(super) fn new(ctx: &GpuContext, msm: &GpuMsm, plan: &Plan, timestamps: bool) -> Self {
        let (limbs, batch) = (msm.constants.limbs, plan.batch);
        let align = ctx.limits.min_storage_buffer_offset_alignment as u64;
        let records = records(plan);
        let record_bytes = Params::BYTES.next_multiple_of(align);
        let header_bytes = 8u64.next_multiple_of(align);
        let buffer = |label: &str, words: usize, usage: wgpu::BufferUsages| {
            ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (words.max(1) * 4) as u64,
                usage,
                mapped_at_creation: false,
            })
        };
        // COPY_SRC on every buffer: the stage tests read intermediates back (msm::inspect).
        let none = wgpu::BufferUsages::empty();
        let copy_dst = wgpu::BufferUsages::COPY_DST;
        let buffers = Binding::ALL
            .iter()
            .map(|&b| {
                let words = buffer_words(
                    plan,
                    limbs,
                    msm.curve.coord_words(),
                    records.len(),
                    record_bytes,
                    header_bytes,
                    b,
                )?;
                let usage = match b {
                    // COPY_DST: packed MSMs over resident bases are copied in (run_batch).
                    Binding::Params | Binding::PointsIn | Binding::Points | Binding::Scalars => {
                        copy_dst
                    }
                    Binding::Counts | Binding::WindowSums => copy_dst,
                    Binding::BucketSums if plan.lanes > 1 => copy_dst,
                    _ => none,
                };
                let usage = usage | wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
                Some(buffer(b.info().name, words, usage))
            })
            .collect::<Vec<_>>();
        let mut bytes = vec![0u8; records.len() * record_bytes as usize];
        for (i, r) in records.iter().enumerate() {
            bytes[i * record_bytes as usize..][..Params::BYTES as usize]
                .copy_from_slice(bytemuck::bytes_of(&r.record(plan)));
        }
        let params = buffers[Binding::Params as usize]
            .as_ref()
            .expect("own buffer");
        ctx.queue.write_buffer(params, 0, &bytes);
        let queries = timestamps.then(|| {
            let count = 2 * passes(plan) as u32;
            let set = ctx.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("stage times"),
                ty: wgpu::QueryType::Timestamp,
                count,
            });
            let resolve = buffer(
                "timestamps",
                2 * count as usize,
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            );
            (set, resolve, count)
        });
        let uploader = Uploader::new(ctx, (batch * (2 * msm.curve.coord_words() + 8) * 4) as u64);
        Self {
            plan: *plan,
            buffers,
            header_bytes,
            records,
            record_bytes,
            bind_groups: Vec::new(),
            queries,
            uploader,
        }
    }

    pub(super) fn fits(&self, plan: &Plan, timestamps: bool) -> bool {
        self.plan == *plan && self.queries.is_some() == timestamps
    }

    /// The buffer of binding `b` (the errors' is the window sums' buffer).
    pub(super) fn buffer(&self, b: Binding) -> &wgpu::Buffer {
        let own = if b == Binding::Errors {
            Binding::WindowSums
        } else {
            b
        };
        self.buffers[own as usize]
            .as_ref()
            .expect("every other binding has a buffer")
    }

    /// The bind group of `stage` with parameter record `params`; `swap` exchanges the two head
    /// buffers (each combine level reads the slots the level below wrote). `points`, where given,
    /// stands in for the batch's converted points (resident bases); such groups are not kept,
    /// since the bases they bind belong to the caller.
    fn bind_group(
        &mut self,
        ctx: &GpuContext,
        msm: &GpuMsm,
        stage: Stage,
        params: Varying,
        swap: bool,
        points: Option<&wgpu::Buffer>,
    ) -> wgpu::BindGroup {
        let record = self
            .records
            .iter()
            .position(|r| *r == params)
            .expect("every pass's record is written in Resources::new");
        let key = (stage, record, swap);
        let points = points.filter(|_| stage.bindings().contains(&Binding::Points));
        if points.is_none()
            && let Some((_, group)) = self.bind_groups.iter().find(|(k, _)| *k == key)
        {
            return group.clone();
        }
        let (heads_in, heads_out) = match swap {
            false => (Binding::HeadsIn, Binding::HeadsOut),
            true => (Binding::HeadsOut, Binding::HeadsIn),
        };
        let entries: Vec<wgpu::BindGroupEntry> = stage
            .bindings()
            .iter()
            .map(|&b| {
                let resource = match b {
                    Binding::Params => slice(
                        self.buffer(b),
                        record as u64 * self.record_bytes,
                        Some(Params::BYTES),
                    ),
                    Binding::WindowSums => slice(self.buffer(b), self.header_bytes, None),
                    Binding::Errors => slice(self.buffer(b), 0, Some(self.header_bytes)),
                    Binding::HeadsIn => self.buffer(heads_in).as_entire_binding(),
                    Binding::HeadsOut => self.buffer(heads_out).as_entire_binding(),
                    Binding::Points if points.is_some() => {
                        points.expect("checked").as_entire_binding()
                    }
                    _ => self.buffer(b).as_entire_binding(),
                };
                wgpu::BindGroupEntry {
                    binding: b.index(),
                    resource,
                }
            })
            .collect();
        let group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(stage.entry_point()),
            layout: &msm.pipeline(stage).1,
            entries: &entries,
        });
        if points.is_none() {
            self.bind_groups.push((key, group.clone()));
        }
        group
    }
}

fn slice(buffer: &wgpu::Buffer, offset: u64, size: Option<u64>) -> wgpu::BindingResource<'_> {
    wgpu::BindingResource::Buffer(wgpu::BufferBinding {
        buffer,
        offset,
        size: size.and_then(wgpu::BufferSize::new),
    })
}

/// The words of `b`'s buffer for `plan` (`None`: the errors, which sit at the head of the window
/// sums' buffer): what [`Resources::new`] allocates, and [`super::inspect::layout`] reports.
pub(super) fn buffer_words(
    plan: &Plan,
    limbs: usize,
    coord_words: usize,
    records: usize,
    record_bytes: u64,
    header_bytes: u64,
    b: Binding,
) -> Option<usize> {
    let point_words = 4 * limbs;
    let (batch, windows, buckets) = (
        plan.batch,
        plan.virtual_windows() as usize,
        plan.buckets as usize,
    );
    // Digits and SMVP entries: one per window of every copy of each point.
    let digits = (plan.copies * plan.windows) as usize;
    let heads = plan.smvp_passes(batch)[0].invocations as usize * point_words;
    Some(match b {
        Binding::Params => records * record_bytes as usize / 4,
        Binding::PointsIn => batch * 2 * coord_words,
        Binding::Points => batch * 2 * limbs,
        Binding::Scalars => batch * 8,
        Binding::Digits | Binding::Entries => digits * batch,
        Binding::Counts => windows * (buckets + 1),
        Binding::Offsets => windows * (buckets + 2),
        Binding::Buckets => windows * (buckets + 1) * point_words,
        Binding::Partials => windows * plan.segments as usize * point_words,
        Binding::WindowSums => header_bytes as usize / 4 + windows * point_words,
        Binding::HeadsIn | Binding::HeadsOut => heads,
        Binding::BucketSums if plan.lanes > 1 => windows * (buckets + 1) * 2 * limbs,
        Binding::BucketSums => 1,
        Binding::LaneValues if plan.lanes > 1 => {
            let chunks = plan.smvp_passes(batch)[0].invocations as usize;
            chunks.next_multiple_of(plan.lanes as usize) * 3 * limbs
        }
        Binding::LaneValues => 1,
        Binding::Errors => return None,
    })
}

/// The stage of an SMVP pass at `level`: level 0 adds points (in the batch-affine experiment,
/// its own stage), the levels above combine head slots.
fn smvp_stage(plan: &Plan, level: u32) -> Stage {
    #[cfg(feature = "experiments")]
    if level == 0 && plan.lanes > 1 {
        return Stage::SmvpAffine;
    }
    let _ = plan; // read only by the experiment's branch
    match level {
        0 => Stage::Smvp,
        _ => Stage::SmvpCombine,
    }
}

/// Every dispatch of an MSM of `plan` before it is sliced, in order: its stage, its parameter
/// record and its invocations (what [`Run::batch`], [`Run::convert`] and [`Run::finish`] record).
fn dispatches(plan: &Plan) -> Vec<(Stage, Varying, u32)> {
    let none = Varying::default();
    let windows = plan.virtual_windows();
    let slots = windows * (plan.buckets + 1);
    let mut out = vec![(Stage::InitBuckets, none, slots)];
    for range in plan.batch_ranges() {
        // `params.n` is the stride of one MSM's window (Plan::stride); the invocations count
        // the batch's input points, and scatter's every copy of them.
        let points = range.len() as u32;
        let p = Varying {
            n: plan.stride(range.len()),
            base: range.start as u32,
            ..none
        };
        out.push((Stage::ConvertPoints, p, points));
        out.push((Stage::Decompose, p, points));
        out.push((Stage::Prefix, p, windows * PREFIX_THREADS));
        out.push((Stage::Scatter, p, points * plan.copies));
        for pass in plan.smvp_passes(range.len()) {
            let params = Varying {
                level: pass.level,
                chunks: pass.invocations,
                ..p
            };
            let stage = smvp_stage(plan, pass.level);
            out.push((stage, params, plan.smvp_invocations(&pass)));
            #[cfg(feature = "experiments")]
            if plan.lanes > 1 && pass.level == 0 {
                out.push((Stage::BucketMerge, p, slots));
            }
        }
    }
    out.push((Stage::Reduce, none, windows * plan.segments));
    let mut stride = plan.segments / 2;
    while stride >= 1 {
        out.push((Stage::Fold, Varying { stride, ..none }, windows * stride));
        stride /= 2;
    }
    out.push((Stage::WindowOut, none, windows));
    out
}

/// Every distinct parameter record the MSM's passes use (one per slice of a sliced dispatch).
fn records(plan: &Plan) -> Vec<Varying> {
    let mut out = vec![Varying::default()];
    for (stage, params, invocations) in dispatches(plan) {
        for (offset, _) in plan.slices(stage, invocations) {
            let p = Varying { offset, ..params };
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// How many distinct parameter records the MSM of `plan` writes ([`super::inspect::layout`]).
pub(super) fn record_count(plan: &Plan) -> usize {
    records(plan).len()
}

/// The passes (dispatches, slices counted) of an MSM of `plan`, at most: two timestamps each.
fn passes(plan: &Plan) -> usize {
    dispatches(plan)
        .into_iter()
        .map(|(stage, _, invocations)| plan.slices(stage, invocations).len())
        .sum()
}

/// Where a batch's points come from.
#[derive(Clone, Copy)]
pub(super) enum BatchPoints<'a> {
    /// Packed affine coordinates, uploaded and converted in this batch.
    Packed(&'a [u32]),
    /// Already converted on the device: a chunk of resident bases.
    Resident(&'a wgpu::Buffer),
}

/// What the device hands back: the window sums' words and the input checks.
pub(super) struct Readback {
    /// The W window sums: four canonical projective coordinates each, in the shader's limbs.
    pub window_words: Vec<u32>,
    /// `errors[0]` when set: 2·i + c for the first coordinate c of point i not below p.
    pub bad_coordinate: Option<u32>,
    /// `errors[1]` when set: the index of the first scalar not below r.
    pub bad_scalar: Option<u32>,
    /// Seconds per stage (empty without stage timing).
    pub stages: Vec<(Stage, f64)>,
    /// The estimated seconds of each command buffer the run submitted ([`super::submit`]).
    pub submissions: Vec<f64>,
}

/// The passes of one MSM, recorded into command encoders and submitted once per batch.
pub(super) struct Run<'a> {
    ctx: &'a GpuContext,
    msm: &'a GpuMsm,
    res: Resources,
    encoder: Option<wgpu::CommandEncoder>,
    /// Estimated seconds of the work recorded into `encoder` ([`super::submit`]).
    open_seconds: f64,
    /// The estimated seconds of each command buffer submitted so far.
    pub(super) submissions: Vec<f64>,
    timing: TimingSource,
    /// Stage of each timestamped pass, in order.
    passes: Vec<Stage>,
    host_times: Vec<(Stage, f64)>,
    /// Host seconds spent putting the input into staging memory.
    pub(super) upload_seconds: f64,
    now: &'a dyn Fn() -> f64,
    /// The converted points the passes bind, when they are not the plan's own buffer.
    points: Option<wgpu::Buffer>,
    /// The host's timeline ([`Run::with_host`]; off by default).
    pub(super) trace: Trace<'a>,
    /// How the input goes up, and whether to wait for it on the GPU (a diagnostic).
    upload: (UploadPath, bool),
    /// Converted points copied into the batch's points after its conversion (byte offset there,
    /// source, bytes): MSMs over resident bases packed beside host ones (GpuMsm::run_batch).
    pub(super) resident_parts: Vec<(u64, wgpu::Buffer, u64)>,
}

impl<'a> Run<'a> {
    pub(super) fn new(
        ctx: &'a GpuContext,
        msm: &'a GpuMsm,
        res: Resources,
        timing: TimingSource,
        now: &'a dyn Fn() -> f64,
    ) -> Self {
        ctx.queue.write_buffer(
            res.buffer(Binding::Errors),
            0,
            bytemuck::cast_slice(&[NO_ERROR, NO_ERROR]),
        );
        Self {
            ctx,
            msm,
            res,
            encoder: None,
            open_seconds: 0.0,
            submissions: Vec::new(),
            timing,
            passes: Vec::new(),
            host_times: Vec::new(),
            upload_seconds: 0.0,
            now,
            points: None,
            trace: Trace::new(now, 0.0, false),
            upload: (UploadPath::Auto, false),
            resident_parts: Vec::new(),
        }
    }

    /// The same run with the host's timeline in `trace`, the input sent by `upload`, and, with
    /// `wait_after_upload`, a wait until the GPU has the input (so that the trace shows when).
    pub(super) fn with_host(
        self,
        trace: Trace<'a>,
        upload: UploadPath,
        wait_after_upload: bool,
    ) -> Self {
        Self {
            trace,
            upload: (upload, wait_after_upload),
            ..self
        }
    }

    /// The buffers the passes use.
    pub(super) fn resources(&self) -> &Resources {
        &self.res
    }

    /// Gives the resources back for the next MSM with the same plan.
    pub(super) fn into_resources(self) -> Resources {
        self.res
    }

    fn encoder(&mut self) -> &mut wgpu::CommandEncoder {
        let ctx = self.ctx;
        self.encoder.get_or_insert_with(|| {
            ctx.device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("msm") })
        })
    }

    /// Submits what is recorded (a caller that reads buffers between the passes and
    /// [`Run::finish`] submits first).
    pub(super) fn submit(&mut self) {
        if let Some(encoder) = self.encoder.take() {
            let t = self.trace.start();
            self.ctx.queue.submit([encoder.finish()]);
            self.submissions
                .push(std::mem::take(&mut self.open_seconds));
            self.trace.end(t, || "submit".into());
        }
    }

    /// Sends `parts` by the run's upload path; with `wait_after_upload`, waits until the GPU has
    /// them (an empty submit flushes the queue's pending writes).
    async fn upload(&mut self, parts: &[super::upload::Part<'_>]) -> Result<(), GpuError> {
        let (path, wait) = self.upload;
        self.res
            .uploader
            .upload(self.ctx, parts, path, &mut self.trace)
            .await?;
        if wait {
            let t = self.trace.start();
            self.ctx.queue.submit([]);
            crate::transfer::wait_idle(self.ctx).await?;
            self.trace
                .end(t, || "wait until the GPU has the input".into());
        }
        Ok(())
    }

    /// Records `stage` over `invocations` invocations, in the slices of the plan
    /// ([`Plan::slices`]), each with its first invocation in its parameter record.
    async fn sliced(
        &mut self,
        stage: Stage,
        params: Varying,
        swap: bool,
        invocations: u32,
    ) -> Result<(), GpuError> {
        for (offset, count) in self.res.plan.slices(stage, invocations) {
            let params = Varying { offset, ..params };
            self.pass(
                stage,
                params,
                swap,
                count.div_ceil(self.workgroup_size(stage)),
            )
            .await?;
        }
        Ok(())
    }

    /// Invocations per workgroup of `stage` as compiled: the batch-affine experiments may size
    /// their level-0 SMVP's own (it is not sliced, so its slices need not be whole workgroups of
    /// [`super::WORKGROUP_SIZE`]).
    fn workgroup_size(&self, stage: Stage) -> u32 {
        match stage {
            #[cfg(feature = "experiments")]
            Stage::SmvpAffine => self.msm.smvp_workgroup(),
            _ => stage.workgroup_size(),
        }
    }

    /// Records one stage over `workgroups` workgroups (of `prefix`: one per window), first
    /// submitting what is recorded where this pass would take it past the submission bound.
    async fn pass(
        &mut self,
        stage: Stage,
        params: Varying,
        swap: bool,
        workgroups: u32,
    ) -> Result<(), GpuError> {
        let plan = &self.res.plan;
        let estimate = plan.submit.seconds(
            workgroups.saturating_mul(self.workgroup_size(stage)),
            submit::steps(stage, plan),
        );
        if self.open_seconds > 0.0 && self.open_seconds + estimate > plan.submit.bound() {
            self.submit();
        }
        self.open_seconds += estimate;
        let (x, y) = dispatch_grid(self.ctx, workgroups)?;
        let index = 2 * self.passes.len() as u32;
        let queries = self.res.queries.as_ref().map(|q| q.0.clone());
        let timestamp_writes = queries.as_ref().map(|q| wgpu::ComputePassTimestampWrites {
            query_set: q,
            beginning_of_pass_write_index: Some(index),
            end_of_pass_write_index: Some(index + 1),
        });
        if queries.is_some() {
            self.passes.push(stage);
        }
        let start = (self.now)();
        let pipeline = self.msm.pipeline(stage).0.clone();
        let bind_group = self.res.bind_group(
            self.ctx,
            self.msm,
            stage,
            params,
            swap,
            self.points.as_ref(),
        );
        {
            let mut pass = self
                .encoder()
                .begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some(stage.entry_point()),
                    timestamp_writes,
                });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(x, y, 1);
        }
        if self.timing == TimingSource::HostWaits {
            self.submit();
            let t = self.trace.start();
            crate::transfer::wait_idle(self.ctx).await?;
            self.trace
                .end(t, || format!("wait for {}", stage.entry_point()));
            self.host_times.push((stage, (self.now)() - start));
        }
        Ok(())
    }

    /// Uploads one batch of points (unless they are resident) and scalars, starting at point
    /// `base`, and records its passes.
    pub(super) async fn batch(
        &mut self,
        base: usize,
        points: BatchPoints<'_>,
        scalars: &[u32],
    ) -> Result<(), GpuError> {
        let (n, base) = ((scalars.len() / 8) as u32, base as u32);
        let plan = self.res.plan;
        let windows = plan.virtual_windows();
        if base == 0 {
            self.sliced(
                Stage::InitBuckets,
                Varying::default(),
                false,
                windows * (plan.buckets + 1),
            )
            .await?;
        }
        let start = (self.now)();
        let (points_in, scalars_in) = (
            self.res.buffer(Binding::PointsIn).clone(),
            self.res.buffer(Binding::Scalars).clone(),
        );
        // Every pass's `params.n` is the stride of one MSM's window (see Plan::stride).
        let stride = plan.stride(n as usize);
        let p = Varying {
            n: stride,
            base,
            ..Default::default()
        };
        match points {
            BatchPoints::Packed(points) => {
                self.upload(&[
                    ("points", &points_in, points),
                    ("scalars", &scalars_in, scalars),
                ])
                .await?;
                self.upload_seconds += (self.now)() - start;
                self.points = None;
                // All the batch's points, or (run_batch) those of its host MSMs, which come
                // first: a prefix of the batch's slices (`dispatches` lists all n).
                let converted = (points.len() / (2 * self.msm.curve.coord_words())) as u32;
                if converted > 0 {
                    self.sliced(Stage::ConvertPoints, p, false, converted)
                        .await?;
                }
                // Packed MSMs over resident bases: their converted points, where the batch
                // holds them (GpuMsm::run_batch).
                let dst = self.res.buffer(Binding::Points).clone();
                for (offset, src, bytes) in std::mem::take(&mut self.resident_parts) {
                    self.encoder()
                        .copy_buffer_to_buffer(&src, 0, &dst, offset, bytes);
                }
            }
            BatchPoints::Resident(converted) => {
                self.upload(&[("scalars", &scalars_in, scalars)]).await?;
                self.upload_seconds += (self.now)() - start;
                self.points = Some(converted.clone());
            }
        }
        let counts = self.res.buffer(Binding::Counts).clone();
        self.encoder().clear_buffer(&counts, 0, None);
        self.sliced(Stage::Decompose, p, false, n).await?;
        self.pass(Stage::Prefix, p, false, windows).await?;
        // One scatter invocation per point the SMVP sees: every copy of each input point.
        self.sliced(Stage::Scatter, p, false, n * plan.copies)
            .await?;
        // Only the batch-affine experiment runs more than one lane per invocation.
        let affine = cfg!(feature = "experiments") && plan.lanes > 1;
        if affine {
            // Buckets no lane begins in this batch must read as (0, 0), the affine identity.
            let sums = self.res.buffer(Binding::BucketSums).clone();
            self.encoder().clear_buffer(&sums, 0, None);
        }
        for pass in plan.smvp_passes(n as usize) {
            let params = Varying {
                n: stride,
                base,
                level: pass.level,
                chunks: pass.invocations,
                ..Default::default()
            };
            // Level ℓ writes heads B when ℓ is even, A when odd, and reads the other.
            self.sliced(
                smvp_stage(&plan, pass.level),
                params,
                pass.level % 2 == 1,
                plan.smvp_invocations(&pass),
            )
            .await?;
            #[cfg(feature = "experiments")]
            if affine && pass.level == 0 {
                // Before the combine levels read the buckets that runs began in.
                let slots = windows * (plan.buckets + 1);
                self.sliced(Stage::BucketMerge, p, false, slots).await?;
            }
        }
        // The GPU starts on this batch while the host copies the next; the last batch's passes go
        // with the reduction and the read-back, one submission ([`Run::finish`]).
        if (base + n) < plan.n as u32 {
            self.submit();
        }
        self.points = None;
        Ok(())
    }

    /// Uploads the packed points of one batch (starting at point `base`) and converts them into
    /// `out`, to stay there as resident bases.
    pub(super) async fn convert(
        &mut self,
        base: usize,
        points: &[u32],
        out: &wgpu::Buffer,
    ) -> Result<(), GpuError> {
        let n = points.len() / (2 * self.msm.curve.coord_words());
        let points_in = self.res.buffer(Binding::PointsIn).clone();
        self.upload(&[("points", &points_in, points)]).await?;
        self.points = Some(out.clone());
        let p = Varying {
            n: self.res.plan.stride(n),
            base: base as u32,
            ..Default::default()
        };
        self.sliced(Stage::ConvertPoints, p, false, n as u32)
            .await?;
        self.submit();
        self.points = None;
        Ok(())
    }

    /// The first bad coordinate the conversions found (2·point + coordinate), if any.
    pub(super) async fn bad_coordinate(&mut self) -> Result<Option<u32>, GpuError> {
        self.submit();
        let words = read_many(self.ctx, &[(self.res.buffer(Binding::Errors), 2)]).await?;
        Ok((words[0] != NO_ERROR).then_some(words[0]))
    }

    /// Reduction and fold, then one read-back of the checks, the window sums and the stage times.
    pub(super) async fn finish(&mut self) -> Result<Readback, GpuError> {
        let pending = self.submit_finish().await?;
        self.read_back(pending).await
    }

    /// [`Run::finish`]'s first half: records the reduction, the fold and the read-back's copies
    /// behind what is recorded (the last batch's passes), submits them and asks for the map.
    pub(super) async fn submit_finish(&mut self) -> Result<PendingRead, GpuError> {
        let (windows, segments) = (
            self.res.plan.virtual_windows() as usize,
            self.res.plan.segments,
        );
        let none = Varying::default();
        self.sliced(Stage::Reduce, none, false, windows as u32 * segments)
            .await?;
        let mut stride = segments / 2;
        while stride >= 1 {
            self.sliced(
                Stage::Fold,
                Varying { stride, ..none },
                false,
                windows as u32 * stride,
            )
            .await?;
            stride /= 2;
        }
        self.sliced(Stage::WindowOut, none, false, windows as u32)
            .await?;
        let used = 2 * self.passes.len() as u32;
        let mut sources = vec![(
            self.res.buffer(Binding::WindowSums).clone(),
            self.result_words(),
        )];
        if let Some((set, resolve, _)) = &self.res.queries {
            let (set, resolve) = (set.clone(), resolve.clone());
            self.encoder().resolve_query_set(&set, 0..used, &resolve, 0);
            sources.push((resolve, 2 * used as usize));
        }
        let t = self.trace.start();
        let sources: Vec<_> = sources.iter().map(|(b, words)| (b, *words)).collect();
        let ctx = self.ctx;
        let staging = record_read(ctx, self.encoder(), &sources);
        self.trace.end(t, || "read-back: copy".into());
        self.submit();
        let t = self.trace.start();
        let pending = PendingRead::map(staging);
        self.trace.end(t, || "read-back: map".into());
        Ok(pending)
    }

    /// Words of the window sums' buffer read back: the errors' header and the sums.
    fn result_words(&self) -> usize {
        let windows = self.res.plan.virtual_windows() as usize;
        self.res.header_bytes as usize / 4 + windows * 4 * self.msm.constants.limbs
    }

    /// [`Run::finish`]'s second half: waits for the map of [`Run::submit_finish`] and reads the
    /// checks, the window sums and the stage times.
    pub(super) async fn read_back(&mut self, pending: PendingRead) -> Result<Readback, GpuError> {
        let result_words = self.result_words();
        let header_words = self.res.header_bytes as usize / 4;
        let t = self.trace.start();
        let mut words = pending.wait(self.ctx).await?;
        self.trace
            .end(t, || "read-back: wait for the map, copy out".into());
        let ticks = words.split_off(result_words);
        let flag = |w: u32| (w != NO_ERROR).then_some(w);
        Ok(Readback {
            bad_coordinate: flag(words[0]),
            bad_scalar: flag(words[1]),
            window_words: words.split_off(header_words),
            stages: self.stage_times(&ticks),
            submissions: std::mem::take(&mut self.submissions),
        })
    }

    /// Stage times in pipeline order, summed over repeats.
    fn stage_times(&self, raw: &[u32]) -> Vec<(Stage, f64)> {
        let samples: Vec<(Stage, f64)> =
            if self.timing == TimingSource::GpuTimestamps && !raw.is_empty() {
                let ticks: Vec<u64> = raw
                    .chunks(2)
                    .map(|w| w[0] as u64 | (w[1] as u64) << 32)
                    .collect();
                let period = self.ctx.queue.get_timestamp_period() as f64 * 1e-9;
                self.passes
                    .iter()
                    .zip(ticks.chunks(2))
                    .map(|(&s, t)| (s, t[1].saturating_sub(t[0]) as f64 * period))
                    .collect()
            } else {
                self.host_times.clone()
            };
        let mut out: Vec<(Stage, f64)> = Vec::new();
        for (stage, seconds) in samples {
            match out.iter_mut().find(|(s, _)| *s == stage) {
                Some(entry) => entry.1 += seconds,
                None => out.push((stage, seconds)),
            }
        }
        out
    }
}
