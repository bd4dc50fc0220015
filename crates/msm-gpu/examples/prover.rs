//! Fast MSM in a prover, through the public API only: arkworks points and scalars in, arkworks
//! points out, on the CPU, on the GPU, and on the GPU with the bases kept there across MSMs —
//! each checked against arkworks' own `VariableBaseMSM`.
//!
//! `cargo run --release -p fastmsm-gpu --example prover`. It also runs under `cargo test` (on
//! whatever adapter the machine has: lavapipe in CI), so n is small.

use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::UniformRand;
use fastmsm_gpu::GpuContext;
use fastmsm_gpu::msm::{BatchMsm, GpuCurve, GpuMsm, Points, RunOptions};
use fastmsm_msm::MsmConfig;
use rand::SeedableRng;
use rand::rngs::StdRng;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n = 256;
    let mut rng = StdRng::seed_from_u64(2024);
    // A prover's commitment key (bases) and a polynomial's coefficients (scalars).
    let bases: Vec<G1Affine> = G1Projective::normalize_batch(
        &(0..n)
            .map(|_| G1Projective::rand(&mut rng))
            .collect::<Vec<_>>(),
    );
    let scalars: Vec<Fr> = (0..n).map(|_| Fr::rand(&mut rng)).collect();
    let expected = G1Projective::msm(&bases, &scalars).expect("same lengths");

    let cpu: G1Projective = fastmsm_msm::msm(&bases, &scalars, &MsmConfig::default())?.sum;
    assert_eq!(cpu, expected, "CPU MSM");
    println!("CPU MSM of {n} points matches arkworks");

    pollster::block_on(async {
        let ctx = GpuContext::new().await?;
        // Limb width and plan from the device's profile: its cached calibration, else the named
        // profile of the adapter. Compiling takes seconds on a first run; `progress` says so.
        let gpu = GpuMsm::builder(GpuCurve::Bn254).build(&ctx).await?;
        let options = RunOptions::default();
        let q: G1Projective = gpu.run(&ctx, &bases, &scalars, &options).await?.result;
        assert_eq!(q, expected, "GPU MSM");
        println!("GPU MSM on {} matches arkworks", ctx.info.name);

        let resident = gpu.upload_bases(&ctx, &bases, &options).await?; // once
        let rounds: Vec<Vec<Fr>> = (0..3)
            .map(|_| (0..n).map(|_| Fr::rand(&mut rng)).collect())
            .collect();
        for (round, scalars) in rounds.iter().enumerate() {
            let q = gpu
                .run_resident(&ctx, &resident, scalars, &options)
                .await?
                .result; // scalars only
            assert_eq!(
                q,
                G1Projective::msm(&bases, scalars).unwrap(),
                "round {round}"
            );
        }
        let msms: Vec<_> = rounds
            .iter()
            .map(|scalars| BatchMsm {
                points: Points::Resident(&resident),
                scalars,
            })
            .collect();
        for (round, out) in gpu
            .run_batch(&ctx, &msms, &options)
            .await?
            .iter()
            .enumerate()
        {
            assert_eq!(
                out.result,
                G1Projective::msm(&bases, &rounds[round]).unwrap()
            );
        }
        println!(
            "3 MSMs against bases resident on the GPU, one by one and as a batch, match arkworks"
        );
        Ok(())
    })
}
