//! Entry points of the `gpu-msm` widget (book/widgets/gpu-msm.js): the whole GPU MSM of
//! fastmsm-gpu on the reader's WebGPU adapter, checked on the CPU in this same module.
//!
//! [`GpuMsmInput::new`] draws the cpu-msm widget's seeded input (`seeded_input::draw_ark`: the
//! same seed gives the same points and scalars) and keeps it packed for the GPU. Two CPU checks
//! exist:
//!
//! * [`GpuMsmInput::arkworks`]: arkworks' `VariableBaseMSM` on the same input (seconds at 2^16 in
//!   WebAssembly and more as n grows, so the widget runs it only up to a size the reader sets);
//! * [`GpuMsmInput::by_discrete_logs`]: the input's points are a random walk over known multiples
//!   of the generator G, so every Pᵢ = aᵢ·G with aᵢ known, and Σ kᵢ·Pᵢ = (Σ kᵢ·aᵢ mod r)·G exactly:
//!   n scalar-field products and one scalar multiplication, in arkworks, at any n. The GPU never
//!   sees the aᵢ, and the comparison is exact: a wrong GPU result passes only if it is that point.
//!
//! Pipelines are compiled once per (curve, limb width) and kept for later runs in this worker.
//! The default plan and limb width come from the worker's device profile ([`gpu_msm_profile`]):
//! calibrated on the reader's GPU, read back from the widget's cache, or named.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use ark_ec::{CurveGroup, PrimeGroup, VariableBaseMSM};
use ark_ff::{PrimeField as ArkPrimeField, Zero};
use fastmsm_gpu::calibrate::{self, CalibrationOptions};
use fastmsm_gpu::mont_wgsl::KernelForm;
use fastmsm_gpu::msm::{
    GpuCurve, GpuMsm, ProfileChoice, RunOptions, TimingSource, UploadPath, pack_points,
    pack_scalars,
};
use fastmsm_gpu::{DeviceProfile, GpuError};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::ark_pair::{ArkScalar, Bls377Pair, Bls381Pair, Bn254Pair, Pair, TePair, xy_hex};
use crate::js::{self, err, to_js};
use crate::seeded_input::{ArkInputs, draw_ark, input_size};
use crate::{gpu_context, now_seconds};

/// Limb width per curve when the reader leaves it on "auto": the device profile's (WebGPU has no
/// 64-bit integers, so its portable width), `portable`'s 15 bits before any profile is set.
pub(crate) fn default_limb_bits(curve: GpuCurve) -> u32 {
    current_profile().limb_bits_with(false, curve.base_field())
}

fn current_profile() -> DeviceProfile {
    PROFILE
        .with(|p| p.borrow().clone())
        .unwrap_or_else(|| DeviceProfile::fallback("no profile set yet"))
}

thread_local! {
    // Compiled stages per (curve, limb width, form): building the pipelines is the slow part of a run.
    static PIPELINES: RefCell<HashMap<(GpuCurve, u32, KernelForm), Rc<GpuMsm>>> = RefCell::new(HashMap::new());
    // The product's form the reader chose over the profile's (None: the profile's).
    static FORM: RefCell<Option<KernelForm>> = const { RefCell::new(None) };
    // The device profile every compiled MSM of this worker plans with.
    static PROFILE: RefCell<Option<DeviceProfile>> = const { RefCell::new(None) };
}

/// A failure of the GPU itself (not of the input) may mean the device is lost — a browser loses
/// every device when its GPU process stops — so the device and its pipelines are dropped and the
/// next run starts afresh instead of failing on the dead device forever.
pub(crate) fn gpu_failure(e: GpuError, ctx: Option<&fastmsm_gpu::GpuContext>) -> JsValue {
    if let GpuError::LimitExceeded { .. } = e {
        return err(format_args!(
            "this GPU's limits are too small for the MSM: {e}"
        ));
    }
    if !e.is_input() {
        PIPELINES.with(|p| p.borrow_mut().clear());
        crate::forget_gpu_context();
        return match ctx.and_then(|c| c.lost()) {
            Some(why) => err(format_args!(
                "the GPU device was lost during the run ({why}): {e}. The next run opens a new device."
            )),
            None => err(format_args!(
                "{e} (if the GPU device was lost, e.g. because the browser's GPU process stopped, the next run opens a new one)"
            )),
        };
    }
    err(e)
}

