//! Native benchmark of the WGSL Montgomery product: `threads` invocations each run `iterations`
//! dependent products (the `chain` kernel), for every requested field × limb width, on the best
//! wgpu adapter. Pipelines are built and warmed up before timing; a sample of every run is checked
//! against the CPU twin in the same run. Writes results JSON in the schema of DESIGN.md.
//!
//! usage: wgsl-mont-bench [--threads N] [--iterations N] [--reps N] [--fields a,b] [--widths 12,13]
//!                        [--workgroup-sizes 64,256] [--commit C] [--date D] --out FILE

use std::time::Instant;

use fastmsm_gpu::field::{FieldKernels, LIMB_WIDTHS, Op};
use fastmsm_gpu::testing::block_on;
use fastmsm_gpu::{GpuContext, transfer};
use fastmsm_mont::{Canonical, Field, Variant, raw_product};
use serde_json::json;

struct Args {
    threads: usize,
    iterations: u32,
    reps: usize,
    fields: Vec<Field>,
    widths: Vec<u32>,
    workgroup_sizes: Vec<u32>,
    commit: String,
    date: String,
    out: String,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        threads: 1 << 20,
        iterations: 256,
        reps: 7,
        fields: Field::ALL.to_vec(),
        widths: LIMB_WIDTHS.to_vec(),
        workgroup_sizes: vec![fastmsm_gpu::field::WORKGROUP_SIZE],
        commit: "unknown".into(),
        date: "unknown".into(),
        out: String::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--threads" => a.threads = value()?.parse().map_err(|e| format!("--threads: {e}"))?,
            "--iterations" => a.iterations = value()?.parse().map_err(|e| format!("--iterations: {e}"))?,
            "--reps" => a.reps = value()?.parse().map_err(|e| format!("--reps: {e}"))?,
            "--fields" => {
                a.fields = value()?
                    .split(',')
                    .map(|n| Field::ALL.into_iter().find(|f| f.name() == n).ok_or(format!("unknown field {n}")))
                    .collect::<Result<_, _>>()?
            }
            "--widths" => {
                a.widths = value()?.split(',').map(|w| w.parse().map_err(|e| format!("--widths: {e}"))).collect::<Result<_, _>>()?
            }
            "--workgroup-sizes" => {
                a.workgroup_sizes =
                    value()?.split(',').map(|w| w.parse().map_err(|e| format!("--workgroup-sizes: {e}"))).collect::<Result<_, _>>()?
            }
            "--commit" => a.commit = value()?,
            "--date" => a.date = value()?,
            "--out" => a.out = value()?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if a.out.is_empty() {
        return Err("--out FILE is required".into());
    }
    Ok(a)
}

fn twin(w: u32) -> Variant {
    [Variant::U32Limbs12, Variant::U32Limbs13, Variant::U32Limbs14, Variant::U32Limbs15, Variant::U32Limbs16][(w - 12) as usize]
}

/// Deterministic pseudo-random elements below p (xorshift; the values only need to be varied).
fn elements(field: Field, count: usize, seed: u64) -> Vec<Canonical> {
    let p = field.params().modulus;
    let top = (0..p.len()).rev().find(|&i| p[i] != 0).unwrap();
    let mut s = seed | 1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..count)
        .map(|_| {
            let mut v = [0u64; fastmsm_mont::WORDS];
            for (i, word) in v.iter_mut().enumerate().take(top + 1) {
                *word = next();
                if i == top {
                    *word %= p[top]; // keeps v < p
                }
            }
            v
        })
        .collect()
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 }
}

