//! Calibration: a short measurement on the device that fills in a [`DeviceProfile`], within a
//! time budget. It is a step of its own: the MSM's default profile never runs it
//! ([`crate::msm::ProfileChoice::Auto`] reads a cached calibration or a named profile), so a
//! caller calibrates when it chooses to, and caches the result ([`crate::profile::cache`]).
//!
//! The measure is the MSM itself, timed by the caller's clock (`Instant` natively,
//! `performance.now()` in a browser), with progress reported. For every candidate limb width
//! (`candidate_widths`: the profile's portable width, and the 64-bit width where the adapter
//! offers `SHADER_INT64`) the MSM is compiled and [`probe_smvp`] finds the chunk size that makes
//! it fastest on `probe_points` points (2^18 on a GPU, 2^10 on a CPU adapter); the number of SMVP invocations at that size is the
//! device's wave for that kernel. The 64-bit width is used only where its MSM beats the portable
//! one: Apple and Intel GPUs offer 64-bit integers but emulate the multiply, and on NVIDIA's the
//! faster product rate of narrow limbs does not make the faster MSM, since the wide limbs halve
//! the registers and bytes per point. Timing the MSM rather than a product microbenchmark is what
//! makes both decisions come out right.
//!
//! What bounds the time ([`CalibrationOptions::budget_seconds`]): a width is compiled only if
//! the compile predicted from the one before (growing with the square of the limb count, as the
//! product's code does) fits in what is left of the budget; each probe gets at most
//! [`SMVP_BUDGET_SECONDS`] of what is left, its warm-up at most half of that; and the probe
//! never measures a chunk longer than the profile's `chunk_range` allows (the plan would never
//! run one), nor one whose time, predicted from the step before, would overrun its budget. A
//! compile that has started cannot be stopped: the budget can be overrun by at most the first
//! compile and one mispredicted step.

use fastmsm_mont::{Canonical, Field, limb_constants};
use serde_json::json;

use crate::field::{INT64_LIMB_WIDTHS, radix64_limb_bits, sample_elements};
use crate::msm::{GpuCurve, GpuMsm, ProfileChoice, Progress, RunOptions, pack_points};
use crate::profile::cache::device_key;
use crate::profile::{DeviceProfile, Origin};
use crate::{GpuContext, GpuError};

/// Seconds a whole calibration may take by default (compiles included).
pub const BUDGET_SECONDS: f64 = 10.0;

/// Seconds the SMVP probe of one width may take at most, its warm-up included.
pub const SMVP_BUDGET_SECONDS: f64 = 2.0;

/// Shortest chunk the probe measures: shorter chunks leave each invocation's fixed work (finding
/// its chunk, writing a head slot) as large as its additions.
const MIN_PROBE_CHUNK: usize = 16;

/// How a calibration runs.
pub struct CalibrationOptions<'a> {
    /// Seconds the calibration may take, compiles included (see the module documentation for
    /// how far a compile already started can overrun it).
    pub budget_seconds: f64,
    /// The clock, in seconds (default: a monotonic clock natively, `Date.now()` in WebAssembly).
    pub clock: fn() -> f64,
    /// Hears what the calibration is doing: the fraction of the budget spent, and the step.
    pub progress: Option<Progress<'a>>,
    /// An earlier calibration of this device to extend rather than redo: only the wave of the
    /// kernel size it lacks for this curve is measured, at the width it picks (nothing, if it
    /// has it).
    pub start_from: Option<DeviceProfile>,
    /// In a browser, whether the MSMs it compiles are compiled in parallel first
    /// ([`crate::msm::GpuMsmBuilder::precompile`]; default true).
    pub precompile: bool,
}

impl Default for CalibrationOptions<'_> {
    fn default() -> Self {
        Self {
            budget_seconds: BUDGET_SECONDS,
            clock: crate::clock::seconds,
            progress: None,
            start_from: None,
            precompile: true,
        }
    }
}

/// A calibration's result: the profile, and the MSM of the calibrated curve already compiled at
/// the width the profile picks, planning with it.
pub struct Calibrated {
    /// The measured profile (origin [`Origin::Calibrated`]; a `start_from` that needed nothing
    /// measured comes back as it was, with origin [`Origin::Cached`]).
    pub profile: DeviceProfile,
    /// The curve's MSM at the profile's width, with the profile.
    pub msm: GpuMsm,
    /// Seconds the calibration took.
    pub seconds: f64,
}

