//! Calibration: a short measurement on the device that fills in a [`DeviceProfile`].
//!
//! Two probes, each timed by the caller's clock (`Instant` natively, `performance.now()` in a
//! browser) and reporting progress:
//!
//! * **field** ([`probe_field`]): chained WGSL Montgomery products per second at the portable
//!   widths and, where the adapter has `SHADER_INT64`, at the 64-bit width. The fastest portable
//!   width becomes the profile's, and the 64-bit width is used only where it beats it (Apple and
//!   Intel GPUs offer 64-bit integers but emulate the multiply). A sample of every width's output
//!   is checked against the CPU twin; a width that computes wrong is never chosen.
//! * **SMVP** ([`probe_smvp`]): the MSM's own SMVP stage over one batch, at chunk sizes K that
//!   give T = ⌈nW/K⌉ invocations. Every invocation adds K points in sequence, so while T is at most
//!   the number of invocations the device runs at once (the wave V) the stage takes about K
//!   additions' time and halves when T doubles; past V the extra invocations wait for a second
//!   wave and the time stops falling. A doubling sweep brackets V, and a finer sweep inside the
//!   bracket finds the T with the least time: one full wave.
//!
//! [`prepare`] runs both (or takes a named or cached profile), compiles the MSM at the width the
//! profile picks and gives it the profile; natively [`load_cached`] and [`store_cached`] keep
//! calibrations in a JSON file ([`default_cache_path`]).

use fastmsm_mont::{Canonical, Field, raw_product};
use serde_json::json;

use crate::bench::{cpu_twin, sample_elements, wait_idle};
use crate::field::{FieldKernels, INT64_LIMB_WIDTHS, Op, radix64_limb_bits};
use crate::msm::{GpuCurve, GpuMsm, MsmOptions, pack_points};
use crate::profile::{DeviceProfile, Origin};
use crate::{GpuContext, GpuError, transfer};

/// The portable widths the field probe compares (12 and 16 bits were slower everywhere measured,
/// benches/results/wgsl-mont-*.json, and each width costs a shader compile).
pub const PORTABLE_CANDIDATES: [u32; 2] = [13, 15];

/// Progress: fraction done in [0, 1] and what is happening.
pub type Progress<'a> = &'a dyn Fn(f64, &str);

/// What the field probe measured.
#[derive(Clone, Debug)]
pub struct FieldProbe {
    pub field: Field,
    /// (limb bits, products per second, output matched the CPU twin).
    pub rates: Vec<(u32, f64, bool)>,
    pub threads: usize,
    pub iterations: u32,
    pub portable_limb_bits: u32,
    pub fast_int64: bool,
}

/// The adapter a profile belongs to: name, backend and driver.
pub fn device_key(ctx: &GpuContext) -> String {
    let driver = format!("{} {}", ctx.info.driver, ctx.info.driver_info);
    format!(
        "{} / {:?} / {}",
        ctx.info.name,
        ctx.info.backend,
        driver.trim()
    )
}

/// Seconds for one dispatch of `threads` chains, the least of `reps`.
async fn time_chain(
    ctx: &GpuContext,
    kernels: &FieldKernels,
    bind_group: &wgpu::BindGroup,
    threads: usize,
    reps: usize,
    now: &dyn Fn() -> f64,
) -> Result<f64, GpuError> {
    let mut best = f64::INFINITY;
    for _ in 0..reps {
        let start = now();
        kernels.dispatch(ctx, Op::Chain, bind_group, threads)?;
        wait_idle(ctx).await?;
        best = best.min(now() - start);
    }
    Ok(best)
}

