//! The CPU MSM on every core of the reader's machine: resident points, shares, and the combine.
//!
//! Compiled into three packages: the main one (30-bit limbs) and the relaxed-SIMD one (51-bit
//! limbs, Emmart's FMA product), whose copies run in message-passing workers, each with its own
//! memory and its own copy of the points; and the shared-memory one (feature `threads`, built
//! with atomics), whose instances in every worker share one memory, so the points and scalars are
//! there once and a request is a share number. The pool is book/widgets/pool/cpu-pool.js. Inputs and
//! outputs are in the `msm` tool's file layout ([`fastmsm_msm::format`]).
//!
//! A run: the coordinator's [`msm_plan`] (or, over shared memory, [`MsmBases::plan`] on the
//! scalars [`MsmBases::keep_scalars`] parsed once) checks every scalar and cuts the work into
//! shares ([`fastmsm_msm::split`]); each worker computes its share and returns one affine point
//! ([`MsmBases::run_share`] from the scalars it is sent, or [`run_kept_share`] from the scalars
//! kept in shared memory); [`msm_combine`] adds them. The points are parsed, checked and
//! converted once, when the bases are loaded, straight into the fast limbs (the curve equation
//! is checked there too): over shared memory by every worker at once, each a span of them
//! ([`MsmBases::reserve`], [`load_kept_points`], [`MsmBases::finish_load`]).

use fastmsm_curves::Group;
use fastmsm_msm::format::{
    FormatCurve, point_count, read_point, read_points, read_scalars, write_point,
};
use fastmsm_msm::split::{Piece, SplitPlan, plan, run_share};
use fastmsm_msm::{
    AllAffineConfig, AllAffineStats, Bls12_377G1, Bls12_381G1, Bn254G1, EdBls12_377G, Scalar,
    Window,
};
use serde::{Deserialize, Serialize};
use std::cell::UnsafeCell;
use std::sync::RwLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use wasm_bindgen::prelude::*;

use crate::js::{curve_and_n_getters, err, to_js};

#[cfg(not(all(target_arch = "wasm32", target_feature = "relaxed-simd")))]
use fastmsm_msm::radix30::Radix30Group as FastLimbs;
#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
use fastmsm_msm::radix51::Radix51Group as FastLimbs;

/// The limbs this package's MSM runs on: 51 (f64 products) where the package has relaxed SIMD,
/// else 30 (i64 products); both were the fastest of their package (the cpu-msm widget).
#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
const LIMB_BITS: u32 = 51;
#[cfg(not(all(target_arch = "wasm32", target_feature = "relaxed-simd")))]
const LIMB_BITS: u32 = 30;

/// A [`SplitPlan`] as it travels between workers (a plain JS object).
#[derive(Serialize, Deserialize)]
struct PlanJs {
    n: usize,
    window_bits: u32,
    windows: u32,
    glv: bool,
    /// Per share: `[window, start, end]` per piece.
    shares: Vec<Vec<[usize; 3]>>,
    /// Per share: the points (and scalars) it reads, `[start, end]`: all of them, or none for an
    /// empty share.
    spans: Vec<[usize; 2]>,
}

/// Each share's pieces through `f`.
fn map_pieces<A, B>(
    shares: impl IntoIterator<Item = impl IntoIterator<Item = A>>,
    f: impl Fn(A) -> B + Copy,
) -> Vec<Vec<B>> {
    shares
        .into_iter()
        .map(|s| s.into_iter().map(f).collect())
        .collect()
}

impl From<&SplitPlan> for PlanJs {
    fn from(p: &SplitPlan) -> Self {
        PlanJs {
            n: p.n,
            window_bits: p.window_bits,
            windows: p.windows,
            glv: p.glv,
            shares: map_pieces(&p.shares, |q: &Piece| [q.window as usize, q.start, q.end]),
            spans: (0..p.shares.len())
                .map(|t| {
                    let s = p.span(t);
                    [s.start, s.end]
                })
                .collect(),
        }
    }
}