fn run(ctx: &GpuContext, args: &Args, field: Field, w: u32, wg: u32) -> Result<serde_json::Value, String> {
    let kernels = block_on(FieldKernels::with_workgroup_size(ctx, field, w, wg)).map_err(|e| e.to_string())?;
    let x = elements(field, args.threads, 0x9e37_79b9 + w as u64);
    let y = elements(field, args.threads, 0x85eb_ca6b + w as u64);
    let (lx, ly) = (kernels.to_limbs(&x), kernels.to_limbs(&y));
    let lhs = transfer::upload_u32(ctx, "x", &lx);
    let rhs = transfer::upload_u32(ctx, "y", &ly);
    let out = transfer::output_u32(ctx, "out", lx.len());
    let params = transfer::uniform_u32(ctx, "params", &[args.threads as u32, args.iterations, 0, 0]);
    let bind_group = kernels.bind_group(ctx, &lhs, &rhs, &out, &params);
    let wait = || ctx.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| e.to_string());

    // Warm-up: first dispatches pay for driver-side compilation and clock ramp-up.
    for _ in 0..2 {
        kernels.dispatch(ctx, Op::Chain, &bind_group, args.threads).map_err(|e| e.to_string())?;
        wait()?;
    }
    let mut seconds = Vec::with_capacity(args.reps);
    for _ in 0..args.reps {
        let start = Instant::now();
        kernels.dispatch(ctx, Op::Chain, &bind_group, args.threads).map_err(|e| e.to_string())?;
        wait()?;
        seconds.push(start.elapsed().as_secs_f64());
    }
    // Verify a spread sample against the CPU twin, chaining the same raw products.
    let result = kernels.from_limbs(&block_on(transfer::read_u32(ctx, &out, lx.len())).map_err(|e| e.to_string())?);
    let stride = (args.threads / 64).max(1);
    let verified = (0..args.threads).step_by(stride).all(|i| {
        let mut acc = x[i];
        for _ in 0..args.iterations {
            acc = raw_product(twin(w), field, &acc, &y[i]).expect("twin product");
        }
        acc == result[i]
    });
    let products = args.threads as f64 * args.iterations as f64;
    let mut rates: Vec<f64> = seconds.iter().map(|s| products / s).collect();
    rates.sort_by(f64::total_cmp);
    eprintln!("{} w={w} wg={wg}: {:.3e} products/s (median), verified {verified}", field.name(), median(&rates));
    Ok(json!({
        "name": format!("{}/w{w}/wg{wg}", field.name()),
        "params": {
            "field": field.name(), "limb_bits": w, "limbs": kernels.limbs(),
            "n_safe": kernels.constants.n_safe(), "threads": args.threads, "iterations": args.iterations,
            "workgroup_size": wg,
            "seconds": seconds,
        },
        "unit": "products/s",
        "median": median(&rates), "min": rates[0], "max": rates[rates.len() - 1],
        "samples": rates.len(), "verified": verified,
    }))
}

fn main() {
    let args = parse_args().unwrap_or_else(|e| {
        eprintln!("wgsl-mont-bench: {e}");
        std::process::exit(2);
    });
    let ctx = block_on(GpuContext::new()).unwrap_or_else(|e| {
        eprintln!("wgsl-mont-bench: {e}");
        std::process::exit(1);
    });
    let info = &ctx.info;
    eprintln!("adapter: {} ({:?}, {} {})", info.name, info.backend, info.driver, info.driver_info);
    let mut results = Vec::new();
    let mut failed = false;
    for &field in &args.fields {
        for (&w, &wg) in args.widths.iter().flat_map(|w| args.workgroup_sizes.iter().map(move |g| (w, g))) {
            match run(&ctx, &args, field, w, wg) {
                Ok(r) => {
                    failed |= r["verified"] != true;
                    results.push(r);
                }
                Err(e) => {
                    eprintln!("{} w={w} wg={wg}: {e}", field.name());
                    failed = true;
                }
            }
        }
    }
    let doc = json!({
        "suite": "wgsl-mont",
        "device": {
            "name": info.name, "backend": format!("{:?}", info.backend),
            "driver": format!("{} {}", info.driver, info.driver_info).trim(),
        },
        "commit": args.commit, "date": args.date, "results": results,
    });
    std::fs::write(&args.out, serde_json::to_string_pretty(&doc).unwrap() + "\n").unwrap_or_else(|e| {
        eprintln!("wgsl-mont-bench: cannot write {}: {e}", args.out);
        std::process::exit(1);
    });
    if failed {
        eprintln!("wgsl-mont-bench: some runs failed verification");
        std::process::exit(1);
    }
}
