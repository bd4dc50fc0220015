//! Every way of sending the input to the GPU (`RunOptions::upload`) gives arkworks' MSM, in one
//! batch and in several (where the kept staging buffer is mapped again between batches), and the
//! host trace records each upload call, submit and wait when asked for (and nothing otherwise).
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
                let uploads = match path {
                    UploadPath::Staging | UploadPath::Auto => count("staging: copy"),
                    _ => count("write_buffer"),
                };
                let per_batch = if matches!(path, UploadPath::Staging | UploadPath::Auto) {
                    1
                } else {
                    2
                };
                assert_eq!(
                    uploads,
                    per_batch * batches,
                    "{what}: one record per upload call"
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