impl From<PlanJs> for SplitPlan {
    fn from(p: PlanJs) -> Self {
        SplitPlan {
            n: p.n,
            window_bits: p.window_bits,
            windows: p.windows,
            glv: p.glv,
            shares: map_pieces(p.shares, |[window, start, end]| Piece {
                window: window as u32,
                start,
                end,
            }),
        }
    }
}

/// The points' slots, which the workers sharing this memory fill at once, each its own span
/// ([`Resident::load_span`]); read only once every span is in ([`Resident::finish_load`]).
struct Slots<T>(Box<[UnsafeCell<T>]>);

// SAFETY: a slot is written by one worker (spans do not overlap) and read only after the load
// is finished, which an acquire/release pair on `Resident::loaded` orders after every write.
unsafe impl<T: Send> Sync for Slots<T> {}

impl<T: Copy> Slots<T> {
    fn new(n: usize, fill: T) -> Self {
        Slots((0..n).map(|_| UnsafeCell::new(fill)).collect())
    }

    /// # Safety
    /// No other thread reads or writes slot `i` meanwhile.
    unsafe fn write(&self, i: usize, v: T) {
        // SAFETY: the caller's promise
        unsafe { *self.0[i].get() = v }
    }

    /// # Safety
    /// No thread writes any slot meanwhile.
    unsafe fn all(&self) -> &[T] {
        // SAFETY: UnsafeCell<T> has T's layout; nothing writes (the caller's promise)
        unsafe { &*(&*self.0 as *const [UnsafeCell<T>] as *const [T]) }
    }
}

/// One curve's points in the fast limbs, and the scalars of the next run where the workers
/// share this memory.
struct Resident<G: FastLimbs> {
    /// The points file while it is being loaded; empty after.
    bytes: Vec<u8>,
    points: Slots<<G::Twin as Group>::Affine>,
    /// Points of finished spans (release), read by `finish_load` (acquire).
    filled: AtomicUsize,
    /// Every point is in (release in `finish_load`, acquire before every read of the points).
    loaded: AtomicBool,
    kept: RwLock<Vec<Scalar>>,
}

trait Bases: Send + Sync {
    fn n(&self) -> usize;
    fn load_span(&self, start: usize, end: usize) -> Result<(), String>;
    fn finish_load(&mut self) -> Result<(), String>;
    fn run_share(&self, plan: &SplitPlan, share: usize, scalars: &[u8]) -> Result<Vec<u8>, String>;
    fn keep_scalars(&self, scalars: &[u8]) -> Result<(), String>;
    fn plan(&self, shares: usize, glv: bool) -> Result<SplitPlan, String>;
    fn run_kept_share(&self, plan: &SplitPlan, share: usize) -> Result<Vec<u8>, String>;
}

impl<G> Resident<G>
where
    G: FastLimbs + FormatCurve,
    G::Twin: FormatCurve,
{
    /// Room for the points of `bytes` (a points file: whole items), none of them read yet.
    fn reserve(bytes: Vec<u8>) -> Result<Self, String> {
        let n = point_count::<G>(bytes.len())?;
        Ok(Resident {
            bytes,
            points: Slots::new(n, <G::Twin as fastmsm_msm::MsmGroup>::affine_identity()),
            filled: AtomicUsize::new(0),
            loaded: AtomicBool::new(false),
            kept: RwLock::new(Vec::new()),
        })
    }

    /// The loaded points; an error before the load is finished.
    fn points(&self) -> Result<&[<G::Twin as Group>::Affine], String> {
        if !self.loaded.load(Ordering::Acquire) {
            return Err("the points are not loaded yet".into());
        }
        // SAFETY: loaded: no span is written any more
        Ok(unsafe { self.points.all() })
    }

    /// Share `share` of `plan` from all the scalars (a share owns buckets, so it reads them all).
    fn share(&self, plan: &SplitPlan, share: usize, scalars: &[Scalar]) -> Result<Vec<u8>, String> {
        let points = self.points()?;
        if plan.n != points.len() {
            return Err(format!(
                "a plan for {} points, {} loaded",
                plan.n,
                points.len()
            ));
        }
        if share >= plan.shares.len() {
            return Err(format!("share {share} of a plan of {}", plan.shares.len()));
        }
        let q = run_share::<G::Twin>(
            plan,
            share,
            points,
            scalars,
            &AllAffineConfig::default(),
            &mut AllAffineStats::default(),
        )
        .map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        write_point::<G>(&G::from_twin(&q).to_affine(), &mut out);
        Ok(out)
    }
}

