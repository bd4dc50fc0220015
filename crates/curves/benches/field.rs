//! Native criterion benchmark of the field element type in its three representations (64-bit
//! Montgomery words, 30-bit and 51-bit reduced-radix limbs): a dependent chain of products, of
//! additions and subtractions, and independent products side by side (`mul_many`), on the
//! BN254 and BLS12-377 base fields. It guards the generic element type against slowing the
//! curve formulas down: run it before and after a change to `field.rs` or a backend.
//!
//!     cargo bench -p fastmsm-curves --bench field
//!
//! Natively the 51-bit product runs on scalar FMA lanes (its fast form is WebAssembly's relaxed
//! SIMD), so its figures here say only whether the generic code around it costs anything.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, black_box, criterion_group, criterion_main};
use fastmsm_curves::field::{Bls12_377Fq, Bn254Fq, PrimeField};
use fastmsm_curves::radix30::{Bls12_377Fq30, Bn254Fq30};
use fastmsm_curves::radix51::{Bls12_377Fq51, Bn254Fq51};

/// Operations per timed call, so the call overhead is negligible.
const CHAIN: usize = 1000;

fn start<F: PrimeField>() -> (F, F) {
    let a = F::from_u64(0x1234_5678_9abc_def0).square().square();
    let b = F::from_u64(0x0fed_cba9_8765_4321).square();
    (a, b)
}

fn field<F: PrimeField>(c: &mut Criterion, name: &str) {
    let mut g = c.benchmark_group(name);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    let (a, b) = start::<F>();
    g.bench_function(BenchmarkId::new("mul-chain", CHAIN), |bench| {
        bench.iter(|| {
            let mut x = black_box(a);
            for _ in 0..CHAIN {
                x = x * b;
            }
            x
        })
    });
    g.bench_function(BenchmarkId::new("add-sub-chain", CHAIN), |bench| {
        bench.iter(|| {
            let mut x = black_box(a);
            for _ in 0..CHAIN {
                x = (x + b) - a.double();
            }
            x
        })
    });
    g.bench_function(BenchmarkId::new("mul-many-4", CHAIN), |bench| {
        bench.iter(|| {
            let mut x = black_box([a, b, a + b, a - b]);
            for _ in 0..CHAIN / 4 {
                x = F::mul_many(x, [b; 4]);
            }
            x
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    field::<Bn254Fq>(c, "bn254-fq/r64");
    field::<Bn254Fq30>(c, "bn254-fq/r30");
    field::<Bn254Fq51>(c, "bn254-fq/r51");
    field::<Bls12_377Fq>(c, "bls12-377-fq/r64");
    field::<Bls12_377Fq30>(c, "bls12-377-fq/r30");
    field::<Bls12_377Fq51>(c, "bls12-377-fq/r51");
}

criterion_group!(field_benches, benches);
criterion_main!(field_benches);
