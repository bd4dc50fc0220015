//! GPU MSM benchmark (native wgpu). For each curve, n and limb width: warm-up runs (≥ 3, ≥ 1 s), then `reps`
//! timed runs of `GpuMsm::run_packed` — from host arrays of packed points and scalars to the affine
//! result, pipelines prebuilt — each checked against the exact MSM of the inputs (their points are
//! consecutive multiples of the generator; see `inputs`).
//! Writes results JSON with the per-stage breakdown of the median run (GPU timestamps where the
//! adapter has them).
//!
//! usage: cargo run --release -p fastmsm-gpu --example msm_bench -- [--log-n 16,18,20]
//!        [--curves bn254,bls12-377] [--limb-bits 13,15] (0: the profile's width)
//!        [--profiles calibrated,h200] (device profiles, each a full set of runs in this process:
//!        `calibrated` measures this device first (fastmsm_gpu::calibrate, then the SMVP probe at
//!        every other width run), the others are named, see fastmsm_gpu::profile; default:
//!        calibrated)
//!        [--patterns uniform,small,equal]
//!        [--chunks 0,64,256] (SMVP entries per invocation; 0: the plan's default)
//!        [--segments 0,1024] (reduction segments per window; 0: the plan's default)
//!        [--first-batches 0,262144] (points in the first batch, the rest in one; 0: equal batches)
//!        [--windows 0,15,16] (window size c; 0: the plan's default)
//!        [--batches 0,1,2,4] (split the points into this many batches; 0: the plan's default)
//!        [--uploads auto,staging,pipelined:8M] (how the input reaches the GPU,
//!        fastmsm_gpu::msm::UploadPath; rows of a path other than auto end in `/upload=<path>`)
//!        [--edits none,...] (shader edits, with the cargo feature `experiments`)
//!        [--smvp none,affine-64] (the SMVP's form per build, with the cargo feature
//!        `experiments`: `none` is the default projective form; replaces the list of --edits)
//!        [--reps 5] [--commit C] [--date D] --out FILE
//!        [--resident 1] (also time each configuration against bases resident on the GPU: the
//!        points uploaded and converted once, `GpuMsm::run_resident` timed with the scalars
//!        alone, recorded beside the host-array run as `…/resident`, with the upload's time and
//!        the bases' device memory; default SMVP only) [--resident-log-n 20,24] (those sizes only)
//!        [--precompute 2,4] (with --resident: also bases with that many precomputed copies,
//!        `…/resident/p<T>`, upload and precomputation time and memory beside)
//!        [--batch-msms 32 --batch-log-n 14] (per curve: that many MSMs of 2^L points of their
//!        own, one `run_batch` call against one `run_packed` call after another,
//!        `<curve>/batch/<B>x2^<L>/w<w>/packed|sequential`)
//!        [--suite NAME] (the results' `suite`, default gpu-msm)

use std::time::Instant;

use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::UniformRand;
use ark_std::rand::{Rng, SeedableRng, rngs::StdRng};
use fastmsm_gpu::calibrate::{self, CalibrationOptions};
use fastmsm_gpu::msm::{
    AffineOut, BatchMsm, GpuCurve, GpuMsm, GpuPoint, MsmOutput, Points, ProfileChoice, RunOptions,
    UploadPath, pack_points, pack_scalars,
};
use fastmsm_gpu::testing::block_on;
use fastmsm_gpu::{DeviceProfile, GpuContext};
use fastmsm_mont::Canonical;
use serde_json::json;

#[cfg(feature = "experiments")]
#[path = "common/shader_edits.rs"]
mod shader_edits;

