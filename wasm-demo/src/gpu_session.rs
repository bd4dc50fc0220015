//! The GPU MSM session: one WebGPU device, the device profile its MSMs plan with, and the
//! pipelines compiled on it — everything a GPU MSM keeps between calls, held by an object that its
//! caller creates and frees (the npm package's worker, the widget worker), never by the module.
//!
//! A session's settings are fixed when it is made: the profile mode ("auto": this device's
//! cached calibration, else the named profile of its kind of adapter, unmeasured; "recalibrate":
//! a new calibration; or a named profile) and the Montgomery product's form (the profile's, or
//! one the caller names). Another setting is another session, so no call can change what a later
//! call of another caller compiles.
//!
//! This is the only module that calls fastmsm-gpu's MSM API (device, calibration, compilation,
//! runs); the widget's entry points (gpu_msm.rs) and the npm package's (msm_api.rs) call it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use fastmsm_gpu::calibrate::{self, CalibrationOptions};
use fastmsm_gpu::mont_wgsl::KernelForm;
use fastmsm_gpu::msm::{
    GpuCurve, GpuMsm, MsmOutput, ProfileChoice, RunOptions, pack_points, pack_scalars,
};
use fastmsm_gpu::profile::Origin;
use fastmsm_gpu::{AdapterReport, DeviceLimits, DeviceProfile, GpuContext, GpuError};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::js::{self, err, to_js};
use crate::now_seconds;

/// How a session obtains its device profile.
#[derive(Clone, Debug, PartialEq)]
enum Mode {
    /// The calibration cached for this device (the caller passes it), measuring what it lacks, or
    /// where there is none the named profile of this kind of adapter, unmeasured.
    Auto,
    /// A new calibration, whatever is cached.
    Recalibrate,
    /// A named profile (`DeviceProfile::named`): never measured.
    Named(String),
}

/// Compiled MSMs by (curve, limb width, product form).
type Pipelines = HashMap<(GpuCurve, u32, KernelForm), Rc<GpuMsm>>;

/// What a session holds between calls (borrowed briefly, never across an await).
#[derive(Default)]
struct Held {
    /// The open device; `None` before the first use and after a failure of the GPU itself.
    device: Option<Rc<GpuContext>>,
    /// While the device is being opened: a promise that settles once it is (or failed), which
    /// every other caller waits for instead of opening a second device. (A preparation and a
    /// run may ask at once; pipelines of one device cannot run on another.)
    opening: Option<js_sys::Promise>,
    /// The profile every compiled MSM of the session plans with.
    profile: Option<DeviceProfile>,
    pipelines: Pipelines,
}

pub(crate) struct Session {
    mode: Mode,
    /// The product's form the caller chose over the profile's (`None`: the profile's).
    form: Option<KernelForm>,
    /// An earlier calibration of this device (mode `Auto`), as the caller cached it.
    cached: Option<DeviceProfile>,
    /// The limits the device is requested with: the adapter's, or WebGPU's defaults only.
    limits: DeviceLimits,
    /// Whether pipelines are compiled in parallel before wgpu creates them
    /// (`GpuMsmBuilder::precompile`); false only to time the sequential path against it.
    precompile: bool,
    held: RefCell<Held>,
}

/// A profile as the widgets show and cache it.
#[derive(Serialize)]
pub(crate) struct Prepared {
    /// `DeviceProfile::to_json` as text: what a caller caches.
    profile: String,
    summary: String,
    /// "calibrated", "cached", "named" or "fallback".
    origin: &'static str,
    /// Seconds to obtain it, compiling the curve's pipelines included (null: already in place).
    seconds: Option<f64>,
    limb_bits: u32,
}

/// The MSM stages of one curve as compiled, and what compiling took.
#[derive(Serialize)]
pub(crate) struct Compiled {
    pub curve: &'static str,
    pub limb_bits: u32,
    /// "unrolled" or "compact".
    pub form: &'static str,
    /// Seconds spent compiling now; null when the session had them already.
    pub compile_seconds: Option<f64>,
}