/// Chained products per second of `field` at each candidate width (see the module docs).
pub async fn probe_field(
    ctx: &GpuContext,
    field: Field,
    now: &dyn Fn() -> f64,
    progress: Progress<'_>,
) -> Result<FieldProbe, GpuError> {
    let mut widths: Vec<u32> = PORTABLE_CANDIDATES.to_vec();
    if ctx.features.contains(wgpu::Features::SHADER_INT64) {
        widths.push(radix64_limb_bits(field));
    }
    const ITERATIONS: u32 = 32;
    let (mut threads, mut rates) = (0usize, Vec::new());
    for (i, &w) in widths.iter().enumerate() {
        progress(
            i as f64 / widths.len() as f64,
            &format!("field probe: {w}-bit limbs"),
        );
        let kernels = FieldKernels::with_ops(ctx, field, w, &[Op::Chain]).await?;
        let limbs = kernels.limbs();
        // The first width sizes the run for all: threads double until one dispatch takes 2 ms
        // (enough to fill the device, short on a slow one), at most 2^20 or the binding limit.
        let max_threads =
            (ctx.limits.max_storage_buffer_binding_size / (4 * limbs as u64)).min(1 << 20) as usize;
        let x = sample_elements(field, max_threads.min(1 << 20), 0x5eed + w as u64);
        let y = sample_elements(field, max_threads.min(1 << 20), 0xcafe + w as u64);
        let run = |t: usize| {
            let (lx, ly) = (kernels.to_limbs(&x[..t]), kernels.to_limbs(&y[..t]));
            let lhs = transfer::upload_u32(ctx, "x", &lx);
            let rhs = transfer::upload_u32(ctx, "y", &ly);
            let out = transfer::output_u32(ctx, "out", lx.len());
            let params = transfer::uniform_u32(ctx, "params", &[t as u32, ITERATIONS, 0, 0]);
            let group = kernels.bind_group(ctx, &lhs, &rhs, &out, &params);
            (group, out, lx.len())
        };
        if threads == 0 {
            threads = 1024.min(max_threads);
            loop {
                let (group, _, _) = run(threads);
                let s = time_chain(ctx, &kernels, &group, threads, 1, now).await?;
                if s >= 2e-3 || threads * 2 > max_threads {
                    break;
                }
                threads *= 2;
            }
        }
        let (group, out, words) = run(threads);
        let seconds = time_chain(ctx, &kernels, &group, threads, 3, now).await?;
        let got = kernels.from_limbs(&transfer::read_u32(ctx, &out, words).await?);
        let twin = cpu_twin(w).expect("a supported width");
        let verified = [0, threads / 2, threads - 1].iter().all(|&i| {
            let mut acc: Canonical = x[i];
            for _ in 0..ITERATIONS {
                match raw_product(twin, field, &acc, &y[i]) {
                    Ok(v) => acc = v,
                    Err(_) => return false,
                }
            }
            acc == got[i]
        });
        rates.push((w, (threads as f64 * ITERATIONS as f64) / seconds, verified));
    }
    let best = |pick: &dyn Fn(u32) -> bool| {
        rates
            .iter()
            .filter(|(w, _, ok)| *ok && pick(*w))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .copied()
    };
    let portable = best(&|w| !INT64_LIMB_WIDTHS.contains(&w)).ok_or_else(|| {
        GpuError::Validation(format!(
            "field probe: no portable width computed {} correctly",
            field.name()
        ))
    })?;
    let fast_int64 = best(&|w| INT64_LIMB_WIDTHS.contains(&w)).is_some_and(|r| r.1 > portable.1);
    Ok(FieldProbe {
        field,
        rates,
        threads,
        iterations: ITERATIONS,
        portable_limb_bits: portable.0,
        fast_int64,
    })
}

