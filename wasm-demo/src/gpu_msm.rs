//! Entry points of the `gpu-msm` widget (book/widgets/widgets/gpu-msm.js): the whole GPU MSM of
//! fastmsm-gpu on the reader's WebGPU adapter, in a [`GpuSession`], checked on the CPU in this
//! same module.
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
//! [`GpuSession::run`] times one MSM of such an input in a session, which keeps the device,
//! profile and pipelines between runs.

use std::rc::Rc;

use ark_ec::{CurveGroup, PrimeGroup, VariableBaseMSM};
use ark_ff::{PrimeField as ArkPrimeField, Zero};
use fastmsm_gpu::msm::{GpuCurve, RunOptions, TimingSource, UploadPath, pack_points, pack_scalars};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::ark_pair::{ArkScalar, Bls377Pair, Bls381Pair, Bn254Pair, Pair, TePair, xy_hex};
use crate::gpu_session::{GpuSession, gpu_curve, promise};
use crate::js::{self, err, to_js};
use crate::now_seconds;
use crate::seeded_input::{ArkInputs, draw_ark, input_size};

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
}

#[wasm_bindgen]
impl GpuSession {
    /// One GPU MSM of the whole of `input` (a promise of `GpuRun`). `limb_bits` 0: the profile's
    /// width; `window_bits` 0: chosen from n; `upload`: how the input goes up
    /// (`UploadPath::parse`, default "auto"); `wait_after_upload`: a diagnostic wait until the GPU
    /// has the input; `batch`: points per batch (0 or none: the plan's; smaller batches let the
    /// GPU work on one while the next is sent). Compiles the pipelines first if the session has not.
    pub fn run(
        &self,
        input: &GpuMsmInput,
        limb_bits: u32,
        window_bits: u32,
        upload: Option<String>,
        wait_after_upload: Option<bool>,
        batch: Option<u32>,
    ) -> js_sys::Promise {
        let (session, curve, inner) = (self.inner.clone(), input.curve, input.inner.clone());
        promise(async move {
            let upload = UploadPath::parse(upload.as_deref().unwrap_or("auto")).map_err(err)?;
            let (msm, _) = session.pipelines(curve, limb_bits).await?;
            let limb_bits = msm.constants.limb_bits;
            let (points, scalars) = inner.packed();
            let options = RunOptions {
                window_bits: (window_bits != 0).then_some(window_bits),
                stage_timing: true,
                host_trace: true,
                upload,
                wait_after_upload: wait_after_upload.unwrap_or(false),
                batch: batch.filter(|&b| b > 0).map(|b| b as usize),
                ..RunOptions::default()
            };
            let start = now_seconds();
            let (msm, out) = session
                .run_packed(curve, limb_bits, points, scalars, &options)
                .await?;
            let seconds = now_seconds() - start;
            let (x, y) = xy_hex(out.result);
            let p = out.plan;
            Ok(GpuRun {
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