pub(crate) fn gpu_curve(name: &str) -> Result<GpuCurve, JsValue> {
    GpuCurve::from_name(name).ok_or_else(|| {
        err(format_args!(
            "unknown curve {name:?}; one of {}",
            GpuCurve::ALL.map(GpuCurve::name).join(", ")
        ))
    })
}

impl Session {
    /// A session with profile mode `profile` ("auto", "recalibrate" or a profile name), product
    /// form `form` ("auto": the profile's, "unrolled" or "compact") and, for "auto", `cached`: the
    /// JSON of an earlier calibration (ignored if it does not parse or names another device).
    fn new(
        profile: &str,
        form: &str,
        cached: Option<&str>,
        limits: &str,
        pipelines: &str,
    ) -> Result<Self, JsValue> {
        let mode = match profile {
            "auto" | "" => Mode::Auto,
            "recalibrate" => Mode::Recalibrate,
            name => {
                DeviceProfile::named(name).map_err(err)?;
                Mode::Named(name.to_string())
            }
        };
        let form = match form {
            "auto" | "" => None,
            name => Some(KernelForm::parse(name).ok_or_else(|| {
                err(format_args!(
                    "unknown kernel form {name:?}: auto, unrolled or compact"
                ))
            })?),
        };
        let precompile = match pipelines {
            "parallel" | "" => true,
            "sequential" => false,
            other => {
                return Err(err(format_args!(
                    "unknown pipeline creation {other:?}: parallel or sequential"
                )));
            }
        };
        Ok(Session {
            mode,
            precompile,
            form,
            cached: cached.and_then(|json| DeviceProfile::from_json_text(json).ok()),
            limits: DeviceLimits::parse(limits).map_err(err)?,
            held: RefCell::default(),
        })
    }

    /// The session's device, opened on first use (and again after a failure of the GPU).
    pub(crate) async fn device(&self) -> Result<Rc<GpuContext>, JsValue> {
        loop {
            let opening = {
                let held = self.held.borrow();
                if let Some(d) = held.device.clone() {
                    return Ok(d);
                }
                held.opening.clone()
            };
            match opening {
                // Opened (or failed) by the other caller: look again.
                Some(gate) => {
                    let _ = wasm_bindgen_futures::JsFuture::from(gate).await;
                }
                None => break,
            }
        }
        let mut settle: Option<js_sys::Function> = None;
        let gate = js_sys::Promise::new(&mut |resolve, _| settle = Some(resolve));
        self.held.borrow_mut().opening = Some(gate);
        let opened = GpuContext::open(self.limits, GpuContext::OPTIONAL_FEATURES).await;
        let d = {
            let mut held = self.held.borrow_mut();
            held.opening = None;
            let d = opened.map(Rc::new);
            if let Ok(d) = &d {
                held.device = Some(d.clone());
            }
            d
        };
        if let Some(settle) = settle {
            let _ = settle.call0(&JsValue::NULL);
        }
        d.map_err(err)
    }

    fn profile(&self) -> DeviceProfile {
        self.held
            .borrow()
            .profile
            .clone()
            .unwrap_or_else(|| DeviceProfile::fallback("the session has not prepared a curve yet"))
    }

    /// The product's form the session compiles in: the caller's choice, else the profile's.
    fn form(&self) -> KernelForm {
        self.form.unwrap_or_else(|| self.profile().kernel_form)
    }

    /// The limb width of `curve` under the session's profile (WebGPU has no 64-bit integers, so
    /// its portable width; 15 bits before a profile is set).
    pub(crate) fn default_limb_bits(&self, curve: GpuCurve) -> u32 {
        self.profile().limb_bits_with(false, curve.base_field())
    }

    fn compiled(&self, curve: GpuCurve, limb_bits: u32, form: KernelForm) -> Option<Rc<GpuMsm>> {
        self.held
            .borrow()
            .pipelines
            .get(&(curve, limb_bits, form))
            .cloned()
    }

