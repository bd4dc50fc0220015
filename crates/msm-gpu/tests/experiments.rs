//! The forms no device profile selects (cargo feature `experiments`) and the benchmark kernel
//! (feature `bench`), against arkworks and the CPU twins like the production forms:
//! `cargo test -p fastmsm-gpu --features experiments,bench --test main experiments` (the Makefile's
//! test target runs it, with the contract tests, which then cover the experiments' modules too).

#![cfg(any(feature = "experiments", feature = "bench"))]

#[cfg(feature = "experiments")]
use crate::msm::{calibrated_build, check, check_patterns, width};
#[cfg(feature = "experiments")]
use fastmsm_gpu::msm::{GpuCurve, GpuMsm, MixedAdd, ProfileChoice, RunOptions};
use fastmsm_gpu::testing::{block_on, gpu};
#[cfg(feature = "experiments")]
use fastmsm_gpu::{DeviceProfile, testing::gpu_int64};

/// The mixed addition's other forms (inlined; stepped, reading the point by coordinate), which
/// no rule picks (experiments), against arkworks on every pattern, at a 64-bit width and a
/// portable one.
#[cfg(feature = "experiments")]
#[test]
fn mixed_addition_forms() {
    for form in [MixedAdd::Inlined, MixedAdd::SteppedByCoordinate] {
        let built = |curve, bits| {
            let builder = GpuMsm::builder(curve)
                .limb_bits(bits)
                .profile(ProfileChoice::Named("portable".into()))
                .mixed_add(form);
            block_on(builder.build(gpu()))
        };
        // Every pattern at n = 100 (the exceptional additions); no larger n, which would only
        // repeat the uniform case of the production forms' tests.
        let options = RunOptions::default();
        let m = built(GpuCurve::Bls12_377, 30).unwrap();
        check::<ark_bls12_377::G1Affine>(&m, &[1, 100], &options, 41);
        let m = built(GpuCurve::Bn254, width(GpuCurve::Bn254)).unwrap();
        check::<ark_bn254::G1Affine>(&m, &[1, 100], &options, 42);
    }
}

/// The batch-affine SMVP (an experiment: shaders/experiments/smvp_affine.wgsl) against arkworks
/// on every pattern: the portable path (BN254 at its CI width) and the 64-bit one (BLS12-377 at
/// 30 bits). The patterns give it its
/// exceptional additions inside a batch: a point added to itself ("repeated point", "all-equal
/// scalars"), P beside −P in one bucket, points at infinity, zero digits. Short chunks put runs
/// across lanes (head slots and the combine) and several runs into one lane.
///
/// Lanes as long as the device allows: on lavapipe, whose loops stop after 65535 iterations per
/// invocation (tests/loop_limit.rs), the plan bounds a lane's rounds (one Fermat inversion each);
/// lanes of about 170 entries used to run past it and come out wrong.
#[cfg(feature = "experiments")]
#[test]
fn batch_affine_smvp() {
    use fastmsm_gpu::experiments::batch_affine::SmvpForm;
    let form = DeviceProfile::for_adapter(&gpu().info).kernel_form;
    let builder = |curve: GpuCurve, bits: u32, lanes: u32| {
        GpuMsm::builder(curve)
            .limb_bits(bits)
            .kernel_form(form)
            .profile(ProfileChoice::Named("portable".into()))
            .smvp(SmvpForm::BatchAffine {
                lanes,
                shared: 1,
                inversion: Default::default(),
            })
    };
    let build = |curve: GpuCurve, bits: u32, lanes: u32| {
        calibrated_build(block_on(builder(curve, bits, lanes).build(gpu())).unwrap())
    };
    // K pinned up to the loop limit, however long the submission: no submission bound.
    let chunked = |k: u32| RunOptions {
        chunk: Some(k),
        max_submission_seconds: Some(f64::INFINITY),
        ..Default::default()
    };
    let m = build(GpuCurve::Bn254, width(GpuCurve::Bn254), 8);
    check::<ark_bn254::G1Affine>(&m, &[1, 2, 3, 100], &RunOptions::default(), 60);
    let windows = m.plan(gpu(), 1000, &RunOptions::default()).unwrap().windows;
    let longest = m
        .loop_budget(gpu())
        .and_then(|b| b.max_chunk(windows))
        .unwrap_or(256);
    // The shortest chunk (every run across lanes), one between, and the longest the loop limit
    // allows (several runs in a lane); every pattern at 300 points.
    for k in [2, 16, longest] {
        check_patterns::<ark_bn254::G1Affine>(&m, &[5, 300], &chunked(k), 61 + k as u64, 300);
    }
    // The default plan on this device: as long as the loop limit allows.
    check::<ark_bn254::G1Affine>(&m, &[4097], &RunOptions::default(), 69);
    gpu_int64();
    let m = build(GpuCurve::Bls12_377, 30, 8);
    check::<ark_bls12_377::G1Affine>(&m, &[1, 100], &RunOptions::default(), 70);
    check_patterns::<ark_bls12_377::G1Affine>(&m, &[5, 300], &chunked(3), 71, 300);
    let err = block_on(builder(GpuCurve::EdBls12_377, 16, 8).build(gpu()));
    assert!(err.err().unwrap().to_string().contains("twisted Edwards"));
}

