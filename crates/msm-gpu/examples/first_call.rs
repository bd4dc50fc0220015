//! How long a new user waits for the first GPU MSM: from the start of this process to the first
//! verified result, for one curve, with the library's defaults (no calibration: the cached
//! profile, else the named profile of the adapter).
//!
//! usage: first_call --curve bls12-381 [--n 1024] [--calibrate SECONDS]
//!   One process, one curve: prints one JSON line: the adapter, the profile, seconds from the
//!   process start to the context and to the compiled MSM, the first MSM's seconds (checked
//!   against arkworks), their sum (`first_result_s`: start to first result, without drawing the
//!   test input), and with `--calibrate` the calibration's seconds (a separate step, within that
//!   budget, in place of the default profile).
//! usage: first_call --out FILE [--curves bn254,…] [--reps 3] [--commit C] [--date D]
//!   The suite (benches/run-gpu-bench.sh `first`): for every curve, `reps` fresh processes of the
//!   above with every cache empty (a new directory as XDG_CACHE_HOME, the NVIDIA and Mesa shader
//!   caches and FASTMSM_PROFILE_CACHE inside it): a new user on a new machine; then as many with
//!   the driver's shader cache that a first run left (a second run); then one calibration with
//!   the default budget, from empty caches. Writes the results JSON.

use std::time::Instant;

use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::UniformRand;
use fastmsm_gpu::GpuContext;
use fastmsm_gpu::calibrate::{self, CalibrationOptions};
use fastmsm_gpu::msm::{GpuCurve, GpuMsm, GpuPoint, RunOptions};
use fastmsm_gpu::testing::block_on;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::json;

/// Random points and scalars of `G`, and their MSM by arkworks.
fn input<G>(n: usize) -> (Vec<G::Affine>, Vec<G::ScalarField>, G)
where
    G: CurveGroup + VariableBaseMSM<MulBase = G::Affine>,
{
    let mut rng = StdRng::seed_from_u64(n as u64);
    let points = G::normalize_batch(&(0..n).map(|_| G::rand(&mut rng)).collect::<Vec<_>>());
    let scalars: Vec<_> = (0..n).map(|_| G::ScalarField::rand(&mut rng)).collect();
    let expected = G::msm(&points, &scalars).expect("same lengths");
    (points, scalars, expected)
}

/// The first MSM of `G` on `msm`, checked against arkworks: its seconds (drawing the input and
/// arkworks' answer are left out: a prover has its input already).
fn first_msm<G>(ctx: &GpuContext, msm: &GpuMsm, n: usize) -> f64
where
    G: CurveGroup + VariableBaseMSM<MulBase = G::Affine>,
    G::Affine: GpuPoint<Scalar = G::ScalarField, Output = G>,
{
    let (points, scalars, expected) = input::<G>(n);
    let start = Instant::now();
    let out = block_on(msm.run(ctx, &points, &scalars, &RunOptions::default()))
        .unwrap_or_else(|e| panic!("{e}"));
    let seconds = start.elapsed().as_secs_f64();
    assert_eq!(
        out.result, expected,
        "the first MSM does not match arkworks"
    );
    seconds
}

fn main() {
    let epoch = Instant::now();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--out") {
        return suite(&args);
    }
    let (mut curve, mut n, mut calibrate_budget) = (GpuCurve::Bn254, 1024, None);
    let mut it = args.into_iter();
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--curve" => {
                curve =
                    GpuCurve::from_name(&value).unwrap_or_else(|| panic!("unknown curve {value}"))
            }
            "--n" => n = value.parse().expect("--n: a number"),
            "--calibrate" => {
                calibrate_budget = Some(value.parse::<f64>().expect("--calibrate: seconds"))
            }
            other => panic!("unknown argument {other}"),
        }
    }
    let ctx = block_on(GpuContext::new()).unwrap_or_else(|e| panic!("{e}"));
    let context_s = epoch.elapsed().as_secs_f64();
    let progress =
        |_: f64, what: &str| eprintln!("[{:6.2} s] {what}", epoch.elapsed().as_secs_f64());
    let mut calibration_s = None;
    let msm = match calibrate_budget {
        None => block_on(GpuMsm::builder(curve).progress(&progress).build(&ctx)),
        Some(budget) => {
            let options = CalibrationOptions {
                budget_seconds: budget,
                progress: Some(&progress),
                ..Default::default()
            };
            block_on(calibrate::calibrate(&ctx, curve, &options)).map(|c| {
                calibration_s = Some(c.seconds);
                c.msm
            })
        }
    }
    .unwrap_or_else(|e| panic!("{e}"));
    let built_s = epoch.elapsed().as_secs_f64();
    let msm_s = match curve {
        GpuCurve::Bn254 => first_msm::<ark_bn254::G1Projective>(&ctx, &msm, n),
        GpuCurve::Bls12_377 => first_msm::<ark_bls12_377::G1Projective>(&ctx, &msm, n),
        GpuCurve::Bls12_381 => first_msm::<ark_bls12_381::G1Projective>(&ctx, &msm, n),
        GpuCurve::EdBls12_377 => first_msm::<ark_ed_on_bls12_377::EdwardsProjective>(&ctx, &msm, n),
    };
    println!(
        "{}",
        json!({
            "curve": curve.name(),
            "n": n,
            "adapter": ctx.info.name,
            "backend": format!("{:?}", ctx.info.backend),
            "driver": format!("{} {}", ctx.info.driver, ctx.info.driver_info).trim(),
            "profile": msm.profile().summary(),
            "limb_bits": msm.constants.limb_bits,
            "kernel_form": msm.form.name(),
            "context_s": context_s,
            "calibration_s": calibration_s,
            "built_s": built_s,
            "first_msm_s": msm_s,
            "first_result_s": built_s + msm_s,
        })
    );
}

