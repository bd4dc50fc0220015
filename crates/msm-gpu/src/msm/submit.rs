//! Keeping every submission of GPU work short: a phone's driver resets the device when one
//! submission runs for about two seconds (its watchdog), so the MSM estimates the time of each
//! dispatch from the device profile and cuts its work into submissions of at most
//! [`super::RunOptions::max_submission_seconds`] (half a second by default).
//!
//! The model: the device runs [`DeviceProfile::smvp_wave`] invocations at once and completes
//! [`DeviceProfile::additions_per_second`] point additions per second when they are all busy, so
//! one invocation takes `step = wave / rate` seconds per addition, and a dispatch of `I`
//! invocations of `s` additions each takes `⌈I / wave⌉ · s · step`. Every stage's work is counted
//! in the SMVP's mixed additions ([`steps`]). Where one invocation's work would exceed the bound
//! the plan shortens it: the SMVP's chunk K and the reduction's share of buckets (more segments).
//! A dispatch longer than the bound is cut into slices of whole waves, each with its first
//! invocation in the parameter record (`offset`), and the run submits before any pass that would
//! take the open submission past the bound. On the GPUs the named profiles describe at full
//! speed (the H100's rate) nothing is cut below 2^24 points.

use super::curve::WORKGROUP_SIZE;
use super::plan::{FAN_IN, Plan};
use super::stage::Stage;
use crate::GpuError;
use crate::profile::DeviceProfile;

/// The default bound on one submission's estimated time, in seconds: a quarter of the two
/// seconds after which a phone's GPU watchdog resets the device.
pub const DEFAULT_MAX_SUBMISSION_SECONDS: f64 = 0.5;

/// A general addition (the combine, reduction and fold: 12 products and 2 squarings) in the
/// mixed additions (7 products, 4 squarings) the rate is measured in.
const GENERAL_ADDITION: f64 = 14.0 / 11.0;

/// The time model of one plan: a wave of invocations and the seconds per addition of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubmitModel {
    /// Invocations the device runs at once (the profile's SMVP wave for this kernel).
    pub wave: u32,
    /// Nanoseconds one invocation takes per addition while a wave runs.
    pub step_ns: u64,
    /// The bound on one submission, in nanoseconds (`u64::MAX`: none).
    pub bound_ns: u64,
}

impl SubmitModel {
    /// The model of `profile` for kernels of `limbs` limbs, bounding each submission to
    /// `max_seconds` (infinite or NaN: no bound).
    pub fn new(profile: &DeviceProfile, limbs: usize, max_seconds: f64) -> Self {
        let wave = profile.smvp_wave(limbs) as u32;
        let step = wave as f64 / profile.additions_per_second(limbs);
        let ns = |s: f64| {
            if s.is_finite() && s >= 0.0 {
                (s * 1e9).min(u64::MAX as f64) as u64
            } else {
                u64::MAX
            }
        };
        Self {
            wave: wave.max(1),
            step_ns: ns(step).max(1),
            bound_ns: ns(max_seconds),
        }
    }

    /// Estimated seconds of a dispatch of `invocations` invocations of `steps` additions each.
    pub fn seconds(&self, invocations: u32, steps: f64) -> f64 {
        invocations.div_ceil(self.wave) as f64 * steps * self.step_ns as f64 * 1e-9
    }

    /// The bound in seconds (infinite where there is none).
    pub fn bound(&self) -> f64 {
        if self.bound_ns == u64::MAX {
            f64::INFINITY
        } else {
            self.bound_ns as f64 * 1e-9
        }
    }

    /// The most additions one invocation may run within the bound.
    pub fn max_steps(&self) -> f64 {
        self.bound() / (self.step_ns as f64 * 1e-9)
    }