    /// A failure of the GPU itself (not of the input) may mean the device is lost — a browser
    /// loses every device when its GPU process stops — so the session drops its device and
    /// pipelines and its next call opens a new device instead of failing on the dead one forever.
    pub(crate) fn failure(&self, e: GpuError) -> JsValue {
        if let GpuError::LimitExceeded { .. } = e {
            return err(format_args!(
                "this GPU's limits are too small for the MSM: {e}"
            ));
        }
        if e.is_input() {
            return err(e);
        }
        let lost = {
            let mut held = self.held.borrow_mut();
            held.pipelines.clear();
            held.device.take().and_then(|d| d.lost())
        };
        match lost {
            Some(why) => err(format_args!(
                "the GPU device was lost during the run ({why}): {e}. The next run opens a new device."
            )),
            None => err(format_args!(
                "{e} (if the GPU device was lost, e.g. because the browser's GPU process stopped, the next run opens a new one)"
            )),
        }
    }

    /// Sets the session's profile for `curve` by its mode and compiles the curve's MSM at the width
    /// the profile picks; nothing to do where that is done. A calibration that fails falls back to
    /// `portable` and says why in `summary`. Reports `progress(fraction, text)`.
    pub(crate) async fn prepare(
        &self,
        curve: GpuCurve,
        progress: &dyn Fn(f64, &str),
    ) -> Result<Prepared, JsValue> {
        let ctx = self.device().await?;
        let held = self.held.borrow().profile.clone();
        let request = match (&self.mode, held) {
            // A profile in place: done where the curve is compiled at its width (and, for a
            // measured profile, its SMVP wave is measured); else measure only what it lacks.
            (_, Some(p)) if !matches!(p.origin, Origin::Fallback(_)) => {
                let width = p.limb_bits_with(false, curve.base_field());
                let form = self.form.unwrap_or(p.kernel_form);
                if let Some(m) = self.compiled(curve, width, form)
                    && (p.origin == Origin::Named || p.has_smvp_wave(m.constants.limbs))
                {
                    return Ok(prepared(&p, None, width));
                }
                match p.origin {
                    Origin::Named => ProfileRequest::Given(p),
                    _ => ProfileRequest::Calibrate { cached: Some(p) },
                }
            }
            // A named profile, in the product form the caller chose where it differs.
            (Mode::Named(name), _) => {
                let p = DeviceProfile::named(name).map_err(err)?;
                ProfileRequest::Given(DeviceProfile {
                    kernel_form: self.form.unwrap_or(p.kernel_form),
                    ..p
                })
            }
            // This device's cached calibration, extended where it lacks this curve's wave; with
            // none, the named profile of this kind of adapter, unmeasured, so that a first use
            // waits for its pipelines only (the caller calibrates afterwards, in a session of
            // its own, and caches the result for the next session: see core/gpu.js).
            (Mode::Auto, _) => {
                let key = fastmsm_gpu::profile::cache::device_key(&ctx);
                match self.cached.clone().filter(|p| p.device == key) {
                    Some(cached) => ProfileRequest::Calibrate {
                        cached: Some(cached),
                    },
                    None => {
                        let p = DeviceProfile::for_adapter(&ctx.info);
                        ProfileRequest::Given(DeviceProfile {
                            kernel_form: self.form.unwrap_or(p.kernel_form),
                            ..p
                        })
                    }
                }
            }
            (Mode::Recalibrate, _) => ProfileRequest::Calibrate { cached: None },
        };
        let start = now_seconds();
        let (msm, profile) = profile_and_msm(&ctx, curve, request, self.precompile, progress)
            .await
            .map_err(|e| self.failure(e))?;
        let seconds = now_seconds() - start;
        let limb_bits = msm.constants.limb_bits;
        let mut held = self.held.borrow_mut();
        // The curves compiled earlier plan with the new profile too (same pipelines).
        for m in held.pipelines.values_mut() {
            *m = Rc::new(m.with_profile(profile.clone()));
        }
        held.pipelines
            .insert((curve, limb_bits, msm.form), Rc::new(msm));
        held.profile = Some(profile.clone());
        Ok(prepared(&profile, Some(seconds), limb_bits))
    }