/// The MSM's pipelines for `profile`, from the shaders as they are (`edit` "none"), or, with the
/// cargo feature `experiments`, with an SMVP form (`--smvp`: `projective`, `affine-<lanes>`) or
/// from an edit of them (`--edits`).
fn build(
    ctx: &GpuContext,
    curve: GpuCurve,
    limb_bits: u32,
    edit: &str,
    profile: &DeviceProfile,
) -> GpuMsm {
    let builder = GpuMsm::builder(curve)
        .limb_bits(limb_bits)
        .profile(ProfileChoice::Given(profile.clone()));
    if edit == "none" {
        return block_on(builder.build(ctx)).expect("pipelines");
    }
    #[cfg(feature = "experiments")]
    {
        use fastmsm_gpu::experiments::batch_affine::SmvpForm;
        if let Some(smvp) = SmvpForm::from_name(edit) {
            return block_on(builder.smvp(smvp).build(ctx)).expect("pipelines");
        }
        let edit = |s| shader_edits::edit(edit, s);
        block_on(builder.source_edit(&edit).build(ctx)).expect("pipelines")
    }
    #[cfg(not(feature = "experiments"))]
    panic!("--edits/--smvp {edit} needs --features experiments");
}

/// One configuration's timed runs: the seconds of each in run order and sorted, and the median
/// run's breakdown.
struct Timed {
    seconds: Vec<f64>,
    sorted: Vec<f64>,
    median_run: MsmOutput,
    verified: bool,
}

impl Timed {
    fn median(&self) -> f64 {
        self.sorted[self.sorted.len() / 2]
    }

    /// The line printed per configuration: median, range, verification.
    fn summary(&self) -> String {
        let ms = |s: f64| s * 1e3;
        let (first, last) = (self.sorted[0], self.sorted[self.sorted.len() - 1]);
        format!(
            "median {:.2} ms [{:.2}, {:.2}], verified {}",
            ms(self.median()),
            ms(first),
            ms(last),
            self.verified
        )
    }

    /// One results entry: `params` plus the median run's breakdown and the timing summary.
    fn entry(&self, name: &str, mut params: serde_json::Value) -> serde_json::Value {
        let out = &self.median_run;
        params["host_ms_of_median_run"] = out
            .host
            .iter()
            .map(|(s, t)| json!({"phase": s, "ms": t * 1e3}))
            .collect();
        params["stages_ms_of_median_run"] = out
            .stages
            .iter()
            .map(|(s, t)| json!({"stage": s.entry_point(), "ms": t * 1e3}))
            .collect();
        params["seconds"] = json!(self.seconds);
        json!({
            "name": name, "params": params, "unit": "ms",
            "median": self.median() * 1e3, "min": self.sorted[0] * 1e3,
            "max": self.sorted[self.sorted.len() - 1] * 1e3,
            "samples": self.sorted.len(), "verified": self.verified,
        })
    }
}

/// Warm-up (at least 3 runs and 1 s, so the GPU's clocks have risen), then `reps` timed runs of
/// `run`, each checked against `expected`. Returns the timings and the last warm-up output.
fn time_runs(
    reps: usize,
    now: &dyn Fn() -> f64,
    expected: &AffineOut,
    run: &dyn Fn() -> MsmOutput,
) -> (Timed, MsmOutput) {
    time_checked(reps, now, &|| {
        let out = run();
        let ok = out.result == *expected;
        (out, ok)
    })
}

/// As [`time_runs`] for a run that checks itself: `run` returns an output (for the median's
/// breakdown) and whether every result it computed was right.
fn time_checked(
    reps: usize,
    now: &dyn Fn() -> f64,
    run: &dyn Fn() -> (MsmOutput, bool),
) -> (Timed, MsmOutput) {
    let (warm_start, mut warm_runs) = (now(), 0);
    let mut verified = true;
    let warm = loop {
        let (out, ok) = run();
        verified &= ok;
        warm_runs += 1;
        if warm_runs >= 3 && now() - warm_start >= 1.0 {
            break out;
        }
    };
    let mut runs: Vec<(f64, MsmOutput)> = (0..reps)
        .map(|_| {
            let start = now();
            let (out, ok) = run();
            let seconds = now() - start;
            verified &= ok;
            (seconds, out)
        })
        .collect();
    let seconds: Vec<f64> = runs.iter().map(|r| r.0).collect();
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let sorted: Vec<f64> = runs.iter().map(|r| r.0).collect();
    let median_run = runs.swap_remove(sorted.len() / 2).1;
    let timed = Timed {
        seconds,
        sorted,
        median_run,
        verified,
    };
    (timed, warm)
}