impl<G> Bases for Resident<G>
where
    G: FastLimbs + FormatCurve,
    G::Twin: FormatCurve,
    <G::Twin as Group>::Affine: Send + Sync,
{
    fn n(&self) -> usize {
        self.points.0.len()
    }

    /// Points `start..end`, parsed, checked and converted straight into the fast limbs.
    fn load_span(&self, start: usize, end: usize) -> Result<(), String> {
        if self.loaded.load(Ordering::Acquire) {
            return Err("these points are loaded already".into());
        }
        if start > end || end > self.n() {
            return Err(format!("points {start}..{end} of {}", self.n()));
        }
        for i in start..end {
            let p = read_point::<G::Twin>(&self.bytes, i)?;
            // SAFETY: the pool gives each worker its own span, and nothing reads the points
            // before `finish_load`
            unsafe { self.points.write(i, p) };
        }
        self.filled.fetch_add(end - start, Ordering::Release);
        Ok(())
    }

    fn finish_load(&mut self) -> Result<(), String> {
        let filled = self.filled.load(Ordering::Acquire);
        if filled != self.n() {
            return Err(format!("{filled} of {} points loaded", self.n()));
        }
        self.bytes = Vec::new();
        self.loaded.store(true, Ordering::Release);
        Ok(())
    }

    fn run_share(&self, plan: &SplitPlan, share: usize, scalars: &[u8]) -> Result<Vec<u8>, String> {
        self.share(plan, share, &read_scalars::<G>(scalars)?)
    }

    fn keep_scalars(&self, scalars: &[u8]) -> Result<(), String> {
        let k = read_scalars::<G>(scalars)?;
        if k.len() != self.n() {
            return Err(format!("{} points but {} scalars", self.n(), k.len()));
        }
        *self
            .kept
            .write()
            .map_err(|_| "a worker failed while holding the scalars")? = k;
        Ok(())
    }

    fn plan(&self, shares: usize, glv: bool) -> Result<SplitPlan, String> {
        let kept = self
            .kept
            .read()
            .map_err(|_| "a worker failed while holding the scalars")?;
        if kept.len() != self.n() {
            return Err("no scalars kept for these points".into());
        }
        plan_scalars::<G>(&kept, shares, glv)
    }

    fn run_kept_share(&self, plan: &SplitPlan, share: usize) -> Result<Vec<u8>, String> {
        let kept = self
            .kept
            .read()
            .map_err(|_| "a worker failed while holding the scalars")?;
        if kept.len() != self.n() {
            return Err("no scalars kept for these points".into());
        }
        self.share(plan, share, &kept)
    }
}

/// Calls `f` with curve `curve`'s group type.
macro_rules! by_curve {
    ($curve:expr, $f:ident $(, $arg:expr)*) => {
        match $curve {
            "bn254" => $f::<Bn254G1>($($arg),*),
            "bls12-377" => $f::<Bls12_377G1>($($arg),*),
            "bls12-381" => $f::<Bls12_381G1>($($arg),*),
            "ed-on-bls12-377" => $f::<EdBls12_377G>($($arg),*),
            other => Err(format!(
                "unknown curve {other:?}; one of bn254, bls12-377, bls12-381, ed-on-bls12-377"
            )),
        }
    };
}

