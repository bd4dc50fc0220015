//! One MSM on the device: the buffers and bind groups of a plan (kept by `GpuMsm` for the next call
//! with the same plan), the passes of each batch, and the read-back of the window sums, the input
//! checks and the stage times in one transfer.

use super::curve::{ADD_STEPS, WORKGROUP_SIZE};
use super::plan::{FAN_IN, Plan};
use super::upload::Uploader;
use super::{GpuMsm, TimingSource};
use crate::transfer::{dispatch_grid, read_many};
use crate::{GpuContext, GpuError};

/// The words of msm.wgsl's `Params` that vary between passes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Params {
    n: u32,
    base: u32,
    level: u32,
    chunks: u32,
    stride: u32,
}

/// Bytes of one `Params` record in WGSL (14 u32).
const PARAMS_BYTES: u64 = 14 * 4;

// Buffers, indexed as msm.wgsl's bindings (binding 13, `errors`, is the head of RESULTS).
const PARAMS: usize = 0;
const POINTS_IN: usize = 1;
const POINTS: usize = 2;
const SCALARS: usize = 3;
const COUNTS: usize = 5;
const RESULTS: usize = 10;
const HEADS_IN: usize = 11;
const HEADS_OUT: usize = 12;
const ERRORS: u32 = 13;
/// `errors[0]`: least 2·i + c over coordinates c of points i that are not below p; `errors[1]`:
/// least index of a scalar not below r; `u32::MAX` where there is none.
pub const NO_ERROR: u32 = u32::MAX;

