//! Fast MSM in a prover, through the public API only: arkworks points and scalars in, arkworks
//! points out, on the CPU, on the GPU, with the bases kept on the GPU across MSMs, several MSMs
//! in one call, and the CPU's setting for secret scalars — each checked against arkworks' own
//! `VariableBaseMSM`. The book's chapter "Using Fast MSM in a prover" includes its parts (the
//! `ANCHOR` comments).
//!
//! `cargo run --release -p fastmsm-gpu --example prover`. It also runs under `cargo test` (on
//! whatever adapter the machine has: lavapipe in CI), so n is small.

use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::UniformRand;
use fastmsm_gpu::GpuContext;
use fastmsm_gpu::msm::{BatchMsm, GpuCurve, GpuMsm, Points, RunOptions};
use fastmsm_msm::{MsmConfig, MsmError, Window};
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
    // Scalar vectors of three more commitments against the same key.
    let rounds: Vec<Vec<Fr>> = (0..3)
        .map(|_| (0..n).map(|_| Fr::rand(&mut rng)).collect())
        .collect();

    // ANCHOR: cpu
    // Every CPU variant is a field of MsmConfig; the default is the fastest single-threaded form.
    let out = fastmsm_msm::msm(&bases, &scalars, &MsmConfig::default())?;
    let commitment: G1Projective = out.sum;
    // Bad input is an error that names it, never a wrong sum.
    match fastmsm_msm::msm(&bases[..n - 1], &scalars, &MsmConfig::default()) {
        Err(MsmError::LengthMismatch { .. }) => {}
        other => panic!("expected a length error, got {other:?}"),
    }
    // ANCHOR_END: cpu
    assert_eq!(commitment, expected, "CPU MSM");
    println!("CPU MSM of {n} points matches arkworks");

    // ANCHOR: secret
    // Secret scalars: the window from n alone, not from a sample of the scalars. The rest of
    // the MSM stays variable-time (book: Side channels).
    let secret = MsmConfig {
        window: Window::FromSize,
        ..MsmConfig::default()
    };
    let hidden: G1Projective = fastmsm_msm::msm(&bases, &scalars, &secret)?.sum;
    // ANCHOR_END: secret
    assert_eq!(hidden, expected, "CPU MSM, window from n");

    pollster::block_on(async {
        // ANCHOR: gpu
        let ctx = GpuContext::new().await?;
        // Limb width and plan from the device's profile (a kept calibration, else the named
        // profile of the adapter): no calibration runs here. Compiling takes seconds on a
        // first run; `.progress(..)` on the builder reports it.
        let gpu = GpuMsm::builder(GpuCurve::Bn254).build(&ctx).await?;
        let options = RunOptions::default();
        let q: G1Projective = gpu.run(&ctx, &bases, &scalars, &options).await?.result;
        // ANCHOR_END: gpu
        assert_eq!(q, expected, "GPU MSM");
        println!("GPU MSM on {} matches arkworks", ctx.info.name);

        // ANCHOR: resident
        // The key goes to the GPU once (checked and converted there); each MSM sends scalars only.
        let key = gpu.upload_bases(&ctx, &bases, &options).await?;
        for scalars in &rounds {
            let q: G1Projective = gpu
                .run_resident(&ctx, &key, scalars, &options)
                .await?
                .result;
            assert_eq!(q, G1Projective::msm(&bases, scalars).unwrap());
        }
        // ANCHOR_END: resident
        println!(
            "{} MSMs against resident bases match arkworks",
            rounds.len()
        );

        // ANCHOR: batch
        // Several MSMs in one call: one point per scalar vector, in order.
        let msms: Vec<BatchMsm<'_, G1Affine>> = rounds
            .iter()
            .map(|scalars| BatchMsm {
                points: Points::Resident(&key),
                scalars,
            })
            .collect();
        let points: Vec<G1Projective> = gpu
            .run_batch(&ctx, &msms, &options)
            .await?
            .into_iter()
            .map(|out| out.result)
            .collect();
        // ANCHOR_END: batch
        for (round, q) in points.iter().enumerate() {
            assert_eq!(
                *q,
                G1Projective::msm(&bases, &rounds[round]).unwrap(),
                "batch {round}"
            );
        }
        println!("a batch of {} MSMs matches arkworks", rounds.len());
        Ok::<_, Box<dyn std::error::Error>>(())
    })
}
