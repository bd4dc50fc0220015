//! The timed runs and the results document.

use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use ark_ec::short_weierstrass::Affine;
use serde_json::{Value, json};

use crate::args::Args;
use crate::inputs::{generate, reference};
use crate::sppark::{self, Curve, Device, Pinned};

/// One configuration's timed runs, in seconds, and whether every run (warm-up too) was right.
struct Measured {
    seconds: Vec<f64>,
    warm_up_runs: usize,
    warm_up_seconds: f64,
    verified: bool,
}

/// An MSM over (result, points, scalars).
type Msm<'a> = &'a dyn Fn(&mut [u64], &[u64], &[u64]) -> Result<(), String>;

/// Where the MSMs run: sppark on the GPU, or (in the tests, which have no GPU) sppark's host
/// arithmetic in its place, to run the rest of the loop.
#[derive(Clone, Copy, PartialEq)]
pub enum Backend {
    Gpu,
    #[cfg(test)]
    HostArithmetic,
}

/// The timed span: sppark's whole call from host arrays (device allocation, copies in, kernels, its
/// host-side final sum) and the Jacobian-to-affine conversion, ending with the affine point.
fn once<C: Curve>(
    msm: Msm,
    points: &[u64],
    scalars: &[u64],
    expected: &Affine<C::Config>,
) -> Result<(f64, bool), String> {
    let mut out = vec![0u64; 3 * C::LIMBS];
    let start = Instant::now();
    msm(&mut out, points, scalars)?;
    let result = sppark::affine::<C>(&out);
    let seconds = start.elapsed().as_secs_f64();
    Ok((seconds, result == *expected))
}

fn measure<C: Curve>(
    msm: Msm,
    points: &[u64],
    scalars: &[u64],
    expected: &Affine<C::Config>,
    args: &Args,
) -> Result<Measured, String> {
    // Warm-up: at least 3 runs and the given time, so that the GPU's clocks have risen.
    let (start, mut warm_up_runs, mut verified) = (Instant::now(), 0, true);
    while warm_up_runs < 3 || start.elapsed().as_secs_f64() < args.warm_up_seconds {
        verified &= once::<C>(msm, points, scalars, expected)?.1;
        warm_up_runs += 1;
    }
    let warm_up_seconds = start.elapsed().as_secs_f64();
    let mut seconds = Vec::with_capacity(args.reps);
    for _ in 0..args.reps {
        let (s, ok) = once::<C>(msm, points, scalars, expected)?;
        seconds.push(s);
        verified &= ok;
    }
    Ok(Measured {
        seconds,
        warm_up_runs,
        warm_up_seconds,
        verified,
    })
}

/// The document being written; rewritten after every configuration, so that a run cut short by a
/// time limit keeps what it measured.
struct Doc {
    path: PathBuf,
    head: Value,
    results: Vec<Value>,
}

impl Doc {
    fn push(&mut self, row: Value) -> Result<(), String> {
        self.results.push(row);
        let mut doc = self.head.clone();
        doc["results"] = Value::Array(self.results.clone());
        let text = serde_json::to_string_pretty(&doc).expect("JSON") + "\n";
        std::fs::write(&self.path, text)
            .map_err(|e| format!("writing {}: {e}", self.path.display()))
    }
}

