//! Entry points of the `cpu-msm` widget (book/widgets/cpu-msm.js) and the `signed-digits` widget
//! (book/widgets/signed-digits.js).
//!
//! **cpu-msm.** [`CpuMsm::new`] draws one seeded random input (points and scalars) for a curve and
//! keeps it, in our types and in arkworks' types, so every variant runs on the same input:
//! fastmsm-msm with projective, batch-affine or all-affine buckets, over the 64-bit field or its
//! 30-bit twin (or, in the relaxed-SIMD package `wasm-demo/relaxed`, its 51-bit FMA twin), and
//! arkworks' `VariableBaseMSM::msm` (ark-ec 0.5, single thread: no `parallel` feature)
//! compiled into this same module. The widget times each [`CpuMsm::run`] call with
//! `performance.now()` and compares every result with arkworks'. [`CpuMsm::count`] runs one of
//! ours over the operation-counting field (`fastmsm_msm::count`).
//!
//! **signed-digits.** [`signed_digits`] cuts a scalar into c-bit windows and signed digits with
//! `fastmsm_msm::digits`, showing the carry between windows; the widget checks the digits against
//! the scalar with its own `BigInt` arithmetic.

use ark_ec::{AffineRepr, CurveGroup, PrimeGroup, VariableBaseMSM};
use ark_ff::PrimeField as ArkPrimeField;
use fastmsm_curves::field::PrimeField;
use fastmsm_curves::{Group, sw, te};
use fastmsm_msm::all_affine::{AllAffineConfig, AllAffineStats, msm_all_affine};
use fastmsm_msm::count::{CountableGroup, count_via};
use fastmsm_msm::digits::{chunk, decompose_into, num_windows};
use fastmsm_msm::format::{FormatCurve, write_points, write_scalars};
use fastmsm_msm::radix30::{Radix30Group, via_radix30};
use fastmsm_msm::radix51::{Radix51Group, via_radix51};
use fastmsm_msm::window::window_size;
use fastmsm_msm::{
    Accumulation, BatchAffineConfig, BatchAffineStats, Bls12_377G1, Bls12_381G1, Bn254G1,
    EdBls12_377G, MsmConfig, MsmError, MsmGroup, Scalar, msm_with_stats, scalar,
};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::to_js;

pub(crate) fn err(message: impl core::fmt::Display) -> JsValue {
    js_sys::Error::new(&message.to_string()).into()
}

/// Lowercase big-endian hex, `0x` prefix, no leading zeros (`0x0` for zero).
pub(crate) fn hex(x: &[u64]) -> String {
    let mut s = String::from("0x");
    let mut started = false;
    for w in x.iter().rev() {
        if started {
            s.push_str(&format!("{w:016x}"));
        } else if *w != 0 {
            s.push_str(&format!("{w:x}"));
            started = true;
        }
    }
    if !started {
        s.push('0');
    }
    s
}

/// The curves, as the `msm` CLI names them.
pub const CURVES: [&str; 4] = ["bn254", "bls12-377", "bls12-381", "ed-on-bls12-377"];

/// The variants [`CpuMsm::run`] knows, in the widget's order.
#[cfg(not(all(target_arch = "wasm32", target_feature = "relaxed-simd")))]
pub const VARIANTS: &[&str] = &[
    "projective",
    "batch-affine",
    "all-affine",
    "projective-r30",
    "batch-affine-r30",
    "all-affine-r30",
    "arkworks",
];

/// The variants [`CpuMsm::run`] knows in the relaxed-SIMD package: also the 51-bit twins, whose
/// product is Emmart's on `f64x2.relaxed_madd` (`fastmsm_curves::radix51`). The main package
/// leaves them out: without relaxed SIMD its FMA is emulated in software, some 30× slower.
#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
pub const VARIANTS: &[&str] = &[
    "projective",
    "batch-affine",
    "all-affine",
    "projective-r30",
    "batch-affine-r30",
    "all-affine-r30",
    "projective-r51",
    "batch-affine-r51",
    "all-affine-r51",
    "arkworks",
];

// ---- seeded inputs ---------------------------------------------------------------------------

/// Most points a widget input may hold (the cpu-msm and gpu-msm widgets draw the same inputs; in
/// both layouts they stay within a few hundred MB of WebAssembly memory).
pub(crate) const MAX_N: usize = 1 << 20;