struct Input {
    points: Vec<u32>,
    scalars: Vec<u32>,
    expected: AffineOut,
}

/// `f(start, chunk)` over `items` cut into one chunk per core, each a whole number of `unit`
/// items (`start`: the chunk's first item).
fn per_core<T: Send>(items: &mut [T], unit: usize, f: impl Fn(usize, &mut [T]) + Sync) {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let part = (items.len() / unit).div_ceil(cores).max(1) * unit;
    std::thread::scope(|s| {
        for (i, chunk) in items.chunks_mut(part).enumerate() {
            let f = &f;
            s.spawn(move || f(i * part, chunk));
        }
    });
}

/// n distinct points (f + i)·G, f a random multiple (computed in slices on every core, each from
/// its own first multiple, normalised per slice), n scalars of the given pattern, and the MSM they
/// make, (Σ kᵢ·(f + i))·G: exact, and n scalar products where an MSM of 2^24 points would cost
/// seconds per curve on the CPU (the `reference_is_the_msm` test below compares it with arkworks'
/// MSM, and benches/sppark draws the same inputs and checks them the same way).
///   uniform: uniform below r; small: 90% below 2^10, the rest uniform; equal: 64 distinct values.
fn inputs<G>(curve: GpuCurve, n: usize, pattern: &str, seed: u64) -> Input
where
    G: AffineRepr + GpuPoint<Scalar = G::ScalarField>,
    G::Group: VariableBaseMSM<MulBase = G, ScalarField = G::ScalarField>,
{
    let (points, scalars, first) = draw::<G>(n, pattern, seed);
    let mut multiple = first;
    let mut sum = G::ScalarField::from(0u64);
    for k in &scalars {
        sum += *k * multiple;
        multiple += G::ScalarField::from(1u64);
    }
    let expected = (G::generator() * sum).into_affine();
    Input {
        points: pack_in_parallel(curve, &points),
        scalars: pack_scalars_in_parallel::<G>(&scalars),
        // The result's form: the short-Weierstrass identity is `None`, the Edwards one (0, 1).
        expected: (curve.is_edwards() || !expected.is_zero()).then(|| expected.coordinates()),
    }
}

/// The draws of [`inputs`]: points, scalars, and f (point i is (f + i)·G).
fn draw<G>(n: usize, pattern: &str, seed: u64) -> (Vec<G>, Vec<G::ScalarField>, G::ScalarField)
where
    G: AffineRepr,
{
    let mut rng = StdRng::seed_from_u64(seed);
    let g = G::generator();
    // The first point is a·G + G.
    let first = G::ScalarField::rand(&mut rng) + G::ScalarField::from(1u64);
    let mut points = vec![G::zero(); n];
    per_core(&mut points, 1, |start, slice| {
        let mut acc = g * (first + G::ScalarField::from(start as u64));
        let projective: Vec<G::Group> = (0..slice.len())
            .map(|_| {
                let p = acc;
                acc += g;
                p
            })
            .collect();
        slice.copy_from_slice(&G::Group::normalize_batch(&projective));
    });
    let pool: Vec<G::ScalarField> = (0..64).map(|_| G::ScalarField::rand(&mut rng)).collect();
    let scalars: Vec<G::ScalarField> = (0..n)
        .map(|_| match pattern {
            "uniform" => G::ScalarField::rand(&mut rng),
            "small" if rng.gen_range(0..10) < 9 => G::ScalarField::from(rng.gen_range(0u64..1024)),
            "small" => G::ScalarField::rand(&mut rng),
            "equal" => pool[rng.gen_range(0..pool.len())],
            other => panic!("unknown pattern {other}"),
        })
        .collect();
    (points, scalars, first)
}