/// What the SMVP probe measured: (invocations T, chunk K, seconds of the smvp stage) per step,
/// and the wave it found.
#[derive(Clone, Debug)]
pub struct SmvpProbe {
    pub limbs: usize,
    pub steps: Vec<(usize, u32, u32, f64)>,
    pub invocations: u32,
    /// False where the sweep ran out of points or time before the time stopped falling: the
    /// wave is then at least `invocations`.
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

/// Finds how many SMVP invocations of `msm`'s kernel the device runs at once (module docs).
/// `budget` bounds the seconds the sweeps take after a first, untimed run: a slow device (a CPU
/// adapter) stops early with a coarser answer, or a lower bound where the time had not yet
/// stopped falling (`bracketed` false).
pub async fn probe_smvp(
    ctx: &GpuContext,
    msm: &GpuMsm,
    budget: f64,
    now: &dyn Fn() -> f64,
    progress: Progress<'_>,
) -> Result<SmvpProbe, GpuError> {
    // Below K = 16 an invocation's fixed work (finding its chunk, writing its head slot) blurs
    // the halving; the sweep moves to 8× more points instead.
    const MIN_K: usize = 16;
    const MAX_LOG_N: u32 = 17;
    let limbs = msm.constants.limbs;
    // A first run outside the budget: drivers that compile lazily do it on first use.
    let first = now();
    measure_smvp(ctx, msm, 256, 16, &probe_input(msm.curve, 256), 1, now).await?;
    // Devices slow enough that one run takes more than 50 ms (CPU adapters) get one run per step.
    let reps = if now() - first > 0.05 { 1 } else { 2 };
    let start = now();
    let mut steps: Vec<(usize, u32, u32, f64)> = Vec::new();
    let entries = |n: usize| -> Result<usize, GpuError> {
        Ok(n * msm.plan(ctx, n, &probe_options(n))?.windows as usize)
    };
    // Doubling sweep: T = 16, 32, … at n points while K ≥ MIN_K, then at 8n points.
    let (mut log_n, mut t) = (8u32, 16usize);
    let mut flat_steps = 0;
    let mut knee: Option<(usize, usize)> = None; // (last T that halved the time, the T after it)
    let mut last: Option<(usize, f64)>;
    'levels: while log_n <= MAX_LOG_N {
        let n = 1usize << log_n;
        let input = probe_input(msm.curve, n);
        let e = entries(n)?;
        last = None;
        while e / t >= MIN_K {
            if now() - start > budget {
                break 'levels;
            }
            let k = e.div_ceil(t) as u32;
            let (threads, s) = measure_smvp(ctx, msm, n, k, &input, reps, now).await?;
            progress(
                (0.6 * (now() - start) / budget).min(0.6),
                &format!("SMVP probe: {threads} invocations of {k} points"),
            );
            steps.push((n, k, threads as u32, s));
            if let Some((t0, s0)) = last {
                if s > 0.75 * s0 {
                    flat_steps += 1;
                    if flat_steps == 1 {
                        knee = Some((t0, threads));
                    }
                    if flat_steps == 2 {
                        break 'levels;
                    }
                } else {
                    flat_steps = 0;
                    knee = None;
                }
            }
            last = Some((threads, s));
            t *= 2;
        }
        log_n += 3;
        t = (t / 2).max(16);
    }
    let Some((lo, hi)) = knee.filter(|_| flat_steps == 2) else {
        // Never flattened: the device runs at least the largest T measured.
        let most = steps.iter().map(|s| s.2).max().unwrap_or(1);
        return Ok(SmvpProbe {
            limbs,
            steps,
            invocations: most,
            bracketed: false,
        });
    };
    // Fine sweep between the last halving and the first flat step, at enough points that K stays
    // large (so consecutive T differ by a few percent): T = lo · 2^(i/16).
    let n = (8..=MAX_LOG_N)
        .map(|l| 1usize << l)
        .find(|&n| entries(n).is_ok_and(|e| e >= 64 * hi))
        .unwrap_or(1 << MAX_LOG_N);
    let input = probe_input(msm.curve, n);
    let e = entries(n)?;
    let mut best = (lo, f64::INFINITY);
    let mut seen = Vec::new();
    for i in 0..=16 {
        if now() - start > budget && best.1.is_finite() {
            break;
        }
        let target = (lo as f64 * 2f64.powf(i as f64 / 16.0)) as usize;
        let k = e.div_ceil(target).max(2) as u32;
        if seen.contains(&k) {
            continue;
        }
        seen.push(k);
        let (threads, s) = measure_smvp(ctx, msm, n, k, &input, reps, now).await?;
        progress(
            0.6 + 0.4 * i as f64 / 16.0,
            &format!("SMVP probe: {threads} invocations of {k} points"),
        );
        steps.push((n, k, threads as u32, s));
        // Least time per entry; ties go to the smaller T (the wave is the last T before a jump).
        if s < best.1 * 0.995 {
            best = (threads, s);
        }
    }
    Ok(SmvpProbe {
        limbs,
        steps,
        invocations: best.0 as u32,
        bracketed: true,
    })
}