/// `n` as a size, or an error naming it when it is 0 or above [`MAX_N`].
pub(crate) fn input_size(n: u32) -> Result<usize, JsValue> {
    let n = n as usize;
    if n == 0 || n > MAX_N {
        return Err(err(format_args!("n = {n}: choose 1 to 2^20 points")));
    }
    Ok(n)
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator, the same in every browser.
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform below `r` by rejection from the bit length of r.
    fn scalar_below(&mut self, r: &Scalar) -> Scalar {
        let bits = scalar::bit_len(r);
        loop {
            let mut k = [0u64; 4];
            for (i, w) in k.iter_mut().enumerate() {
                let lo = 64 * i as u32;
                *w = if bits <= lo {
                    0
                } else if bits - lo >= 64 {
                    self.next()
                } else {
                    self.next() & ((1u64 << (bits - lo)) - 1)
                };
            }
            if scalar::less_than(&k, r) {
                return k;
            }
        }
    }
}

// ---- one curve: our group paired with arkworks' --------------------------------------------

/// What the widget needs from a curve: our group, arkworks' group, and conversions.
pub(crate) trait Pair: 'static {
    type Ours: MsmGroup + Radix30Group + Radix51Group + CountableGroup + FormatCurve;
    type Ark: CurveGroup + VariableBaseMSM<MulBase = <Self::Ark as CurveGroup>::Affine>;
    /// arkworks' affine point as ours (through canonical integers).
    fn ours(a: &<Self::Ark as CurveGroup>::Affine) -> <Self::Ours as Group>::Affine;
    /// `(x, y)` canonical of arkworks' affine point, or `None` for the SW identity.
    fn ark_xy(a: &<Self::Ark as CurveGroup>::Affine) -> Option<([u64; 6], [u64; 6])>;
    /// The same for our result.
    fn ours_xy(p: &Self::Ours) -> Option<([u64; 6], [u64; 6])>;
}

fn canonical<F: ArkPrimeField>(a: &F) -> [u64; 6] {
    let mut c = [0u64; 6];
    for (o, w) in c.iter_mut().zip(a.into_bigint().as_ref()) {
        *o = *w;
    }
    c
}

fn fe<F: PrimeField, A: ArkPrimeField>(a: &A) -> F {
    F::from_canonical(&canonical(a)).expect("an arkworks element is below p")
}

pub(crate) struct SwPair<G, P>(core::marker::PhantomData<(G, P)>);

impl<C, P> Pair for SwPair<sw::Xyzz<C>, P>
where
    C: fastmsm_curves::sw::SwCurve
        + fastmsm_curves::radix30::SwTwin30
        + fastmsm_curves::radix51::SwTwin51,
    P: ark_ec::short_weierstrass::SWCurveConfig,
    P::BaseField: ArkPrimeField,
{
    type Ours = sw::Xyzz<C>;
    type Ark = ark_ec::short_weierstrass::Projective<P>;
    fn ours(a: &ark_ec::short_weierstrass::Affine<P>) -> sw::Affine<C> {
        match a.xy() {
            None => sw::Affine::IDENTITY,
            Some((x, y)) => sw::Affine::new_unchecked(fe(&x), fe(&y)),
        }
    }
    fn ark_xy(a: &ark_ec::short_weierstrass::Affine<P>) -> Option<([u64; 6], [u64; 6])> {
        a.xy().map(|(x, y)| (canonical(&x), canonical(&y)))
    }
    fn ours_xy(p: &sw::Xyzz<C>) -> Option<([u64; 6], [u64; 6])> {
        let a = p.to_affine();
        (!a.infinity).then(|| (a.x.to_canonical(), a.y.to_canonical()))
    }
}

pub(crate) struct TePair;

impl Pair for TePair {
    type Ours = EdBls12_377G;
    type Ark = ark_ed_on_bls12_377::EdwardsProjective;
    fn ours(a: &ark_ed_on_bls12_377::EdwardsAffine) -> te::Affine<fastmsm_curves::EdBls12_377> {
        te::Affine::new_unchecked(fe(&a.x), fe(&a.y))
    }
    fn ark_xy(a: &ark_ed_on_bls12_377::EdwardsAffine) -> Option<([u64; 6], [u64; 6])> {
        Some((canonical(&a.x), canonical(&a.y)))
    }
    fn ours_xy(p: &EdBls12_377G) -> Option<([u64; 6], [u64; 6])> {
        let a = p.to_affine();
        Some((a.x.to_canonical(), a.y.to_canonical()))
    }
}