fn gpu_curve(name: &str) -> Result<GpuCurve, JsValue> {
    GpuCurve::from_name(name).ok_or_else(|| {
        err(format_args!(
            "unknown curve {name:?}; one of {:?}",
            GpuCurve::ALL.map(GpuCurve::name)
        ))
    })
}

fn limb_bits_for(curve: GpuCurve, limb_bits: u32) -> u32 {
    if limb_bits == 0 {
        default_limb_bits(curve)
    } else {
        limb_bits
    }
}

/// The product's form MSMs of this worker compile with: the reader's choice, else the profile's.
fn current_form() -> KernelForm {
    FORM.with(|f| *f.borrow())
        .unwrap_or_else(|| current_profile().kernel_form)
}

/// Sets the Montgomery product's form for the MSMs this worker compiles from now on: "auto"
/// (the device profile's), "unrolled" or "compact" (see `fastmsm_gpu::mont_wgsl::KernelForm`).
#[wasm_bindgen]
pub fn gpu_msm_set_form(form: String) -> Result<(), JsValue> {
    let form = match form.as_str() {
        "auto" | "" => None,
        name => Some(KernelForm::parse(name).ok_or_else(|| {
            err(format_args!(
                "unknown kernel form {name:?}: auto, unrolled or compact"
            ))
        })?),
    };
    FORM.with(|f| *f.borrow_mut() = form);
    Ok(())
}

/// The compiled MSM for (curve, width) in the current form and the seconds compiling took
/// (`None`: already compiled).
pub(crate) async fn pipelines(
    curve: GpuCurve,
    limb_bits: u32,
) -> Result<(Rc<GpuMsm>, Option<f64>), JsValue> {
    let form = current_form();
    if let Some(m) = PIPELINES.with(|p| p.borrow().get(&(curve, limb_bits, form)).cloned()) {
        return Ok((m, None));
    }
    let ctx = gpu_context().await?;
    let start = now_seconds();
    let m = Rc::new(
        GpuMsm::builder(curve)
            .limb_bits(limb_bits)
            .kernel_form(form)
            .profile(ProfileChoice::Given(current_profile()))
            .build(&ctx)
            .await
            .map_err(|e| gpu_failure(e, Some(&ctx)))?,
    );
    let seconds = now_seconds() - start;
    PIPELINES.with(|p| p.borrow_mut().insert((curve, limb_bits, form), m.clone()));
    Ok((m, Some(seconds)))
}

#[derive(Serialize)]
struct Compiled {
    curve: &'static str,
    limb_bits: u32,
    /// "unrolled" or "compact".
    form: &'static str,
    /// Seconds spent compiling now; null when the pipelines were already compiled in this worker.
    compile_seconds: Option<f64>,
}

/// Compiles the MSM stages for `curve` at `limb_bits` (0: the curve's default width), unless this
/// worker already has them: `{curve, limb_bits, compile_seconds}`.
#[wasm_bindgen]
pub async fn gpu_msm_compile(curve: String, limb_bits: u32) -> Result<JsValue, JsValue> {
    let curve = gpu_curve(&curve)?;
    let limb_bits = limb_bits_for(curve, limb_bits);
    let (msm, compile_seconds) = pipelines(curve, limb_bits).await?;
    to_js(&Compiled {
        curve: curve.name(),
        limb_bits,
        form: msm.form.name(),
        compile_seconds,
    })
}

#[derive(Serialize)]
struct ProfileReport {
    /// `DeviceProfile::to_json` as text: what the widget caches.
    profile: String,
    summary: String,
    /// "calibrated", "cached", "named" or "fallback".
    origin: &'static str,
    /// Seconds to obtain it, compiling the curve's pipelines included (null: already in place).
    seconds: Option<f64>,
    limb_bits: u32,
}