fn run_curve<C: Curve>(args: &Args, doc: &mut Doc, backend: Backend) -> Result<bool, String> {
    let mut all_verified = true;
    for pattern in &args.patterns {
        for &log_n in &args.log_ns {
            let n = 1usize << log_n;
            let t = Instant::now();
            let input = generate::<C::Config>(n, pattern, log_n as u64)?;
            let inputs_s = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let expected = reference(&input);
            let reference_s = t.elapsed().as_secs_f64();
            // Outside the timing: arkworks' points are copied into one array (the same Montgomery
            // limbs, no conversion) and the scalars written as canonical integers — the forms in
            // which sppark takes them, as ours takes its packed arrays ready before its timing.
            let points = sppark::points::<C>(&input.points);
            let scalars = sppark::scalars::<C>(&input.scalars);
            drop(input);
            eprintln!(
                "{} 2^{log_n} {pattern}: inputs {inputs_s:.1} s, reference {reference_s:.1} s",
                C::NAME
            );
            for memory in &args.memory {
                let gpu = |out: &mut [u64], p: &[u64], k: &[u64]| C::device_msm(out, p, k);
                let host = |out: &mut [u64], p: &[u64], k: &[u64]| {
                    C::host_msm(out, p, k);
                    Ok(())
                };
                let msm: Msm = if backend == Backend::Gpu { &gpu } else { &host };
                let mut extra = json!({});
                let m = match memory.as_str() {
                    "pinned" => {
                        let (p, k) = (Pinned::copy_of(&points)?, Pinned::copy_of(&scalars)?);
                        measure::<C>(msm, p.as_slice(), k.as_slice(), &expected, args)?
                    }
                    "resident" => {
                        if backend != Backend::Gpu {
                            return Err("resident bases need a GPU".into());
                        }
                        // Uploaded once, outside the timing (its time recorded beside); each
                        // timed MSM then sends the scalars alone, from ordinary memory.
                        let t = Instant::now();
                        let bases = C::upload(&points)?;
                        extra["upload_bases_ms"] = json!(t.elapsed().as_secs_f64() * 1e3);
                        let resident = |out: &mut [u64], _: &[u64], k: &[u64]| bases.msm(out, k);
                        measure::<C>(&resident, &points, &scalars, &expected, args)?
                    }
                    _ => measure::<C>(msm, &points, &scalars, &expected, args)?,
                };
                all_verified &= m.verified;
                let mut sorted = m.seconds.clone();
                sorted.sort_by(f64::total_cmp);
                let ms = |s: f64| s * 1e3;
                let median = sorted[sorted.len() / 2];
                eprintln!(
                    "  {memory}: median {:.2} ms [{:.2}, {:.2}], verified {}",
                    ms(median),
                    ms(sorted[0]),
                    ms(sorted[sorted.len() - 1]),
                    m.verified
                );
                let mut params = json!({
                    "library": "sppark", "curve": C::NAME, "n": n, "log_n": log_n,
                    "pattern": pattern, "seed": log_n, "memory": memory,
                    "mode": if memory == "resident" { "resident" } else { "host-arrays" },
                    "warm_up_runs": m.warm_up_runs, "warm_up_seconds": m.warm_up_seconds,
                    "seconds": m.seconds,
                    "inputs_seconds": inputs_s, "reference_seconds": reference_s,
                });
                params
                    .as_object_mut()
                    .unwrap()
                    .extend(extra.as_object().unwrap().clone());
                doc.push(json!({
                    "name": format!("{}/{pattern}/2^{log_n}/sppark/{memory}", C::NAME),
                    "unit": "ms",
                    "median": ms(median), "min": ms(sorted[0]), "max": ms(sorted[sorted.len() - 1]),
                    "samples": sorted.len(), "verified": m.verified,
                    "params": params,
                }))?;
            }
        }
    }
    Ok(all_verified)
}

