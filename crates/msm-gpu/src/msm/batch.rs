//! Many MSMs in one call ([`GpuMsm::run_batch`]): each with its own points, in host memory or
//! resident on the device, and its own scalars, packed into one pass of each stage.
//!
//! Packed, B MSMs of at most m points each (m rounded up to a multiple of 64, the smaller MSMs
//! padded with zero scalars) are one input of B·m points whose MSM b owns points b·m to
//! (b + 1)·m − 1 and windows b·W to (b + 1)·W − 1 of B·W: `decompose` sends each digit to its
//! MSM's windows, and every stage after it works over the B·W windows as over the W of one MSM
//! (shaders/msm.wgsl, `input_points`). One submission per stage serves all B MSMs, where one call
//! per MSM pays each stage's fixed cost, the read-back and the host's round trip B times.

use std::borrow::Cow;

use super::points::Layout;
use super::resident::Bases;
use super::{
    GpuMsm, Laps, MsmOutput, Packing, RunOptions, Source, bad_coordinate, check_shape,
    timing_source,
};
use crate::{GpuContext, GpuError};

/// Where one MSM of a batch takes its points from.
#[derive(Debug)]
pub enum Points<'a, L> {
    /// Points in host memory, uploaded for this MSM.
    Host(&'a [L]),
    /// Bases already on the device ([`GpuMsm::upload_bases`]).
    Resident(&'a Bases<L>),
}

impl<L> Clone for Points<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L> Copy for Points<'_, L> {}

/// One MSM of [`GpuMsm::run_batch`]: its points and its scalars.
pub struct BatchMsm<'a, L: Layout> {
    /// The points, in host memory or resident.
    pub points: Points<'a, L>,
    /// One scalar per point.
    pub scalars: &'a [L::Scalar],
}

impl<L: Layout> Clone for BatchMsm<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L: Layout> Copy for BatchMsm<'_, L> {}

/// One MSM of a batch, checked and packed.
struct Prepared<'a> {
    n: usize,
    /// Packed points from the host, or the resident bases.
    points: Input<'a>,
    scalars: Cow<'a, [u32]>,
    /// Host seconds spent checking and packing it.
    validate: f64,
}

enum Input<'a> {
    Host(Cow<'a, [u32]>),
    Resident(&'a super::resident::Resident),
}

impl Prepared<'_> {
    fn source(&self) -> Source<'_> {
        match &self.points {
            Input::Host(points) => Source::Packed(points),
            Input::Resident(bases) => Source::Resident(bases),
        }
    }

    /// Whether it can share a pass: it has points, and resident bases without precomputed
    /// copies (those take a pass of their own, with their own windows).
    fn packable(&self) -> bool {
        self.n > 0
            && match &self.points {
                Input::Host(_) => true,
                Input::Resident(bases) => bases.copies() == 1,
            }
    }
}

/// Padding a group may hold: its padded points at most twice its real ones, plus a few
/// thousand, so that small MSMs (whose padding to 64 points is most of them) still share a pass.
const MAX_PADDING: usize = 2;
const PADDING_SLACK: usize = 1 << 12;

