//! Calibration: a short measurement on the device that fills in a [`DeviceProfile`].
//!
//! The measure is the MSM itself, timed by the caller's clock (`Instant` natively,
//! `performance.now()` in a browser), with progress reported. For every candidate limb width
//! ([`candidate_widths`]: the portable 13 and 15 bits, and the 64-bit width where the adapter
//! offers `SHADER_INT64`) the MSM is compiled and [`probe_smvp`] finds the chunk size that makes
//! it fastest on [`probe_points`] points; the number of SMVP invocations at that size is the
//! device's wave for that kernel. The fastest portable width becomes the profile's, and the 64-bit
//! width is used only where its MSM beats it: Apple and Intel GPUs offer 64-bit integers but
//! emulate the multiply, and on NVIDIA's the faster product rate of narrow limbs does not make the
//! faster MSM, since the wide limbs halve the registers and bytes per point. Timing the MSM
//! rather than a product microbenchmark is what makes both decisions come out right.
//!
//! The product's form ([`form_for`]) follows the adapter's type. A calibration takes a few
//! seconds natively (one compile and about a dozen MSMs per width); [`prepare`] runs it (or takes a
//! named or cached profile) and hands back the MSM at the chosen width with the profile set;
//! natively [`load_cached`] and [`store_cached`] keep calibrations in a JSON file
//! ([`default_cache_path`]).

use fastmsm_mont::{Canonical, Field};
use serde_json::json;

use crate::field::sample_elements;
use crate::field::{INT64_LIMB_WIDTHS, radix64_limb_bits};
use crate::mont_wgsl::KernelForm;
use crate::msm::{GpuCurve, GpuMsm, MsmOptions, pack_points};
use crate::profile::{DeviceProfile, Origin};
use crate::{GpuContext, GpuError};

/// The portable widths a calibration compares (12 and 16 bits were slower everywhere measured,
/// benches/results/wgsl-mont-*.json, and each width costs a shader compile).
pub const PORTABLE_CANDIDATES: [u32; 2] = [13, 15];

/// Progress: fraction done in [0, 1] and what is happening.
pub type Progress<'a> = &'a dyn Fn(f64, &str);

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
    /// False where the sweep ran out of time before the time turned up again: the fastest wave
    /// measured is then a lower bound.
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
pub fn probe_points(ctx: &GpuContext) -> usize {
    if ctx.info.device_type == wgpu::DeviceType::Cpu {
        1 << 10
    } else {
        1 << 18
    }
}