/// Device memory and bind groups for one plan.
pub(super) struct Resources {
    plan: Plan,
    buffers: Vec<wgpu::Buffer>,
    /// Bytes before the window sums in the RESULTS buffer: the errors, padded to the offset alignment.
    header_bytes: u64,
    /// Parameter records, in the order of their offsets in the params buffer.
    records: Vec<Params>,
    record_bytes: u64,
    bind_groups: Vec<((&'static str, usize, bool), wgpu::BindGroup)>,
    /// Timestamp queries (two per pass) and the buffer they resolve into.
    queries: Option<(wgpu::QuerySet, wgpu::Buffer, u32)>,
    uploader: Uploader,
}

impl Resources {
    pub(super) fn new(ctx: &GpuContext, msm: &GpuMsm, plan: &Plan, timestamps: bool) -> Self {
        let limbs = msm.constants.limbs;
        let point_words = 4 * limbs;
        let (batch, windows, buckets) = (plan.batch, plan.windows as usize, plan.buckets as usize);
        let align = ctx.limits.min_storage_buffer_offset_alignment as u64;
        let records = records(plan);
        let record_bytes = PARAMS_BYTES.next_multiple_of(align);
        let header_bytes = 8u64.next_multiple_of(align);
        let buffer = |label: &str, words: usize, usage: wgpu::BufferUsages| {
            ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (words.max(1) * 4) as u64,
                usage,
                mapped_at_creation: false,
            })
        };
        let storage = wgpu::BufferUsages::STORAGE;
        let copy_dst = wgpu::BufferUsages::COPY_DST;
        let heads = plan.smvp_passes(batch)[0].invocations as usize * point_words;
        let buffers = vec![
            buffer(
                "params",
                records.len() * record_bytes as usize / 4,
                storage | copy_dst,
            ),
            buffer(
                "points_in",
                batch * 2 * msm.curve.coord_words(),
                storage | copy_dst,
            ),
            buffer("points", batch * 2 * limbs, storage),
            buffer("scalars", batch * 8, storage | copy_dst),
            buffer("digits", windows * batch, storage),
            buffer("counts", windows * (buckets + 1), storage | copy_dst),
            buffer("offsets", windows * (buckets + 2), storage),
            buffer("entries", windows * batch, storage),
            buffer("buckets", windows * (buckets + 1) * point_words, storage),
            buffer(
                "partials",
                windows * plan.segments as usize * point_words,
                storage,
            ),
            buffer(
                "errors and window sums",
                header_bytes as usize / 4 + windows * point_words,
                storage | copy_dst | wgpu::BufferUsages::COPY_SRC,
            ),
            buffer("heads A", heads, storage),
            buffer("heads B", heads, storage),
        ];
        let mut bytes = vec![0u8; records.len() * record_bytes as usize];
        for (i, r) in records.iter().enumerate() {
            let words = [
                r.n,
                r.base,
                plan.windows,
                plan.window_bits,
                plan.buckets,
                plan.segments,
                plan.smvp_threads(r.n as usize),
                FAN_IN,
                r.level,
                r.chunks,
                r.stride,
                0,
                ADD_STEPS,
                0,
            ];
            bytes[i * record_bytes as usize..][..PARAMS_BYTES as usize]
                .copy_from_slice(bytemuck::cast_slice(&words));
        }
        ctx.queue.write_buffer(&buffers[PARAMS], 0, &bytes);
        let queries = timestamps.then(|| {
            let passes_per_batch = plan.smvp_passes(plan.batch).len() + 4;
            let count = 2
                * (1 + plan.batches() * passes_per_batch
                    + 2
                    + plan.segments.trailing_zeros() as usize) as u32;
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

    /// The bind group of `stage` with parameter record `params`; `swap` exchanges the two head
    /// buffers (each combine level reads the slots the level below wrote). `points`, where given,
    /// stands in for the batch's converted points (resident bases); such groups are not kept,
    /// since the bases they bind belong to the caller.
    fn bind_group(
        &mut self,
        ctx: &GpuContext,
        msm: &GpuMsm,
        stage: &'static str,
        params: Params,
        swap: bool,
        points: Option<&wgpu::Buffer>,
    ) -> wgpu::BindGroup {
        let record = self
            .records
            .iter()
            .position(|r| *r == params)
            .expect("every pass's record is written in Resources::new");
        let key = (stage, record, swap);
        let points = points.filter(|_| super::stage_bindings(stage).contains(&(POINTS as u32)));
        if points.is_none()
            && let Some((_, group)) = self.bind_groups.iter().find(|(k, _)| *k == key)
        {
            return group.clone();
        }
        let entries: Vec<wgpu::BindGroupEntry> = super::stage_bindings(stage)
            .iter()
            .map(|&b| {
                let resource = match b as usize {
                    PARAMS => slice(
                        &self.buffers[PARAMS],
                        record as u64 * self.record_bytes,
                        Some(PARAMS_BYTES),
                    ),
                    RESULTS => slice(&self.buffers[RESULTS], self.header_bytes, None),
                    HEADS_IN => {
                        self.buffers[if swap { HEADS_OUT } else { HEADS_IN }].as_entire_binding()
                    }
                    HEADS_OUT => {
                        self.buffers[if swap { HEADS_IN } else { HEADS_OUT }].as_entire_binding()
                    }
                    _ if b == ERRORS => slice(&self.buffers[RESULTS], 0, Some(self.header_bytes)),
                    POINTS if points.is_some() => points.expect("checked").as_entire_binding(),
                    i => self.buffers[i].as_entire_binding(),
                };
                wgpu::BindGroupEntry {
                    binding: b,
                    resource,
                }
            })
            .collect();
        let layout = msm.pipeline(stage).get_bind_group_layout(0);
        let group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(stage),
            layout: &layout,
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

/// Every distinct parameter record the MSM's passes use.
fn records(plan: &Plan) -> Vec<Params> {
    let mut out = vec![Params::default()];
    let mut add = |p: Params| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    for range in plan.batch_ranges() {
        let (n, base) = (range.len() as u32, range.start as u32);
        add(Params {
            n,
            base,
            ..Default::default()
        });
        for pass in plan.smvp_passes(n as usize) {
            add(Params {
                n,
                base,
                level: pass.level,
                chunks: pass.invocations,
                stride: 0,
            });
        }
    }
    let mut stride = plan.segments / 2;
    while stride >= 1 {
        add(Params {
            stride,
            ..Default::default()
        });
        stride /= 2;
    }
    out
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
    pub stages: Vec<(&'static str, f64)>,
}

/// The passes of one MSM, recorded into command encoders and submitted once per batch.
pub(super) struct Run<'a> {
    ctx: &'a GpuContext,
    msm: &'a GpuMsm,
    res: Resources,
    encoder: Option<wgpu::CommandEncoder>,
    timing: TimingSource,
    /// Stage of each timestamped pass, in order.
    passes: Vec<&'static str>,
    host_times: Vec<(&'static str, f64)>,
    /// Host seconds spent putting the input into staging memory.
    pub(super) upload_seconds: f64,
    now: &'a dyn Fn() -> f64,
    /// The converted points the passes bind, when they are not the plan's own buffer.
    points: Option<wgpu::Buffer>,
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
            &res.buffers[RESULTS],
            0,
            bytemuck::cast_slice(&[NO_ERROR, NO_ERROR]),
        );
        Self {
            ctx,
            msm,
            res,
            encoder: None,
            timing,
            passes: Vec::new(),
            host_times: Vec::new(),
            upload_seconds: 0.0,
            now,
            points: None,
        }
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

    fn submit(&mut self) {
        if let Some(encoder) = self.encoder.take() {
            self.ctx.queue.submit([encoder.finish()]);
        }
    }

    /// Records one stage over `workgroups` workgroups (of `prefix`: one per window).
    async fn pass(
        &mut self,
        stage: &'static str,
        params: Params,
        swap: bool,
        workgroups: u32,
    ) -> Result<(), GpuError> {
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
        let pipeline = self.msm.pipeline(stage).clone();
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
                    label: Some(stage),
                    timestamp_writes,
                });
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
        let groups = |threads: usize| (threads as u32).div_ceil(WORKGROUP_SIZE);
        if base == 0 {
            self.pass(
                "init_buckets",
                Params::default(),
                false,
                groups(plan.windows as usize * (plan.buckets as usize + 1)),
            )
            .await?;
        }
        let start = (self.now)();
        let (points_in, scalars_in) = (
            self.res.buffers[POINTS_IN].clone(),
            self.res.buffers[SCALARS].clone(),
        );
        let p = Params {
            n,
            base,
            ..Default::default()
        };
        match points {
            BatchPoints::Packed(points) => {
                self.res
                    .uploader
                    .upload(self.ctx, &[(&points_in, points), (&scalars_in, scalars)])
                    .await?;
                self.upload_seconds += (self.now)() - start;
                self.points = None;
                self.pass("convert_points", p, false, groups(n as usize))
                    .await?;
            }
            BatchPoints::Resident(converted) => {
                self.res
                    .uploader
                    .upload(self.ctx, &[(&scalars_in, scalars)])
                    .await?;
                self.upload_seconds += (self.now)() - start;
                self.points = Some(converted.clone());
            }
        }
        let counts = self.res.buffers[COUNTS].clone();
        self.encoder().clear_buffer(&counts, 0, None);
        self.pass("decompose", p, false, groups(n as usize)).await?;
        self.pass("prefix", p, false, plan.windows).await?;
        self.pass("scatter", p, false, groups(n as usize)).await?;
        for pass in plan.smvp_passes(n as usize) {
            let stage = if pass.level == 0 {
                "smvp"
            } else {
                "smvp_combine"
            };
            let params = Params {
                n,
                base,
                level: pass.level,
                chunks: pass.invocations,
                stride: 0,
            };
            // Level ℓ writes heads B when ℓ is even, A when odd, and reads the other.
            self.pass(
                stage,
                params,
                pass.level % 2 == 1,
                groups(pass.invocations as usize),
            )
            .await?;
        }
        self.submit();
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
        let points_in = self.res.buffers[POINTS_IN].clone();
        self.res
            .uploader
            .upload(self.ctx, &[(&points_in, points)])
            .await?;
        self.points = Some(out.clone());
        let p = Params {
            n: n as u32,
            base: base as u32,
            ..Default::default()
        };
        self.pass(
            "convert_points",
            p,
            false,
            (n as u32).div_ceil(WORKGROUP_SIZE),
        )
        .await?;
        self.submit();
        self.points = None;
        Ok(())
    }

    /// The first bad coordinate the conversions found (2·point + coordinate), if any.
    pub(super) async fn bad_coordinate(&mut self) -> Result<Option<u32>, GpuError> {
        self.submit();
        let words = read_many(self.ctx, &[(&self.res.buffers[RESULTS], 2)]).await?;
        Ok((words[0] != NO_ERROR).then_some(words[0]))
    }

    /// Reduction and fold, then one read-back of the checks, the window sums and the stage times.
    pub(super) async fn finish(&mut self) -> Result<Readback, GpuError> {
        let (windows, segments) = (self.res.plan.windows as usize, self.res.plan.segments);
        let none = Params::default();
        self.pass(
            "reduce",
            none,
            false,
            ((windows * segments as usize) as u32).div_ceil(WORKGROUP_SIZE),
        )
        .await?;
        let mut stride = segments / 2;
        while stride >= 1 {
            self.pass(
                "fold",
                Params { stride, ..none },
                false,
                ((windows * stride as usize) as u32).div_ceil(WORKGROUP_SIZE),
            )
            .await?;
            stride /= 2;
        }
        self.pass(
            "window_out",
            none,
            false,
            (windows as u32).div_ceil(WORKGROUP_SIZE),
        )
        .await?;
        let header_words = self.res.header_bytes as usize / 4;
        let result_words = header_words + windows * 4 * self.msm.constants.limbs;
        let used = 2 * self.passes.len() as u32;
        if let Some((set, resolve, _)) = &self.res.queries {
            let (set, resolve) = (set.clone(), resolve.clone());
            self.encoder().resolve_query_set(&set, 0..used, &resolve, 0);
        }
        self.submit();
        let mut sources = vec![(&self.res.buffers[RESULTS], result_words)];
        if let Some((_, resolve, _)) = &self.res.queries {
            sources.push((resolve, 2 * used as usize));
        }
        let mut words = read_many(self.ctx, &sources).await?;
        let ticks = words.split_off(result_words);
        let flag = |w: u32| (w != NO_ERROR).then_some(w);
        Ok(Readback {
            bad_coordinate: flag(words[0]),
            bad_scalar: flag(words[1]),
            window_words: words.split_off(header_words),
            stages: self.stage_times(&ticks),
        })
    }

    /// Stage times in pipeline order, summed over repeats.
    fn stage_times(&self, raw: &[u32]) -> Vec<(&'static str, f64)> {
        let samples: Vec<(&'static str, f64)> =
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
        let mut out: Vec<(&'static str, f64)> = Vec::new();
        for (stage, seconds) in samples {
            match out.iter_mut().find(|(s, _)| *s == stage) {
                Some(entry) => entry.1 += seconds,
                None => out.push((stage, seconds)),
            }
        }
        out
    }
}
