//! Entry points of the `cpu-msm` widget (book/widgets/widgets/cpu-msm.js).
//!
//! [`CpuMsm::new`] draws one seeded input ([`crate::seeded_input`]) for a curve and keeps it, in
//! our types and in arkworks' types, so every variant runs on the same input: fastmsm-msm with
//! projective, batch-affine or all-affine buckets, over the 64-bit field or its 30-bit twin (or,
//! in the relaxed-SIMD package (feature `relaxed-simd`), its 51-bit FMA twin) ([`variants`]), and
//! arkworks' `VariableBaseMSM::msm` (ark-ec 0.5, single thread: no `parallel` feature) compiled
//! into this same module. The widget times each [`CpuMsm::run`] call with `performance.now()` and
//! compares every result with arkworks'. [`CpuMsm::count`] runs one of ours over the
//! operation-counting field (`fastmsm_msm::count`).
//!
//! In the main package, the relaxed-SIMD one and the wide-arithmetic benchmark one (feature `cpu-msm`).

mod stats;
mod variants;

use ark_ec::{CurveGroup, VariableBaseMSM};
use fastmsm_msm::format::{hex, write_points, write_scalars};
use fastmsm_msm::{MsmGroup, Scalar};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::ark_pair::{ArkAffine, ArkScalar, CURVES, OurAffine, Pair, with_pair, xy_hex};
use crate::js::{self, curve_and_n_getters, err, to_js};
use crate::seeded_input::{ArkInputs, draw_ark, input_size};
use stats::Stats;
pub use variants::variants;
use variants::{Limbs, Opts, parse_variant, run_ours, window_used};

/// One seeded input in both libraries' types.
struct Inputs<P: Pair> {
    ark_points: Vec<ArkAffine<P>>,
    ark_scalars: Vec<ArkScalar<P>>,
    points: Vec<OurAffine<P>>,
    scalars: Vec<Scalar>,
}

fn draw<P: Pair>(n: usize, seed: u64, progress: &dyn Fn(f64, &str)) -> Inputs<P> {
    let ArkInputs {
        ark_points,
        ark_scalars,
        scalars,
        ..
    } = draw_ark::<P>(n, seed, false, progress);
    progress(0.85, "converting points");
    let points = ark_points.iter().map(P::ours).collect();
    Inputs {
        ark_points,
        ark_scalars,
        points,
        scalars,
    }
}

#[derive(Serialize)]
struct RunResult {
    variant: String,
    n: usize,
    /// Affine result, canonical hex; `None` (null) for the identity.
    x: Option<String>,
    y: Option<String>,
    /// The window width used (null for arkworks, which picks its own: ln n + 2).
    window: Option<u32>,
    glv: bool,
    stats: Option<Stats>,
}

#[derive(Serialize)]
struct CountResult {
    variant: String,
    n: usize,
    window: u32,
    glv: bool,
    x: Option<String>,
    y: Option<String>,
    mul: u64,
    square: u64,
    add: u64,
    inverse: u64,
    stats: Option<Stats>,
}

/// One curve's input behind one type, whichever the curve.
trait Runner {
    fn run(&self, variant: &str, len: usize, o: &Opts) -> Result<RunResult, JsValue>;
    fn count(&self, variant: &str, len: usize, o: &Opts) -> Result<CountResult, JsValue>;
    fn n(&self) -> usize;
    /// The first `len` points and scalars in the `msm` tool's file layout.
    fn bytes(&self, len: usize) -> (Vec<u8>, Vec<u8>);
    fn scalar_modulus(&self) -> Scalar;
    fn has_glv(&self) -> bool;
}

impl<P: Pair> Inputs<P> {
    /// The first `len` points and scalars (all of them where `len` is larger).
    fn prefix(&self, len: usize) -> (&[OurAffine<P>], &[Scalar]) {
        let len = len.min(self.points.len());
        (&self.points[..len], &self.scalars[..len])
    }

    /// The reader's options, GLV dropped where the curve has no endomorphism.
    fn options(&self, o: &Opts) -> Opts {
        Opts {
            glv: o.glv && self.has_glv(),
            ..*o
        }
    }
}