pub(crate) type Bn254Pair = SwPair<Bn254G1, ark_bn254::g1::Config>;
pub(crate) type Bls377Pair = SwPair<Bls12_377G1, ark_bls12_377::g1::Config>;
pub(crate) type Bls381Pair = SwPair<Bls12_381G1, ark_bls12_381::g1::Config>;

pub(crate) type ArkScalar<P> = <<P as Pair>::Ark as ark_ec::PrimeGroup>::ScalarField;
pub(crate) type ArkAffine<P> = <<P as Pair>::Ark as CurveGroup>::Affine;
type OurAffine<P> = <<P as Pair>::Ours as Group>::Affine;

/// One seeded input in both libraries' types.
struct Inputs<P: Pair> {
    ark_points: Vec<ArkAffine<P>>,
    ark_scalars: Vec<ArkScalar<P>>,
    points: Vec<OurAffine<P>>,
    scalars: Vec<Scalar>,
}

/// The seeded input in arkworks' types (and the scalars as ours), as the gpu-msm widget also uses
/// it; `logs[i]` is the discrete logarithm of `ark_points[i]` to the generator, when asked for.
pub(crate) struct ArkInputs<P: Pair> {
    pub ark_points: Vec<ArkAffine<P>>,
    pub ark_scalars: Vec<ArkScalar<P>>,
    pub scalars: Vec<Scalar>,
    pub logs: Option<Vec<ArkScalar<P>>>,
}

fn ark_scalar<P: Pair>(k: &Scalar) -> ArkScalar<P> {
    let mut b = <ArkScalar<P> as ArkPrimeField>::BigInt::default();
    b.as_mut()[..4].copy_from_slice(k);
    ArkScalar::<P>::from_bigint(b).expect("below r")
}

/// Points: a random walk P_{i+1} = P_i + B_{j(i)} over 16 random multiples B_j of the generator,
/// in arkworks' projective coordinates, then one batch normalisation to affine (n additions and
/// one inversion, instead of n scalar multiplications). Scalars: uniform below r. With `logs`,
/// the walk's discrete logarithms are summed alongside (one scalar-field addition per point).
pub(crate) fn draw_ark<P: Pair>(
    n: usize,
    seed: u64,
    logs: bool,
    progress: &dyn Fn(f64, &str),
) -> ArkInputs<P> {
    let mut rng = SplitMix64(seed);
    let r = <P::Ours as MsmGroup>::SCALAR_MODULUS;
    let g = <P::Ark as ark_ec::PrimeGroup>::generator();
    let step_logs: Vec<Scalar> = (0..16).map(|_| rng.scalar_below(&r)).collect();
    let steps: Vec<ArkAffine<P>> = step_logs
        .iter()
        .map(|b| g.mul_bigint(b).into_affine())
        .collect();
    let step_logs: Vec<ArkScalar<P>> = step_logs.iter().map(ark_scalar::<P>).collect();
    let start = rng.scalar_below(&r);
    let mut acc = g.mul_bigint(start);
    let mut acc_log = ark_scalar::<P>(&start);
    let mut proj = Vec::with_capacity(n);
    let mut point_logs = Vec::with_capacity(if logs { n } else { 0 });
    let chunk = (n / 8).max(1);
    for i in 0..n {
        let j = (rng.next() % 16) as usize;
        acc += steps[j];
        proj.push(acc);
        if logs {
            acc_log += step_logs[j];
            point_logs.push(acc_log);
        }
        if i % chunk == chunk - 1 {
            progress(0.6 * (i + 1) as f64 / n as f64, "drawing points");
        }
    }
    let ark_points = P::Ark::normalize_batch(&proj);
    drop(proj);
    progress(0.7, "drawing scalars");
    let scalars: Vec<Scalar> = (0..n).map(|_| rng.scalar_below(&r)).collect();
    let ark_scalars = scalars.iter().map(ark_scalar::<P>).collect();
    ArkInputs {
        ark_points,
        ark_scalars,
        scalars,
        logs: logs.then_some(point_logs),
    }
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

/// Bucket accumulation of one of our variants.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Acc {
    /// Mixed projective additions (`fastmsm_msm::bucket`), projective reduction.
    Projective,
    /// Batch-affine accumulation with collision deferral (`fastmsm_msm::batch_affine`),
    /// projective reduction.
    BatchAffine,
    /// Sorted accumulation and reduction, every bucket addition affine (`fastmsm_msm::all_affine`).
    AllAffine,
}