/// One child process of this program with `args`, every cache under `cache` (made empty first
/// when `fresh`): its JSON line.
fn child(args: &[&str], cache: &std::path::Path, fresh: bool) -> serde_json::Value {
    if fresh {
        let _ = std::fs::remove_dir_all(cache);
    }
    std::fs::create_dir_all(cache).expect("cache directory");
    let out = std::process::Command::new(std::env::current_exe().expect("this program"))
        .args(args)
        .env("XDG_CACHE_HOME", cache)
        .env("__GL_SHADER_DISK_CACHE_PATH", cache.join("nvidia"))
        .env("MESA_SHADER_CACHE_DIR", cache.join("mesa"))
        .env("FASTMSM_PROFILE_CACHE", cache.join("fastmsm-profiles.json"))
        .stderr(std::process::Stdio::inherit())
        .output()
        .expect("run first_call");
    assert!(out.status.success(), "first_call {args:?} failed");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    serde_json::from_str(text.lines().last().expect("a JSON line")).expect("JSON")
}

/// The suite: see the module documentation.
fn suite(args: &[String]) {
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let out = value("--out").expect("--out FILE");
    let reps: usize = value("--reps").map_or(3, |r| r.parse().expect("--reps: a number"));
    let curves: Vec<GpuCurve> = value("--curves").map_or(GpuCurve::ALL.to_vec(), |c| {
        c.split(',')
            .map(|n| GpuCurve::from_name(n).unwrap_or_else(|| panic!("unknown curve {n}")))
            .collect()
    });
    let cache = std::env::temp_dir().join(format!("fastmsm-first-call-{}", std::process::id()));
    let mut results = Vec::new();
    let mut device = json!(null);
    let row = |name: String, key: &str, runs: Vec<serde_json::Value>| {
        let mut s: Vec<f64> = runs
            .iter()
            .map(|r| r[key].as_f64().expect("seconds"))
            .collect();
        s.sort_by(f64::total_cmp);
        json!({
            "name": name, "unit": "s", "median": s[s.len() / 2], "min": s[0],
            "max": s[s.len() - 1], "samples": s.len(), "verified": true,
            "params": { "timed": key, "runs": runs },
        })
    };
    for curve in curves {
        let name = curve.name();
        let first = ["--curve", name];
        let cold: Vec<_> = (0..reps).map(|_| child(&first, &cache, true)).collect();
        device = json!({
            "name": cold[0]["adapter"], "backend": cold[0]["backend"], "driver": cold[0]["driver"],
        });
        // A second run, with the driver's cache the first left (the profile cache stays empty:
        // only a calibration writes it).
        let warm: Vec<_> = (0..reps).map(|_| child(&first, &cache, false)).collect();
        let calibrated = child(&["--curve", name, "--calibrate", "10"], &cache, true);
        results.push(row(
            format!("{name}/first-result/empty-caches"),
            "first_result_s",
            cold,
        ));
        results.push(row(
            format!("{name}/first-result/driver-cache"),
            "first_result_s",
            warm,
        ));
        results.push(row(
            format!("{name}/calibration/empty-caches"),
            "calibration_s",
            vec![calibrated],
        ));
    }
    let _ = std::fs::remove_dir_all(&cache);
    let doc = json!({
        "suite": "gpu-first-call",
        "device": device,
        "protocol": "a new process per sample, from its start to the first MSM's result (n = 1024, \
            checked against arkworks; drawing the input is left out): GpuContext::new, \
            GpuMsm::builder(curve).build (default profile: the cached calibration, else the \
            adapter's named one), one run. `empty-caches`: XDG_CACHE_HOME, the NVIDIA and Mesa \
            shader caches and the profile cache in a new empty directory (a new machine); \
            `driver-cache`: the same directory after such a run. `calibration`: calibrate::calibrate \
            with its default budget (10 s) from empty caches, instead of the default profile.",
        "commit": value("--commit").unwrap_or_else(|| "unknown".into()),
        "date": value("--date").unwrap_or_else(|| "unknown".into()),
        "results": results,
    });
    std::fs::write(
        &out,
        serde_json::to_string_pretty(&doc).expect("JSON") + "\n",
    )
    .expect("write --out");
    eprintln!("wrote {out}");
}