/// The batch-affine SMVP with its inversion shared by a workgroup (a product tree in workgroup
/// memory, its roots inverted side by side) and with the divstep inversion, alone and together,
/// against arkworks on every pattern: the portable path (BN254, 16-bit limbs, i32 divsteps) and
/// the 64-bit one (BLS12-377 at 30 bits, i64 divsteps; and 16 lanes in workgroups of 256, the
/// benchmark's form, with Fermat's inversion). Short chunks put several runs and the
/// exceptional additions (P + P, P + (−P), the identity) into the rounds that share a tree.
#[cfg(feature = "experiments")]
#[test]
fn batch_affine_shared_and_divsteps() {
    use fastmsm_gpu::experiments::batch_affine::{Inversion, SmvpForm};
    let form = DeviceProfile::for_adapter(&gpu().info).kernel_form;
    let build = |curve: GpuCurve, bits: u32, smvp: SmvpForm| {
        let builder = GpuMsm::builder(curve)
            .limb_bits(bits)
            .kernel_form(form)
            .profile(ProfileChoice::Named("portable".into()))
            .smvp(smvp);
        calibrated_build(block_on(builder.build(gpu())).unwrap())
    };
    let chunked = |k: u32| RunOptions {
        chunk: Some(k),
        ..Default::default()
    };
    let forms = [
        (4, 64, Inversion::Fermat),
        (2, 1, Inversion::Divsteps),
        (4, 64, Inversion::Divsteps),
    ];
    for (i, (lanes, shared, inversion)) in forms.into_iter().enumerate() {
        let smvp = SmvpForm::BatchAffine {
            lanes,
            shared,
            inversion,
        };
        let m = build(GpuCurve::Bn254, width(GpuCurve::Bn254), smvp);
        let seed = 80 + 10 * i as u64;
        check::<ark_bn254::G1Affine>(&m, &[1, 3, 100], &RunOptions::default(), seed);
        for k in [2, 7] {
            check_patterns::<ark_bn254::G1Affine>(&m, &[300], &chunked(k), seed + k as u64, 300);
        }
    }
    gpu_int64();
    // The second form, the benchmark's, walks a tree of three levels (256 leaves, 32 roots).
    for (i, (lanes, shared, inversion)) in
        [(2, 64, Inversion::Divsteps), (16, 256, Inversion::Fermat)]
            .into_iter()
            .enumerate()
    {
        let smvp = SmvpForm::BatchAffine {
            lanes,
            shared,
            inversion,
        };
        let m = build(GpuCurve::Bls12_377, 30, smvp);
        let seed = 120 + 10 * i as u64;
        check::<ark_bls12_377::G1Affine>(&m, &[1, 100], &RunOptions::default(), seed);
        check_patterns::<ark_bls12_377::G1Affine>(&m, &[300], &chunked(3), seed + 1, 300);
    }
}

#[cfg(feature = "bench")]
#[test]
fn benchmark_path_verifies_on_the_test_adapter() {
    let ctx = gpu();
    let mut cache = fastmsm_gpu::field::FieldKernelCache::default();
    let clock = std::time::Instant::now();
    let now = move || clock.elapsed().as_secs_f64();
    let r = block_on(fastmsm_gpu::bench::mont_throughput::chain_throughput(
        ctx,
        &mut cache,
        fastmsm_mont::Field::Bls12_377Fq,
        13,
        64,
        128,
        3,
        2,
        8,
        &now,
    ))
    .unwrap();
    assert!(r.verified);
    assert_eq!(r.seconds.len(), 2);
    assert!(r.median_rate() > 0.0);
}