    /// The compiled MSM of `curve` at `limb_bits` (0: the profile's width) in the session's form,
    /// and the seconds compiling took (`None`: compiled already).
    pub(crate) async fn pipelines(
        &self,
        curve: GpuCurve,
        limb_bits: u32,
    ) -> Result<(Rc<GpuMsm>, Option<f64>), JsValue> {
        let limb_bits = match limb_bits {
            0 => self.default_limb_bits(curve),
            b => b,
        };
        let form = self.form();
        if let Some(m) = self.compiled(curve, limb_bits, form) {
            return Ok((m, None));
        }
        let ctx = self.device().await?;
        let start = now_seconds();
        let m = Rc::new(
            GpuMsm::builder(curve)
                .limb_bits(limb_bits)
                .kernel_form(form)
                .profile(ProfileChoice::Given(self.profile()))
                .precompile(self.precompile)
                .build(&ctx)
                .await
                .map_err(|e| self.failure(e))?,
        );
        let seconds = now_seconds() - start;
        self.held
            .borrow_mut()
            .pipelines
            .insert((curve, limb_bits, form), m.clone());
        Ok((m, Some(seconds)))
    }

    /// One MSM over packed input at `limb_bits` (0: the profile's width).
    pub(crate) async fn run_packed(
        &self,
        curve: GpuCurve,
        limb_bits: u32,
        points: &[u32],
        scalars: &[u32],
        options: &RunOptions,
    ) -> Result<(Rc<GpuMsm>, MsmOutput), JsValue> {
        let (msm, _) = self.pipelines(curve, limb_bits).await?;
        let ctx = self.device().await?;
        let options = RunOptions {
            clock: now_seconds,
            ..*options
        };
        let out = msm
            .run_packed(&ctx, points, scalars, &options)
            .await
            .map_err(|e| self.failure(e))?;
        Ok((msm, out))
    }

    /// Σ kᵢ·Pᵢ of checked canonical points and scalars, with the session's profile for `curve`
    /// (prepared first where it is not): the affine result (`None` for the identity) and the
    /// profile (`seconds` null where it was in place already).
    pub(crate) async fn run_checked(
        &self,
        curve: GpuCurve,
        points: &[([u64; 6], [u64; 6])],
        scalars: &[[u64; 4]],
        progress: &dyn Fn(f64, &str),
    ) -> Result<(Option<([u64; 6], [u64; 6])>, Prepared), JsValue> {
        let prepared = self.prepare(curve, progress).await?;
        let (msm, _) = self.pipelines(curve, 0).await?;
        let ctx = self.device().await?;
        let options = RunOptions {
            clock: now_seconds,
            ..RunOptions::default()
        };
        let (points, scalars) = (pack_points(curve, points), pack_scalars(scalars));
        let out = msm
            .run_packed(&ctx, &points, &scalars, &options)
            .await
            .map_err(|e| self.failure(e))?;
        Ok((out.result, prepared))
    }

    async fn adapter(&self) -> Result<AdapterReport, JsValue> {
        Ok(self.device().await?.report())
    }
}

/// How [`Session::prepare`] gets its profile.
enum ProfileRequest {
    /// This profile as it is (a named one, or one in place).
    Given(DeviceProfile),
    /// Calibrate, extending this device's cached calibration where there is one.
    Calibrate { cached: Option<DeviceProfile> },
}