impl<P: Pair> Runner for Inputs<P> {
    fn run(&self, variant: &str, len: usize, o: &Opts) -> Result<RunResult, JsValue> {
        let (points, scalars) = self.prefix(len);
        let n = points.len();
        if variant == "arkworks" {
            let q = P::Ark::msm(&self.ark_points[..n], &self.ark_scalars[..n])
                .map_err(|_| err("arkworks: length mismatch"))?;
            let (x, y) = xy_hex(P::ark_xy(&q.into_affine()));
            return Ok(RunResult {
                variant: variant.into(),
                n,
                x,
                y,
                window: None,
                glv: false,
                stats: None,
            });
        }
        let (acc, limbs) = parse_variant(variant).ok_or_else(|| {
            err(format_args!(
                "unknown variant {variant:?}; one of {:?}",
                variants()
            ))
        })?;
        let o = self.options(o);
        let (out, stats) =
            run_ours::<P::Ours>(points, scalars, acc, limbs, false, &o).map_err(err)?;
        let (x, y) = xy_hex(P::ours_xy(&out.sum));
        Ok(RunResult {
            variant: variant.into(),
            n,
            x,
            y,
            window: Some(window_used::<P::Ours>(out.stats.window, &o)),
            glv: o.glv,
            stats,
        })
    }

    fn count(&self, variant: &str, len: usize, o: &Opts) -> Result<CountResult, JsValue> {
        let (points, scalars) = self.prefix(len);
        let (acc, _) = parse_variant(variant)
            .ok_or_else(|| err(format_args!("cannot count variant {variant:?}")))?;
        let o = self.options(o);
        // counted over the 64-bit field: the counts are the algorithm's, whatever the limbs
        let (out, stats) =
            run_ours::<P::Ours>(points, scalars, acc, Limbs::W64, true, &o).map_err(err)?;
        let ops = out.stats.ops.expect("a counted run");
        let (x, y) = xy_hex(P::ours_xy(&out.sum));
        Ok(CountResult {
            variant: variant.into(),
            n: points.len(),
            window: window_used::<P::Ours>(out.stats.window, &o),
            glv: o.glv,
            x,
            y,
            mul: ops.mul,
            square: ops.square,
            add: ops.add,
            inverse: ops.inverse,
            stats,
        })
    }

    fn n(&self) -> usize {
        self.points.len()
    }

    fn bytes(&self, len: usize) -> (Vec<u8>, Vec<u8>) {
        let (points, scalars) = self.prefix(len);
        (write_points::<P::Ours>(points), write_scalars(scalars))
    }

    fn scalar_modulus(&self) -> Scalar {
        <P::Ours as MsmGroup>::SCALAR_MODULUS
    }

    fn has_glv(&self) -> bool {
        <P::Ours as MsmGroup>::glv_expand(&self.points[..1], &self.scalars[..1]).is_some()
    }
}

/// One curve's seeded MSM input, kept in the worker between timed runs.
#[wasm_bindgen]
pub struct CpuMsm {
    curve: String,
    inner: Box<dyn Runner>,
}

curve_and_n_getters!(CpuMsm);

