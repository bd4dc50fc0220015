//! How an MSM of n points is laid out on the device: window size, batches and reduction segments,
//! chosen so that every buffer fits the device's binding limit (WebGPU's default is 128 MiB).

use super::RunOptions;
use super::curve::{GpuCurve, bit_length};
use super::loops::LoopBudget;
use super::stage::Stage;
use super::submit::{self, SubmitModel};
use crate::GpuError;
use crate::field::int64_products;
use crate::profile::DeviceProfile;
use fastmsm_mont::LimbConstants;

/// Largest window a caller may ask for. The bucket buffer must still fit one binding (the plan
/// lowers c until it does, so a browser's 128 MiB keeps c near 15), and a digit's bucket number
/// stays far within the 31 bits beside its sign.
pub const MAX_WINDOW_BITS: u32 = 20;
/// Largest window the window rule picks by itself. Past 17 bits the buckets outgrow what the
/// fewer windows save: the reduction, the bucket initialisation and the scatter's prefix sums
/// grow with W·2^(c−1) while the SMVP shrinks only with W. At 2^24 on the H100, c = 19 took
/// 6–9% longer than c = 16 on all three curves: its SMVP 9% shorter, but the stages that scale
/// with the buckets (initialisation, prefix sums, scatter, reduction) 2.5 times as long (benches/results/gpu-msm-experiment-window-cap-*.json; the ledger's
/// round three).
pub const RULE_MAX_WINDOW_BITS: u32 = 17;
/// Bounds on K, the entries one SMVP invocation adds: at least 2 so the combine levels shrink,
/// at most enough that small inputs still spread over many invocations.
pub const MIN_CHUNK: u32 = 2;
/// F: head slots each SMVP combine invocation adds. The combine levels hold few slots, so their
/// invocations are latency-bound: F serial additions per level over log_F(n/K) levels; F = 4 keeps
/// that product near its minimum (about 2·log₂(n/K)) with half the passes of F = 2.
pub const FAN_IN: u32 = 4;
/// The layout of one MSM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Points (and scalars) in the MSM.
    pub n: usize,
    /// Window size c: signed digits in [−2^(c−1), 2^(c−1)].
    pub window_bits: u32,
    /// Windows W = ⌈(bits of r + 1)/c⌉: one more bit than the scalar for the signed digits' carry.
    pub windows: u32,
    /// Buckets per window, 2^(c−1) (digit 0 uses none).
    pub buckets: u32,
    /// Points per batch; the last batch may be shorter.
    pub batch: usize,
    /// Points in the first batch (`batch` unless the caller chose fewer).
    pub first_batch: usize,
    /// Reduction segments per window (a power of two dividing `buckets`).
    pub segments: u32,
    /// K: entries each SMVP invocation adds when every window is full (the GPU lowers it for
    /// fewer entries, keeping the number of invocations).
    pub chunk: u32,
    /// Chunks each level-0 SMVP invocation takes: 1, or the lanes of the batch-affine experiment.
    pub lanes: u32,
    /// MSMs packed into one pass of each stage ([`crate::msm::GpuMsm::run_batch`]): `n` holds
    /// `msms` MSMs of `n / msms` points each (the smaller ones padded with zero scalars), each
    /// with `windows` windows of its own: `msms · windows` virtual windows in all. 1 otherwise.
    pub msms: u32,
    /// Copies of every point (precomputed resident bases, [`RunOptions::precompute`]): copy t
    /// holds 2^(c·windows·t)·P and takes the scalar's digits t·windows to (t + 1)·windows − 1, so
    /// that the SMVP sees `copies · n` points in `windows` windows. 1 otherwise.
    pub copies: u32,
    /// How long each dispatch is estimated to take, and the bound on one submission
    /// ([`super::submit`]): K and the segments stay within it, long dispatches are sliced.
    pub submit: SubmitModel,
}

/// How points and MSMs share one pass of each stage: `msms` MSMs packed side by side
/// ([`crate::msm::GpuMsm::run_batch`]), `copies` precomputed copies of every point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packing {
    /// MSMs in the pass, all of the same (padded) size.
    pub msms: u32,
    /// Copies of every point (precomputed bases).
    pub copies: u32,
}

impl Default for Packing {
    fn default() -> Self {
        Self { msms: 1, copies: 1 }
    }
}

/// One SMVP pass over a batch: level 0 adds points, levels ≥ 1 combine head slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmvpPass {
    /// 0 for the pass that adds points into head slots, ℓ ≥ 1 for the ℓ-th combine of them.
    pub level: u32,
    /// Invocations across all windows.
    pub invocations: u32,
}

