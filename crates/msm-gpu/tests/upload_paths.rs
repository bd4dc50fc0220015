//! Every way of sending the input to the GPU (`RunOptions::upload`) gives arkworks' MSM, in one
//! batch and in several (where the kept staging buffers are mapped again between batches), with
//! pieces of the pipelined path that do and do not divide the input and its parts, and the host
//! trace records each upload call, submit and wait when asked for (and nothing otherwise).
//! The same `portable` BN254 compile as the api tests, so a warm shader cache serves it.

use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::UniformRand;
use fastmsm_gpu::msm::{
    GpuCurve, GpuMsm, GpuPoint, ProfileChoice, RunOptions, UploadPath, pack_points, pack_scalars,
};
use fastmsm_gpu::testing::{block_on, gpu};
use rand::SeedableRng;
use rand::rngs::StdRng;

type G = ark_bn254::G1Projective;

#[test]
fn every_upload_path_matches_arkworks_and_is_traced() {
    let ctx = gpu();
    let build = GpuMsm::builder(GpuCurve::Bn254).profile(ProfileChoice::Named("portable".into()));
    let msm = block_on(build.build(ctx)).expect("compiles");
    let n = 300;
    let mut rng = StdRng::seed_from_u64(5);
    let points: Vec<_> = (0..n).map(|_| G::rand(&mut rng).into_affine()).collect();
    let scalars: Vec<_> = (0..n).map(|_| ark_bn254::Fr::rand(&mut rng)).collect();
    let expected = G::msm(&points, &scalars).unwrap();
    let coords: Vec<_> = points.iter().map(GpuPoint::coordinates).collect();
    let words: Vec<[u64; 4]> = scalars
        .iter()
        .map(<ark_bn254::G1Affine as GpuPoint>::scalar_words)
        .collect();
    let (packed, packed_scalars) = (pack_points(GpuCurve::Bn254, &coords), pack_scalars(&words));
    for path in [
        UploadPath::Auto,
        UploadPath::WriteBuffer,
        UploadPath::Chunked(4096),
        UploadPath::Staging,
        // Pieces: 4096 B divides neither the input (28 800 B in one batch) nor the points
        // (19 200 B: a piece holds the end of the points and the start of the scalars), and
        // divides a 128-point batch (12 288 B) but not the last (44 points, 4 224 B); 4104 B
        // divides nothing, and its ring of three slots wraps within the second batch (the slots
        // wait for their maps); 12 288 B is one piece per 128-point batch; 1 MiB is more than
        // the whole input (one piece, a slot no larger than the batch).
        UploadPath::Pipelined(4096),
        UploadPath::Pipelined(4104),
        UploadPath::Pipelined(12288),
        UploadPath::Pipelined(1 << 20),
        // Back to the whole-batch buffer after the rings: the kept buffers are made again.
        UploadPath::Staging,
    ] {
        // One batch, then three (64-point multiples), twice each: the second run of a plan reuses
        // its buffers, the staging one included.
        for batch in [None, Some(128)] {
            for repeat in 0..2 {
                let what = format!("{path:?}, batch {batch:?}, run {repeat}");
                let options = RunOptions {
                    upload: path,
                    batch,
                    host_trace: true,
                    wait_after_upload: repeat == 1,
                    ..Default::default()
                };
                let out = block_on(msm.run_packed(ctx, &packed, &packed_scalars, &options))
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let got = <ark_bn254::G1Affine as GpuPoint>::output(out.result);
                assert_eq!(got, Some(expected), "{what}");
                let trace = &out.host_trace;
                let count = |s: &str| trace.iter().filter(|t| t.what.contains(s)).count();
                let batches = out.plan.batches();
                let bytes_per_point = (2 * GpuCurve::Bn254.coord_words() + 8) * 4;
                let (uploads, expected) = match path {
                    UploadPath::Staging | UploadPath::Auto => (count("staging: copy"), batches),
                    // One record per piece: ⌈batch bytes / piece⌉ in each batch.
                    UploadPath::Pipelined(piece) => (
                        count("staging: copy"),
                        out.plan
                            .batch_ranges()
                            .iter()
                            .map(|r| (r.len() * bytes_per_point).div_ceil(piece as usize))
                            .sum(),
                    ),
                    _ => (count("write_buffer"), 2 * batches),
                };
                assert_eq!(uploads, expected, "{what}: one record per upload call");
                assert!(
                    trace
                        .iter()
                        .filter(|t| t.what.starts_with("staging: copy"))
                        .all(|t| match path {
                            UploadPath::Pipelined(piece) => t.what[14..t.what.find(" B").unwrap()]
                                .parse::<u64>()
                                .is_ok_and(|b| 0 < b && b <= piece),
                            _ => true,
                        }),
                    "{what}: no piece above its size: {trace:?}"
                );
                assert!(count("submit") >= batches, "{what}: submits traced");
                assert_eq!(count("read-back: wait"), 1, "{what}: one map wait");
                assert_eq!(
                    count("wait until the GPU has the input"),
                    batches * repeat,
                    "{what}"
                );
                assert!(
                    trace.iter().all(|t| 0.0 <= t.start && t.start <= t.end),
                    "{what}: times from the MSM's start: {trace:?}"
                );
                assert!(
                    trace.windows(2).all(|w| w[0].end <= w[1].start + 1e-9),
                    "{what}: spans in order, none overlapping: {trace:?}"
                );
            }
        }
    }
    let quiet =
        block_on(msm.run_packed(ctx, &packed, &packed_scalars, &RunOptions::default())).unwrap();
    assert!(quiet.host_trace.is_empty(), "no trace unless asked for");
}