/// What the SMVP probe measured: (points n, chunk K, invocations T, seconds of one MSM) per
/// step, and the wave it chose.
#[derive(Clone, Debug)]
pub struct SmvpProbe {
    /// Limbs of the probed kernel: the profile keeps the wave under this limb count.
    pub limbs: usize,
    /// One entry per step of the sweep, in the order run: (n, K, T, seconds).
    pub steps: Vec<(usize, u32, u32, f64)>,
    /// Invocations per batch at the fastest K: the wave the plan sizes chunks to.
    pub invocations: u32,
    /// Seconds of one MSM of the probe's n points at that K.
    pub seconds: f64,
    /// False where the sweep stopped (budget or chunk bound) before the time turned up again:
    /// the fastest wave measured is then a bound rather than the optimum.
    pub bracketed: bool,
}

/// Random coordinates below p and scalars below r. The SMVP's cost does not depend on whether
/// the points lie on the curve (the GPU checks only that coordinates are below p), and the
/// probe discards its results.
fn probe_input(curve: GpuCurve, n: usize) -> (Vec<u32>, Vec<u32>) {
    let field = curve.base_field();
    let xs = sample_elements(field, n, 0x0dd5 + n as u64);
    let ys = sample_elements(field, n, 0x7e57 + n as u64);
    let points: Vec<(Canonical, Canonical)> = xs.into_iter().zip(ys).collect();
    let r = curve.scalar_modulus();
    let mut s = 0x2545_f491_4f6c_dd1d_u64 ^ n as u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let scalars: Vec<u32> = (0..n)
        .flat_map(|_| {
            let k = [next(), next(), next(), next() % r[3]];
            k.into_iter().flat_map(|x| [x as u32, (x >> 32) as u32])
        })
        .collect();
    (pack_points(curve, &points), scalars)
}

/// Points in the probe's MSM: enough that one wave of invocations has long chunks on a GPU, few
/// on a CPU adapter, where one MSM of 2^18 points takes seconds.
fn probe_points(ctx: &GpuContext) -> usize {
    if ctx.info.device_type == wgpu::DeviceType::Cpu {
        1 << 10
    } else {
        1 << 18
    }
}

/// Finds the SMVP wave of `msm`'s kernel on this device: the number of invocations per batch
/// (chunks of K entries) that makes a whole MSM of `probe_points` fastest, within `budget`
/// seconds (warm-up included).
///
/// Every invocation adds its K points in sequence, so as long as the device has room for more
/// invocations, halving K halves the stage; once every invocation the device can hold is busy,
/// smaller chunks only add head slots for `smvp_combine` to sum. The sweep (`sweep`) starts at
/// chunks of 64 entries (quick on any device) and walks both ways. It times whole MSMs from the
/// host clock, so it needs no timestamp queries, and it first keeps the device busy until two
/// runs in a row agree, because GPUs idle at a fraction of their clock and a probe on a cold GPU
/// measures the clock ramp instead.
pub async fn probe_smvp(
    ctx: &GpuContext,
    msm: &GpuMsm,
    budget: f64,
    now: &dyn Fn() -> f64,
    progress: Progress<'_>,
) -> Result<SmvpProbe, GpuError> {
    let limbs = msm.constants.limbs;
    let n = probe_points(ctx);
    let input = probe_input(msm.curve, n);
    let windows = msm.plan(ctx, n, &probe_options(n, None))?.windows;
    let entries = n * windows as usize;
    let cpu = ctx.info.device_type == wgpu::DeviceType::Cpu;
    // Warm-up: the default plan, back to back, for at least half a second and until two runs
    // agree within 5% (at most 2 s, and half the budget; once on a CPU adapter). Agreement alone
    // is not enough: two runs early in a clock ramp can agree with each other and not with the
    // risen clock.
    let (least, most) = if cpu { (0.0, 0.0) } else { (0.5f64, 2.0f64) };
    let most = most.min(budget / 2.0);
    let least = least.min(most);
    let warm_from = now();
    let mut last = f64::INFINITY;
    loop {
        let s = time_msm(ctx, msm, n, None, &input, now).await?.1;
        progress(0.1, &format!("SMVP probe: warming up ({:.1} ms)", s * 1e3));
        let held = now() - warm_from;
        if held >= most || (held >= least && (s - last).abs() <= 0.05 * last) {
            break;
        }
        last = s;
    }
    let reps = if cpu { 1 } else { 3 };
    let left = budget - (now() - warm_from);
    // A device that cuts long loops short bounds K too (msm::loops).
    let loop_chunk = msm.loop_budget(ctx).and_then(|b| b.max_chunk(windows));
    let max_chunk = msm
        .profile()
        .chunk_range
        .1
        .min(loop_chunk.unwrap_or(u32::MAX)) as usize;
    let start = now();
    let result = sweep(entries, max_chunk, left, now, async |k| {
        let mut best = (0, f64::INFINITY);
        for _ in 0..reps {
            let (t, s) = time_msm(ctx, msm, n, Some(k), &input, now).await?;
            best = (t, best.1.min(s));
        }
        progress(
            (0.1 + 0.9 * (now() - start) / left.max(1e-3)).min(1.0),
            &format!(
                "SMVP probe: {} invocations of {k} points, {:.2} ms",
                best.0,
                best.1 * 1e3
            ),
        );
        Ok(best)
    })
    .await?;
    Ok(SmvpProbe {
        limbs,
        steps: result.steps.iter().map(|&(k, t, s)| (n, k, t, s)).collect(),
        invocations: result.best.1.max(1),
        seconds: result.best.2,
        bracketed: result.bracketed,
    })
}