// ANCHOR: segments_rule
/// S, the reduction segments per window: the largest power of two with W·S within the profile's
/// reduction budget, and with 64-bit products up to W·S within the larger budget where that leaves
/// at least `min_segment_buckets` buckets per segment: about one wave of the reduction kernel
/// (benches/experiments.json, "reduction segments").
pub fn reduction_segments(
    profile: &DeviceProfile,
    windows: u32,
    buckets: u32,
    int64_products: bool,
) -> u32 {
    let pow2_floor = |x: u32| 1u32 << (u32::BITS - 1 - x.max(1).leading_zeros());
    let plain = pow2_floor(profile.reduction_threads / windows).min(buckets);
    if !int64_products {
        return plain;
    }
    let native = pow2_floor(profile.reduction_threads_int64 / windows)
        .min(buckets / profile.min_segment_buckets);
    plain.max(native)
}
// ANCHOR_END: segments_rule

// ANCHOR: window_rule
/// Window size c for n points: the bit length of n minus 6, within [4, RULE_MAX_WINDOW_BITS]
/// (about 2^5 points per bucket; benches/experiments.json, "window size").
/// `Plan::new` lowers it while the buckets would not fit one binding.
pub fn default_window_bits(n: usize) -> u32 {
    let log_n = usize::BITS - n.max(1).leading_zeros();
    log_n.saturating_sub(6).clamp(4, RULE_MAX_WINDOW_BITS)
}
// ANCHOR_END: window_rule

/// Points 0..n cut into batches: `first` points, then `batch` at a time.
pub(crate) fn batch_ranges(n: usize, first: usize, batch: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut size) = (0, first);
    while start < n {
        let end = (start + size).min(n);
        out.push(start..end);
        (start, size) = (end, batch);
    }
    out
}

impl Plan {
    /// The plan with the projective SMVP: one chunk per level-0 invocation.
    pub fn new(
        curve: GpuCurve,
        constants: &LimbConstants,
        n: usize,
        options: &RunOptions,
        binding_limit: u64,
        profile: &DeviceProfile,
    ) -> Result<Self, GpuError> {
        let packing = Packing {
            copies: options.precompute.unwrap_or(1),
            msms: 1,
        };
        Self::with_lanes(
            curve,
            constants,
            n,
            options,
            binding_limit,
            profile,
            1,
            None,
            packing,
        )
    }

