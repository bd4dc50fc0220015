//! GPU MSM benchmark (native wgpu). For each curve, n and limb width: warm-up runs (≥ 3, ≥ 1 s), then `reps`
//! timed runs of `GpuMsm::run_packed` — from host arrays of packed points and scalars to the affine
//! result, pipelines prebuilt — each checked against arkworks' MSM computed once in this process.
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
//!        [--edits none,...] (shader edits, with the cargo feature `experiments`)
//!        [--smvp none,affine-64] (the SMVP's form per build, with the cargo feature
//!        `experiments`: `none` is the default projective form; replaces the list of --edits)
//!        [--reps 5] [--commit C] [--date D] --out FILE
//!        [--resident 1] (also time each configuration against bases resident on the GPU: the
//!        points uploaded and converted once, `GpuMsm::run_resident` timed with the scalars
//!        alone, recorded beside the host-array run as `…/resident`, with the upload's time)

use std::time::Instant;

use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::UniformRand;
use ark_std::rand::{Rng, SeedableRng, rngs::StdRng};
use fastmsm_gpu::calibrate::{self, CalibrationOptions};
use fastmsm_gpu::msm::{
    AffineOut, GpuCurve, GpuMsm, GpuPoint, MsmOutput, ProfileChoice, RunOptions, pack_points,
    pack_scalars,
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
    let (warm_start, mut warm_runs) = (now(), 0);
    let mut verified = true;
    let warm = loop {
        let out = run();
        verified &= out.result == *expected;
        warm_runs += 1;
        if warm_runs >= 3 && now() - warm_start >= 1.0 {
            break out;
        }
    };
    let mut runs: Vec<(f64, MsmOutput)> = (0..reps)
        .map(|_| {
            let start = now();
            let out = run();
            (now() - start, out)
        })
        .collect();
    verified &= runs.iter().all(|(_, out)| out.result == *expected);
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

/// n distinct points (a random start plus multiples of the generator, normalised in one batch),
/// n scalars of the given pattern, and arkworks' MSM of them, converted through
/// `fastmsm_curves::ark` (which `GpuPoint` uses for arkworks' points).
///   uniform: uniform below r; small: 90% below 2^10, the rest uniform; equal: 64 distinct values.
fn inputs<G>(curve: GpuCurve, n: usize, pattern: &str, seed: u64) -> Input
where
    G: AffineRepr + GpuPoint<Scalar = G::ScalarField>,
    G::Group: VariableBaseMSM<MulBase = G, ScalarField = G::ScalarField>,
{
    let mut rng = StdRng::seed_from_u64(seed);
    let g = G::generator();
    let mut acc = g * G::ScalarField::rand(&mut rng);
    let projective: Vec<G::Group> = (0..n)
        .map(|_| {
            acc += g;
            acc
        })
        .collect();
    let points = G::Group::normalize_batch(&projective);
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
    // arkworks' MSM (built without its rayon feature) over one slice per core, summed.
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let part = n.div_ceil(cores).max(1);
    let expected = std::thread::scope(|s| {
        let handles: Vec<_> = points
            .chunks(part)
            .zip(scalars.chunks(part))
            .map(|(p, k)| s.spawn(move || G::Group::msm(p, k).unwrap()))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap())
            .sum::<G::Group>()
    })
    .into_affine();
    let affine: Vec<(Canonical, Canonical)> = points.iter().map(GpuPoint::coordinates).collect();
    let ks: Vec<[u64; 4]> = scalars.iter().map(G::scalar_words).collect();
    Input {
        points: pack_points(curve, &affine),
        scalars: pack_scalars(&ks),
        // The result's form: the short-Weierstrass identity is `None`, the Edwards one (0, 1).
        expected: (curve.is_edwards() || !expected.is_zero()).then(|| expected.coordinates()),
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
    let mut windows = vec![0u32];
    let mut batches = vec![0usize];
    let mut profile_names = vec!["calibrated".to_string()];
    let mut resident = false;
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
            "--profiles" => profile_names = list(&v),
            "--reps" => reps = v.parse().expect("--reps"),
            "--resident" => resident = v != "0",
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
            "suite": "gpu-msm",
            "protocol": "native wgpu; time from packed host arrays (points, scalars) to the affine result, pipelines prebuilt, warm-up runs (at least 3 and 1 s), median of the timed runs; each run checked against arkworks",
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
                let input = match curve {
                    GpuCurve::Bn254 => {
                        inputs::<ark_bn254::G1Affine>(curve, n, pattern, log_n as u64)
                    }
                    GpuCurve::Bls12_377 => {
                        inputs::<ark_bls12_377::G1Affine>(curve, n, pattern, log_n as u64)
                    }
                    GpuCurve::Bls12_381 => {
                        inputs::<ark_bls12_381::G1Affine>(curve, n, pattern, log_n as u64)
                    }
                    GpuCurve::EdBls12_377 => inputs::<ark_ed_on_bls12_377::EdwardsAffine>(
                        curve,
                        n,
                        pattern,
                        log_n as u64,
                    ),
                };
                eprintln!(
                    "{} 2^{log_n} {pattern}: inputs + arkworks in {:.1} s",
                    curve.name(),
                    now() - t
                );
                let mut choices: Vec<(u32, u32, usize, u32, usize)> = Vec::new();
                for &k in &chunks {
                    for &c in &windows {
                        for &sg in &segment_counts {
                            for &f in &first_batches {
                                choices.extend(batches.iter().map(|&b| (k, c, b, sg, f)));
                            }
                        }
                    }
                }
                for ((profile, w, variant, msm, build_s), &(chunk, window, split, segs, first)) in
                    built
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
                        ..Default::default()
                    };
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
                            "pipeline_build_seconds": build_s,
                            "stage_timing": format!("{:?}", warm.timing),
                        }),
                    ));
                    write(&results, &profiles_used);
                    if resident {
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
                        results.push(timed.entry(
                            &format!("{name}/resident"),
                            json!({
                                "mode": "resident", "curve": curve.name(), "n": n, "log_n": log_n, "limb_bits": w,
                                "pattern": pattern, "edit": variant, "profile": profile,
                                "upload_bases_ms": upload_s * 1e3,
                            }),
                        ));
                        write(&results, &profiles_used);
                    }
                }
            }
        }
    }
    if !all_verified {
        eprintln!("msm_bench: some results did not match arkworks");
        std::process::exit(1);
    }
}