fn reserve<G>(points: Vec<u8>) -> Result<Box<dyn Bases>, String>
where
    G: FastLimbs + FormatCurve,
    G::Twin: FormatCurve,
    <G::Twin as Group>::Affine: Send + Sync,
{
    Ok(Box::new(Resident::<G>::reserve(points)?))
}

fn plan_of<G: FastLimbs + FormatCurve>(
    scalars: &[u8],
    shares: usize,
    glv: bool,
) -> Result<SplitPlan, String> {
    plan_scalars::<G>(&read_scalars::<G>(scalars)?, shares, glv)
}

/// The plan of checked scalars. `glv` is ignored on a curve without the endomorphism.
fn plan_scalars<G: FastLimbs + FormatCurve>(
    k: &[Scalar],
    shares: usize,
    glv: bool,
) -> Result<SplitPlan, String> {
    plan::<G::Twin>(
        k,
        Window::Auto,
        glv && G::glv_expand(&[], &[]).is_some(),
        shares,
    )
    .map_err(|e| e.to_string())
}

fn combine<G: FormatCurve>(partials: &[u8]) -> Result<Vec<u8>, String> {
    let q = read_points::<G>(partials)?
        .iter()
        .fold(G::identity(), |q, p| q.add_affine(p));
    let mut out = Vec::new();
    write_point::<G>(&q.to_affine(), &mut out);
    Ok(out)
}

/// Checks every scalar (the file layout: 32 bytes each, below r) and cuts an MSM of them into
/// `shares` shares: `{n, window_bits, windows, glv, shares, spans}`: `shares[t]` lists share
/// t's pieces `[window, first bucket, end bucket]`, and `spans[t]` the points (and scalars) it
/// reads. `glv` is ignored on a curve without the endomorphism.
#[wasm_bindgen]
pub fn msm_plan(curve: &str, scalars: &[u8], shares: u32, glv: bool) -> Result<JsValue, JsValue> {
    if shares == 0 {
        return Err(err("shares: at least 1"));
    }
    let p = by_curve!(curve, plan_of, scalars, shares as usize, glv).map_err(err)?;
    to_js(&PlanJs::from(&p))
}

/// The sum of the shares' points (concatenated, file layout): the MSM, one affine point.
#[wasm_bindgen]
pub fn msm_combine(curve: &str, partials: &[u8]) -> Result<Vec<u8>, JsValue> {
    by_curve!(curve, combine, partials).map_err(err)
}

/// The bases at `bases` (from [`MsmBases::address`]) in this shared memory.
///
/// # Safety
/// `bases` is the address of a live MsmBases in this memory, which the pool keeps (does not free)
/// until every request naming it has returned.
unsafe fn bases_at<'a>(bases: usize) -> &'a MsmBases {
    // SAFETY: the caller's promise; Bases is Sync, the scalars sit behind a lock and the points
    // are written only span by span before any read (Resident)
    unsafe { &*(bases as *const MsmBases) }
}

/// Share `share` of `plan` on the bases at `bases` (from [`MsmBases::address`]) with the scalars
/// kept there ([`MsmBases::keep_scalars`]): what a worker that shares this module's memory runs.
/// The bases must stay alive (not freed) until every share has returned.
#[wasm_bindgen]
pub fn run_kept_share(bases: usize, plan: JsValue, share: u32) -> Result<Vec<u8>, JsValue> {
    let p: PlanJs = serde_wasm_bindgen::from_value(plan).map_err(err)?;
    // SAFETY: the pool keeps the bases until the run's shares are all back
    let bases = unsafe { bases_at(bases) };
    bases
        .inner
        .run_kept_share(&p.into(), share as usize)
        .map_err(err)
}