/// The MSM of `curve` this worker has compiled at the width and form profile `p` picks, if any.
fn compiled_for(curve: GpuCurve, p: &DeviceProfile) -> Option<Rc<GpuMsm>> {
    let key = (
        curve,
        p.limb_bits_with(false, curve.base_field()),
        p.kernel_form,
    );
    PIPELINES.with(|m| m.borrow().get(&key).cloned())
}

/// Sets the worker's device profile for `curve` and compiles the curve's MSM at the width it
/// picks. `mode`: "auto" (reuse `cached`, the JSON of an earlier calibration, when it belongs to
/// this device and this worker has none; measure what it lacks), "recalibrate", or a profile name
/// (`h200`, `h100`, `swiftshader`, `lavapipe`, `portable`). A calibration that fails falls back
/// to `portable` and says why in `summary`. Reports `progress(fraction, text)`.
#[wasm_bindgen]
pub async fn gpu_msm_profile(
    curve: String,
    mode: String,
    cached: Option<String>,
    progress: js_sys::Function,
) -> Result<JsValue, JsValue> {
    let curve = gpu_curve(&curve)?;
    let ctx = gpu_context().await?;
    let report = js::progress(&progress);
    let held = PROFILE.with(|p| p.borrow().clone());
    // The named profile this worker already holds, in the form asked for, with the curve compiled:
    // nothing to do (a named profile is never measured, so it is never out of date).
    if let Some(p) = &held
        && p.origin == fastmsm_gpu::profile::Origin::Named
        && p.name == mode
        && FORM.with(|f| f.borrow().is_none_or(|f| f == p.kernel_form))
        && let Some(m) = compiled_for(curve, p)
    {
        return profile_report(p, None, m.constants.limb_bits);
    }
    let request = match mode.as_str() {
        "auto" => {
            let from_cache = cached
                .as_deref()
                .and_then(|json| DeviceProfile::from_json_text(json).ok());
            // This worker's own profile first (a named one stays named), then the cache.
            match held {
                Some(p) if !matches!(p.origin, fastmsm_gpu::profile::Origin::Fallback(_)) => {
                    if let Some(m) = compiled_for(curve, &p)
                        && (p.origin == fastmsm_gpu::profile::Origin::Named
                            || p.has_smvp_wave(m.constants.limbs))
                    {
                        return profile_report(&p, None, m.constants.limb_bits);
                    }
                    match p.origin {
                        fastmsm_gpu::profile::Origin::Named => {
                            ProfileRequest::Named(p.name.clone())
                        }
                        _ => ProfileRequest::Calibrate { cached: Some(p) },
                    }
                }
                _ => ProfileRequest::Calibrate { cached: from_cache },
            }
        }
        "recalibrate" => ProfileRequest::Calibrate { cached: None },
        // A named profile, in the product form the reader chose where it differs.
        name => match FORM.with(|f| *f.borrow()) {
            Some(form) => ProfileRequest::Given(DeviceProfile {
                kernel_form: form,
                ..DeviceProfile::named(name).map_err(|e| gpu_failure(e, Some(&ctx)))?
            }),
            None => ProfileRequest::Named(name.to_string()),
        },
    };
    let start = now_seconds();
    let (msm, profile) = prepare(&ctx, curve, request, &report)
        .await
        .map_err(|e| gpu_failure(e, Some(&ctx)))?;
    let seconds = now_seconds() - start;
    let limb_bits = msm.constants.limb_bits;
    PIPELINES.with(|p| {
        let mut p = p.borrow_mut();
        for m in p.values_mut() {
            *m = Rc::new(m.with_profile(profile.clone()));
        }
        p.insert((curve, limb_bits, msm.form), Rc::new(msm));
    });
    PROFILE.with(|p| *p.borrow_mut() = Some(profile.clone()));
    profile_report(&profile, Some(seconds), limb_bits)
}

/// How [`gpu_msm_profile`] gets its profile.
enum ProfileRequest {
    /// A named profile.
    Named(String),
    /// This profile as it is.
    Given(DeviceProfile),
    /// Calibrate, extending this device's cached calibration where there is one.
    Calibrate { cached: Option<DeviceProfile> },
}