/// The smvp stage's seconds for one batch of `n` points at chunk `k` (the least of `reps` runs),
/// and the invocations T it ran.
async fn measure_smvp(
    ctx: &GpuContext,
    msm: &GpuMsm,
    n: usize,
    k: u32,
    input: &(Vec<u32>, Vec<u32>),
    reps: usize,
    now: &dyn Fn() -> f64,
) -> Result<(usize, f64), GpuError> {
    let options = MsmOptions {
        chunk: Some(k),
        stage_timing: true,
        ..probe_options(n)
    };
    let (mut best, mut threads) = (f64::INFINITY, 0);
    for _ in 0..reps {
        let out = msm
            .run_packed(ctx, &input.0, &input.1, &options, now)
            .await?;
        threads = out.plan.smvp_threads(n);
        let smvp = out.stages.iter().find(|(s, _)| *s == "smvp");
        best = best.min(smvp.map_or(f64::INFINITY, |s| s.1));
    }
    if !best.is_finite() {
        return Err(GpuError::Validation(
            "the MSM reported no smvp stage time".into(),
        ));
    }
    Ok((threads as usize, best))
}

fn probe_options(n: usize) -> MsmOptions {
    MsmOptions {
        batch: Some(n),
        ..Default::default()
    }
}

/// A profile from the field probe: the numbers it measured, the rest from `portable` (the SMVP
/// wave follows from [`probe_smvp`]).
pub fn profile_from(ctx: &GpuContext, field: &FieldProbe) -> DeviceProfile {
    DeviceProfile {
        name: "calibrated".into(),
        origin: Origin::Calibrated,
        device: device_key(ctx),
        fast_int64: field.fast_int64,
        portable_limb_bits: field.portable_limb_bits,
        smvp_wave: Vec::new(),
        measurements: json!({
            "field": field.field.name(),
            "threads": field.threads,
            "iterations": field.iterations,
            "products_per_second": field.rates.iter().map(|(w, r, ok)| json!({
                "limb_bits": w, "rate": r, "verified": ok,
            })).collect::<Vec<_>>(),
        }),
        ..DeviceProfile::portable()
    }
}

/// Adds a measured wave to `profile`, with the reduction budget it implies for 64-bit products
/// (about one wave of the largest kernel measured; never below the portable budget).
pub fn add_smvp(profile: &mut DeviceProfile, probe: &SmvpProbe) {
    profile.set_smvp_wave(probe.limbs, probe.invocations);
    let least = profile.smvp_wave.iter().map(|w| w.1).min().unwrap_or(1);
    profile.reduction_threads_int64 = least.max(profile.reduction_threads);
    if let Some(m) = profile.measurements.as_object_mut() {
        let list = m.entry("smvp").or_insert_with(|| json!([]));
        if let Some(list) = list.as_array_mut() {
            list.retain(|e| e["limbs"] != json!(probe.limbs));
            list.push(json!({
                "limbs": probe.limbs,
                "invocations": probe.invocations,
                "bracketed": probe.bracketed,
                "steps": probe.steps.iter().map(|&(n, k, t, s)| json!({"n": n, "k": k, "invocations": t, "ms": s * 1e3})).collect::<Vec<_>>(),
            }));
        }
    }
}

/// How [`prepare`] gets its profile.
#[derive(Clone, Debug)]
pub enum ProfileRequest {
    /// A named profile ([`DeviceProfile::named`]).
    Named(String),
    /// Calibrate, starting from a cached calibration of this device where there is one (it is
    /// reused as far as it goes: a kernel size it lacks is measured and added).
    Calibrate { cached: Option<DeviceProfile> },
}

/// Seconds the SMVP probe may take.
pub const SMVP_BUDGET_SECONDS: f64 = 2.0;