/// The sweep's measurements and choice: per step (K, T, seconds); the best (K, T, seconds).
#[derive(Clone, Debug)]
pub(crate) struct Sweep {
    pub(crate) steps: Vec<(u32, u32, f64)>,
    pub(crate) best: (u32, u32, f64),
    pub(crate) bracketed: bool,
}

/// The probe's walk over chunk sizes, apart from the device: `measure(K)` runs (or, in a test,
/// models) the MSMs with chunks of K entries and returns (invocations T, seconds of one MSM);
/// `now` is the clock the budget is kept on.
///
/// Waves of invocations are walked, K = ⌈entries / wave⌉ within [16, `max_chunk`]: from chunks
/// of 64 entries, halving the wave (longer chunks) until the time has risen twice in a row, then
/// doubling it down to chunks of 16, then the two half-steps beside the best. Before each step
/// the cost of measuring it is predicted from the steps before (the cheapest of their costs, each
/// scaled up by how much longer the new chunks are, since a longer chunk is a longer serial
/// chain), and a step that would end past the budget is not started.
pub(crate) async fn sweep(
    entries: usize,
    max_chunk: usize,
    budget: f64,
    now: &dyn Fn() -> f64,
    mut measure: impl AsyncFnMut(u32) -> Result<(u32, f64), GpuError>,
) -> Result<Sweep, GpuError> {
    let max_chunk = max_chunk.max(MIN_PROBE_CHUNK);
    let chunk = |wave: usize| entries.div_ceil(wave.max(1)).max(MIN_PROBE_CHUNK);
    let start = now();
    let mut steps: Vec<(u32, u32, f64)> = Vec::new();
    // What each measurement cost (K, seconds of wall time), for the prediction.
    let mut costs: Vec<(usize, f64)> = Vec::new();
    // `None`: not measured (over the budget, or out of the chunk range).
    let mut step = async |wave: usize| -> Result<Option<(u32, f64)>, GpuError> {
        let k = chunk(wave);
        if k > max_chunk {
            return Ok(None);
        }
        if let Some(&(_, t, s)) = steps.iter().find(|st| st.0 as usize == k) {
            return Ok(Some((t, s)));
        }
        let predicted = costs
            .iter()
            .map(|&(k0, cost)| cost * (k as f64 / k0 as f64).max(1.0))
            .min_by(f64::total_cmp);
        if predicted.is_some_and(|p| now() - start + p > budget) {
            return Ok(None);
        }
        let before = now();
        let (t, s) = measure(k as u32).await?;
        costs.push((k, now() - before));
        steps.push((k as u32, t, s));
        Ok(Some((t, s)))
    };
    let start_wave = (entries / 64).max(1);
    let (t, s) = step(start_wave)
        .await?
        .expect("the first step is always measured");
    let mut best = (start_wave, s, t);
    let mut bracketed = false;
    for fewer in [true, false] {
        let (mut wave, mut rises) = (start_wave, 0);
        loop {
            wave = if fewer { wave / 2 } else { wave * 2 };
            if wave == 0 || entries / wave < MIN_PROBE_CHUNK {
                break;
            }
            let Some((t, s)) = step(wave).await? else {
                break;
            };
            if s < best.1 {
                (best, rises) = ((wave, s, t), 0);
            } else {
                rises += 1;
                if rises == 2 {
                    bracketed |= fewer;
                    break;
                }
            }
        }
    }
    for side in [best.0 as f64 / 2f64.sqrt(), best.0 as f64 * 2f64.sqrt()] {
        let side = side as usize;
        if side >= 1
            && entries / side >= MIN_PROBE_CHUNK
            && let Some((t, s)) = step(side).await?
            && s < best.1
        {
            best = (side, s, t);
        }
    }
    Ok(Sweep {
        best: (chunk(best.0) as u32, best.2, best.1),
        steps,
        bracketed,
    })
}