/// Points `start..end` of the bases at `bases` (from [`MsmBases::reserve`]): parsed, checked
/// (below p, on the curve; the error names the point's index) and converted into this package's
/// limbs, by a worker that shares this module's memory, while the others load their own spans.
/// The bases must stay alive until every span has returned.
#[wasm_bindgen]
pub fn load_kept_points(bases: usize, start: u32, end: u32) -> Result<(), JsValue> {
    // SAFETY: the pool keeps the bases until every span is back
    let bases = unsafe { bases_at(bases) };
    bases
        .inner
        .load_span(start as usize, end as usize)
        .map_err(err)
}

/// This module and its memory, for the workers that instantiate it over the same memory.
#[cfg(target_feature = "atomics")]
#[wasm_bindgen]
pub fn shared_module_and_memory() -> js_sys::Array {
    js_sys::Array::of2(&wasm_bindgen::module(), &wasm_bindgen::memory())
}

/// One curve's points, loaded once and kept for many MSMs.
#[wasm_bindgen]
pub struct MsmBases {
    curve: String,
    inner: Box<dyn Bases>,
}

curve_and_n_getters!(MsmBases);

#[wasm_bindgen]
impl MsmBases {
    /// Parses and checks `points` (the file layout of `curve`) and converts them to the fast limbs,
    /// on this thread.
    #[wasm_bindgen(constructor)]
    pub fn new(curve: &str, points: Vec<u8>) -> Result<MsmBases, JsValue> {
        let mut bases = MsmBases::reserve(curve, points)?;
        let n = bases.inner.n();
        bases.inner.load_span(0, n).map_err(err)?;
        bases.finish_load()?;
        Ok(bases)
    }

    /// Room for the points of `points` (the file layout of `curve`; a truncated last point is an
    /// error), to be loaded span by span by the workers of this memory ([`load_kept_points`]),
    /// then [`MsmBases::finish_load`].
    pub fn reserve(curve: &str, points: Vec<u8>) -> Result<MsmBases, JsValue> {
        let inner = by_curve!(curve, reserve, points).map_err(err)?;
        Ok(MsmBases {
            curve: curve.into(),
            inner,
        })
    }

    /// Ends a load: every span must be in. The file's bytes are freed.
    pub fn finish_load(&mut self) -> Result<(), JsValue> {
        self.inner.finish_load().map_err(err)
    }

    /// The limb width this package's MSM runs on (30 or 51).
    #[wasm_bindgen(getter)]
    pub fn limb_bits(&self) -> u32 {
        LIMB_BITS
    }

    /// Share `share` of `plan` (from [`msm_plan`]), given all the scalars: one affine point (file
    /// layout).
    pub fn run_share(&self, plan: JsValue, share: u32, scalars: &[u8]) -> Result<Vec<u8>, JsValue> {
        let p: PlanJs = serde_wasm_bindgen::from_value(plan).map_err(err)?;
        self.inner
            .run_share(&p.into(), share as usize, scalars)
            .map_err(err)
    }

    /// Parses, checks and keeps all n scalars for the workers that share this memory.
    pub fn keep_scalars(&self, scalars: &[u8]) -> Result<(), JsValue> {
        self.inner.keep_scalars(scalars).map_err(err)
    }

    /// [`msm_plan`] of the kept scalars ([`MsmBases::keep_scalars`]), which are not parsed again.
    pub fn plan(&self, shares: u32, glv: bool) -> Result<JsValue, JsValue> {
        if shares == 0 {
            return Err(err("shares: at least 1"));
        }
        let p = self.inner.plan(shares as usize, glv).map_err(err)?;
        to_js(&PlanJs::from(&p))
    }

    /// The object's address in this module's memory, for [`run_kept_share`].
    #[wasm_bindgen(getter)]
    pub fn address(&self) -> usize {
        self as *const MsmBases as usize
    }
}

/// Whether the multiply-add of this package is fused (the 51-bit product needs it; always true
/// for the 30-bit package, which does not use it).
#[wasm_bindgen]
pub fn shares_limbs_ok() -> bool {
    LIMB_BITS != 51 || fastmsm_mont::emmart::fma_self_test()
}
