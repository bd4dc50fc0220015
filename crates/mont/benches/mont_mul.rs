//! Native criterion benchmark: every variant per field, with ark-ff's `Fp` multiplication as the
//! baseline. Each sample runs the chained loop of the widget (`x ← x·y`, dependent, CHAIN steps),
//! so the figure is latency per multiplication; criterion reports it as elements per second.
//!
//!     cargo bench -p fastmsm-mont --bench mont_mul                      # all fields
//!     cargo bench -p fastmsm-mont --bench mont_mul -- bn254-fq          # one field
//!     cargo bench -p fastmsm-mont --bench mont_mul -- --quick bn254-fq  # a quick look
//!
//! Natively, `emmart-fma` calls the C library's `fma` unless the build enables the FMA target
//! feature (e.g. `RUSTFLAGS="-C target-cpu=native"`); the WebAssembly figures come from the
//! browser runner, not from here.

use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};
use fastmsm_mont::baseline::ark_chained_mul;
use fastmsm_mont::{Canonical, Field, Variant, applies, chained_mul};
use std::time::Duration;

/// Dependent multiplications per sample iteration.
const CHAIN: u64 = 1000;

/// Fixed, reproducible inputs below p: p − 2 and ⌊p/3⌋.
fn inputs(field: Field) -> (Canonical, Canonical) {
    let p = field.params().modulus;
    let mut x = p;
    x[0] -= 2; // p is odd and far above 2, so no borrow
    let mut y = [0u64; 6];
    let mut rem = 0u128;
    for i in (0..6).rev() {
        let cur = (rem << 64) | p[i] as u128;
        y[i] = (cur / 3) as u64;
        rem = cur % 3;
    }
    (x, y)
}

fn bench_field(c: &mut Criterion, field: Field) {
    let (x, y) = inputs(field);
    let expected = ark_chained_mul(field, &x, &y, CHAIN).expect("inputs are below p");
    let mut group = c.benchmark_group(format!("mont-mul/{}", field.name()));
    group.throughput(Throughput::Elements(CHAIN));
    group.bench_function(BenchmarkId::from_parameter("ark-ff"), |b| {
        b.iter(|| ark_chained_mul(field, black_box(&x), black_box(&y), black_box(CHAIN)))
    });
    // (the lazy no-carry product does not apply to a p above 2^(64N − 2): BLS12-381's scalar field)
    for variant in Variant::ALL
        .into_iter()
        .filter(|&v| applies(v, field).is_ok())
    {
        // a benchmark of a wrong answer is worthless: check once before timing
        let got = chained_mul(variant, field, &x, &y, CHAIN).expect("variant runs");
        assert_eq!(got, expected, "{variant} disagrees with ark-ff on {field}");
        group.bench_function(BenchmarkId::from_parameter(variant.name()), |b| {
            b.iter(|| {
                chained_mul(
                    variant,
                    field,
                    black_box(&x),
                    black_box(&y),
                    black_box(CHAIN),
                )
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    for field in Field::ALL {
        bench_field(c, field);
    }
}

criterion_group! {
    name = mont;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = benches
}
criterion_main!(mont);