/// Host seconds of one MSM of the probe input with chunk `k` (None: the plan's), and the SMVP
/// invocations T it ran.
async fn time_msm(
    ctx: &GpuContext,
    msm: &GpuMsm,
    n: usize,
    k: Option<u32>,
    input: &(Vec<u32>, Vec<u32>),
    now: &dyn Fn() -> f64,
) -> Result<(u32, f64), GpuError> {
    let start = now();
    let out = msm
        .run_packed(ctx, &input.0, &input.1, &probe_options(n, k))
        .await?;
    Ok((out.plan.smvp_threads(n), now() - start))
}

fn probe_options(n: usize, chunk: Option<u32>) -> RunOptions {
    RunOptions {
        batch: Some(n),
        chunk,
        // A probe measures the K it asks for, on a device whose rate it is finding out: the
        // submission bound's estimate would be made from a rate not yet known.
        max_submission_seconds: Some(f64::INFINITY),
        ..Default::default()
    }
}

/// Records a measured wave in `profile`, with the reduction budget it implies for 64-bit
/// products (about one wave of the largest kernel measured; never below the portable budget).
pub fn add_smvp(profile: &mut DeviceProfile, probe: &SmvpProbe) {
    profile.set_smvp_wave(probe.limbs, probe.invocations);
    let least = profile.smvp_wave.iter().map(|w| w.1).min().unwrap_or(1);
    profile.reduction_threads_int64 = least.max(profile.reduction_threads);
    let mut slowest = None;
    let list = measurements(profile)
        .entry("smvp")
        .or_insert_with(|| json!([]));
    if let Some(list) = list.as_array_mut() {
        list.retain(|e| e["limbs"] != json!(probe.limbs));
        list.push(json!({
            "limbs": probe.limbs,
            "invocations": probe.invocations,
            "msm_ms": probe.seconds * 1e3,
            "bracketed": probe.bracketed,
            "additions_per_second": addition_rate(probe),
            "steps": probe.steps.iter().map(|&(n, k, t, s)| json!({"n": n, "k": k, "invocations": t, "ms": s * 1e3})).collect::<Vec<_>>(),
        }));
        // The slowest rate measured: the submission bound errs on the short side.
        slowest = list
            .iter()
            .filter_map(|e| e["additions_per_second"].as_f64())
            .min_by(f64::total_cmp);
    }
    if let Some(rate) = slowest {
        profile.additions_per_second = rate;
    }
}

/// The device's addition rate by the probe's fastest step, for kernels of
/// [`crate::profile::REFERENCE_LIMBS`] limbs: its T invocations of K entries each added in the
/// whole MSM's time (an underestimate: the other stages ran too).
fn addition_rate(probe: &SmvpProbe) -> Option<f64> {
    let &(_, k, t, s) = probe
        .steps
        .iter()
        .filter(|step| step.2 == probe.invocations)
        .min_by(|a, b| a.3.total_cmp(&b.3))?;
    let scale = probe.limbs as f64 / crate::profile::REFERENCE_LIMBS as f64;
    (s > 0.0).then(|| t as f64 * k as f64 / s * scale * scale)
}

/// The profile's measurements as a JSON object (made one if it is not).
fn measurements(profile: &mut DeviceProfile) -> &mut serde_json::Map<String, serde_json::Value> {
    if !profile.measurements.is_object() {
        profile.measurements = json!({});
    }
    profile
        .measurements
        .as_object_mut()
        .expect("made an object above")
}