#[wasm_bindgen]
impl CpuMsm {
    /// Draws n points and scalars for `curve` from `seed`, reporting `progress(fraction, text)`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        curve: &str,
        n: u32,
        seed: u32,
        progress: &js_sys::Function,
    ) -> Result<CpuMsm, JsValue> {
        let n = input_size(n)?;
        let report = js::progress(progress);
        let seed = u64::from(seed);
        let inner: Box<dyn Runner> =
            with_pair!(curve, P => Ok(Box::new(draw::<P>(n, seed, &report)) as Box<dyn Runner>))?;
        Ok(CpuMsm {
            curve: curve.into(),
            inner,
        })
    }

    /// The first `len` points in the `msm` tool's file layout (what the CPU pool loads).
    pub fn points_bytes(&self, len: u32) -> Vec<u8> {
        self.inner.bytes(len as usize).0
    }

    /// The first `len` scalars in the `msm` tool's file layout, 32 bytes each.
    pub fn scalars_bytes(&self, len: u32) -> Vec<u8> {
        self.inner.bytes(len as usize).1
    }

    /// The group order r (hex): scalars are below it.
    #[wasm_bindgen(getter)]
    pub fn scalar_modulus(&self) -> String {
        hex(&self.inner.scalar_modulus())
    }

    /// Runs `variant` on the first `len` points: `{variant, n, x, y, window, glv, stats}`.
    /// `window` 0 and `batch` 0 mean the defaults (`batch`: the batch-affine batch size, or the
    /// all-affine reduction batch); `glv` splits the scalars where the curve has the endomorphism.
    /// This is the call the widget times.
    pub fn run(
        &self,
        variant: &str,
        len: u32,
        window: u32,
        batch: u32,
        glv: bool,
    ) -> Result<JsValue, JsValue> {
        let o = Opts::from_js(window, batch, glv);
        to_js(&self.inner.run(variant, len as usize, &o)?)
    }

    /// Runs one of our variants over the counting field: `{variant, n, window, glv, x, y, mul,
    /// square, add, inverse, stats}` (the 30-bit twins do the same operations as the 64-bit runs).
    pub fn count(
        &self,
        variant: &str,
        len: u32,
        window: u32,
        batch: u32,
        glv: bool,
    ) -> Result<JsValue, JsValue> {
        let o = Opts::from_js(window, batch, glv);
        to_js(&self.inner.count(variant, len as usize, &o)?)
    }

    /// Does the curve have the GLV endomorphism?
    #[wasm_bindgen(getter)]
    pub fn has_glv(&self) -> bool {
        self.inner.has_glv()
    }
}

#[derive(Serialize)]
struct CpuMsmInfo {
    curves: [&'static str; 4],
    variants: Vec<&'static str>,
}

/// `{curves, variants}`: what [`CpuMsm`] knows.
#[wasm_bindgen]
pub fn cpu_msm_info() -> Result<JsValue, JsValue> {
    to_js(&CpuMsmInfo {
        curves: CURVES,
        variants: variants(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ark_pair::{Bls377Pair, Bn254Pair, TePair};

    /// Every variant, plain and counted, with and without GLV, on the default options and on
    /// a forced window and batch, gives arkworks' point.
    fn every_variant_equals_arkworks<P: Pair>() {
        // Small: every variant, counted or not, runs twice per curve in every `cargo test`.
        let n = 64;
        let inputs = draw::<P>(n, 11, &|_, _| {});
        let ark = inputs
            .run("arkworks", n, &Opts::from_js(0, 0, false))
            .unwrap();
        assert!(ark.x.is_some());
        for o in [Opts::from_js(0, 0, false), Opts::from_js(6, 32, true)] {
            for v in variants().into_iter().filter(|v| *v != "arkworks") {
                let r = inputs.run(v, n, &o).unwrap();
                assert_eq!((&r.x, &r.y), (&ark.x, &ark.y), "{v} window {:?}", o.window);
                assert!(r.window.is_some_and(|c| c >= 1));
                let c = inputs.count(v, n, &o).unwrap();
                assert_eq!((&c.x, &c.y), (&ark.x, &ark.y), "counted {v}");
                assert!(c.mul > 0);
            }
        }
        let short = inputs
            .run("all-affine", 5, &Opts::from_js(0, 0, false))
            .unwrap();
        assert_eq!(short.n, 5);
        let (points, scalars) = inputs.bytes(5);
        assert_eq!(scalars.len(), 5 * 32);
        assert_eq!(points.len() % 5, 0);
    }

    #[test]
    fn variants_equal_arkworks_on_bn254() {
        every_variant_equals_arkworks::<Bn254Pair>();
    }

    #[test]
    fn variants_equal_arkworks_on_bls12_377() {
        every_variant_equals_arkworks::<Bls377Pair>();
    }

    #[test]
    fn variants_equal_arkworks_on_ed_on_bls12_377() {
        every_variant_equals_arkworks::<TePair>();
    }
}