    /// Invocations per slice of a dispatch whose invocations run `steps` additions each: as
    /// many whole waves as the bound holds, at least one, in whole workgroups (a slice must not
    /// end inside a workgroup, whose spare invocations would repeat the next slice's work);
    /// `u32::MAX` where the bound holds any number.
    pub fn slice(&self, steps: f64) -> u32 {
        let waves = (self.bound() / (steps.max(1e-9) * self.step_ns as f64 * 1e-9)).floor();
        if waves * self.wave as f64 >= u32::MAX as f64 {
            return u32::MAX;
        }
        let invocations = (waves.max(1.0) as u32).saturating_mul(self.wave);
        (invocations / WORKGROUP_SIZE).max(1) * WORKGROUP_SIZE
    }
}

/// Additions one invocation of `stage` runs, in the SMVP's mixed additions: the estimate each
/// submission's time is summed from. The stages around the SMVP do a few field operations per
/// point; they count as a fraction of an addition.
pub fn steps(stage: Stage, plan: &Plan) -> f64 {
    match stage {
        Stage::InitBuckets => 0.1,
        // Two conversions to Montgomery form (a product each) and the range checks.
        Stage::ConvertPoints => 0.3,
        Stage::Decompose | Stage::Prefix | Stage::Scatter => 0.2,
        // K entries, and the walk over the windows to find the chunk.
        Stage::Smvp => plan.chunk as f64 + 1.0,
        Stage::SmvpCombine => FAN_IN as f64 * GENERAL_ADDITION + 1.0,
        // A round of every lane (a product forward, a few back) and a shared inversion per round.
        #[cfg(feature = "experiments")]
        Stage::SmvpAffine => plan.chunk as f64 * 3.0 + 1.0,
        #[cfg(feature = "experiments")]
        Stage::BucketMerge => GENERAL_ADDITION,
        Stage::Reduce => reduce_steps(plan.buckets, plan.segments, plan.window_bits),
        Stage::Fold => GENERAL_ADDITION,
        // Four conversions out of Montgomery form and the affine-free canonical point.
        Stage::WindowOut => 1.0,
    }
}

/// Additions of one reduction invocation: 2·(B/S) running-sum steps, 2·(c − 1) steps to scale
/// its partial and one more, each a general addition (`reduce` in msm.wgsl).
fn reduce_steps(buckets: u32, segments: u32, window_bits: u32) -> f64 {
    (2 * (buckets / segments.max(1)) + 2 * window_bits.saturating_sub(1) + 1) as f64
        * GENERAL_ADDITION
}

/// A dispatch of `invocations` invocations cut into slices `(first invocation, invocations)` of
/// at most `per` each; one slice where it holds them all (or there are none).
pub fn cut(invocations: u32, per: u32) -> Vec<(u32, u32)> {
    let per = per.max(1);
    let mut out = Vec::new();
    let mut offset = 0;
    while offset < invocations || out.is_empty() {
        let count = per.min(invocations - offset);
        out.push((offset, count));
        offset += count;
    }
    out
}

/// Whether the run cuts `stage`'s dispatches into slices ([`Plan::slices`]): every stage whose
/// invocations index their work by `invocation` in msm.wgsl, which adds the slice's offset.
pub fn sliced(stage: Stage) -> bool {
    match stage {
        Stage::Prefix => false,
        #[cfg(feature = "experiments")]
        Stage::SmvpAffine | Stage::BucketMerge => false,
        _ => true,
    }
}

/// Refuses a plan one of whose dispatches cannot be cut within the bound: a stage that is not
/// sliced whose whole dispatch is estimated above it, or a sliced one whose smallest slice (one
/// workgroup, which takes a wave's time) is: one invocation's work is too long, as with a chunk
/// or segments the caller forced. The error names the stage, its estimate and the bound, rather
/// than a run whose submissions overrun the bound it was given.
pub fn check(plan: &Plan) -> Result<(), GpuError> {
    let m = &plan.submit;
    let bound = m.bound();
    if !bound.is_finite() {
        return Ok(());
    }
    let batch = plan.batch.max(plan.first_batch).min(plan.n.max(1)) as u32;
    let dispatches = Stage::ALL
        .iter()
        .filter(|&&s| sliced(s))
        .map(|&s| (s, WORKGROUP_SIZE))
        .chain([(
            Stage::Prefix,
            plan.virtual_windows() * Stage::Prefix.workgroup_size(),
        )]);
    for (stage, invocations) in dispatches.chain(unsliced_experiment(plan, batch)) {
        let seconds = m.seconds(invocations, steps(stage, plan));
        if seconds > bound {
            return Err(GpuError::Input(format!(
                "max_submission_seconds {bound:.3e} s cannot be met: one dispatch of {stage} \
                 ({invocations} invocations of {:.1} additions) is estimated at {seconds:.3e} s \
                 by the profile ({} additions per second, {} at once); raise the bound",
                steps(stage, plan),
                (m.wave as f64 / (m.step_ns as f64 * 1e-9)).round(),
                m.wave,
            )));
        }
    }
    Ok(())
}