/// The MSM of `curve` at the width the requested profile picks, and the profile. A calibration
/// that fails gives the `portable` profile with the reason; a cached calibration of another
/// device is not used.
async fn prepare(
    ctx: &fastmsm_gpu::GpuContext,
    curve: GpuCurve,
    request: ProfileRequest,
    progress: fastmsm_gpu::msm::Progress<'_>,
) -> Result<(GpuMsm, DeviceProfile), GpuError> {
    let profile = match request {
        ProfileRequest::Named(name) => DeviceProfile::named(&name)?,
        ProfileRequest::Given(p) => p,
        ProfileRequest::Calibrate { cached } => {
            let key = fastmsm_gpu::profile::cache::device_key(ctx);
            let options = CalibrationOptions {
                clock: now_seconds,
                progress: Some(progress),
                start_from: cached.filter(|p| p.device == key),
                ..Default::default()
            };
            match calibrate::calibrate(ctx, curve, &options).await {
                Ok(done) => return Ok((done.msm, done.profile)),
                Err(e) => DeviceProfile::fallback(e.to_string()),
            }
        }
    };
    progress(0.4, &format!("compiling the MSM for {}", curve.name()));
    let msm = GpuMsm::builder(curve)
        .profile(ProfileChoice::Given(profile.clone()))
        .build(ctx)
        .await?;
    Ok((msm, profile))
}

fn profile_report(
    p: &DeviceProfile,
    seconds: Option<f64>,
    limb_bits: u32,
) -> Result<JsValue, JsValue> {
    to_js(&ProfileReport {
        profile: p.to_json().to_string(),
        summary: p.summary(),
        origin: p.origin.label(),
        seconds,
        limb_bits,
    })
}

/// Test hook of the end-to-end suite: destroys the worker's GPU device, as a crash of the
/// browser's GPU process would lose it, so the next run meets a lost device.
#[wasm_bindgen]
pub async fn gpu_msm_lose_device() -> Result<(), JsValue> {
    gpu_context().await?.device.destroy();
    Ok(())
}

/// The adapter the GPU widgets run on, with the limits that bound an MSM (as the capability widget
/// reports them, but of the device actually opened).
#[wasm_bindgen]
pub async fn gpu_msm_adapter() -> Result<JsValue, JsValue> {
    let ctx = gpu_context().await?;
    to_js(&crate::capabilities::Adapter::from(ctx.report()))
}

/// A curve's seeded input: arkworks' types for the CPU checks, packed words for the GPU.
trait Input {
    fn n(&self) -> usize;
    fn packed(&self) -> (&[u32], &[u32]);
    /// `(x, y)` hex of arkworks' MSM on the input (`None` each for the identity).
    fn arkworks(&self) -> (Option<String>, Option<String>);
    /// `(x, y)` hex of (Σ kᵢ·aᵢ)·G.
    fn by_discrete_logs(&self) -> (Option<String>, Option<String>);
}

struct Drawn<P: Pair> {
    ark: ArkInputs<P>,
    points: Vec<u32>,
    scalars: Vec<u32>,
}

impl<P: Pair> Drawn<P> {
    fn new(curve: GpuCurve, n: usize, seed: u64, progress: &dyn Fn(f64, &str)) -> Self {
        let ark = draw_ark::<P>(n, seed, true, &|f, text| progress(0.8 * f, text));
        progress(0.8, "packing the input for the GPU");
        let mut points = Vec::with_capacity(n * 2 * curve.coord_words());
        for chunk in ark.ark_points.chunks(4096) {
            let xy: Vec<_> = chunk.iter().map(P::layout_xy).collect();
            points.extend(pack_points(curve, &xy));
        }
        let scalars = pack_scalars(&ark.scalars);
        Drawn {
            ark,
            points,
            scalars,
        }
    }
}

impl<P: Pair> Input for Drawn<P> {
    fn n(&self) -> usize {
        self.ark.scalars.len()
    }

    fn packed(&self) -> (&[u32], &[u32]) {
        (&self.points, &self.scalars)
    }

    fn arkworks(&self) -> (Option<String>, Option<String>) {
        let q = P::Ark::msm(&self.ark.ark_points, &self.ark.ark_scalars).expect("equal lengths");
        xy_hex(P::ark_xy(&q.into_affine()))
    }

