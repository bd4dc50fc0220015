//! Native benchmark of the WGSL Montgomery product (`fastmsm_gpu::bench::mont_throughput`,
//! built with `--features bench`): for every requested field × limb width × workgroup size
//! on the best wgpu adapter, `threads` invocations each run `iterations` dependent products;
//! pipelines are built and warmed up before timing and a sample of every run is checked against
//! the CPU twin in the same run. Writes results JSON (the schema of benches/README.md).
//!
//! usage: wgsl-mont-bench [--threads N] [--iterations N] [--reps N] [--fields a,b] [--widths 12,13]
//!                        [--workgroup-sizes 64,256] [--commit C] [--date D] --out FILE

use std::time::Instant;

use fastmsm_gpu::GpuContext;
use fastmsm_gpu::bench::mont_throughput::chain_throughput;
use fastmsm_gpu::field::{WORKGROUP_SIZE, supported_limb_widths};
use fastmsm_gpu::testing::block_on;
use fastmsm_mont::Field;
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

fn list<T>(
    flag: &str,
    value: String,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    value
        .split(',')
        .map(|v| parse(v).map_err(|e| format!("{flag}: {e}")))
        .collect()
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        threads: 1 << 20,
        iterations: 256,
        reps: 7,
        fields: Field::ALL.to_vec(),
        widths: Vec::new(), // every width the adapter runs
        workgroup_sizes: vec![WORKGROUP_SIZE],
        commit: "unknown".into(),
        date: "unknown".into(),
        out: String::new(),
    };
    let number = |v: &str| v.parse::<u32>().map_err(|e| format!("{v}: {e}"));
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--threads" => a.threads = number(&value)? as usize,
            "--iterations" => a.iterations = number(&value)?,
            "--reps" => a.reps = number(&value)? as usize,
            "--fields" => {
                a.fields = list(&flag, value, |n| {
                    Field::ALL
                        .into_iter()
                        .find(|f| f.name() == n)
                        .ok_or(format!("unknown field {n}"))
                })?
            }
            "--widths" => a.widths = list(&flag, value, number)?,
            "--workgroup-sizes" => a.workgroup_sizes = list(&flag, value, number)?,
            "--commit" => a.commit = value,
            "--date" => a.date = value,
            "--out" => a.out = value,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if a.out.is_empty() {
        return Err("--out FILE is required".into());
    }
    Ok(a)
}

fn main() {
    let fail = |e: String| -> ! {
        eprintln!("wgsl-mont-bench: {e}");
        std::process::exit(1);
    };
    let args = parse_args().unwrap_or_else(|e| fail(e));
    let ctx = block_on(GpuContext::new()).unwrap_or_else(|e| fail(e.to_string()));
    let mut args = args;
    if args.widths.is_empty() {
        args.widths = supported_limb_widths(&ctx);
    }
    let info = &ctx.info;
    eprintln!(
        "adapter: {} ({:?}, {} {})",
        info.name, info.backend, info.driver, info.driver_info
    );
    let epoch = Instant::now();
    let now = move || epoch.elapsed().as_secs_f64();
    let mut results = Vec::new();
    let mut failed = false;
    let mut cache = fastmsm_gpu::field::FieldKernelCache::default();
    for &field in &args.fields {
        for &w in &args.widths {
            for &wg in &args.workgroup_sizes {
                let run = block_on(chain_throughput(
                    &ctx,
                    &mut cache,
                    field,
                    w,
                    wg,
                    args.threads,
                    args.iterations,
                    args.reps,
                    64,
                    &now,
                ));
                let r = match run {
                    Ok(r) => r,
                    Err(e) => {
                        eprintln!("{} w={w} wg={wg}: {e}", field.name());
                        failed = true;
                        continue;
                    }
                };
                let rates = r.rates();
                eprintln!(
                    "{} w={w} wg={wg}: {:.3e} products/s (median), verified {}",
                    field.name(),
                    r.median_rate(),
                    r.verified
                );
                failed |= !r.verified;
                results.push(json!({
                    "name": format!("{}/w{w}/wg{wg}", field.name()),
                    "params": {
                        "field": field.name(), "limb_bits": w, "limbs": r.limbs, "n_safe": r.n_safe,
                        "threads": r.threads, "iterations": r.iterations, "workgroup_size": wg, "seconds": r.seconds,
                        "multiplies_per_product": r.ops.multiplies, "other_ops_per_product": r.ops.others,
                    },
                    "unit": "products/s",
                    "median": r.median_rate(), "min": rates[0], "max": rates[rates.len() - 1],
                    "samples": rates.len(), "verified": r.verified,
                }));
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
    std::fs::write(
        &args.out,
        serde_json::to_string_pretty(&doc).unwrap() + "\n",
    )
    .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", args.out)));
    if failed {
        fail("some runs failed or were not verified".into());
    }
}