/// The field representation of one of our variants.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Limbs {
    /// `fastmsm_curves::field::Fp`: 64-bit words.
    W64,
    /// `fastmsm_curves::radix30`: 30-bit limbs.
    R30,
    /// `fastmsm_curves::radix51`: 51-bit limbs, Emmart's FMA product.
    R51,
}

/// `(accumulation, limbs)` of a variant name among [`VARIANTS`], `None` for arkworks or an
/// unknown name.
fn parse_variant(variant: &str) -> Option<(Acc, Limbs)> {
    if !VARIANTS.contains(&variant) {
        return None;
    }
    let (base, limbs) = if let Some(b) = variant.strip_suffix("-r30") {
        (b, Limbs::R30)
    } else if let Some(b) = variant.strip_suffix("-r51") {
        (b, Limbs::R51)
    } else {
        (variant, Limbs::W64)
    };
    let acc = match base {
        "projective" => Acc::Projective,
        "batch-affine" => Acc::BatchAffine,
        "all-affine" => Acc::AllAffine,
        _ => return None,
    };
    Some((acc, limbs))
}

/// The reader's options for our runs.
#[derive(Clone, Copy)]
struct Opts {
    window: Option<u32>,
    batch: Option<usize>,
    glv: bool,
}

#[derive(Serialize, Default)]
struct Stats {
    /// The window the MSM chose, where it reports it (the all-affine one picks it from the
    /// scalars): the run's `window` then, not [`window_used`]'s.
    #[serde(skip)]
    window: Option<u32>,
    rounds: usize,
    inversions: usize,
    batched_additions: usize,
    immediate: usize,
    deferred: usize,
    spilled: usize,
}

impl From<BatchAffineStats> for Stats {
    fn from(s: BatchAffineStats) -> Self {
        Stats {
            window: None,
            rounds: s.rounds,
            inversions: s.inversions,
            batched_additions: s.batched_additions,
            immediate: s.immediate,
            deferred: s.deferred,
            spilled: s.spilled,
        }
    }
}

impl From<AllAffineStats> for Stats {
    fn from(s: AllAffineStats) -> Self {
        Stats {
            rounds: s.accumulation_rounds + s.reduction_rounds,
            inversions: s.inversions,
            batched_additions: s.batched_additions,
            immediate: s.immediate,
            deferred: 0,
            spilled: 0,
            window: Some(s.window),
        }
    }
}

/// Runs one of our MSMs on group G (ours, its 30-bit twin, or its counted twin).
fn run_ours<G: MsmGroup>(
    points: &[G::Affine],
    scalars: &[Scalar],
    acc: Acc,
    o: &Opts,
) -> Result<(G, Option<Stats>), MsmError> {
    match acc {
        Acc::Projective | Acc::BatchAffine => {
            let accumulation = if acc == Acc::Projective {
                Accumulation::Projective
            } else {
                let mut ba = BatchAffineConfig::default();
                if let Some(b) = o.batch {
                    // a bigger batch meets more busy buckets: let the deferred queue grow with it
                    ba.batch_size = b;
                    ba.max_deferred = ba.max_deferred.max(4 * b);
                }
                Accumulation::BatchAffine(ba)
            };
            let cfg = MsmConfig {
                window: o.window,
                accumulation,
                glv: o.glv,
                ..MsmConfig::default()
            };
            let mut stats = BatchAffineStats::default();
            let q = msm_with_stats(points, scalars, &cfg, &mut stats)?;
            Ok((q, (acc == Acc::BatchAffine).then(|| stats.into())))
        }
        Acc::AllAffine => {
            let mut cfg = AllAffineConfig {
                window: o.window,
                glv: o.glv,
                ..AllAffineConfig::default()
            };
            if let Some(b) = o.batch {
                cfg.accumulation_batch = b;
            }
            let mut stats = AllAffineStats::default();
            let q = msm_all_affine(points, scalars, &cfg, &mut stats)?;
            Ok((q, Some(stats.into())))
        }
    }
}