/// `pack_points` of the points' canonical coordinates, a slice per core.
fn pack_in_parallel<G: GpuPoint + Sync>(curve: GpuCurve, points: &[G]) -> Vec<u32> {
    let per_point = 2 * curve.coord_words();
    let mut out = vec![0u32; points.len() * per_point];
    per_core(&mut out, per_point, |start, chunk| {
        let first = start / per_point;
        let coords: Vec<(Canonical, Canonical)> = points[first..first + chunk.len() / per_point]
            .iter()
            .map(GpuPoint::coordinates)
            .collect();
        chunk.copy_from_slice(&pack_points(curve, &coords));
    });
    out
}

/// `pack_scalars` of the scalars, a slice per core.
fn pack_scalars_in_parallel<G: GpuPoint>(scalars: &[G::Scalar]) -> Vec<u32>
where
    G::Scalar: Sync,
{
    let mut out = vec![0u32; scalars.len() * 8];
    per_core(&mut out, 8, |start, chunk| {
        let first = start / 8;
        let words: Vec<[u64; 4]> = scalars[first..first + chunk.len() / 8]
            .iter()
            .map(G::scalar_words)
            .collect();
        chunk.copy_from_slice(&pack_scalars(&words));
    });
    out
}

/// [`inputs`] on `curve`'s arkworks points.
fn curve_inputs(curve: GpuCurve, n: usize, pattern: &str, seed: u64) -> Input {
    match curve {
        GpuCurve::Bn254 => inputs::<ark_bn254::G1Affine>(curve, n, pattern, seed),
        GpuCurve::Bls12_377 => inputs::<ark_bls12_377::G1Affine>(curve, n, pattern, seed),
        GpuCurve::Bls12_381 => inputs::<ark_bls12_381::G1Affine>(curve, n, pattern, seed),
        GpuCurve::EdBls12_377 => {
            inputs::<ark_ed_on_bls12_377::EdwardsAffine>(curve, n, pattern, seed)
        }
    }
}

fn list<T: std::str::FromStr>(v: &str) -> Vec<T> {
    v.split(',')
        .map(|x| {
            x.parse()
                .ok()
                .unwrap_or_else(|| panic!("bad list item {x}"))
        })
        .collect()
}

