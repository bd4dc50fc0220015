//! Diagnostic: Σ Pᵢ (every scalar 1, so one bucket chains all n points) on the GPU vs arkworks, for
//! growing n, to find where a long bucket chain first goes wrong on an adapter.
//! usage: cargo run --release -p fastmsm-gpu --example chain_probe -- CURVE LIMB_BITS N1,N2,...
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{PrimeField, UniformRand};
use ark_std::rand::{SeedableRng, rngs::StdRng};
use fastmsm_gpu::msm::{GpuCurve, GpuMsm, MsmOptions};
use fastmsm_gpu::testing::{block_on, gpu};
use fastmsm_mont::Canonical;

fn canonical<F: PrimeField>(f: F) -> Canonical {
    let mut out = [0u64; fastmsm_mont::WORDS];
    for (i, w) in f.into_bigint().as_ref().iter().enumerate() {
        out[i] = *w;
    }
    out
}

fn probe<G: AffineRepr>(curve: GpuCurve, bits: u32, ns: &[usize]) where G::BaseField: PrimeField {
    let ctx = gpu();
    let t = std::time::Instant::now();
    let msm = block_on(GpuMsm::new(ctx, curve, bits)).unwrap();
    eprintln!("built in {:.1} s", t.elapsed().as_secs_f64());
    let mut rng = StdRng::seed_from_u64(1);
    let max = *ns.iter().max().unwrap();
    let points: Vec<G> = (0..max).map(|_| (G::generator() * G::ScalarField::rand(&mut rng)).into_affine()).collect();
    for &n in ns {
        let sum = points[..n].iter().fold(G::zero().into_group(), |a, p| a + p).into_affine();
        let input: Vec<(Canonical, Canonical)> = points[..n].iter().map(|p| p.xy().map_or(([0; 6], [0; 6]), |(x, y)| (canonical(x), canonical(y)))).collect();
        let out = block_on(msm.run(ctx, &input, &vec![[1, 0, 0, 0]; n], &MsmOptions { window_bits: Some(4), ..Default::default() }, &|| 0.0)).unwrap();
        let want = sum.xy().map(|(x, y)| (canonical(x), canonical(y)));
        println!("{} w{bits} n={n}: {}", curve.name(), if out.result == want { "ok" } else { "WRONG" });
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let curve = GpuCurve::from_name(&args[1]).expect("curve");
    let bits: u32 = args[2].parse().unwrap();
    let ns: Vec<usize> = args[3].split(',').map(|s| s.parse().unwrap()).collect();
    match curve {
        GpuCurve::Bn254 => probe::<ark_bn254::G1Affine>(curve, bits, &ns),
        GpuCurve::Bls12_377 => probe::<ark_bls12_377::G1Affine>(curve, bits, &ns),
        GpuCurve::Bls12_381 => probe::<ark_bls12_381::G1Affine>(curve, bits, &ns),
        GpuCurve::EdBls12_377 => probe::<ark_ed_on_bls12_377::EdwardsAffine>(curve, bits, &ns),
    }
}