/// The MSM of `curve`, compiled at the width the profile picks, with that profile set; and the
/// profile (to show, and to cache where its origin is `Calibrated`). A calibration that fails
/// gives the `portable` profile with the reason ([`Origin::Fallback`]); only a failure to compile
/// the MSM itself is an error. A named profile that does not exist is an input error.
pub async fn prepare(
    ctx: &GpuContext,
    curve: GpuCurve,
    request: ProfileRequest,
    now: &dyn Fn() -> f64,
    progress: Progress<'_>,
) -> Result<(GpuMsm, DeviceProfile), GpuError> {
    let field = curve.base_field();
    let compile = |p: DeviceProfile| async move {
        progress(0.4, &format!("compiling the MSM for {}", curve.name()));
        let msm = GpuMsm::with_limb_bits(ctx, curve, p.limb_bits(ctx, field)).await?;
        msm.set_profile(p);
        Ok::<_, GpuError>(msm)
    };
    let mut profile = match request {
        ProfileRequest::Named(name) => {
            let p = DeviceProfile::named(&name)?;
            let msm = compile(p.clone()).await?;
            return Ok((msm, p));
        }
        ProfileRequest::Calibrate { cached: Some(p) } if p.device == device_key(ctx) => {
            DeviceProfile {
                origin: Origin::Cached,
                ..p
            }
        }
        ProfileRequest::Calibrate { .. } => {
            match probe_field(ctx, field, now, &|f, t| progress(0.4 * f, t)).await {
                Ok(probe) => profile_from(ctx, &probe),
                Err(e) => DeviceProfile::fallback(format!("the field probe failed: {e}")),
            }
        }
    };
    let msm = compile(profile.clone()).await?;
    let limbs = msm.constants.limbs;
    if matches!(profile.origin, Origin::Fallback(_)) || profile.has_smvp_wave(limbs) {
        return Ok((msm, profile));
    }
    let probe = probe_smvp(ctx, &msm, SMVP_BUDGET_SECONDS, now, &|f, t| {
        progress(0.5 + 0.5 * f, t)
    })
    .await;
    match probe {
        Ok(probe) => {
            add_smvp(&mut profile, &probe);
            profile.origin = Origin::Calibrated;
            msm.set_profile(profile.clone());
            Ok((msm, profile))
        }
        Err(e) => {
            let p = DeviceProfile::fallback(format!("the SMVP probe failed: {e}"));
            let msm = if p.limb_bits(ctx, field) == msm.constants.limb_bits {
                msm.set_profile(p.clone());
                msm
            } else {
                compile(p.clone()).await?
            };
            Ok((msm, p))
        }
    }
}

/// Where calibrations are cached natively: `$FASTMSM_PROFILE_CACHE`, else
/// `$XDG_CACHE_HOME/fastmsm/device-profiles.json`, else `~/.cache/fastmsm/device-profiles.json`.
#[cfg(not(target_arch = "wasm32"))]
pub fn default_cache_path() -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("FASTMSM_PROFILE_CACHE").or_else(|| {
        env("XDG_CACHE_HOME")
            .or_else(|| env("HOME").map(|h| h.join(".cache")))
            .map(|d| d.join("fastmsm").join("device-profiles.json"))
    })
}

/// The cached calibration of this device in the file at `path` (one entry per device key), if
/// any. A file that exists but cannot be read is an error naming it.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_cached(
    path: &std::path::Path,
    ctx: &GpuContext,
) -> Result<Option<DeviceProfile>, GpuError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(GpuError::Input(format!("{}: {e}", path.display()))),
    };
    let doc: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| GpuError::Input(format!("{}: not JSON: {e}", path.display())))?;
    doc.get(device_key(ctx))
        .map(DeviceProfile::from_json)
        .transpose()
        .map_err(|e| GpuError::Input(format!("{}: {e}", path.display())))
}

/// Writes `profile` into the file at `path` under this device's key, keeping other devices'.
#[cfg(not(target_arch = "wasm32"))]
pub fn store_cached(
    path: &std::path::Path,
    ctx: &GpuContext,
    profile: &DeviceProfile,
) -> Result<(), GpuError> {
    let io = |e: std::io::Error| GpuError::Input(format!("{}: {e}", path.display()));
    let mut doc = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .filter(|d| d.is_object())
        .unwrap_or_else(|| json!({}));
    doc[device_key(ctx)] = profile.to_json();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    std::fs::write(
        path,
        serde_json::to_string_pretty(&doc).expect("JSON") + "\n",
    )
    .map_err(io)
}