fn main() {
    let (mut log_ns, mut limb_bits, mut reps) = (vec![16u32, 18, 20], vec![13u32, 15], 5usize);
    let mut curves = vec![GpuCurve::Bls12_377, GpuCurve::Bn254];
    let mut patterns = vec!["uniform".to_string()];
    let mut edits = vec!["none".to_string()];
    let mut chunks = vec![0u32];
    let mut segment_counts = vec![0u32];
    let mut first_batches = vec![0usize];
    let mut uploads = vec![UploadPath::Auto];
    let mut windows = vec![0u32];
    let mut batches = vec![0usize];
    let mut profile_names = vec!["calibrated".to_string()];
    let mut resident = false;
    let mut resident_log_ns: Option<Vec<u32>> = None;
    let mut precompute: Vec<u32> = Vec::new();
    let (mut batch_msms, mut batch_log_n) = (0usize, 14u32);
    let mut suite = "gpu-msm".to_string();
    let mut skipped = 0usize;
    let (mut commit, mut date, mut out) =
        ("unknown".to_string(), "unknown".to_string(), String::new());
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let v = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--log-n" => log_ns = list(&v),
            "--curves" => {
                curves = v
                    .split(',')
                    .map(|x| GpuCurve::from_name(x).expect("curve"))
                    .collect()
            }
            "--limb-bits" => limb_bits = list(&v),
            "--patterns" => patterns = list(&v),
            "--edits" => edits = list(&v),
            "--smvp" => edits = list(&v),
            "--chunks" => chunks = list(&v),
            "--segments" => segment_counts = list(&v),
            "--first-batches" => first_batches = list(&v),
            "--windows" => windows = list(&v),
            "--batches" => batches = list(&v),
            "--uploads" => {
                uploads = v
                    .split(',')
                    .map(|u| UploadPath::parse(u).unwrap_or_else(|e| panic!("{e}")))
                    .collect()
            }
            "--profiles" => profile_names = list(&v),
            "--reps" => reps = v.parse().expect("--reps"),
            "--resident" => resident = v != "0",
            "--resident-log-n" => resident_log_ns = Some(list(&v)),
            "--precompute" => precompute = list(&v),
            "--batch-msms" => batch_msms = v.parse().expect("--batch-msms"),
            "--batch-log-n" => batch_log_n = v.parse().expect("--batch-log-n"),
            "--suite" => suite = v,
            "--commit" => commit = v,
            "--date" => date = v,
            "--out" => out = v,
            other => panic!("unknown argument {other}"),
        }
    }
    assert!(!out.is_empty(), "--out FILE is required");
    let ctx = block_on(GpuContext::new()).expect("GPU adapter");
    eprintln!(
        "adapter: {} ({:?}, {} {})",
        ctx.info.name, ctx.info.backend, ctx.info.driver, ctx.info.driver_info
    );
    let epoch = Instant::now();
    let now = move || epoch.elapsed().as_secs_f64();
    let mut results = Vec::new();
    let mut all_verified = true;
    // Every profile used, by curve: what the plan read (a calibration also what it measured).
    let mut profiles_used = serde_json::Map::new();
    // Written after every configuration, so a run cut short by a time limit keeps what it measured.
    let write = |results: &Vec<serde_json::Value>,
                 profiles: &serde_json::Map<String, serde_json::Value>| {
        let doc = json!({
            "suite": suite,
            "protocol": "native wgpu; time from packed host arrays (points, scalars) to the affine result, pipelines prebuilt, warm-up runs (at least 3 and 1 s), median of the timed runs; every run, warm-up included, checked against the exact sum (Σ k_i·(f + i))·G, which is the MSM since point i is (f + i)·G (msm_bench's test compares it with arkworks' MSM on every pattern); `/resident` rows: bases uploaded once (upload_bases_ms, bases_bytes), only the scalars per MSM; `/resident/p<T>`: the same with T precomputed copies of every base; `batch/<B>x2^<L>` rows: B MSMs of 2^L points of their own, `packed` one run_batch call, `sequential` one run_packed call after another, each row's time for all B",
            "device": { "name": ctx.info.name, "backend": format!("{:?}", ctx.info.backend), "driver": format!("{} {}", ctx.info.driver, ctx.info.driver_info).trim() },
            "commit": commit, "date": date, "profiles": profiles, "results": results,
        });
        std::fs::write(&out, serde_json::to_string_pretty(&doc).unwrap() + "\n")
            .expect("write --out");
    };
    for &curve in &curves {
        // (profile, limb bits, edit, compiled MSM with the profile set, build seconds)
        let mut built: Vec<(String, u32, String, GpuMsm, f64)> = Vec::new();
        for name in &profile_names {
            let t = now();
            let mut profile = if name == "calibrated" {
                let options = CalibrationOptions::default();
                block_on(calibrate::calibrate(&ctx, curve, &options))
                    .expect("calibration")
                    .profile
            } else {
                DeviceProfile::named(name).unwrap_or_else(|e| panic!("{e}"))
            };
            let calibration_s = now() - t;
            let first = built.len();
            for &w in &limb_bits {
                let w = if w == 0 {
                    profile.limb_bits(&ctx, curve.base_field())
                } else {
                    w
                };
                for e in &edits {
                    let t = now();
                    let msm = build(&ctx, curve, w, e, &profile);
                    let build_s = now() - t;
                    // A calibration measures the SMVP wave of every kernel size it runs.
                    if name == "calibrated" && !profile.has_smvp_wave(msm.constants.limbs) {
                        let probe = block_on(calibrate::probe_smvp(
                            &ctx,
                            &msm,
                            calibrate::SMVP_BUDGET_SECONDS,
                            &now,
                            &|_, _| {},
                        ))
                        .expect("SMVP probe");
                        calibrate::add_smvp(&mut profile, &probe);
                    }
                    built.push((name.clone(), w, e.clone(), msm, build_s));
                }
            }
            eprintln!(
                "{}: {} ({calibration_s:.2} s)",
                curve.name(),
                profile.summary()
            );
            let mut entry = profile.to_json();
            entry["seconds_to_obtain"] = json!(calibration_s);
            profiles_used.insert(format!("{}/{name}", curve.name()), entry);
            // Every build of this profile plans with all it measured.
            for b in &mut built[first..] {
                b.3 = b.3.with_profile(profile.clone());
            }
        }
        for pattern in &patterns {
            for &log_n in &log_ns {
                let n = 1usize << log_n;
                let t = now();
                let input = curve_inputs(curve, n, pattern, log_n as u64);
                eprintln!(
                    "{} 2^{log_n} {pattern}: inputs + arkworks in {:.1} s",
                    curve.name(),
                    now() - t
                );
                let mut choices: Vec<(u32, u32, usize, u32, usize, UploadPath)> = Vec::new();
                for &k in &chunks {
                    for &c in &windows {
                        for &sg in &segment_counts {
                            for &f in &first_batches {
                                for &u in &uploads {
                                    choices.extend(batches.iter().map(|&b| (k, c, b, sg, f, u)));
                                }
                            }
                        }
                    }
                }
                for (
                    (profile, w, variant, msm, build_s),
                    &(chunk, window, split, segs, first, upload),
                ) in built
                    .iter()
                    .flat_map(|b| choices.iter().map(move |c| (b, c)))
                {
                    let options = RunOptions {
                        stage_timing: true,
                        chunk: (chunk > 0).then_some(chunk),
                        window_bits: (window > 0).then_some(window),
                        batch: (split > 0).then(|| n.div_ceil(split)),
                        segments: (segs > 0).then_some(segs),
                        first_batch: (first > 0).then_some(first),
                        upload,
                        ..Default::default()
                    };
                    // A configuration the device refuses (a limit a form runs past) is reported
                    // and skipped, and the rows after it still come; the exit status says so.
                    if let Err(e) =
                        block_on(msm.run_packed(&ctx, &input.points, &input.scalars, &options))
                    {
                        eprintln!("  {profile} w{w} k{chunk} {variant}: skipped, {e}");
                        skipped += 1;
                        continue;
                    }
                    let run = || {
                        block_on(msm.run_packed(&ctx, &input.points, &input.scalars, &options))
                            .expect("run")
                    };
                    let (timed, warm) = time_runs(reps, &now, &input.expected, &run);
                    all_verified &= timed.verified;
                    eprintln!(
                        "  {profile} w{w} k{chunk} {variant}: {}, {:?} {:?}\n    gpu {:?}\n    host {:?}",
                        timed.summary(),
                        warm.plan,
                        warm.timing,
                        timed.median_run.stages,
                        timed.median_run.host
                    );
                    let name = format!(
                        "{}/{pattern}/2^{log_n}/w{w}{}{}",
                        curve.name(),
                        format!(
                            "{}{}{}",
                            if window == 0 {
                                String::new()
                            } else {
                                format!("/c{window}")
                            },
                            if chunk == 0 {
                                String::new()
                            } else {
                                format!("/k{chunk}")
                            },
                            if split == 0 {
                                String::new()
                            } else {
                                format!("/b{split}")
                            }
                        ) + &if segs == 0 {
                            String::new()
                        } else {
                            format!("/s{segs}")
                        } + &if first == 0 {
                            String::new()
                        } else {
                            format!("/f{first}")
                        },
                        if variant == "none" {
                            String::new()
                        } else {
                            format!("/{variant}")
                        }
                    ) + &if profile == "calibrated" {
                        String::new()
                    } else {
                        format!("/{profile}")
                    } + &if upload == UploadPath::Auto {
                        String::new()
                    } else {
                        format!("/upload={}", upload.name())
                    };
                    let plan = &warm.plan;
                    results.push(timed.entry(
                        &name,
                        json!({
                            "mode": "host-arrays",
                            "curve": curve.name(), "n": n, "log_n": log_n, "limb_bits": w, "pattern": pattern, "edit": variant,
                            "profile": profile, "smvp_wave": msm.profile().smvp_wave(msm.constants.limbs),
                            "window_bits": plan.window_bits, "batches": plan.batches(), "first_batch": plan.first_batch, "segments": plan.segments,
                            "smvp_chunk": plan.chunk, "smvp_levels": plan.smvp_passes(plan.batch).len(),
                            "pipeline_build_seconds": build_s, "upload": upload.name(),
                            "stage_timing": format!("{:?}", warm.timing),
                        }),
                    ));
                    write(&results, &profiles_used);
                    let resident_here = resident
                        && variant == "none"
                        && resident_log_ns.as_ref().is_none_or(|l| l.contains(&log_n));
                    if resident_here {
                        // The same MSM against bases uploaded once: only the scalars cross.
                        let t = now();
                        let bases = block_on(msm.upload_bases(&ctx, &input.points, &options))
                            .expect("upload bases");
                        let upload_s = now() - t;
                        let run = || {
                            block_on(msm.run_resident(&ctx, &bases, &input.scalars, &options))
                                .expect("resident run")
                        };
                        let (timed, _) = time_runs(reps, &now, &input.expected, &run);
                        all_verified &= timed.verified;
                        eprintln!(
                            "  resident: {}, upload {:.2} ms",
                            timed.summary(),
                            upload_s * 1e3
                        );
                        let plain_bytes = bases.device_bytes();
                        results.push(timed.entry(
                            &format!("{name}/resident"),
                            json!({
                                "mode": "resident", "curve": curve.name(), "n": n, "log_n": log_n, "limb_bits": w,
                                "pattern": pattern, "edit": variant, "profile": profile,
                                "upload_bases_ms": upload_s * 1e3, "bases_bytes": plain_bytes, "copies": 1,
                                "window_bits": timed.median_run.plan.window_bits,
                                "windows": timed.median_run.plan.windows,
                            }),
                        ));
                        write(&results, &profiles_used);
                        drop(bases);
                        for &copies in &precompute {
                            // T copies of every base, 2^(c·g·t)·P: g windows summed instead of W.
                            let with = RunOptions {
                                precompute: Some(copies),
                                ..options
                            };
                            let t = now();
                            let bases = match block_on(msm.upload_bases(&ctx, &input.points, &with))
                            {
                                Ok(b) => b,
                                Err(e) => {
                                    eprintln!("  resident, {copies} copies: skipped, {e}");
                                    skipped += 1;
                                    continue;
                                }
                            };
                            let upload_s = now() - t;
                            let run = || {
                                block_on(msm.run_resident(&ctx, &bases, &input.scalars, &options))
                                    .expect("precomputed run")
                            };
                            let (timed, _) = time_runs(reps, &now, &input.expected, &run);
                            all_verified &= timed.verified;
                            eprintln!(
                                "  resident, {copies} copies: {}, upload and precompute {:.0} ms, {} MB",
                                timed.summary(),
                                upload_s * 1e3,
                                bases.device_bytes() >> 20
                            );
                            let plan = &timed.median_run.plan;
                            results.push(timed.entry(
                                &format!("{name}/resident/p{copies}"),
                                json!({
                                    "mode": "resident", "curve": curve.name(), "n": n, "log_n": log_n, "limb_bits": w,
                                    "pattern": pattern, "edit": variant, "profile": profile,
                                    "upload_bases_ms": upload_s * 1e3, "bases_bytes": bases.device_bytes(),
                                    "plain_bases_bytes": plain_bytes, "copies": copies,
                                    "window_bits": plan.window_bits, "windows": plan.windows,
                                }),
                            ));
                            write(&results, &profiles_used);
                        }
                    }
                }
            }
        }
        if batch_msms > 0 {
            // B MSMs of 2^L points each (their own points and scalars, seeds 1000 + i): one
            // run_batch call, which packs them into one pass of each stage, against one
            // run_packed call after another, with each build of the default SMVP.
            let m = 1usize << batch_log_n;
            let sets: Vec<Input> = (0..batch_msms)
                .map(|i| curve_inputs(curve, m, "uniform", 1000 + i as u64))
                .collect();
            for (profile, w, variant, msm, _) in built.iter().filter(|b| b.2 == "none") {
                let options = RunOptions {
                    stage_timing: true,
                    ..Default::default()
                };
                let msms: Vec<BatchMsm<u32>> = sets
                    .iter()
                    .map(|s| BatchMsm {
                        points: Points::Host(&s.points),
                        scalars: &s.scalars,
                    })
                    .collect();
                let packed = || {
                    let outs = block_on(msm.run_batch(&ctx, &msms, &options)).expect("run_batch");
                    let ok = outs.iter().zip(&sets).all(|(o, s)| o.result == s.expected);
                    (outs.into_iter().next().expect("one MSM at least"), ok)
                };
                let sequential = || {
                    let mut ok = true;
                    let mut first = None;
                    for s in &sets {
                        let out = block_on(msm.run_packed(&ctx, &s.points, &s.scalars, &options))
                            .expect("run");
                        ok &= out.result == s.expected;
                        first.get_or_insert(out);
                    }
                    (first.expect("one MSM at least"), ok)
                };
                for (how, run) in [
                    ("packed", &packed as &dyn Fn() -> (MsmOutput, bool)),
                    ("sequential", &sequential),
                ] {
                    let (timed, warm) = time_checked(reps, &now, run);
                    all_verified &= timed.verified;
                    eprintln!(
                        "  {profile} w{w} {batch_msms} MSMs of 2^{batch_log_n}, {how}: {}, {:?}",
                        timed.summary(),
                        warm.plan
                    );
                    results.push(timed.entry(
                        &format!(
                            "{}/batch/{batch_msms}x2^{batch_log_n}/w{w}/{how}",
                            curve.name()
                        ),
                        json!({
                            "mode": format!("batch-{how}"), "curve": curve.name(), "n": m * batch_msms,
                            "log_n": batch_log_n, "msms": batch_msms, "msm_points": m, "limb_bits": w,
                            "pattern": "uniform", "edit": variant, "profile": profile,
                            "packed_msms_per_pass": warm.plan.msms, "window_bits": warm.plan.window_bits,
                        }),
                    ));
                    write(&results, &profiles_used);
                }
            }
        }
    }
    if !all_verified {
        eprintln!("msm_bench: some results did not match the exact MSM");
        std::process::exit(1);
    }
    if skipped > 0 {
        eprintln!("msm_bench: {skipped} configuration(s) skipped (above), the others verified");
        std::process::exit(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact sum the runs are checked against is arkworks' MSM of the same inputs, on every
    /// pattern and on both curve forms.
    #[test]
    fn reference_is_the_msm() {
        fn check<G>(curve: GpuCurve)
        where
            G: AffineRepr + GpuPoint<Scalar = G::ScalarField>,
            G::Group: VariableBaseMSM<MulBase = G, ScalarField = G::ScalarField>,
        {
            for pattern in ["uniform", "small", "equal"] {
                for n in [1, 5, 1000] {
                    let input = inputs::<G>(curve, n, pattern, 7);
                    let (points, scalars, _) = draw::<G>(n, pattern, 7);
                    let msm = G::Group::msm(&points, &scalars).unwrap().into_affine();
                    let want = (curve.is_edwards() || !msm.is_zero()).then(|| msm.coordinates());
                    assert_eq!(input.expected, want, "{} {pattern} {n}", curve.name());
                    let coords: Vec<_> = points.iter().map(GpuPoint::coordinates).collect();
                    assert_eq!(input.points, pack_points(curve, &coords));
                }
            }
        }
        check::<ark_bls12_381::G1Affine>(GpuCurve::Bls12_381);
        check::<ark_ed_on_bls12_377::EdwardsAffine>(GpuCurve::EdBls12_377);
    }
}