/// The MSM of `curve` at the width the requested profile picks, and the profile. A calibration
/// that fails gives the `portable` profile with the reason; a cached calibration of another
/// device is not used.
async fn profile_and_msm(
    ctx: &GpuContext,
    curve: GpuCurve,
    request: ProfileRequest,
    precompile: bool,
    progress: &dyn Fn(f64, &str),
) -> Result<(GpuMsm, DeviceProfile), GpuError> {
    let profile = match request {
        ProfileRequest::Given(p) => p,
        ProfileRequest::Calibrate { cached } => {
            let key = fastmsm_gpu::profile::cache::device_key(ctx);
            let options = CalibrationOptions {
                clock: now_seconds,
                progress: Some(progress),
                start_from: cached.filter(|p| p.device == key),
                precompile,
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
        .precompile(precompile)
        .progress(progress)
        .build(ctx)
        .await?;
    Ok((msm, profile))
}

fn prepared(p: &DeviceProfile, seconds: Option<f64>, limb_bits: u32) -> Prepared {
    Prepared {
        profile: p.to_json().to_string(),
        summary: p.summary(),
        origin: p.origin.label(),
        seconds,
        limb_bits,
    }
}

/// A GPU MSM session (see the module's documentation): create it with the settings it keeps,
/// call it, and `free()` it to release its device and pipelines.
#[wasm_bindgen]
pub struct GpuSession {
    pub(crate) inner: Rc<Session>,
}

/// A promise of `f`'s result as a JS value.
pub(crate) fn promise<F, T>(f: F) -> js_sys::Promise
where
    F: Future<Output = Result<T, JsValue>> + 'static,
    T: Serialize,
{
    wasm_bindgen_futures::future_to_promise(async move { to_js(&f.await?) })
}

#[wasm_bindgen]
impl GpuSession {
    /// A session with device profile `profile` ("auto": the calibration `cached` holds for this
    /// device, else the named profile of this kind of adapter, unmeasured; "recalibrate"; or a
    /// name: `h200`, `h100`, `swiftshader`, `lavapipe`, `mobile`, `portable`), Montgomery product
    /// `form` ("auto": the profile's; "unrolled"; "compact"), device `limits` ("adapter", the
    /// default: the adapter's own; "default": WebGPU's defaults only, what every device has, a
    /// phone's included) and `pipelines` ("parallel", the default: in a browser every stage compiled at
    /// once with `createComputePipelineAsync` first; "sequential": one after another, as wgpu
    /// alone creates them, to time against). Opens nothing yet: the device opens on the first
    /// call.
    #[wasm_bindgen(constructor)]
    pub fn new(
        profile: Option<String>,
        form: Option<String>,
        cached: Option<String>,
        limits: Option<String>,
        pipelines: Option<String>,
    ) -> Result<GpuSession, JsValue> {
        let session = Session::new(
            profile.as_deref().unwrap_or("auto"),
            form.as_deref().unwrap_or("auto"),
            cached.as_deref(),
            limits.as_deref().unwrap_or("adapter"),
            pipelines.as_deref().unwrap_or("parallel"),
        )?;
        Ok(GpuSession {
            inner: Rc::new(session),
        })
    }

    /// The adapter of the session's device, with the limits that bound an MSM (a promise).
    pub fn adapter(&self) -> js_sys::Promise {
        let s = self.inner.clone();
        promise(async move { Ok(crate::capabilities::Adapter::from(s.adapter().await?)) })
    }

    /// Sets the session's profile for `curve` and compiles the curve's MSM at its width (a
    /// promise of `{profile, summary, origin, seconds, limb_bits}`; `profile` is the JSON to cache
    /// where `origin` is "calibrated"). Reports `progress(fraction, text)`.
    pub fn prepare(&self, curve: String, progress: js_sys::Function) -> js_sys::Promise {
        let s = self.inner.clone();
        promise(async move {
            let curve = gpu_curve(&curve)?;
            s.prepare(curve, &js::progress(&progress)).await
        })
    }

    /// Compiles the MSM stages of `curve` at `limb_bits` (0: the profile's width) unless the
    /// session has them: a promise of `{curve, limb_bits, form, compile_seconds}`.
    pub fn compile(&self, curve: String, limb_bits: u32) -> js_sys::Promise {
        let s = self.inner.clone();
        promise(async move {
            let curve = gpu_curve(&curve)?;
            let (msm, compile_seconds) = s.pipelines(curve, limb_bits).await?;
            Ok(Compiled {
                curve: curve.name(),
                limb_bits: msm.constants.limb_bits,
                form: msm.form.name(),
                compile_seconds,
            })
        })
    }

    /// The limb width `curve` runs at with limb bits 0: the profile's.
    pub fn default_limb_bits(&self, curve: &str) -> Result<u32, JsValue> {
        Ok(self.inner.default_limb_bits(gpu_curve(curve)?))
    }

    /// Test hook of the end-to-end suite: destroys the session's device, as a crash of the
    /// browser's GPU process would lose it, so the next run meets a lost device.
    pub fn lose_device(&self) -> js_sys::Promise {
        let s = self.inner.clone();
        promise(async move {
            s.device().await?.device.destroy();
            Ok(())
        })
    }
}