    fn by_discrete_logs(&self) -> (Option<String>, Option<String>) {
        let logs = self.ark.logs.as_ref().expect("drawn with logs");
        let mut t = ArkScalar::<P>::zero();
        for (k, a) in self.ark.ark_scalars.iter().zip(logs) {
            t += *k * a;
        }
        let q = P::Ark::generator().mul_bigint(t.into_bigint());
        xy_hex(P::ark_xy(&q.into_affine()))
    }
}

#[derive(Serialize)]
struct Point {
    x: Option<String>,
    y: Option<String>,
    /// Seconds the CPU spent on it.
    seconds: f64,
}

#[derive(Serialize)]
struct Stage {
    stage: &'static str,
    seconds: f64,
}

#[derive(Serialize)]
struct Span {
    what: String,
    start: f64,
    end: f64,
}

#[derive(Serialize)]
struct GpuRun {
    curve: &'static str,
    n: usize,
    limb_bits: u32,
    limbs: usize,
    window_bits: u32,
    windows: u32,
    buckets: u32,
    /// Points per batch, and batches (more than one where the binding limit splits the input).
    batch: usize,
    batches: usize,
    segments: u32,
    /// "gpu-timestamps", "host-waits" or "none".
    timing: &'static str,
    stages: Vec<Stage>,
    /// The host's phases (validate, setup, upload, gpu, combine), from its clock.
    host: Vec<Stage>,
    /// How the input went up (`UploadPath::name`).
    upload: String,
    /// The host's timeline: each upload call, submit, wait and map, seconds from the MSM's start.
    host_trace: Vec<Span>,
    /// Seconds from the packed input in memory to the affine result: upload, every stage, readback
    /// and the Horner step on the CPU.
    seconds: f64,
    x: Option<String>,
    y: Option<String>,
}

/// One curve's seeded MSM input, kept in the worker between runs.
#[wasm_bindgen]
pub struct GpuMsmInput {
    curve: GpuCurve,
    inner: Rc<dyn Input>,
}