/// The kernel driver's version (e.g. 580.95.05) where the NVIDIA driver publishes it.
fn nvidia_driver() -> Option<String> {
    let text = std::fs::read_to_string("/proc/driver/nvidia/version").ok()?;
    text.split_whitespace()
        .find(|w| {
            w.split('.').count() >= 2
                && w.split('.')
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(str::to_string)
}

/// Now, as 2026-01-31T12:00:00Z.
fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    // Civil date from days since 1970-01-01 (the proleptic Gregorian calendar, 400-year eras).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The commit the binary was built from: --commit, else the SPPARK_COMMIT file build.sh leaves
/// beside the binary.
fn commit(args: &Args) -> String {
    args.commit.clone().unwrap_or_else(|| {
        std::env::current_exe()
            .ok()
            .and_then(|exe| std::fs::read_to_string(exe.with_file_name("SPPARK_COMMIT")).ok())
            .map_or_else(|| "unknown".into(), |c| c.trim().to_string())
    })
}

fn slug(name: &str) -> String {
    name.to_lowercase().replace(' ', "-")
}

/// gpu-msm-sppark-<device>.json for the default memory kinds (pageable, pinned); any other list
/// is named in the file name too (gpu-msm-sppark-resident-<device>.json), so runs do not overwrite
/// each other.
fn file_name(memory: &[String], device: &str) -> String {
    let kinds = if memory == ["pageable", "pinned"] {
        String::new()
    } else {
        format!("{}-", memory.join("-"))
    };
    format!("gpu-msm-sppark-{kinds}{}.json", slug(device))
}

/// Runs every configuration; Ok(false) when some run did not match arkworks.
pub fn run(args: &Args, device: &Device) -> Result<bool, String> {
    let path = if Path::new(&args.out).is_dir() {
        Path::new(&args.out).join(file_name(&args.memory, &device.name))
    } else {
        PathBuf::from(&args.out)
    };
    let driver = match nvidia_driver() {
        Some(v) => format!("{v} (CUDA {})", device.driver_cuda),
        None => format!("CUDA {}", device.driver_cuda),
    };
    eprintln!(
        "device: {}, driver {driver}, {} SMs; writing {}",
        device.name,
        device.sm_count,
        path.display()
    );
    let head = json!({
        "suite": "gpu-msm-sppark",
        "protocol": format!(
            "supranational's sppark ({sppark}) Pippenger MSM, mult_pippenger with XYZZ buckets as in sppark's own harness, \
             compiled here with {nvcc} for sm_90a and sm_90, CUDA runtime linked statically. Timed: from host arrays to the affine \
             result on the host — sppark's call (its device allocation, copies in, kernels, host-side final sum) and the \
             Jacobian-to-affine conversion. Inputs: the points and scalars of our msm_bench (same draws, seed log2 n); before \
             timing they are laid out as sppark takes them (arkworks' Montgomery-form coordinates copied unchanged, canonical \
             scalars), and for `pinned` copied into cudaMallocHost memory; `resident` rows upload the points once through sppark's msm_t \
             (upload_bases_ms, untimed) and send only the scalars, from ordinary memory, per MSM. Warm-up runs (at least 3 and {warm} s), then the median \
             of {reps} timed runs; every run, warm-up included, checked against the exact sum (Σ k_i·(f + i))·G, which is the MSM since \
             point i is (f + i)·G (src/inputs.rs; its test compares it with arkworks' MSM on every pattern).",
            sppark = env!("SPPARK_BENCH_SPPARK"),
            nvcc = env!("SPPARK_BENCH_NVCC"),
            warm = args.warm_up_seconds,
            reps = args.reps,
        ),
        "device": {
            "name": device.name, "backend": "CUDA", "driver": driver,
            "runtime": format!("CUDA {} (static)", device.runtime_cuda),
            "compute_capability": device.compute_capability, "sm_count": device.sm_count,
            "memory_gib": device.global_memory as f64 / (1u64 << 30) as f64,
        },
        "build": { "sppark": env!("SPPARK_BENCH_SPPARK"), "nvcc": env!("SPPARK_BENCH_NVCC"), "targets": ["sm_90a", "sm_90"] },
        "commit": commit(args),
        "date": args.date.clone().unwrap_or_else(utc_now),
    });
    let mut doc = Doc {
        path,
        head,
        results: Vec::new(),
    };
    let mut all_verified = true;
    for curve in &args.curves {
        all_verified &= match curve.as_str() {
            "bls12-377" => run_curve::<sppark::Bls12_377>(args, &mut doc, Backend::Gpu)?,
            "bls12-381" => run_curve::<sppark::Bls12_381>(args, &mut doc, Backend::Gpu)?,
            "bn254" => run_curve::<sppark::Bn254>(args, &mut doc, Backend::Gpu)?,
            other => unreachable!("curve {other} passed the argument check"),
        };
    }
    Ok(all_verified)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_and_date() {
        assert_eq!(slug("NVIDIA H100 80GB HBM3"), "nvidia-h100-80gb-hbm3");
        let kinds = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            file_name(&kinds(&["pageable", "pinned"]), "NVIDIA H200"),
            "gpu-msm-sppark-nvidia-h200.json"
        );
        assert_eq!(
            file_name(&kinds(&["resident"]), "NVIDIA H200"),
            "gpu-msm-sppark-resident-nvidia-h200.json"
        );
        let date = utc_now();
        assert_eq!(
            (date.len(), &date[4..5], &date[10..11]),
            (20, "-", "T"),
            "{date}"
        );
    }

    /// The whole loop, inputs to the written rows, with sppark's host arithmetic in place of the GPU
    /// (and ordinary memory only: pinned memory needs a CUDA driver).
    #[test]
    fn every_row_is_written_and_verified() {
        let path =
            std::env::temp_dir().join(format!("sppark-bench-test-{}.json", std::process::id()));
        let args = crate::args::parse(
            [
                "--out",
                path.to_str().unwrap(),
                "--log-n",
                "3,5",
                "--memory",
                "pageable",
                "--patterns",
                "uniform,small,equal",
                "--reps",
                "2",
                "--warm-up-seconds",
                "0",
            ]
            .iter()
            .map(|s| s.to_string()),
        )
        .unwrap();
        let mut doc = Doc {
            path: path.clone(),
            head: json!({ "suite": "test" }),
            results: Vec::new(),
        };
        assert!(run_curve::<sppark::Bls12_377>(&args, &mut doc, Backend::HostArithmetic).unwrap());
        assert!(run_curve::<sppark::Bls12_381>(&args, &mut doc, Backend::HostArithmetic).unwrap());
        assert!(run_curve::<sppark::Bn254>(&args, &mut doc, Backend::HostArithmetic).unwrap());
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        std::fs::remove_file(&path).unwrap();
        let rows = written["results"].as_array().unwrap();
        assert_eq!(rows.len(), 3 * 3 * 2);
        assert_eq!(rows[0]["name"], "bls12-377/uniform/2^3/sppark/pageable");
        for row in rows {
            assert_eq!(row["verified"], true, "{row}");
            assert_eq!(row["samples"], 2);
            assert!(row["params"]["warm_up_runs"].as_u64().unwrap() >= 3);
        }
    }
}
