//! Many MSMs in one pass of each stage (`run_batch` packing them) and precomputed resident bases
//! (`RunOptions::precompute`), against arkworks on the patterns of tests/msm.rs: mixed sizes,
//! empty MSMs, n = 1, host and resident points in one pass, every adversarial scalar and point
//! pattern, the errors of a packed pass named by MSM and index, and copies in several batches.

use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
use ark_std::rand::{SeedableRng, rngs::StdRng};
use fastmsm_gpu::GpuError;
use fastmsm_gpu::msm::{
    BatchMsm, GpuCurve, GpuMsm, GpuPoint, Points, ProfileChoice, RunOptions, pack_points,
    pack_scalars,
};
use fastmsm_gpu::testing::{block_on, gpu};
use std::sync::OnceLock;

use crate::msm::cases;

type G1 = ark_bn254::G1Affine;

/// BN254 with the `portable` profile at the test adapter's default width.
fn bn254() -> &'static GpuMsm {
    static BUILT: OnceLock<GpuMsm> = OnceLock::new();
    BUILT.get_or_init(|| {
        let build =
            GpuMsm::builder(GpuCurve::Bn254).profile(ProfileChoice::Named("portable".into()));
        block_on(build.build(gpu())).expect("compiles")
    })
}

fn msm_of(points: &[G1], scalars: &[ark_bn254::Fr]) -> ark_bn254::G1Projective {
    ark_bn254::G1Projective::msm(points, scalars).unwrap()
}

/// Every pattern of tests/msm.rs at several sizes (1 to 300, and empty) as one batch of host
/// MSMs, then the same MSMs again with every other one over resident bases: each result against
/// arkworks, and the batch packed into few passes.
#[test]
fn packed_batch_matches_arkworks() {
    let (ctx, msm) = (gpu(), bn254());
    let o = RunOptions::default();
    let mut rng = StdRng::seed_from_u64(32);
    let mut sets: Vec<(String, Vec<G1>, Vec<ark_bn254::Fr>)> = Vec::new();
    for n in [300, 1, 77, 2, 150] {
        for (label, points, scalars) in cases::<G1>(n, &mut rng) {
            sets.push((format!("{label}, n = {n}"), points, scalars));
        }
    }
    sets.insert(3, ("empty".into(), Vec::new(), Vec::new()));
    let want: Vec<_> = sets.iter().map(|(_, p, k)| msm_of(p, k)).collect();
    let host: Vec<BatchMsm<G1>> = sets
        .iter()
        .map(|(_, p, k)| BatchMsm {
            points: Points::Host(p),
            scalars: k,
        })
        .collect();
    let out = block_on(msm.run_batch(ctx, &host, &o)).unwrap();
    for ((label, _, _), (got, want)) in sets.iter().zip(out.iter().zip(&want)) {
        assert_eq!(got.result, *want, "host, {label}");
    }
    // Packed: far fewer passes than MSMs (each output names its pass's MSMs).
    let packed = out.iter().filter(|o| o.plan.msms > 1).count();
    assert!(
        packed >= sets.len() - 3,
        "only {packed} of {} MSMs packed",
        sets.len()
    );
    // Every other MSM over resident bases: host and resident points in the same passes.
    let bases: Vec<_> = sets
        .iter()
        .map(|(_, p, _)| block_on(msm.upload_bases(ctx, p, &o)).unwrap())
        .collect();
    let mixed: Vec<BatchMsm<G1>> = sets
        .iter()
        .zip(&bases)
        .enumerate()
        .map(|(i, ((_, p, k), b))| BatchMsm {
            points: if i % 2 == 0 {
                Points::Resident(b)
            } else {
                Points::Host(p)
            },
            scalars: k,
        })
        .collect();
    let out = block_on(msm.run_batch(ctx, &mixed, &o)).unwrap();
    for ((label, _, _), (got, want)) in sets.iter().zip(out.iter().zip(&want)) {
        assert_eq!(got.result, *want, "host and resident, {label}");
    }
    // Resident only: no point crosses.
    let resident: Vec<BatchMsm<G1>> = sets
        .iter()
        .zip(&bases)
        .map(|((_, _, k), b)| BatchMsm {
            points: Points::Resident(b),
            scalars: k,
        })
        .collect();
    let out = block_on(msm.run_batch(ctx, &resident, &o)).unwrap();
    for ((label, _, _), (got, want)) in sets.iter().zip(out.iter().zip(&want)) {
        assert_eq!(got.result, *want, "resident, {label}");
    }
}