/// The limb widths a calibration tries for `field`, the one `base` would pick first: its
/// portable width, and the 64-bit width where the adapter has 64-bit shader integers.
///
/// One portable width: 15 bits beat 13 wherever both were measured (the product rates of
/// benches/results/wgsl-mont-nvidia-h200.json, and every native calibration's MSM on the H100),
/// and each width is a compile of seconds. In a browser only the portable width exists.
fn candidate_widths(ctx: &GpuContext, base: &DeviceProfile, field: Field) -> Vec<u32> {
    let mut widths = vec![base.portable_limb_bits];
    if ctx.features.contains(wgpu::Features::SHADER_INT64) {
        widths.push(radix64_limb_bits(field));
    }
    let preferred = base.limb_bits(ctx, field);
    widths.sort_by_key(|&w| w != preferred);
    widths
}

/// Calibrates `curve` on this device within `options.budget_seconds`: each candidate width is
/// compiled and its wave measured by [`probe_smvp`], the fastest width is kept, and the profile
/// starts from the named profile of the adapter ([`DeviceProfile::for_adapter`]) for what is not
/// measured. A width that fails to compile or to run is left out (its reason is kept in the
/// measurements); if every width fails, the first error.
pub async fn calibrate(
    ctx: &GpuContext,
    curve: GpuCurve,
    options: &CalibrationOptions<'_>,
) -> Result<Calibrated, GpuError> {
    let now: &dyn Fn() -> f64 = &options.clock;
    let start = now();
    let budget = options.budget_seconds;
    let report = |what: &str| {
        if let Some(progress) = options.progress {
            progress(((now() - start) / budget.max(1e-3)).min(1.0), what)
        }
    };
    let field = curve.base_field();
    let base = options
        .start_from
        .clone()
        .unwrap_or_else(|| DeviceProfile::for_adapter(&ctx.info));
    let build = async |profile: &DeviceProfile, limb_bits: u32| {
        GpuMsm::builder(curve)
            .limb_bits(limb_bits)
            .profile(ProfileChoice::Given(profile.clone()))
            .precompile(options.precompile)
            .build(ctx)
            .await
    };
    // Extending an earlier calibration: at most the wave of the width it picks.
    let widths = match &options.start_from {
        Some(earlier) => {
            let w = earlier.limb_bits(ctx, field);
            let limbs = limb_constants(field.params(), w)
                .map_err(|e| GpuError::Input(e.to_string()))?
                .limbs;
            if earlier.has_smvp_wave(limbs) {
                report("the earlier calibration covers this curve");
                let profile = DeviceProfile {
                    origin: Origin::Cached,
                    ..earlier.clone()
                };
                let msm = build(&profile, w).await?;
                return Ok(Calibrated {
                    profile,
                    msm,
                    seconds: now() - start,
                });
            }
            vec![w]
        }
        None => candidate_widths(ctx, &base, field),
    };
    let mut profile = DeviceProfile {
        name: "calibrated".into(),
        origin: Origin::Calibrated,
        device: device_key(ctx),
        ..base.clone()
    };
    let mut measured: Vec<(u32, GpuMsm, SmvpProbe)> = Vec::new();
    let mut skipped = Vec::new();
    // The last compile: (limbs, seconds), to predict the next.
    let mut last_compile: Option<(usize, f64)> = None;
    for w in widths {
        let limbs = limb_constants(field.params(), w)
            .map_err(|e| GpuError::Input(e.to_string()))?
            .limbs;
        if let Some((l0, t0)) = last_compile {
            let predicted = t0 * (limbs as f64 / l0 as f64).powi(2);
            if now() - start + predicted > budget {
                skipped.push(json!({"limb_bits": w, "predicted_compile_s": predicted}));
                report(&format!(
                    "{w}-bit limbs skipped: their compile (about {predicted:.1} s) does not fit the budget"
                ));
                continue;
            }
        }
        report(&format!("compiling the {w}-bit MSM for {}", curve.name()));
        let compile_start = now();
        let probe = async {
            let msm = build(&profile, w).await?;
            let compiled = now() - compile_start;
            last_compile = Some((limbs, compiled));
            let left = (budget - (now() - start)).clamp(0.0, SMVP_BUDGET_SECONDS);
            let probe = probe_smvp(ctx, &msm, left, now, &|_, t| {
                report(&format!("{w}-bit limbs: {t}"))
            })
            .await?;
            Ok::<_, GpuError>((msm, probe, compiled))
        };
        match probe.await {
            Ok((msm, probe, compiled)) => {
                measurements(&mut profile)
                    .entry("compile_s")
                    .or_insert_with(|| json!({}))[w.to_string()] = json!(compiled);
                measured.push((w, msm, probe))
            }
            Err(e) => {
                let failed = measurements(&mut profile)
                    .entry("failed")
                    .or_insert_with(|| json!([]));
                if let Some(list) = failed.as_array_mut() {
                    list.push(json!({"limb_bits": w, "error": e.to_string()}));
                }
            }
        }
    }
    if measured.is_empty() {
        let why = profile.measurements["failed"][0]["error"]
            .as_str()
            .unwrap_or("no width measured")
            .to_string();
        return Err(GpuError::Validation(format!("calibration: {why}")));
    }
    let fastest = |int64: bool| {
        measured
            .iter()
            .filter(|m| INT64_LIMB_WIDTHS.contains(&m.0) == int64)
            .min_by(|a, b| a.2.seconds.total_cmp(&b.2.seconds))
    };
    // The chosen width is always one measured here.
    if options.start_from.is_none() {
        profile.fast_int64 = match (fastest(true), fastest(false)) {
            (Some(wide), Some(portable)) => wide.2.seconds < portable.2.seconds,
            (wide, _) => wide.is_some(),
        };
    }
    for (_, _, probe) in &measured {
        add_smvp(&mut profile, probe);
    }
    let m = measurements(&mut profile);
    m.insert("msm_points".into(), json!(probe_points(ctx)));
    m.insert("skipped".into(), json!(skipped));
    m.insert("seconds".into(), json!(now() - start));
    let chosen = profile.limb_bits(ctx, field);
    let (_, msm, _) = measured
        .into_iter()
        .find(|m| m.0 == chosen)
        .expect("the chosen width was measured");
    report(&format!("calibrated: {}", profile.summary()));
    Ok(Calibrated {
        msm: msm.with_profile(profile.clone()),
        profile,
        seconds: now() - start,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// Runs the sweep against a modelled device: `model(K)` seconds per MSM, each measurement
    /// three of them, on a clock that only the measurements advance. Returns the sweep and the
    /// clock's reading at its end.
    fn modelled(budget: f64, max_chunk: usize, model: impl Fn(u32) -> f64) -> (Sweep, f64) {
        let clock = Cell::new(0.0);
        let now = || clock.get();
        let entries = (1usize << 18) * 20;
        let sweep = pollster::block_on(sweep(entries, max_chunk, budget, &now, async |k| {
            let s = model(k);
            clock.set(clock.get() + 3.0 * s);
            Ok((entries.div_ceil(k as usize) as u32, s))
        }))
        .unwrap();
        (sweep, clock.get())
    }

    #[test]
    fn sweep_finds_the_minimum_and_brackets_it() {
        // A device that holds 50 000 invocations: time falls with K until the wave is full.
        let entries = (1u64 << 18) * 20;
        let model = |k: u32| {
            let t = entries.div_ceil(k as u64) as f64;
            1e-3 * (k as f64 * (t / 50_000.0).max(1.0) + 0.02 * t / 1000.0)
        };
        let (sweep, spent) = modelled(4.0, 4096, model);
        assert!(sweep.bracketed, "{sweep:?}");
        let (k, t, _) = sweep.best;
        assert!(
            (40_000..=200_000).contains(&t),
            "best wave {t} (K = {k}): {sweep:?}"
        );
        assert!(spent <= 4.0, "{spent} s");
    }

    /// A device on which long chunks are ruinous (time growing with K², as a chain that spills
    /// would): the sweep still ends within the budget, and never measures K beyond the range.
    #[test]
    fn sweep_stays_within_its_budget_and_chunk_range() {
        for budget in [0.05, 0.5, 2.0] {
            let (sweep, spent) = modelled(budget, 4096, |k| 1e-6 * (k as f64).powi(2));
            assert!(
                sweep.steps.iter().all(|s| s.0 <= 4096 && s.0 >= 16),
                "{sweep:?}"
            );
            // The first step always runs; after it, no step starts that would end past the
            // budget by the prediction, which this model's quadratic growth beats by at most 2×
            // on the step it gets wrong.
            let first = 3.0 * 1e-6 * 64f64.powi(2);
            assert!(
                spent <= 2.0 * budget.max(first),
                "budget {budget}: spent {spent} s, {sweep:?}"
            );
        }
        // Time falling without end: bounded by the chunk range, not by luck.
        let (sweep, spent) = modelled(1e9, 1024, |k| 1.0 / k as f64);
        assert!(sweep.steps.iter().all(|s| s.0 <= 1024), "{sweep:?}");
        assert!(!sweep.bracketed && spent < 1.0, "{sweep:?} {spent}");
    }
}