/// Finds the SMVP wave of `msm`'s kernel on this device: the number of invocations per batch
/// (chunks of K entries) that makes a whole MSM of [`probe_points`] fastest.
///
/// Every invocation adds its K points in sequence, so as long as the device has room for more
/// invocations, halving K halves the stage; once every invocation the device can hold is busy,
/// smaller chunks only add head slots for `smvp_combine` to sum. The sweep starts at chunks of 64
/// entries (quick on any device), halves the invocations until the time has risen twice in a row,
/// doubles them down to chunks of 16, then tries the two half-steps beside the best. It times whole MSMs from the host clock, so it needs no timestamp
/// queries, and it first keeps the device busy until two runs in a row agree, because GPUs idle
/// at a fraction of their clock and a probe on a cold GPU measures the clock ramp instead.
/// `budget` bounds its seconds after the warm-up; a slow device stops early with the best wave
/// measured (`bracketed` false).
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
    let windows = msm.plan(ctx, n, &probe_options(n))?.windows;
    let entries = n * windows as usize;
    // A device that cuts long loops short bounds K (msm::loops): the walk stops there.
    let most_k = msm
        .loop_budget(ctx)
        .and_then(|b| b.max_chunk(windows))
        .unwrap_or(u32::MAX);
    // Shorter chunks leave each invocation's fixed work (finding its chunk, writing a head slot)
    // as large as its additions.
    const MIN_K: usize = 16;
    let cpu = ctx.info.device_type == wgpu::DeviceType::Cpu;
    // Warm-up: the default plan, back to back, for at least half a second and until two runs agree
    // within 5% (at most 2 s; once on a CPU adapter). Agreement alone is not enough: two runs early
    // in a clock ramp can agree with each other and not with the risen clock.
    let (least, most) = if cpu { (0.0, 0.0) } else { (0.5, 2.0) };
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
    let start = now();
    let mut steps: Vec<(usize, u32, u32, f64)> = Vec::new();
    let mut measure = async |wave: usize| -> Result<(u32, f64), GpuError> {
        let k = (entries.div_ceil(wave).max(MIN_K) as u32).min(most_k);
        if let Some(&(_, _, t, s)) = steps.iter().find(|st| st.1 == k) {
            return Ok((t, s));
        }
        let mut best = (0, f64::INFINITY);
        for _ in 0..reps {
            let (t, s) = time_msm(ctx, msm, n, Some(k), &input, now).await?;
            best = (t, best.1.min(s));
        }
        steps.push((n, k, best.0, best.1));
        progress(
            (0.1 + 0.9 * (now() - start) / budget).min(1.0),
            &format!(
                "SMVP probe: {} invocations of {k} points, {:.2} ms",
                best.0,
                best.1 * 1e3
            ),
        );
        Ok(best)
    };
    // Start where chunks are short (a fast MSM on any device), then walk both ways: fewer
    // invocations with longer chunks while that helps, and more down to MIN_K.
    let start_wave = (entries / 64).max(1);
    let (t, s) = measure(start_wave).await?;
    let mut best = (start_wave, s, t);
    let mut bracketed = false;
    for fewer in [true, false] {
        let (mut wave, mut rises) = (start_wave, 0);
        loop {
            wave = if fewer { wave / 2 } else { wave * 2 };
            let past_bound = fewer && entries.div_ceil(wave.max(1) * 2) as u32 > most_k;
            if wave == 0 || entries / wave < MIN_K || past_bound || now() - start > budget {
                break;
            }
            let (t, s) = measure(wave).await?;
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
        if now() - start > budget {
            break;
        }
        let side = side as usize;
        if side >= 1 && entries / side >= MIN_K {
            let (t, s) = measure(side).await?;
            if s < best.1 {
                best = (side, s, t);
            }
        }
    }
    Ok(SmvpProbe {
        limbs,
        steps,
        invocations: best.2.max(1),
        seconds: best.1,
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
    let options = MsmOptions {
        chunk: k,
        ..probe_options(n)
    };
    let start = now();
    let out = msm
        .run_packed(ctx, &input.0, &input.1, &options, now)
        .await?;
    Ok((out.plan.smvp_threads(n), now() - start))
}

fn probe_options(n: usize) -> MsmOptions {
    MsmOptions {
        batch: Some(n),
        ..Default::default()
    }
}

/// The product's form for this adapter: compact in a browser, unrolled natively. A browser's
/// shader compiler takes minutes over the straight-line BLS12 kernels where it takes seconds over
/// the compact ones (and SwiftShader's gives up on them), and first use is what a reader of the
/// page waits for; natively the same kernels build in about a second.
pub fn form_for(ctx: &GpuContext) -> KernelForm {
    if ctx.info.backend == wgpu::Backend::BrowserWebGpu {
        KernelForm::Compact
    } else {
        KernelForm::Unrolled
    }
}

/// Records a measured wave in `profile`, with the reduction budget it implies for 64-bit
/// products (about one wave of the largest kernel measured; never below the portable budget).
pub fn add_smvp(profile: &mut DeviceProfile, probe: &SmvpProbe) {
    profile.set_smvp_wave(probe.limbs, probe.invocations);
    let least = profile.smvp_wave.iter().map(|w| w.1).min().unwrap_or(1);
    profile.reduction_threads_int64 = least.max(profile.reduction_threads);
    if !profile.measurements.is_object() {
        profile.measurements = json!({});
    }
    if let Some(m) = profile.measurements.as_object_mut() {
        let list = m.entry("smvp").or_insert_with(|| json!([]));
        if let Some(list) = list.as_array_mut() {
            list.retain(|e| e["limbs"] != json!(probe.limbs));
            list.push(json!({
                "limbs": probe.limbs,
                "invocations": probe.invocations,
                "msm_ms": probe.seconds * 1e3,
                "bracketed": probe.bracketed,
                "steps": probe.steps.iter().map(|&(n, k, t, s)| json!({"n": n, "k": k, "invocations": t, "ms": s * 1e3})).collect::<Vec<_>>(),
            }));
        }
    }
}

/// The limb widths a calibration tries for `field`: the portable candidates, and the 64-bit
/// width where the adapter has 64-bit shader integers.
///
/// In a browser only the default portable width is measured: every width there is a compile of
/// seconds, which is what a reader waits for on first use, and 15 bits beat 13 wherever both were
/// measured (the product rates of benches/results/wgsl-mont-nvidia-h200.json, and every native
/// calibration's MSM on the H100).
pub fn candidate_widths(ctx: &GpuContext, field: Field) -> Vec<u32> {
    if ctx.info.backend == wgpu::Backend::BrowserWebGpu {
        return vec![DeviceProfile::portable().portable_limb_bits];
    }
    let mut widths = PORTABLE_CANDIDATES.to_vec();
    if ctx.features.contains(wgpu::Features::SHADER_INT64) {
        widths.push(radix64_limb_bits(field));
    }
    widths
}

/// Calibrates `curve` from nothing: every candidate width compiled and its wave measured by
/// [`probe_smvp`]; the fastest portable width and, where it beats that, the 64-bit one make the
/// profile. Gives the MSM at the chosen width. A width that fails to compile or to run is left
/// out (its reason is kept in the measurements); if all fail, the first error.
async fn calibrate(
    ctx: &GpuContext,
    curve: GpuCurve,
    now: &dyn Fn() -> f64,
    progress: Progress<'_>,
) -> Result<(GpuMsm, DeviceProfile), GpuError> {
    let field = curve.base_field();
    let form = form_for(ctx);
    let widths = candidate_widths(ctx, field);
    let mut measured: Vec<(u32, GpuMsm, SmvpProbe)> = Vec::new();
    let mut failures = Vec::new();
    for (i, &w) in widths.iter().enumerate() {
        let part = |f: f64| (i as f64 + f) / widths.len() as f64;
        progress(
            part(0.0),
            &format!("compiling the {w}-bit MSM for {}", curve.name()),
        );
        let probe = async {
            let msm = GpuMsm::with_form(ctx, curve, w, form).await?;
            let probe = probe_smvp(ctx, &msm, SMVP_BUDGET_SECONDS, now, &|f, t| {
                progress(part(0.2 + 0.8 * f), &format!("{w}-bit limbs: {t}"))
            })
            .await?;
            Ok::<_, GpuError>((msm, probe))
        };
        match probe.await {
            Ok((msm, probe)) => measured.push((w, msm, probe)),
            Err(e) => failures.push(json!({"limb_bits": w, "error": e.to_string()})),
        }
    }
    let fastest = |int64: bool| {
        measured
            .iter()
            .filter(|m| INT64_LIMB_WIDTHS.contains(&m.0) == int64)
            .min_by(|a, b| a.2.seconds.total_cmp(&b.2.seconds))
    };
    let Some(portable) = fastest(false) else {
        let why = failures
            .first()
            .map_or("no width measured".to_string(), |f| f["error"].to_string());
        return Err(GpuError::Validation(format!("calibration: {why}")));
    };
    let fast_int64 = fastest(true).is_some_and(|m| m.2.seconds < portable.2.seconds);
    let mut profile = DeviceProfile {
        name: "calibrated".into(),
        origin: Origin::Calibrated,
        device: device_key(ctx),
        fast_int64,
        portable_limb_bits: portable.0,
        kernel_form: form,
        smvp_wave: Vec::new(),
        measurements: json!({ "msm_points": probe_points(ctx), "failed": failures }),
        ..DeviceProfile::portable()
    };
    for (_, _, probe) in &measured {
        add_smvp(&mut profile, probe);
    }
    let chosen = profile.limb_bits(ctx, field);
    let msm = measured
        .into_iter()
        .find(|m| m.0 == chosen)
        .map(|m| m.1)
        .expect("the chosen width was measured");
    msm.set_profile(profile.clone());
    Ok((msm, profile))
}

/// How [`prepare`] gets its profile.
#[derive(Clone, Debug)]
pub enum ProfileRequest {
    /// A named profile ([`DeviceProfile::named`]).
    Named(String),
    /// This profile as it is (a named one with another product form, one read from a file).
    Given(DeviceProfile),
    /// Calibrate, starting from a cached calibration of this device where there is one (it is
    /// reused as far as it goes: a kernel size it lacks is measured and added).
    Calibrate {
        /// This device's earlier calibration, where a cache holds one.
        cached: Option<DeviceProfile>,
    },
}

/// Seconds the SMVP probe of one width may take after its warm-up.
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
        let msm = GpuMsm::with_form(ctx, curve, p.limb_bits(ctx, field), p.kernel_form).await?;
        msm.set_profile(p);
        Ok::<_, GpuError>(msm)
    };
    let profile = match request {
        ProfileRequest::Named(name) => {
            let p = DeviceProfile::named(&name)?;
            let msm = compile(p.clone()).await?;
            return Ok((msm, p));
        }
        ProfileRequest::Given(p) => {
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
            return match calibrate(ctx, curve, now, progress).await {
                Ok(done) => Ok(done),
                Err(e) => {
                    let p = DeviceProfile::fallback(e.to_string());
                    Ok((compile(p.clone()).await?, p))
                }
            };
        }
    };
    // A cached profile: measure only the wave of a kernel size it lacks.
    let msm = compile(profile.clone()).await?;
    if profile.has_smvp_wave(msm.constants.limbs) {
        return Ok((msm, profile));
    }
    let mut profile = profile;
    match probe_smvp(ctx, &msm, SMVP_BUDGET_SECONDS, now, &|f, t| {
        progress(0.5 + 0.5 * f, t)
    })
    .await
    {
        Ok(probe) => {
            add_smvp(&mut profile, &probe);
            profile.origin = Origin::Calibrated;
            msm.set_profile(profile.clone());
            Ok((msm, profile))
        }
        Err(e) => {
            let p = DeviceProfile::fallback(format!("the SMVP probe failed: {e}"));
            let msm = if p.limb_bits(ctx, field) == msm.constants.limb_bits
                && p.kernel_form == msm.form
            {
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