impl GpuMsm {
    /// One MSM per entry of `msms`, each with its own points (host or resident, of any size) and
    /// scalars; the results in the same order, an error naming the MSM it came from
    /// ([`GpuError::InBatch`]). MSMs of similar sizes are packed into one pass of each stage
    /// (up to twice their points once padded to the largest, and as many as one batch of the
    /// device's buffers holds); an MSM over precomputed bases, or one too large to share a
    /// batch, runs on its own. Resident points are not moved again (natively they are copied
    /// on the GPU into the pass). The outputs of one pass share its plan (its `msms` MSMs),
    /// stage times, host phases and submissions.
    pub async fn run_batch<L: Layout>(
        &self,
        ctx: &GpuContext,
        msms: &[BatchMsm<'_, L>],
        options: &RunOptions,
    ) -> Result<Vec<MsmOutput<L::Output>>, GpuError> {
        let in_batch = |msm: usize| {
            move |e: GpuError| GpuError::InBatch {
                msm,
                error: Box::new(e),
            }
        };
        if options.precompute.is_some_and(|c| c != 1) {
            return Err(GpuError::Input(
                "precomputed copies (RunOptions::precompute) are kept by upload_bases; a batch \
                 takes them from its bases"
                    .into(),
            ));
        }
        let now = options.clock;
        let mut prepared = Vec::with_capacity(msms.len());
        for (i, msm) in msms.iter().enumerate() {
            let start = now();
            let one = match msm.points {
                Points::Host(points) => {
                    let (points, scalars) =
                        L::pack(self.curve, points, msm.scalars).map_err(in_batch(i))?;
                    let n = check_shape(self.curve, &points, &scalars).map_err(in_batch(i))?;
                    Prepared {
                        n,
                        points: Input::Host(points),
                        scalars,
                        validate: 0.0,
                    }
                }
                Points::Resident(bases) => {
                    let scalars = L::pack_scalars(msm.scalars);
                    let n = bases
                        .inner
                        .check_scalars(self, &scalars)
                        .map_err(in_batch(i))?;
                    Prepared {
                        n,
                        points: Input::Resident(&bases.inner),
                        scalars,
                        validate: 0.0,
                    }
                }
            };
            prepared.push(Prepared {
                validate: now() - start,
                ..one
            });
        }
        let mut out: Vec<Option<MsmOutput>> = (0..msms.len()).map(|_| None).collect();
        for group in self.groups(ctx, &prepared, options) {
            if let [i] = group[..] {
                let mut one = self
                    .run_from(ctx, prepared[i].source(), &prepared[i].scalars, options)
                    .await
                    .map_err(in_batch(i))?;
                one.host[0].1 += prepared[i].validate;
                out[i] = Some(one);
                continue;
            }
            for (i, one) in self.run_group(ctx, &prepared, &group, options).await? {
                out[i] = Some(one);
            }
        }
        out.into_iter()
            .enumerate()
            .map(|(i, one)| {
                one.expect("every MSM is in one group")
                    .try_map(L::output)
                    .map_err(in_batch(i))
            })
            .collect()
    }

    /// The MSMs that share a pass, largest first: a group takes the next MSM while the padding
    /// stays within [`MAX_PADDING`] and one batch holds them all. An MSM that cannot be packed,
    /// or that no other joins, is a group of one.
    fn groups(
        &self,
        ctx: &GpuContext,
        prepared: &[Prepared],
        options: &RunOptions,
    ) -> Vec<Vec<usize>> {
        let mut order: Vec<usize> = (0..prepared.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(prepared[i].n));
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        let fits = |group: &[usize]| {
            let m = group_size(prepared, group);
            let total: usize = group.iter().map(|&i| prepared[i].n).sum();
            group.len() * m <= MAX_PADDING * total + PADDING_SLACK
                && self
                    .group_plan(ctx, m, group.len(), options)
                    .is_ok_and(|plan| plan.batches() == 1)
        };
        for i in order {
            if !prepared[i].packable() {
                groups.push(vec![i]);
                continue;
            }
            open.push(i);
            if open.len() > 1 && !fits(&open) {
                open.pop();
                groups.push(std::mem::replace(&mut open, vec![i]));
            }
        }
        if !open.is_empty() {
            groups.push(open);
        }
        groups
    }

    /// The plan of `msms` MSMs of `m` points each in one batch.
    fn group_plan(
        &self,
        ctx: &GpuContext,
        m: usize,
        msms: usize,
        options: &RunOptions,
    ) -> Result<super::Plan, GpuError> {
        let one_batch = RunOptions {
            batch: Some(m * msms),
            first_batch: None,
            ..*options
        };
        let packing = Packing {
            msms: msms as u32,
            copies: 1,
        };
        self.plan_packed(ctx, m * msms, packing, &one_batch)
    }

    /// One pass over the MSMs of `group` (at least two): host MSMs first, whose points are
    /// uploaded and converted, then resident ones, whose converted points are copied in. Each
    /// output comes with its MSM's index.
    async fn run_group(
        &self,
        ctx: &GpuContext,
        prepared: &[Prepared<'_>],
        group: &[usize],
        options: &RunOptions,
    ) -> Result<Vec<(usize, MsmOutput)>, GpuError> {
        let mut laps = Laps::start(options.clock);
        let mut group = group.to_vec();
        // Host MSMs first (stable: the order of sizes stays within each kind).
        group.sort_by_key(|&i| matches!(prepared[i].points, Input::Resident(_)));
        let m = group_size(prepared, &group);
        let plan = self.group_plan(ctx, m, group.len(), options)?;
        let coord_words = 2 * self.curve.coord_words();
        let host_msms = group
            .iter()
            .take_while(|&&i| matches!(prepared[i].points, Input::Host(_)))
            .count();
        let mut points = vec![0u32; host_msms * m * coord_words];
        let mut scalars = vec![0u32; group.len() * m * 8];
        let mut parts = Vec::new();
        let point_bytes = (2 * self.constants.limbs * 4) as u64;
        for (b, &i) in group.iter().enumerate() {
            let one = &prepared[i];
            scalars[b * m * 8..][..one.n * 8].copy_from_slice(&one.scalars);
            match &one.points {
                Input::Host(p) => points[b * m * coord_words..][..p.len()].copy_from_slice(p),
                Input::Resident(bases) => {
                    for (range, chunk) in bases.ranges().into_iter().zip(bases.chunks()) {
                        let at = (b * m + range.start) as u64 * point_bytes;
                        parts.push((at, chunk.clone(), range.len() as u64 * point_bytes));
                    }
                }
            }
        }
        laps.lap("validate");
        laps.host[0].1 += group.iter().map(|&i| prepared[i].validate).sum::<f64>();
        let (back, mut trace) = self
            .execute(
                ctx,
                Source::Packed(&points),
                &scalars,
                &plan,
                options,
                parts,
                &mut laps,
            )
            .await?;
        // The checks name the first bad value of the whole pass: its MSM and its index there.
        let at = |index: usize| group[index / m];
        if let Some(c) = back.bad_coordinate {
            let (point, coordinate) = (c as usize / 2, c % 2);
            return Err(GpuError::InBatch {
                msm: at(point),
                error: Box::new(bad_coordinate((point % m * 2) as u32 + coordinate)),
            });
        }
        if let Some(i) = back.bad_scalar {
            return Err(GpuError::InBatch {
                msm: at(i as usize),
                error: Box::new(GpuError::ScalarOutOfRange {
                    index: i as usize % m,
                }),
            });
        }
        let t = trace.start();
        let per_msm = back.window_words.len() / group.len();
        let results = back
            .window_words
            .chunks(per_msm)
            .map(|words| self.combine_windows(words, plan.window_bits))
            .collect::<Result<Vec<_>, _>>()?;
        trace.end(t, || format!("combine {} MSMs", group.len()));
        laps.lap("combine");
        let spans = trace.spans();
        let timing = timing_source(ctx, options);
        Ok(group
            .iter()
            .zip(results)
            .map(|(&i, result)| {
                let one = MsmOutput {
                    result,
                    plan,
                    timing,
                    stages: back.stages.clone(),
                    host: laps.host.clone(),
                    host_trace: spans.clone(),
                    submissions: back.submissions.clone(),
                };
                (i, one)
            })
            .collect())
    }
}

/// Points per MSM of a group once padded: the largest, rounded up to a multiple of 64 so that
/// the host MSMs' points end on a workgroup boundary of the conversion.
fn group_size(prepared: &[Prepared], group: &[usize]) -> usize {
    group
        .iter()
        .map(|&i| prepared[i].n)
        .max()
        .unwrap_or(0)
        .next_multiple_of(64)
}
