//! Native criterion benchmark of the whole MSM, one thread: ours (projective buckets, batch-affine
//! buckets, all affine) against arkworks' `VariableBaseMSM::msm` (ark-ec 0.5 without its
//! `parallel` feature), on BLS12-377 and BN254 G1, n = 2^12 and 2^16, the same random input for
//! every run. Each of ours is checked against arkworks before it is timed.
//!
//!     cargo bench -p fastmsm-msm --bench msm                    # everything (a few minutes)
//!     cargo bench -p fastmsm-msm --bench msm -- bls12-377/65536 # one curve and size
//!     node wasm-demo/bench/criterion-msm.js                     # → benches/results/msm-native-<cpu>.json
//!
//! (criterion writes to `<target dir>/criterion`; with a relative `CARGO_TARGET_DIR` that is
//! relative to this crate's directory, so pass the converter `--criterion` accordingly.)
//!
//! The 30-bit-limb twins are for WebAssembly (`fastmsm_msm::radix30`); natively the 64-bit fields
//! are faster, so they are the ones measured here. The WebAssembly figures come from the browser
//! runner (`make bench-msm-wasm`).

use std::time::Duration;

use ark_ec::{CurveGroup, PrimeGroup, VariableBaseMSM};
use ark_ff::{BigInt, UniformRand};
use criterion::{BenchmarkId, Criterion, black_box, criterion_group, criterion_main};
use fastmsm_curves::ark::{ArkSw, scalar_from_ark};
use fastmsm_curves::{Group, sw};
use fastmsm_msm::{Algorithm, CpuGroup, MsmConfig, Scalar};
use rand::SeedableRng;
use rand::rngs::StdRng;

type ArkG<P> = ark_ec::short_weierstrass::Projective<P>;
type ArkA<P> = ark_ec::short_weierstrass::Affine<P>;

/// n random points (a random walk over 16 random multiples of the generator, normalised in one
/// batch) and n random scalars, in arkworks' types and ours (through `fastmsm_curves::ark`).
#[allow(clippy::type_complexity)]
fn inputs<P>(
    n: usize,
    seed: u64,
) -> (
    Vec<ArkA<P>>,
    Vec<P::ScalarField>,
    Vec<sw::Affine<P::Curve>>,
    Vec<Scalar>,
)
where
    P: ArkSw<ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>>,
{
    let mut rng = StdRng::seed_from_u64(seed);
    let g = ArkG::<P>::generator();
    let steps: Vec<ArkA<P>> = (0..16)
        .map(|_| (g * P::ScalarField::rand(&mut rng)).into_affine())
        .collect();
    let mut acc = g * P::ScalarField::rand(&mut rng);
    let proj: Vec<ArkG<P>> = (0..n)
        .map(|i| {
            acc += steps[(i * 7 + (i >> 3)) % 16];
            acc
        })
        .collect();
    let ark_points = ArkG::<P>::normalize_batch(&proj);
    let ark_scalars: Vec<P::ScalarField> = (0..n).map(|_| P::ScalarField::rand(&mut rng)).collect();
    let points = ark_points.iter().map(|&a| a.into()).collect();
    let scalars = ark_scalars.iter().map(scalar_from_ark).collect();
    (ark_points, ark_scalars, points, scalars)
}

/// One of ours through the front door (its checks included in the time: the points' curve
/// check is a few field products a point).
fn ours<C: sw::SwCurve>(name: &str, points: &[sw::Affine<C>], scalars: &[Scalar]) -> sw::Xyzz<C>
where
    sw::Xyzz<C>: CpuGroup<Affine = sw::Affine<C>>,
{
    let algorithm = match name {
        "ours-projective" => Algorithm::pippenger(),
        "ours-batch-affine" => Algorithm::batch_affine(),
        _ => MsmConfig::default().algorithm,
    };
    let cfg = MsmConfig {
        algorithm,
        ..MsmConfig::default()
    };
    fastmsm_msm::msm(points, scalars, &cfg)
        .expect("valid input")
        .sum
}

fn bench_curve<P>(c: &mut Criterion, curve: &str)
where
    P: ArkSw<ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>>,
    sw::Xyzz<P::Curve>: CpuGroup<Affine = sw::Affine<P::Curve>>,
{
    let mut group = c.benchmark_group(format!("msm/{curve}"));
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    for log_n in [12u32, 16] {
        let n = 1usize << log_n;
        let (ark_points, ark_scalars, points, scalars) = inputs::<P>(n, u64::from(log_n));
        let want = ArkG::<P>::msm(&ark_points, &ark_scalars)
            .expect("same lengths")
            .into_affine();
        group.bench_function(BenchmarkId::new("arkworks", n), |b| {
            b.iter(|| ArkG::<P>::msm(black_box(&ark_points), black_box(&ark_scalars)))
        });
        for name in ["ours-projective", "ours-batch-affine", "ours-all-affine"] {
            // a benchmark of a wrong answer is worthless: check once before timing
            let got = ours(name, &points, &scalars).to_affine();
            assert_eq!(
                ArkA::<P>::from(got),
                want,
                "{name} disagrees with arkworks on {curve}, n = {n}"
            );
            group.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter(|| ours(name, black_box(&points), black_box(&scalars)))
            });
        }
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_curve::<ark_bls12_377::g1::Config>(c, "bls12-377");
    bench_curve::<ark_bn254::g1::Config>(c, "bn254");
}

criterion_group!(msm, benches);
criterion_main!(msm);