/// A bad scalar or coordinate found by the GPU in a packed pass is reported with its MSM and its
/// index in that MSM, not in the pass.
#[test]
fn packed_errors_name_the_msm() {
    let (ctx, msm) = (gpu(), bn254());
    let o = RunOptions::default();
    let mut rng = StdRng::seed_from_u64(33);
    let sets: Vec<(Vec<G1>, Vec<ark_bn254::Fr>)> = [120, 90, 100]
        .iter()
        .map(|&n| {
            let (_, p, k) = cases::<G1>(n, &mut rng).swap_remove(0);
            (p, k)
        })
        .collect();
    let packed: Vec<(Vec<u32>, Vec<u32>)> = sets
        .iter()
        .map(|(p, k)| {
            let coords: Vec<_> = p.iter().map(GpuPoint::coordinates).collect();
            let words: Vec<[u64; 4]> = k.iter().map(G1::scalar_words).collect();
            (pack_points(GpuCurve::Bn254, &coords), pack_scalars(&words))
        })
        .collect();
    fn batch(sets: &[(Vec<u32>, Vec<u32>)]) -> Vec<BatchMsm<'_, u32>> {
        sets.iter()
            .map(|(p, k)| BatchMsm {
                points: Points::Host(p),
                scalars: k,
            })
            .collect()
    }
    let r = GpuCurve::Bn254.scalar_modulus();
    let mut bad = packed.clone();
    bad[2].1[8 * 41..8 * 42].copy_from_slice(&pack_scalars(&[[r[0], r[1], r[2], r[3]]]));
    let err = block_on(msm.run_batch(ctx, &batch(&bad), &o)).unwrap_err();
    assert!(
        matches!(&err, GpuError::InBatch { msm: 2, error } if matches!(**error, GpuError::ScalarOutOfRange { index: 41 })),
        "{err}"
    );
    let mut bad = packed.clone();
    let words = GpuCurve::Bn254.coord_words();
    bad[1].0[(2 * 7 + 1) * words..(2 * 7 + 2) * words].fill(u32::MAX);
    let err = block_on(msm.run_batch(ctx, &batch(&bad), &o)).unwrap_err();
    assert!(
        matches!(&err, GpuError::InBatch { msm: 1, error } if matches!(**error, GpuError::CoordinateOutOfRange { index: 7, coordinate: 'y' })),
        "{err}"
    );
    // The same batch without the fault is right, and packed.
    let out = block_on(msm.run_batch(ctx, &batch(&packed), &o)).unwrap();
    for ((p, k), got) in sets.iter().zip(&out) {
        let want = msm_of(p, k).into_affine();
        assert_eq!(got.result, (!want.is_zero()).then(|| want.coordinates()));
        assert_eq!(got.plan.msms, 3, "{:?}", got.plan);
    }
}