#[wasm_bindgen]
impl GpuMsmInput {
    /// Draws n points and scalars for `curve` from `seed` (the cpu-msm widget's input for the same
    /// seed), with their discrete logarithms, reporting `progress(fraction, text)`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        curve: &str,
        n: u32,
        seed: u32,
        progress: &js_sys::Function,
    ) -> Result<GpuMsmInput, JsValue> {
        let n = input_size(n)?;
        let report = js::progress(progress);
        let curve = gpu_curve(curve)?;
        let seed = u64::from(seed);
        let inner: Rc<dyn Input> = match curve {
            GpuCurve::Bn254 => Rc::new(Drawn::<Bn254Pair>::new(curve, n, seed, &report)),
            GpuCurve::Bls12_377 => Rc::new(Drawn::<Bls377Pair>::new(curve, n, seed, &report)),
            GpuCurve::Bls12_381 => Rc::new(Drawn::<Bls381Pair>::new(curve, n, seed, &report)),
            GpuCurve::EdBls12_377 => Rc::new(Drawn::<TePair>::new(curve, n, seed, &report)),
        };
        Ok(GpuMsmInput { curve, inner })
    }

    #[wasm_bindgen(getter)]
    pub fn n(&self) -> u32 {
        self.inner.n() as u32
    }

    /// The limb width `gpu` uses for `limb_bits` 0.
    #[wasm_bindgen(getter)]
    pub fn default_limb_bits(&self) -> u32 {
        default_limb_bits(self.curve)
    }

    /// arkworks' `VariableBaseMSM` on the input: `{x, y, seconds}`.
    pub fn arkworks(&self) -> Result<JsValue, JsValue> {
        let start = now_seconds();
        let (x, y) = self.inner.arkworks();
        to_js(&Point {
            x,
            y,
            seconds: now_seconds() - start,
        })
    }

    /// (Σ kᵢ·aᵢ mod r)·G from the points' discrete logarithms aᵢ: `{x, y, seconds}`.
    pub fn by_discrete_logs(&self) -> Result<JsValue, JsValue> {
        let start = now_seconds();
        let (x, y) = self.inner.by_discrete_logs();
        to_js(&Point {
            x,
            y,
            seconds: now_seconds() - start,
        })
    }

    /// One GPU MSM of the whole input (a promise of `GpuRun`). `limb_bits` 0: the curve's
    /// default; `window_bits` 0: chosen from n; `upload`: how the input goes up (`UploadPath::parse`,
    /// default "auto"); `wait_after_upload`: a diagnostic wait until the GPU has the input;
    /// `batch`: points per batch (0 or none: the plan's; smaller batches let the GPU work on one
    /// while the next is sent). Compiles the pipelines first if this worker has not.
    pub fn gpu(
        &self,
        limb_bits: u32,
        window_bits: u32,
        upload: Option<String>,
        wait_after_upload: Option<bool>,
        batch: Option<u32>,
    ) -> js_sys::Promise {
        let (curve, inner) = (self.curve, self.inner.clone());
        wasm_bindgen_futures::future_to_promise(async move {
            let upload = UploadPath::parse(upload.as_deref().unwrap_or("auto")).map_err(err)?;
            let limb_bits = limb_bits_for(curve, limb_bits);
            let (msm, _) = pipelines(curve, limb_bits).await?;
            let ctx = gpu_context().await?;
            let (points, scalars) = inner.packed();
            let options = RunOptions {
                window_bits: (window_bits != 0).then_some(window_bits),
                stage_timing: true,
                host_trace: true,
                clock: now_seconds,
                upload,
                wait_after_upload: wait_after_upload.unwrap_or(false),
                batch: batch.filter(|&b| b > 0).map(|b| b as usize),
                ..RunOptions::default()
            };
            let start = now_seconds();
            let out = msm
                .run_packed(&ctx, points, scalars, &options)
                .await
                .map_err(|e| gpu_failure(e, Some(&ctx)))?;
            let seconds = now_seconds() - start;
            let (x, y) = xy_hex(out.result);
            let p = out.plan;
            to_js(&GpuRun {
                curve: curve.name(),
                n: p.n,
                limb_bits,
                limbs: msm.constants.limbs,
                window_bits: p.window_bits,
                windows: p.windows,
                buckets: p.buckets,
                batch: p.batch,
                batches: p.batches(),
                segments: p.segments,
                timing: match out.timing {
                    TimingSource::GpuTimestamps => "gpu-timestamps",
                    TimingSource::HostWaits => "host-waits",
                    TimingSource::None => "none",
                },
                stages: out
                    .stages
                    .into_iter()
                    .map(|(stage, seconds)| Stage {
                        stage: stage.entry_point(),
                        seconds,
                    })
                    .collect(),
                host: out
                    .host
                    .into_iter()
                    .map(|(stage, seconds)| Stage { stage, seconds })
                    .collect(),
                upload: upload.name(),
                host_trace: out
                    .host_trace
                    .into_iter()
                    .map(|t| Span {
                        what: t.what,
                        start: t.start,
                        end: t.end,
                    })
                    .collect(),
                seconds,
                x,
                y,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The discrete-log check must agree with arkworks' MSM, or it would verify nothing.
    fn logs_match_msm<P: Pair>(curve: GpuCurve) {
        for n in [1, 2, 17, 300] {
            let d = Drawn::<P>::new(curve, n, 7 + n as u64, &|_, _| {});
            let (x, _) = d.by_discrete_logs();
            assert!(
                x.is_some(),
                "{curve:?} n={n}: a random input gives a non-trivial point"
            );
            assert_eq!(d.by_discrete_logs(), d.arkworks(), "{curve:?} n={n}");
            assert_eq!(d.points.len(), n * 2 * curve.coord_words());
            assert_eq!(d.scalars.len(), n * 8);
        }
    }

    #[test]
    fn discrete_log_check_equals_arkworks() {
        logs_match_msm::<Bn254Pair>(GpuCurve::Bn254);
        logs_match_msm::<Bls377Pair>(GpuCurve::Bls12_377);
        logs_match_msm::<Bls381Pair>(GpuCurve::Bls12_381);
        logs_match_msm::<TePair>(GpuCurve::EdBls12_377);
    }
}