/// The point of a [`run_ours`] result, its statistics moved into `stats`.
fn keep_stats<G>(
    stats: &mut Option<Stats>,
    r: Result<(G, Option<Stats>), MsmError>,
) -> Result<G, MsmError> {
    r.map(|(q, s)| {
        *stats = s;
        q
    })
}

/// The window width an MSM of `len` points picks (or was given), with or without GLV.
fn window_used<G: MsmGroup>(points: &[G::Affine], scalars: &[Scalar], o: &Opts) -> u32 {
    if let Some(c) = o.window {
        return c;
    }
    let n = points.len().max(1);
    match o
        .glv
        .then(|| G::glv_expand(&points[..1], &scalars[..1]))
        .flatten()
    {
        Some(split) => window_size(2 * n, &split.bound),
        None => window_size(n, &G::SCALAR_MODULUS),
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

pub(crate) fn xy_hex(xy: Option<([u64; 6], [u64; 6])>) -> (Option<String>, Option<String>) {
    match xy {
        None => (None, None),
        Some((x, y)) => (Some(hex(&x)), Some(hex(&y))),
    }
}

trait Runner {
    fn run(&self, variant: &str, len: usize, o: &Opts) -> Result<RunResult, JsValue>;
    fn count(&self, variant: &str, len: usize, o: &Opts) -> Result<CountResult, JsValue>;
    fn n(&self) -> usize;
    /// The first `len` points and scalars in the `msm` tool's file layout.
    fn bytes(&self, len: usize) -> (Vec<u8>, Vec<u8>);
    fn scalar_modulus(&self) -> Scalar;
    fn has_glv(&self) -> bool;
}

impl<P: Pair> Runner for Inputs<P> {
    fn run(&self, variant: &str, len: usize, o: &Opts) -> Result<RunResult, JsValue> {
        let len = len.min(self.points.len());
        let (points, scalars) = (&self.points[..len], &self.scalars[..len]);
        if variant == "arkworks" {
            let q = P::Ark::msm(&self.ark_points[..len], &self.ark_scalars[..len])
                .map_err(|_| err("arkworks: length mismatch"))?;
            let (x, y) = xy_hex(P::ark_xy(&q.into_affine()));
            return Ok(RunResult {
                variant: variant.into(),
                n: len,
                x,
                y,
                window: None,
                glv: false,
                stats: None,
            });
        }
        let (acc, limbs) = parse_variant(variant)
            .ok_or_else(|| err(format_args!("unknown variant {variant:?}")))?;
        let o = Opts {
            glv: o.glv && self.has_glv(),
            ..*o
        };
        let mut stats = None;
        let st = &mut stats;
        let q: P::Ours = match limbs {
            Limbs::W64 => keep_stats(st, run_ours(points, scalars, acc, &o)),
            Limbs::R30 => {
                via_radix30::<P::Ours>(points, |p| keep_stats(st, run_ours(p, scalars, acc, &o)))
            }
            Limbs::R51 => {
                via_radix51::<P::Ours>(points, |p| keep_stats(st, run_ours(p, scalars, acc, &o)))
            }
        }
        .map_err(err)?;
        let (x, y) = xy_hex(P::ours_xy(&q));
        Ok(RunResult {
            variant: variant.into(),
            n: len,
            x,
            y,
            window: Some(
                stats
                    .as_ref()
                    .and_then(|s| s.window)
                    .unwrap_or_else(|| window_used::<P::Ours>(points, scalars, &o)),
            ),
            glv: o.glv,
            stats,
        })
    }

    fn count(&self, variant: &str, len: usize, o: &Opts) -> Result<CountResult, JsValue> {
        let len = len.min(self.points.len());
        let (points, scalars) = (&self.points[..len], &self.scalars[..len]);
        let (acc, _) = parse_variant(variant)
            .ok_or_else(|| err(format_args!("cannot count variant {variant:?}")))?;
        let o = Opts {
            glv: o.glv && self.has_glv(),
            ..*o
        };
        let mut stats = None;
        let (q, ops) = count_via::<P::Ours>(points, |p| {
            run_ours(p, scalars, acc, &o).map(|(q, s)| {
                stats = s;
                q
            })
        });
        let q = q.map_err(err)?;
        let (x, y) = xy_hex(P::ours_xy(&q));
        Ok(CountResult {
            variant: variant.into(),
            n: len,
            window: stats
                .as_ref()
                .and_then(|s| s.window)
                .unwrap_or_else(|| window_used::<P::Ours>(points, scalars, &o)),
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
        let len = len.min(self.points.len());
        (
            write_points::<P::Ours>(&self.points[..len]),
            write_scalars(&self.scalars[..len]),
        )
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

impl Opts {
    /// From the widget's numbers: a window or batch of 0 means the default.
    fn from_js(window: u32, batch: u32, glv: bool) -> Self {
        Self {
            window: (window != 0).then_some(window),
            batch: (batch != 0).then_some(batch as usize),
            glv,
        }
    }
}

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
        let report = |f: f64, text: &str| {
            let _ = progress.call2(
                &JsValue::NULL,
                &JsValue::from_f64(f),
                &JsValue::from_str(text),
            );
        };
        let seed = u64::from(seed);
        let inner: Box<dyn Runner> = match curve {
            "bn254" => Box::new(draw::<Bn254Pair>(n, seed, &report)),
            "bls12-377" => Box::new(draw::<Bls377Pair>(n, seed, &report)),
            "bls12-381" => Box::new(draw::<Bls381Pair>(n, seed, &report)),
            "ed-on-bls12-377" => Box::new(draw::<TePair>(n, seed, &report)),
            _ => {
                return Err(err(format_args!(
                    "unknown curve {curve:?}; one of {CURVES:?}"
                )));
            }
        };
        Ok(CpuMsm {
            curve: curve.into(),
            inner,
        })
    }

    /// The curve's name.
    #[wasm_bindgen(getter)]
    pub fn curve(&self) -> String {
        self.curve.clone()
    }

    /// Points in the input.
    #[wasm_bindgen(getter)]
    pub fn n(&self) -> u32 {
        self.inner.n() as u32
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
        to_js(
            &self
                .inner
                .run(variant, len as usize, &Opts::from_js(window, batch, glv))?,
        )
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
        to_js(
            &self
                .inner
                .count(variant, len as usize, &Opts::from_js(window, batch, glv))?,
        )
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
    variants: &'static [&'static str],
}

/// `{curves, variants}`: what [`CpuMsm`] knows.
#[wasm_bindgen]
pub fn cpu_msm_info() -> Result<JsValue, JsValue> {
    to_js(&CpuMsmInfo {
        curves: CURVES,
        variants: VARIANTS,
    })
}

// ---- signed digits ----------------------------------------------------------------------------

fn scalar_modulus_of(curve: &str) -> Result<Scalar, JsValue> {
    Ok(match curve {
        "bn254" => Bn254G1::SCALAR_MODULUS,
        "bls12-377" => Bls12_377G1::SCALAR_MODULUS,
        "bls12-381" => Bls12_381G1::SCALAR_MODULUS,
        "ed-on-bls12-377" => EdBls12_377G::SCALAR_MODULUS,
        _ => {
            return Err(err(format_args!(
                "unknown curve {curve:?}; one of {CURVES:?}"
            )));
        }
    })
}

/// Parses a non-negative integer, decimal or `0x` hex, into 256 bits.
fn parse_scalar(text: &str) -> Result<Scalar, String> {
    let t = text.trim().replace('_', "");
    let (digits, radix) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => (h.to_string(), 16u64),
        None => (t.clone(), 10u64),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix as u32)) {
        return Err(format!(
            "{text:?} is not a number: type a non-negative integer in decimal (e.g. 12345) or hex with 0x (e.g. 0x3039)"
        ));
    }
    let mut k = [0u64; 4];
    for c in digits.chars() {
        let d = u64::from(c.to_digit(radix as u32).expect("checked"));
        // k = k·radix + d, failing past 256 bits
        let mut carry = u128::from(d);
        for w in k.iter_mut() {
            let v = u128::from(*w) * u128::from(radix) + carry;
            *w = v as u64;
            carry = v >> 64;
        }
        if carry != 0 {
            return Err(format!(
                "{text:?} does not fit in 256 bits, let alone below r"
            ));
        }
    }
    Ok(k)
}

#[derive(Serialize)]
struct Window {
    /// Window index j: bits [c·j, c·j + c).
    index: usize,
    /// The unsigned c-bit chunk.
    chunk: u32,
    /// The carry coming in from window j − 1 (0 or 1).
    carry_in: u32,
    /// The signed digit d_j in [−2^(c−1), 2^(c−1) − 1].
    digit: i32,
    /// The carry going out to window j + 1.
    carry_out: u32,
    /// Bucket |d_j| (1-based, as the chapter writes B_j), or null for digit 0.
    bucket: Option<u32>,
    /// "+", "−" or "" (digit 0: the point goes nowhere in this window).
    sign: &'static str,
    /// d_j + 2^(c−1): Derei and Koh's shifted form (what the GPU stages store).
    shifted: u32,
}

#[derive(Serialize)]
struct Digits {
    curve: String,
    scalar: String,
    c: u32,
    r: String,
    /// Windows for every scalar below r at this c (the final-carry window included when needed).
    windows: usize,
    /// Buckets per window: 2^(c−1).
    buckets: u32,
    rows: Vec<Window>,
}

// ANCHOR: signed_digits_export
/// The windows of `scalar` (decimal or `0x` hex) for `curve` at width c, with the signed digits of
/// `fastmsm_msm::digits::decompose_into`, the carries between windows, and each window's bucket
/// and sign. Errors name what is wrong with the input.
#[wasm_bindgen]
pub fn signed_digits(curve: &str, scalar_text: &str, c: u32) -> Result<JsValue, JsValue> {
    let r = scalar_modulus_of(curve)?;
    if !(2..=16).contains(&c) {
        return Err(err(format_args!("window width c = {c}: choose 2 to 16")));
    }
    let k = parse_scalar(scalar_text).map_err(err)?;
    if !scalar::less_than(&k, &r) {
        return Err(err(format_args!(
            "{scalar_text} is not below the group order r = {} of {curve}: an MSM scalar lives in [0, r)",
            hex(&r)
        )));
    }
    let windows = num_windows(c, &r);
    let mut digits = vec![0i32; windows];
    let left = decompose_into(&k, c, &mut digits);
    assert_eq!(left, 0, "num_windows covers every scalar below r");
    let mut carry = 0u32;
    let rows = digits
        .iter()
        .enumerate()
        .map(|(j, &d)| {
            let ch = chunk(&k, j, c);
            // chunk + carry_in = d + carry_out·2^c
            let carry_out = ((i64::from(ch) + i64::from(carry) - i64::from(d)) >> c) as u32;
            let row = Window {
                index: j,
                chunk: ch,
                carry_in: carry,
                digit: d,
                carry_out,
                bucket: (d != 0).then_some(d.unsigned_abs()),
                sign: if d > 0 {
                    "+"
                } else if d < 0 {
                    "−"
                } else {
                    ""
                },
                shifted: fastmsm_msm::digits::to_shifted(d, c),
            };
            carry = carry_out;
            row
        })
        .collect();
    to_js(&Digits {
        curve: curve.into(),
        scalar: hex(&k),
        c,
        r: hex(&r),
        windows,
        buckets: 1 << (c - 1),
        rows,
    })
}
// ANCHOR_END: signed_digits_export

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_decimal_and_hex() {
        assert_eq!(parse_scalar("12345"), Ok([12345, 0, 0, 0]));
        assert_eq!(parse_scalar(" 0x3039 "), Ok([12345, 0, 0, 0]));
        assert_eq!(
            parse_scalar("18446744073709551616"),
            Ok([0, 1, 0, 0]),
            "2^64"
        );
        assert!(parse_scalar("12a").is_err());
        assert!(parse_scalar("-5").is_err());
        assert!(parse_scalar("").is_err());
        assert!(parse_scalar("0x").is_err());
        assert!(parse_scalar(&"9".repeat(80)).is_err());
    }
}
