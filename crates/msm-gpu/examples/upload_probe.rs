//! Where does the host-to-GPU copy of an MSM's input go? Times four ways of moving `--mib` MiB
//! (default: 128, the packed points and scalars of a BLS12-377 MSM at n = 2^20) into a storage buffer:
//!
//! - `memcpy`: a plain host copy into memory already touched (the floor of any path);
//! - `write_buffer`: `queue.write_buffer` + submit + wait, as the MSM does (wgpu stages it);
//! - `write_buffer_chunks`: the same in 8 MiB pieces;
//! - `kept_staging`: a MAP_WRITE buffer kept mapped between runs: copy in, unmap, copy on the GPU,
//!   submit, map again and wait.
//!
//! usage: upload_probe [--mib 128] [--reps 9] --out FILE

use std::time::Instant;

use fastmsm_gpu::GpuContext;
use fastmsm_gpu::testing::block_on;
use serde_json::json;

fn wait(ctx: &GpuContext) {
    ctx.device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
}

fn median_spread(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut mib, mut reps, mut out) = (128usize, 9usize, String::new());
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--mib" => mib = value.parse().expect("--mib"),
            "--reps" => reps = value.parse().expect("--reps"),
            "--out" => out = value,
            other => panic!("unknown argument {other}"),
        }
    }
    assert!(!out.is_empty(), "--out FILE is required");
    let ctx = block_on(GpuContext::new()).expect("adapter");
    let bytes = mib << 20;
    let data: Vec<u8> = (0..bytes)
        .map(|i| ((i * 2654435761usize) >> 13) as u8)
        .collect();
    let dst = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("dst"),
        size: bytes as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("kept staging"),
        size: bytes as u64,
        usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: true,
    });
    let mut host = vec![0u8; bytes];
    let time = |f: &mut dyn FnMut()| -> Vec<f64> {
        for _ in 0..2 {
            f(); // warm-up
        }
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .collect()
    };
    let submit_wait = || {
        ctx.queue.submit([]);
        wait(&ctx);
    };
    let mut methods: Vec<(&str, Vec<f64>)> = Vec::new();
    methods.push(("memcpy", time(&mut || host.copy_from_slice(&data))));
    methods.push((
        "write_buffer",
        time(&mut || {
            ctx.queue.write_buffer(&dst, 0, &data);
            submit_wait();
        }),
    ));
    methods.push((
        "write_buffer_chunks",
        time(&mut || {
            for (i, chunk) in data.chunks(8 << 20).enumerate() {
                ctx.queue.write_buffer(&dst, (i * (8 << 20)) as u64, chunk);
            }
            submit_wait();
        }),
    ));
    methods.push((
        "kept_staging",
        time(&mut || {
            staging
                .get_mapped_range_mut(..)
                .expect("mapped")
                .copy_from_slice(&data);
            staging.unmap();
            let mut encoder = ctx.device.create_command_encoder(&Default::default());
            encoder.copy_buffer_to_buffer(&staging, 0, &dst, 0, bytes as u64);
            ctx.queue.submit([encoder.finish()]);
            staging
                .slice(..)
                .map_async(wgpu::MapMode::Write, |r| r.expect("map"));
            wait(&ctx);
        }),
    ));
    let results: Vec<_> = methods
        .into_iter()
        .map(|(name, seconds)| {
            let (median, min, max) = median_spread(seconds.clone());
            eprintln!("{name}: {:.2} ms median ({:.2}..{:.2}), {:.1} GB/s", median * 1e3, min * 1e3, max * 1e3, bytes as f64 / median / 1e9);
            json!({ "method": name, "bytes": bytes, "median_s": median, "min_s": min, "max_s": max, "seconds": seconds })
        })
        .collect();
    let doc = json!({
        "suite": "upload-probe",
        "device": { "name": ctx.info.name, "backend": format!("{:?}", ctx.info.backend), "driver": format!("{} {}", ctx.info.driver, ctx.info.driver_info).trim() },
        "results": results,
    });
    std::fs::write(&out, serde_json::to_string_pretty(&doc).unwrap() + "\n").expect("write --out");
}