    // ANCHOR: plan_new
    /// The caller's choices are `options.window_bits`, `chunk` and `batch`; `binding_limit` is
    /// the largest buffer a shader may bind, in bytes; `profile` holds what the defaults need to
    /// know about the device; `lanes` chunks share a level-0 SMVP invocation (1 but in the
    /// batch-affine experiment); `loops`, on a device that cuts long loops short, what one
    /// invocation may run ([`crate::GpuContext::loop_limit`]): K and the reduction's segments
    /// stay within it; `packing`, MSMs side by side (`n` is then all their points) and copies
    /// of every point (precomputed bases).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn with_lanes(
        curve: GpuCurve,
        constants: &LimbConstants,
        n: usize,
        options: &RunOptions,
        binding_limit: u64,
        profile: &DeviceProfile,
        lanes: u32,
        loops: Option<LoopBudget>,
        packing: Packing,
    ) -> Result<Self, GpuError> {
        let Packing { msms, copies } = packing;
        if msms == 0 || copies == 0 || (msms > 1 && copies > 1) {
            return Err(GpuError::Input(format!(
                "{msms} MSMs of {copies} copies each in one pass: at least one of each, and \
                 precomputed copies only for one MSM"
            )));
        }
        let RunOptions {
            window_bits,
            chunk,
            batch: wanted_batch,
            segments: wanted_segments,
            first_batch,
            ..
        } = *options;
        if let Some(c) = window_bits.filter(|c| !(2..=MAX_WINDOW_BITS).contains(c)) {
            return Err(GpuError::Input(format!(
                "window size {c}: supported 2..={MAX_WINDOW_BITS}"
            )));
        }
        let limbs = constants.limbs;
        let point_bytes = 4 * 4 * limbs as u64; // four coordinates of u32 limbs
        // One more bit than r: a signed digit may carry out of the top window. With copies, each
        // copy takes `windows_of(c)` of the scalar's windows.
        let windows_of = |c: u32| {
            (bit_length(&curve.scalar_modulus()) + 1)
                .div_ceil(c)
                .div_ceil(copies)
        };
        let bucket_bytes_of =
            |c: u32| (msms * windows_of(c)) as u64 * ((1u64 << (c - 1)) + 1) * point_bytes;
        // Each virtual window sees every copy of one MSM's points.
        let window_points = n / msms as usize * copies as usize;
        let c = match window_bits {
            Some(c) => c,
            None => {
                let mut c = default_window_bits(window_points);
                while c > 4 && bucket_bytes_of(c) > binding_limit {
                    c -= 1;
                }
                c
            }
        };
        let bound = options
            .max_submission_seconds
            .unwrap_or(submit::DEFAULT_MAX_SUBMISSION_SECONDS);
        if bound.is_nan() || bound <= 0.0 {
            return Err(GpuError::Input(format!(
                "max_submission_seconds {bound}: a positive number of seconds (infinite: no bound)"
            )));
        }
        if chunk.is_some_and(|k| k < MIN_CHUNK) {
            return Err(GpuError::Input(format!(
                "SMVP chunk {}: at least {MIN_CHUNK}",
                chunk.unwrap_or(0)
            )));
        }
        let windows = windows_of(c);
        // Windows the passes after `scatter` see: each MSM's own, side by side.
        let virtual_windows = msms * windows;
        // Digits (and SMVP entries at most) per point of the input: every copy's windows.
        let digits = copies * windows;
        let buckets = 1u32 << (c - 1);
        let bucket_bytes = bucket_bytes_of(c);
        if bucket_bytes > binding_limit {
            return Err(GpuError::LimitExceeded {
                what: format!(
                    "the buckets of {virtual_windows} windows of {c} bits ({})",
                    curve.name()
                ),
                needed: bucket_bytes,
                limit: binding_limit,
            });
        }
        let default_split = wanted_batch.is_none()
            && first_batch.is_none()
            && profile.two_batches_from.is_some_and(|from| n >= from)
            // Only where the host's copy of a batch overlaps the GPU's work on the one before.
            && options.upload.overlaps();
        // From four times that size, an eighth first and the rest in three batches: the host
        // copies a point about 2.5 times faster than the GPU adds it up (at 2^24 on the H100: 73
        // ms of copy against 185 ms of stages), so a quarter first left the GPU idle for the
        // first quarter's copy and again while the three quarters after it were copied.
        // In a page the input also crosses into the browser's GPU process, at about a third of
        // the native copy's rate (2^20 BN254 points on the H100: 15 ms against 5), so the copy
        // is as long as the GPU's work from the split's own threshold on, and there four equal
        // batches did best (the page on the H100 at 2^20, BN254: 29.1 ms in quarters, 32.6 with
        // an eighth first, 40.4 in one batch; BLS12-377 80.3, 77.4 and 96.3 ms).
        let page = cfg!(target_arch = "wasm32");
        let many_batches =
            default_split && (page || profile.two_batches_from.is_some_and(|f| n >= 4 * f));
        // The first batch: an eighth natively, a quarter in a page (the rest then in three).
        let first_batch = if many_batches && !page {
            Some(n / 8 / 64 * 64)
        } else if default_split {
            Some(n / 4 / 64 * 64)
        } else {
            first_batch
        };
        // A batch below n must keep the 64-point alignment below; 0 would never finish.
        let wanted = match wanted_batch {
            Some(b) if b < 64 && b < n => {
                return Err(GpuError::Input(format!(
                    "batch of {b} points: at least 64 (or all n = {n})"
                )));
            }
            Some(b) if b < n => b / 64 * 64,
            Some(_) => n.max(1),
            None if many_batches => (n - first_batch.unwrap_or(0))
                .div_ceil(3)
                .next_multiple_of(64),
            // The rest after the first batch, in one batch.
            None if first_batch.is_some_and(|f| f < n) => {
                (n - first_batch.unwrap_or(0)).next_multiple_of(64)
            }
            None => n.max(1),
        };
        let (lo, hi) = profile.chunk_range;
        let model = SubmitModel::new(profile, limbs, bound);
        // One wave of SMVP invocations per batch: every invocation adds K points in sequence, so
        // a batch takes about one chunk's time per wave, and a second wave that is only part full
        // costs as much as a full one. The GPU derives the K it uses from the entries the scalars
        // gave (smvp in msm.wgsl), so this K holds for full windows.
        // The batch-affine form runs `lanes` chunks per invocation: its chunks are that much
        // shorter for the same wave.
        let wave = profile.smvp_wave(limbs) * lanes as usize;
        // On a device that cuts loops short, K is also bounded by what one invocation may run.
        let loop_chunk = match loops {
            Some(budget) => Some(budget.max_chunk(virtual_windows).ok_or_else(|| {
                GpuError::LimitExceeded {
                    what: format!(
                        "loop iterations of one SMVP invocation ({} lane(s) for {} at {}-bit limbs)",
                        lanes,
                        curve.name(),
                        constants.limb_bits
                    ),
                    needed: (budget.per_smvp_step * MIN_CHUNK) as u64,
                    limit: budget.limit as u64,
                }
            })?),
            None => None,
        };
        if let (Some(k), Some(most)) = (chunk, loop_chunk)
            && k > most
        {
            return Err(GpuError::Input(format!(
                "SMVP chunk {k}: at most {most} on this device, whose loops stop after {} \
                 iterations per invocation",
                loops.map_or(0, |b| b.limit)
            )));
        }
        // Within the submission bound, K entries and the walk to the chunk (its steps).
        let bound_chunk = (model.max_steps() - 1.0)
            .max(MIN_CHUNK as f64)
            .min(u32::MAX as f64) as u32;
        let one_wave = |b: usize| {
            let k = (b.max(1) * digits as usize)
                .div_ceil(wave)
                .clamp(lo as usize, hi as usize) as u32;
            k.min(loop_chunk.unwrap_or(u32::MAX)).min(bound_chunk)
        };
        let mut chunk = chunk.unwrap_or_else(|| one_wave(wanted));
        // Bytes per point of the largest per-batch buffer: Montgomery coordinates, a digit per
        // window, or the SMVP head slots (one point per K entries per window; one more per window
        // is checked below).
        let heads = (digits as u64 * point_bytes).div_ceil(chunk as u64);
        let per_point = (2 * 4 * limbs as u64 * copies as u64)
            .max(2 * 4 * curve.coord_words() as u64)
            .max(4 * digits as u64)
            .max(heads);
        let fit = (binding_limit / per_point) as usize;
        // Multiples of 64 points keep batch boundaries aligned for any binding offset rule.
        let mut batch = if wanted <= fit { wanted } else { fit / 64 * 64 };
        // smvp's chunks: ⌈bW/K⌉ plus one per window for rounding, a head slot each.
        let head_bytes = |b: usize, k: u32| {
            ((b * digits as usize).div_ceil(k as usize) + virtual_windows as usize) as u64
                * point_bytes
        };
        while batch > 0 && head_bytes(batch, chunk) > binding_limit {
            batch = (batch - 1) / 64 * 64;
        }
        if batch == 0 {
            return Err(GpuError::LimitExceeded {
                what: "one batch of 64 points".into(),
                needed: 64 * per_point,
                limit: binding_limit,
            });
        }
        // Where the binding limit cut the batch below the one wanted (a browser's 128 MiB), one
        // wave of the batch actually run; its head slots stay far below the other buffers.
        if options.chunk.is_none() && batch < wanted {
            let k = one_wave(batch);
            if head_bytes(batch, k) <= binding_limit {
                chunk = k;
            }
        }
        let first_batch = match first_batch {
            // The default quarter, where the binding limit cut the batch below it.
            Some(f) if default_split && f > batch => batch,
            Some(f) if f % 64 != 0 || f == 0 || f >= n || f > batch => {
                return Err(GpuError::Input(format!(
                    "first batch of {f} points: a multiple of 64, below n = {n} and at most the batch of {batch}"
                )));
            }
            Some(f) => f,
            None => batch,
        };
        // On a device that cuts loops short, each reduction invocation's share of the buckets
        // is bounded too.
        let least_segments = match loops {
            Some(budget) => {
                budget
                    .min_segments(buckets, c)
                    .ok_or_else(|| GpuError::LimitExceeded {
                        what: format!(
                            "loop iterations of one reduction invocation ({})",
                            curve.name()
                        ),
                        needed: ((2 * c + 3) * (1 + budget.per_addition)) as u64,
                        limit: budget.limit as u64,
                    })?
            }
            None => 1,
        };
        let segments = match wanted_segments {
            Some(s) if !s.is_power_of_two() || s > buckets => {
                return Err(GpuError::Input(format!(
                    "{s} reduction segments: a power of two up to the {buckets} buckets of a window"
                )));
            }
            Some(s) if s < least_segments => {
                return Err(GpuError::Input(format!(
                    "{s} reduction segments: at least {least_segments} on this device, whose loops \
                     stop after {} iterations per invocation",
                    loops.map_or(0, |b| b.limit)
                )));
            }
            Some(s) => s,
            None => reduction_segments(
                profile,
                virtual_windows,
                buckets,
                int64_products(constants.limb_bits),
            )
            .max(least_segments)
            .max(submit::min_segments(&model, buckets, c)),
        };
        // The combine levels: F slots per invocation, each found by a walk over the windows and
        // at most 32 levels (F^32 slots), far within any limit seen; checked all the same.
        if let Some(budget) = loops.filter(|b| !b.combine_fits(virtual_windows, 32)) {
            return Err(GpuError::LimitExceeded {
                what: "loop iterations of one SMVP combine invocation".into(),
                needed: (FAN_IN * (virtual_windows + 67 + budget.per_addition)) as u64,
                limit: budget.limit as u64,
            });
        }
        let partial_bytes = virtual_windows as u64 * segments as u64 * point_bytes;
        debug_assert!(partial_bytes <= bucket_bytes);
        let plan = Self {
            n,
            window_bits: c,
            windows,
            buckets,
            batch,
            first_batch,
            segments,
            chunk,
            lanes,
            msms,
            copies,
            submit: model,
        };
        submit::check(&plan)?;
        Ok(plan)
    }
    // ANCHOR_END: plan_new

    /// Windows the passes from `prefix` on see: every packed MSM's own.
    pub fn virtual_windows(&self) -> u32 {
        self.msms * self.windows
    }

    /// The shaders' `params.n` for a batch of `n` input points: the points one MSM's window
    /// holds, every copy counted.
    pub fn stride(&self, n: usize) -> u32 {
        (n / self.msms as usize * self.copies as usize) as u32
    }

    /// How many batches the points are split into (the length of [`Plan::batch_ranges`]).
    pub fn batches(&self) -> usize {
        self.batch_ranges().len()
    }

    /// The points of each batch, in order: `first_batch`, then `batch` at a time.
    pub fn batch_ranges(&self) -> Vec<std::ops::Range<usize>> {
        batch_ranges(self.n, self.first_batch, self.batch)
    }

    /// T for a batch of `n` points: ⌈bW/K⌉ for the plan's batch b, the chunks of K entries when
    /// every window is full. With fewer entries (a smaller first or last batch, zero digits,
    /// skewed scalars) the shader shrinks K so that about T chunks still cover them, and the
    /// batch still fills its wave; rounding each window up adds at most one chunk per window.
    /// Never more than ⌈nW/MIN_CHUNK⌉, so full windows keep K ≥ MIN_CHUNK.
    pub fn smvp_threads(&self, n: usize) -> u32 {
        let digits = (self.copies * self.windows) as usize;
        let full = (self.batch * digits).div_ceil(self.chunk as usize);
        let least_chunks = (n * digits).div_ceil(MIN_CHUNK as usize);
        full.min(least_chunks).max(1) as u32
    }

    // ANCHOR: smvp_passes
    /// The SMVP passes for a batch of `n` points: level 0 has T + W invocations (one per chunk)
    /// and leaves up to as many head slots; level ℓ + 1 has one invocation per F slots of level
    /// ℓ, and one slot per invocation of level ℓ. A level is needed while a bucket can still have
    /// two slots.
    pub fn smvp_passes(&self, n: usize) -> Vec<SmvpPass> {
        let chunks = self.smvp_threads(n) + self.virtual_windows();
        let mut passes = vec![SmvpPass {
            level: 0,
            invocations: chunks,
        }];
        let mut slots = chunks;
        while slots >= 2 {
            slots = slots.div_ceil(FAN_IN);
            passes.push(SmvpPass {
                level: passes.len() as u32,
                invocations: slots,
            });
        }
        passes
    }
    // ANCHOR_END: smvp_passes

    /// The slices `(first invocation, invocations)` of a dispatch of `invocations` invocations
    /// of `stage`, each within the submission bound where whole waves allow
    /// ([`SubmitModel::slice`]). Every stage is cut but `prefix` (a workgroup per window, each
    /// a few operations per bucket) and the batch-affine experiment's.
    pub fn slices(&self, stage: Stage, invocations: u32) -> Vec<(u32, u32)> {
        let per = if submit::sliced(stage) {
            self.submit.slice(submit::steps(stage, self))
        } else {
            u32::MAX
        };
        submit::cut(invocations, per)
    }

    /// Invocations of an SMVP pass: one per chunk (level 0: one per `lanes` chunks), one per F
    /// slots above.
    pub fn smvp_invocations(&self, pass: &SmvpPass) -> u32 {
        match pass.level {
            0 => pass.invocations.div_ceil(self.lanes),
            _ => pass.invocations,
        }
    }
}