/// Precomputed copies of resident bases: 2, 3 and as many as the windows allow, every pattern,
/// in one batch and in three, against arkworks; the memory they take; the options they refuse.
#[test]
fn precomputed_bases_match_arkworks() {
    let (ctx, msm) = (gpu(), bn254());
    let mut rng = StdRng::seed_from_u64(34);
    let n = 300;
    let sets = cases::<G1>(n, &mut rng);
    let (_, points, _) = &sets[0];
    let plain = block_on(msm.upload_bases(ctx, points, &RunOptions::default())).unwrap();
    for (copies, batch) in [(2, None), (3, Some(128)), (8, None)] {
        let options = RunOptions {
            precompute: Some(copies),
            batch,
            ..Default::default()
        };
        let bases = block_on(msm.upload_bases(ctx, points, &options)).unwrap();
        assert_eq!(bases.copies(), copies);
        if batch.is_none() {
            assert_eq!(bases.device_bytes(), copies as u64 * plain.device_bytes());
        }
        for (label, p, k) in &sets {
            if p != points {
                continue; // the patterns that keep the points (the scalars change)
            }
            let out = block_on(msm.run_resident(ctx, &bases, k, &RunOptions::default())).unwrap();
            assert_eq!(out.result, msm_of(p, k), "{copies} copies, {label}");
            assert_eq!(out.plan.copies, copies);
        }
        // Over bases of other points too (P beside −P, the identity, one point repeated).
        for (label, p, k) in sets.iter().filter(|(_, p, _)| p != points) {
            let other = block_on(msm.upload_bases(ctx, p, &options)).unwrap();
            let out = block_on(msm.run_resident(ctx, &other, k, &RunOptions::default())).unwrap();
            assert_eq!(out.result, msm_of(p, k), "{copies} copies, {label}");
        }
        // In a batch, beside a host MSM: the precomputed one takes a pass of its own.
        let (_, _, k) = &sets[1];
        let batch = [
            BatchMsm {
                points: Points::Resident(&bases),
                scalars: k.as_slice(),
            },
            BatchMsm {
                points: Points::Host(points),
                scalars: k.as_slice(),
            },
        ];
        let out = block_on(msm.run_batch(ctx, &batch, &RunOptions::default())).unwrap();
        assert_eq!(out[0].result, msm_of(points, k));
        assert_eq!(out[1].result, msm_of(points, k));
    }
    // One point, and the copies that would hold no digit.
    let one = RunOptions {
        precompute: Some(4),
        ..Default::default()
    };
    let bases = block_on(msm.upload_bases(ctx, &points[..1], &one)).unwrap();
    let k = &sets[0].2[..1];
    let out = block_on(msm.run_resident(ctx, &bases, k, &RunOptions::default())).unwrap();
    assert_eq!(out.result, msm_of(&points[..1], k));
    let too_many = RunOptions {
        precompute: Some(64),
        ..Default::default()
    };
    let err = block_on(msm.upload_bases(ctx, points, &too_many)).unwrap_err();
    assert!(err.to_string().contains("would stay unused"), "{err}");
    let err = block_on(msm.run(ctx, points, &sets[0].2, &one)).unwrap_err();
    assert!(err.to_string().contains("upload_bases"), "{err}");
    let bases = block_on(msm.upload_bases(ctx, points, &one)).unwrap();
    let other_window = RunOptions {
        window_bits: Some(bases_window(msm, &bases) + 1),
        ..Default::default()
    };
    let err = block_on(msm.run_resident(ctx, &bases, &sets[0].2, &other_window)).unwrap_err();
    assert!(err.to_string().contains("were precomputed for"), "{err}");
}

/// The window size the bases' MSMs run with.
fn bases_window(msm: &GpuMsm, bases: &fastmsm_gpu::msm::Bases<G1>) -> u32 {
    let k = vec![ark_bn254::Fr::from(1u64); bases.len()];
    block_on(msm.run_resident(gpu(), bases, &k, &RunOptions::default()))
        .unwrap()
        .plan
        .window_bits
}

/// Windows above the old 16-bit cap (MAX_WINDOW_BITS is 20 now, picked natively from 2^22
/// points): c = 17 with every pattern and 19, through precomputed copies so that the windows of
/// one pass (two of fifteen, one of fourteen) keep the bucket buffer within the test adapter's
/// 128 MiB binding.
#[test]
fn windows_above_16_bits_match_arkworks() {
    let (ctx, msm) = (gpu(), bn254());
    let mut rng = StdRng::seed_from_u64(35);
    for (c, copies) in [(17, 8), (19, 14)] {
        let options = RunOptions {
            precompute: Some(copies),
            window_bits: Some(c),
            ..Default::default()
        };
        // Every pattern at c = 17; at 19 (the reduction walks 2^18 buckets a window, slow on a CPU
        // adapter) the uniform case and the zero scalars, the window's other path being the same.
        let take = if c == 17 { usize::MAX } else { 2 };
        for (label, p, k) in cases::<G1>(200, &mut rng).into_iter().take(take) {
            let bases = block_on(msm.upload_bases(ctx, &p, &options)).unwrap();
            let out = block_on(msm.run_resident(ctx, &bases, &k, &RunOptions::default())).unwrap();
            assert_eq!(out.plan.window_bits, c);
            assert_eq!(
                out.result,
                msm_of(&p, &k),
                "c = {c}, {copies} copies, {label}"
            );
        }
    }
}