/// The batch-affine experiment's dispatches, which are not sliced: its level 0 and the merge.
#[cfg(feature = "experiments")]
fn unsliced_experiment(plan: &Plan, batch: u32) -> Vec<(Stage, u32)> {
    if plan.lanes <= 1 {
        return Vec::new();
    }
    let level0 = plan.smvp_passes(batch as usize)[0];
    vec![
        (Stage::SmvpAffine, plan.smvp_invocations(&level0)),
        (
            Stage::BucketMerge,
            plan.virtual_windows() * (plan.buckets + 1),
        ),
    ]
}

#[cfg(not(feature = "experiments"))]
fn unsliced_experiment(_: &Plan, _: u32) -> Vec<(Stage, u32)> {
    Vec::new()
}

/// The fewest reduction segments per window (a power of two, at most `buckets`) whose
/// invocations stay within the bound; `buckets` where none would.
pub fn min_segments(model: &SubmitModel, buckets: u32, window_bits: u32) -> u32 {
    let mut s = 1;
    while s < buckets && reduce_steps(buckets, s, window_bits) > model.max_steps() {
        s *= 2;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_hold_whole_waves_within_the_bound() {
        let model = SubmitModel {
            wave: 256,
            step_ns: 1_000_000, // 1 ms per addition
            bound_ns: 500_000_000,
        };
        assert_eq!(model.max_steps(), 500.0);
        // 100 additions per invocation: 5 waves of 256 fit half a second.
        assert_eq!(model.slice(100.0), 5 * 256);
        assert!(model.seconds(5 * 256, 100.0) <= model.bound());
        assert!(model.seconds(5 * 256 + 1, 100.0) > model.bound());
        // Longer than the bound: one wave all the same.
        assert_eq!(model.slice(1000.0), 256);
        // A wave that is not a whole number of workgroups: rounded down to one.
        let odd = SubmitModel { wave: 100, ..model };
        assert_eq!(odd.slice(1000.0), 64);
        let unbounded = SubmitModel {
            bound_ns: u64::MAX,
            ..model
        };
        assert_eq!(unbounded.slice(1e6), u32::MAX);
        // Segments: 2·B/S + 2(c − 1) + 1 general additions within 500 steps.
        let s = min_segments(&model, 1 << 15, 16);
        assert!(reduce_steps(1 << 15, s, 16) <= 500.0 && reduce_steps(1 << 15, s / 2, 16) > 500.0);
        assert_eq!(min_segments(&unbounded, 1 << 15, 16), 1);
    }

    #[test]
    fn the_model_follows_the_profile() {
        let h100 = DeviceProfile::h100();
        let model = SubmitModel::new(&h100, 26, DEFAULT_MAX_SUBMISSION_SECONDS);
        // 33 792 invocations at 3e8 additions per second: about 0.11 ms per addition, so that
        // chunks up to the profile's largest (4 096) fit half a second.
        assert_eq!(model.wave, 33792);
        assert!((model.step_ns as f64 - 33792.0 / 3e8 * 1e9).abs() < 1.0);
        assert!(model.max_steps() > h100.chunk_range.1 as f64);
        let mobile = SubmitModel::new(&DeviceProfile::mobile(), 26, 0.5);
        assert!(mobile.max_steps() < 500.0, "{mobile:?}");
        let none = SubmitModel::new(&h100, 26, f64::INFINITY);
        assert_eq!(none.bound_ns, u64::MAX);
    }
}
