//! Device profiles: the named ones pin the plan, the JSON form reads back, bad input is refused
//! with its reason. Pure plan tests (no GPU), except the last, which calibrates on the test
//! adapter.

use GpuCurve::{Bls12_377, Bls12_381, Bn254, EdBls12_377};
use fastmsm_gpu::DeviceProfile;
use fastmsm_gpu::msm::{GpuCurve, Plan, RunOptions};
use fastmsm_gpu::profile::{NAMES, Origin};
use fastmsm_mont::Field;

const MAX: u64 = u64::MAX;

/// The default plan of the code before device profiles (commit 78d8a2f, whose constants were
/// tuned on the H200), per (curve, limb bits, n, binding limit): window bits, windows, buckets,
/// batch, first batch, segments, chunk K. The `h200` profile must reproduce every one up to 2^20;
/// at 2^22 the rows are those of the later window cap of 20 bits (c = 17 where the buckets fit)
/// and the split into an eighth first and three batches after it (plan.rs, `many_batches`).
#[rustfmt::skip]
const H200_PLANS: [(GpuCurve, u32, usize, u64, [usize; 7]); 160] = [
    (Bn254, 13, 1000, MAX, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bn254, 13, 1000, 128 << 20, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bn254, 13, 1 << 16, MAX, [11, 24, 1024, 65536, 65536, 512, 47]),
    (Bn254, 13, 1 << 16, 128 << 20, [11, 24, 1024, 65536, 65536, 512, 47]),
    (Bn254, 13, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 156]),
    (Bn254, 13, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 156]),
    (Bn254, 13, 1 << 20, MAX, [15, 17, 16384, 786432, 262144, 512, 396]),
    (Bn254, 13, 1 << 20, 128 << 20, [15, 17, 16384, 786432, 262144, 512, 396]),
    (Bn254, 13, 1 << 22, MAX, [17, 15, 65536, 1223360, 524288, 1024, 544]),
    (Bn254, 13, 1 << 22, 128 << 20, [15, 17, 16384, 838848, 524288, 512, 423]),
    (Bn254, 15, 1000, MAX, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bn254, 15, 1000, 128 << 20, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bn254, 15, 1 << 16, MAX, [11, 24, 1024, 65536, 65536, 512, 47]),
    (Bn254, 15, 1 << 16, 128 << 20, [11, 24, 1024, 65536, 65536, 512, 47]),
    (Bn254, 15, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 156]),
    (Bn254, 15, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 156]),
    (Bn254, 15, 1 << 20, MAX, [15, 17, 16384, 786432, 262144, 512, 396]),
    (Bn254, 15, 1 << 20, 128 << 20, [15, 17, 16384, 786432, 262144, 512, 396]),
    (Bn254, 15, 1 << 22, MAX, [17, 15, 65536, 1223360, 524288, 1024, 544]),
    (Bn254, 15, 1 << 22, 128 << 20, [15, 17, 16384, 986880, 524288, 512, 497]),
    (Bn254, 29, 1000, MAX, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bn254, 29, 1000, 128 << 20, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bn254, 29, 1 << 16, MAX, [11, 24, 1024, 65536, 65536, 512, 24]),
    (Bn254, 29, 1 << 16, 128 << 20, [11, 24, 1024, 65536, 65536, 512, 24]),
    (Bn254, 29, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 78]),
    (Bn254, 29, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 78]),
    (Bn254, 29, 1 << 20, MAX, [15, 17, 16384, 786432, 262144, 2048, 198]),
    (Bn254, 29, 1 << 20, 128 << 20, [15, 17, 16384, 786432, 262144, 2048, 198]),
    (Bn254, 29, 1 << 22, MAX, [17, 15, 65536, 1223360, 524288, 2048, 272]),
    (Bn254, 29, 1 << 22, 128 << 20, [16, 16, 32768, 1223360, 524288, 2048, 290]),
    (Bn254, 32, 1000, MAX, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bn254, 32, 1000, 128 << 20, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bn254, 32, 1 << 16, MAX, [11, 24, 1024, 65536, 65536, 512, 24]),
    (Bn254, 32, 1 << 16, 128 << 20, [11, 24, 1024, 65536, 65536, 512, 24]),
    (Bn254, 32, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 78]),
    (Bn254, 32, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 78]),
    (Bn254, 32, 1 << 20, MAX, [15, 17, 16384, 786432, 262144, 2048, 198]),
    (Bn254, 32, 1 << 20, 128 << 20, [15, 17, 16384, 786432, 262144, 2048, 198]),
    (Bn254, 32, 1 << 22, MAX, [17, 15, 65536, 1223360, 524288, 2048, 272]),
    (Bn254, 32, 1 << 22, 128 << 20, [17, 15, 65536, 1223360, 524288, 2048, 272]),
    (Bls12_377, 13, 1000, MAX, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_377, 13, 1000, 128 << 20, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_377, 13, 1 << 16, MAX, [11, 24, 1024, 65536, 65536, 512, 47]),
    (Bls12_377, 13, 1 << 16, 128 << 20, [11, 24, 1024, 65536, 65536, 512, 47]),
    (Bls12_377, 13, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 156]),
    (Bls12_377, 13, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 156]),
    (Bls12_377, 13, 1 << 20, MAX, [15, 17, 16384, 786432, 262144, 512, 396]),
    (Bls12_377, 13, 1 << 20, 128 << 20, [15, 17, 16384, 559232, 262144, 512, 282]),
    (Bls12_377, 13, 1 << 22, MAX, [17, 15, 65536, 1223360, 524288, 1024, 544]),
    (Bls12_377, 13, 1 << 22, 128 << 20, [15, 17, 16384, 559232, 524288, 512, 282]),
    (Bls12_377, 15, 1000, MAX, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_377, 15, 1000, 128 << 20, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_377, 15, 1 << 16, MAX, [11, 24, 1024, 65536, 65536, 512, 47]),
    (Bls12_377, 15, 1 << 16, 128 << 20, [11, 24, 1024, 65536, 65536, 512, 47]),
    (Bls12_377, 15, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 156]),
    (Bls12_377, 15, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 156]),
    (Bls12_377, 15, 1 << 20, MAX, [15, 17, 16384, 786432, 262144, 512, 396]),
    (Bls12_377, 15, 1 << 20, 128 << 20, [15, 17, 16384, 645248, 262144, 512, 325]),
    (Bls12_377, 15, 1 << 22, MAX, [17, 15, 65536, 1223360, 524288, 1024, 544]),
    (Bls12_377, 15, 1 << 22, 128 << 20, [15, 17, 16384, 645248, 524288, 512, 325]),
    (Bls12_377, 30, 1000, MAX, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_377, 30, 1000, 128 << 20, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_377, 30, 1 << 16, MAX, [11, 24, 1024, 65536, 65536, 512, 32]),
    (Bls12_377, 30, 1 << 16, 128 << 20, [11, 24, 1024, 65536, 65536, 512, 32]),
    (Bls12_377, 30, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 104]),
    (Bls12_377, 30, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 104]),
    (Bls12_377, 30, 1 << 20, MAX, [15, 17, 16384, 786432, 262144, 2048, 264]),
    (Bls12_377, 30, 1 << 20, 128 << 20, [15, 17, 16384, 786432, 262144, 2048, 264]),
    (Bls12_377, 30, 1 << 22, MAX, [17, 15, 65536, 1223360, 524288, 2048, 363]),
    (Bls12_377, 30, 1 << 22, 128 << 20, [16, 16, 32768, 1223360, 524288, 2048, 387]),
    (Bls12_377, 32, 1000, MAX, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_377, 32, 1000, 128 << 20, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_377, 32, 1 << 16, MAX, [11, 24, 1024, 65536, 65536, 512, 32]),
    (Bls12_377, 32, 1 << 16, 128 << 20, [11, 24, 1024, 65536, 65536, 512, 32]),
    (Bls12_377, 32, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 104]),
    (Bls12_377, 32, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 104]),
    (Bls12_377, 32, 1 << 20, MAX, [15, 17, 16384, 786432, 262144, 2048, 264]),
    (Bls12_377, 32, 1 << 20, 128 << 20, [15, 17, 16384, 786432, 262144, 2048, 264]),
    (Bls12_377, 32, 1 << 22, MAX, [17, 15, 65536, 1223360, 524288, 2048, 363]),
    (Bls12_377, 32, 1 << 22, 128 << 20, [16, 16, 32768, 1223360, 524288, 2048, 387]),
    (Bls12_381, 13, 1000, MAX, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_381, 13, 1000, 128 << 20, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_381, 13, 1 << 16, MAX, [11, 24, 1024, 65536, 65536, 512, 47]),
    (Bls12_381, 13, 1 << 16, 128 << 20, [11, 24, 1024, 65536, 65536, 512, 47]),
    (Bls12_381, 13, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 156]),
    (Bls12_381, 13, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 156]),
    (Bls12_381, 13, 1 << 20, MAX, [15, 18, 16384, 786432, 262144, 512, 419]),
    (Bls12_381, 13, 1 << 20, 128 << 20, [14, 19, 8192, 559232, 262144, 512, 315]),
    (Bls12_381, 13, 1 << 22, MAX, [17, 16, 65536, 1223360, 524288, 1024, 580]),
    (Bls12_381, 13, 1 << 22, 128 << 20, [14, 19, 8192, 559232, 524288, 512, 315]),
    (Bls12_381, 15, 1000, MAX, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_381, 15, 1000, 128 << 20, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_381, 15, 1 << 16, MAX, [11, 24, 1024, 65536, 65536, 512, 47]),
    (Bls12_381, 15, 1 << 16, 128 << 20, [11, 24, 1024, 65536, 65536, 512, 47]),
    (Bls12_381, 15, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 156]),
    (Bls12_381, 15, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 156]),
    (Bls12_381, 15, 1 << 20, MAX, [15, 18, 16384, 786432, 262144, 512, 419]),
    (Bls12_381, 15, 1 << 20, 128 << 20, [15, 18, 16384, 645248, 262144, 512, 344]),
    (Bls12_381, 15, 1 << 22, MAX, [17, 16, 65536, 1223360, 524288, 1024, 580]),
    (Bls12_381, 15, 1 << 22, 128 << 20, [15, 18, 16384, 645248, 524288, 512, 344]),
    (Bls12_381, 30, 1000, MAX, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_381, 30, 1000, 128 << 20, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_381, 30, 1 << 16, MAX, [11, 24, 1024, 65536, 65536, 512, 32]),
    (Bls12_381, 30, 1 << 16, 128 << 20, [11, 24, 1024, 65536, 65536, 512, 32]),
    (Bls12_381, 30, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 104]),
    (Bls12_381, 30, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 104]),
    (Bls12_381, 30, 1 << 20, MAX, [15, 18, 16384, 786432, 262144, 2048, 280]),
    (Bls12_381, 30, 1 << 20, 128 << 20, [15, 18, 16384, 786432, 262144, 2048, 280]),
    (Bls12_381, 30, 1 << 22, MAX, [17, 16, 65536, 1223360, 524288, 2048, 387]),
    (Bls12_381, 30, 1 << 22, 128 << 20, [16, 16, 32768, 1223360, 524288, 2048, 387]),
    (Bls12_381, 32, 1000, MAX, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_381, 32, 1000, 128 << 20, [4, 64, 8, 1000, 1000, 8, 16]),
    (Bls12_381, 32, 1 << 16, MAX, [11, 24, 1024, 65536, 65536, 512, 32]),
    (Bls12_381, 32, 1 << 16, 128 << 20, [11, 24, 1024, 65536, 65536, 512, 32]),
    (Bls12_381, 32, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 104]),
    (Bls12_381, 32, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 104]),
    (Bls12_381, 32, 1 << 20, MAX, [15, 18, 16384, 786432, 262144, 2048, 280]),
    (Bls12_381, 32, 1 << 20, 128 << 20, [15, 18, 16384, 786432, 262144, 2048, 280]),
    (Bls12_381, 32, 1 << 22, MAX, [17, 16, 65536, 1223360, 524288, 2048, 387]),
    (Bls12_381, 32, 1 << 22, 128 << 20, [16, 16, 32768, 1223360, 524288, 2048, 387]),
    (EdBls12_377, 13, 1000, MAX, [4, 63, 8, 1000, 1000, 8, 16]),
    (EdBls12_377, 13, 1000, 128 << 20, [4, 63, 8, 1000, 1000, 8, 16]),
    (EdBls12_377, 13, 1 << 16, MAX, [11, 23, 1024, 65536, 65536, 512, 45]),
    (EdBls12_377, 13, 1 << 16, 128 << 20, [11, 23, 1024, 65536, 65536, 512, 45]),
    (EdBls12_377, 13, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 156]),
    (EdBls12_377, 13, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 156]),
    (EdBls12_377, 13, 1 << 20, MAX, [15, 17, 16384, 786432, 262144, 512, 396]),
    (EdBls12_377, 13, 1 << 20, 128 << 20, [15, 17, 16384, 786432, 262144, 512, 396]),
    (EdBls12_377, 13, 1 << 22, MAX, [17, 15, 65536, 1223360, 524288, 1024, 544]),
    (EdBls12_377, 13, 1 << 22, 128 << 20, [15, 17, 16384, 838848, 524288, 512, 423]),
    (EdBls12_377, 15, 1000, MAX, [4, 63, 8, 1000, 1000, 8, 16]),
    (EdBls12_377, 15, 1000, 128 << 20, [4, 63, 8, 1000, 1000, 8, 16]),
    (EdBls12_377, 15, 1 << 16, MAX, [11, 23, 1024, 65536, 65536, 512, 45]),
    (EdBls12_377, 15, 1 << 16, 128 << 20, [11, 23, 1024, 65536, 65536, 512, 45]),
    (EdBls12_377, 15, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 156]),
    (EdBls12_377, 15, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 156]),
    (EdBls12_377, 15, 1 << 20, MAX, [15, 17, 16384, 786432, 262144, 512, 396]),
    (EdBls12_377, 15, 1 << 20, 128 << 20, [15, 17, 16384, 786432, 262144, 512, 396]),
    (EdBls12_377, 15, 1 << 22, MAX, [17, 15, 65536, 1223360, 524288, 1024, 544]),
    (EdBls12_377, 15, 1 << 22, 128 << 20, [15, 17, 16384, 986880, 524288, 512, 497]),
    (EdBls12_377, 29, 1000, MAX, [4, 63, 8, 1000, 1000, 8, 16]),
    (EdBls12_377, 29, 1000, 128 << 20, [4, 63, 8, 1000, 1000, 8, 16]),
    (EdBls12_377, 29, 1 << 16, MAX, [11, 23, 1024, 65536, 65536, 512, 23]),
    (EdBls12_377, 29, 1 << 16, 128 << 20, [11, 23, 1024, 65536, 65536, 512, 23]),
    (EdBls12_377, 29, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 78]),
    (EdBls12_377, 29, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 78]),
    (EdBls12_377, 29, 1 << 20, MAX, [15, 17, 16384, 786432, 262144, 2048, 198]),
    (EdBls12_377, 29, 1 << 20, 128 << 20, [15, 17, 16384, 786432, 262144, 2048, 198]),
    (EdBls12_377, 29, 1 << 22, MAX, [17, 15, 65536, 1223360, 524288, 2048, 272]),
    (EdBls12_377, 29, 1 << 22, 128 << 20, [16, 16, 32768, 1223360, 524288, 2048, 290]),
    (EdBls12_377, 32, 1000, MAX, [4, 63, 8, 1000, 1000, 8, 16]),
    (EdBls12_377, 32, 1000, 128 << 20, [4, 63, 8, 1000, 1000, 8, 16]),
    (EdBls12_377, 32, 1 << 16, MAX, [11, 23, 1024, 65536, 65536, 512, 23]),
    (EdBls12_377, 32, 1 << 16, 128 << 20, [11, 23, 1024, 65536, 65536, 512, 23]),
    (EdBls12_377, 32, 1 << 18, MAX, [13, 20, 4096, 262144, 262144, 512, 78]),
    (EdBls12_377, 32, 1 << 18, 128 << 20, [13, 20, 4096, 262144, 262144, 512, 78]),
    (EdBls12_377, 32, 1 << 20, MAX, [15, 17, 16384, 786432, 262144, 2048, 198]),
    (EdBls12_377, 32, 1 << 20, 128 << 20, [15, 17, 16384, 786432, 262144, 2048, 198]),
    (EdBls12_377, 32, 1 << 22, MAX, [17, 15, 65536, 1223360, 524288, 2048, 272]),
    (EdBls12_377, 32, 1 << 22, 128 << 20, [17, 15, 65536, 1223360, 524288, 2048, 272]),
];

fn plan(profile: &DeviceProfile, curve: GpuCurve, bits: u32, n: usize, limit: u64) -> Plan {
    let c = fastmsm_mont::limb_constants(curve.base_field().params(), bits).unwrap();
    Plan::new(curve, &c, n, &RunOptions::default(), limit, profile).unwrap()
}

#[test]
fn h200_profile_reproduces_the_tuned_plan() {
    let h200 = DeviceProfile::h200();
    for (curve, bits, n, limit, want) in H200_PLANS {
        let p = plan(&h200, curve, bits, n, limit);
        let got = [
            p.window_bits as usize,
            p.windows as usize,
            p.buckets as usize,
            p.batch,
            p.first_batch,
            p.segments as usize,
            p.chunk as usize,
        ];
        assert_eq!(
            got, want,
            "{curve:?} {bits} bits n={n} limit={limit}: {p:?}"
        );
    }
    // The H100 SXM5 has the same SMs: the same plans.
    let h100 = DeviceProfile::h100();
    for (curve, bits, n, limit, _) in H200_PLANS {
        assert_eq!(
            plan(&h100, curve, bits, n, limit),
            plan(&h200, curve, bits, n, limit)
        );
    }
}

/// The window rule: bit length of n minus 6, capped at 17 bits by itself (wider windows lost at
/// 2^24), while a caller may still ask for up to 20; precomputed copies count as points.
#[test]
fn window_rule_and_its_cap() {
    use fastmsm_gpu::msm::default_window_bits;
    let log_n = [10, 16, 20, 22, 23, 24, 28];
    let rule = log_n.map(|l| default_window_bits(1 << l));
    assert_eq!(rule, [5, 11, 15, 17, 17, 17, 17]);
    let h100 = DeviceProfile::h100();
    let p = plan(&h100, Bls12_377, 30, 1 << 24, MAX);
    assert_eq!((p.window_bits, p.windows), (17, 15));
    let c = fastmsm_mont::limb_constants(Bls12_377.base_field().params(), 30).unwrap();
    let asked = RunOptions {
        window_bits: Some(20),
        ..Default::default()
    };
    let p = Plan::new(Bls12_377, &c, 1 << 24, &asked, MAX, &h100).unwrap();
    assert_eq!((p.window_bits, p.windows), (20, 13));
}

/// The other profiles move the plan where their numbers differ, and only there.
#[test]
fn profiles_move_the_plan() {
    let (h200, portable) = (DeviceProfile::h200(), DeviceProfile::portable());
    // A smaller wave: bigger chunks (BLS12-377, 30 bits, 2^18 points, W = 20: K = ⌈2^18·W/V⌉).
    let k = |p: &DeviceProfile| plan(p, Bls12_377, 30, 1 << 18, MAX).chunk;
    assert_eq!(k(&h200), 104);
    assert_eq!(k(&portable), 320);
    assert_eq!(k(&DeviceProfile::lavapipe()), 4096); // clamped at the top of the chunk range
    // The reduction budget with 64-bit products: 36 Ki on the H200, 2^14 in portable.
    assert_eq!(plan(&h200, Bls12_377, 30, 1 << 20, MAX).segments, 2048);
    assert_eq!(plan(&portable, Bls12_377, 30, 1 << 20, MAX).segments, 512);
    // No split into two batches when the profile says never.
    let one = DeviceProfile {
        two_batches_from: None,
        ..DeviceProfile::h200()
    };
    let p = plan(&one, Bn254, 29, 1 << 20, MAX);
    assert_eq!((p.batch, p.first_batch, p.batches()), (1 << 20, 1 << 20, 1));
}

#[test]
fn wave_lookup_by_limbs() {
    let h200 = DeviceProfile::h200();
    for (limbs, warps) in [
        (8, 16),
        (9, 16),
        (10, 12),
        (13, 12),
        (14, 8),
        (20, 8),
        (26, 8),
    ] {
        assert_eq!(h200.smvp_wave(limbs), 132 * warps * 32, "{limbs} limbs");
    }
    // A calibration measured at 20 limbs serves smaller kernels too; a later one at 13 limbs
    // takes over up to 13.
    let mut p = DeviceProfile {
        smvp_wave: vec![],
        ..DeviceProfile::portable()
    };
    p.set_smvp_wave(20, 1000);
    assert_eq!((p.smvp_wave(9), p.smvp_wave(26)), (1000, 1000));
    p.set_smvp_wave(13, 3000);
    assert_eq!(
        (
            p.smvp_wave(9),
            p.smvp_wave(13),
            p.smvp_wave(14),
            p.smvp_wave(30)
        ),
        (3000, 3000, 1000, 1000)
    );
    assert!(p.has_smvp_wave(13) && !p.has_smvp_wave(9));
}

#[test]
fn limb_width_follows_the_profile() {
    let bls = Field::Bls12_377Fq;
    assert_eq!(DeviceProfile::h200().limb_bits_with(true, bls), 30);
    assert_eq!(
        DeviceProfile::h200().limb_bits_with(true, Field::Bn254Fq),
        29
    );
    // Without SHADER_INT64 (a browser) even the H200 profile takes the portable width.
    assert_eq!(DeviceProfile::h200().limb_bits_with(false, bls), 15);
    // 64-bit integers offered but slow (the profile says so): the portable width.
    assert_eq!(DeviceProfile::portable().limb_bits_with(true, bls), 15);
    let p = DeviceProfile {
        portable_limb_bits: 13,
        ..DeviceProfile::portable()
    };
    assert_eq!(p.limb_bits_with(false, bls), 13);
}

#[test]
fn named_profiles_and_json() {
    for name in NAMES {
        let p = DeviceProfile::named(name).unwrap();
        assert_eq!((p.name.as_str(), &p.origin), (name, &Origin::Named));
        let back = DeviceProfile::from_json(&p.to_json()).unwrap();
        assert_eq!(back, p, "{name}");
    }
    let err = DeviceProfile::named("h300").unwrap_err().to_string();
    assert!(
        err.contains("unknown device profile \"h300\"") && err.contains("h200"),
        "{err}"
    );
    let mut p = DeviceProfile::fallback("the SMVP probe failed: device lost");
    p.set_smvp_wave(13, 777);
    let back = DeviceProfile::from_json(&p.to_json()).unwrap();
    assert_eq!(back, p);
    assert!(
        p.summary().contains("fallback: the SMVP probe failed"),
        "{}",
        p.summary()
    );
    // Bad files name what is wrong.
    let good = DeviceProfile::h200().to_json();
    for (key, value, why) in [
        (
            "smvp_wave",
            serde_json::json!([]),
            "\"smvp_wave\" must be a non-empty list",
        ),
        (
            "smvp_wave",
            serde_json::json!([{"limbs": 9, "invocations": 0}]),
            "\"invocations\" ≥ 1",
        ),
        (
            "portable_limb_bits",
            serde_json::json!(30),
            "portable_limb_bits 30",
        ),
        ("chunk_range", serde_json::json!([1, 8]), "\"chunk_range\""),
        ("fast_int64", serde_json::json!("yes"), "\"fast_int64\""),
        ("origin", serde_json::json!("guessed"), "unknown origin"),
        (
            "reduction_threads",
            serde_json::json!(-1),
            "\"reduction_threads\"",
        ),
        (
            "additions_per_second",
            serde_json::json!(0),
            "\"additions_per_second\" must be a positive number",
        ),
        (
            "binding_limit",
            serde_json::json!(4096),
            "\"binding_limit\" must be null or at least 1 MiB",
        ),
    ] {
        let mut v = good.clone();
        v[key] = value;
        let err = DeviceProfile::from_json(&v).unwrap_err().to_string();
        assert!(err.contains(why), "{key}: {err}");
    }
}

/// The default profile of an adapter, by its name: the data-centre GPUs tuned here, the two CPU
/// adapters, and `portable` for anything else; compact kernels in a browser.
#[test]
fn named_profile_for_the_adapter() {
    let mut info = fastmsm_gpu::testing::gpu().info.clone();
    let mut named = |name: &str, backend: wgpu::Backend| {
        info.name = name.into();
        info.driver = String::new();
        info.driver_info = String::new();
        info.backend = backend;
        info.device_type = match name {
            "fallback" => wgpu::DeviceType::Cpu,
            _ => wgpu::DeviceType::DiscreteGpu,
        };
        if name == "fallback" {
            info.name = String::new();
        }
        let p = DeviceProfile::for_adapter(&info);
        (p.name, p.kernel_form.name())
    };
    use wgpu::Backend::{BrowserWebGpu, Vulkan};
    let expect = |name: &str, form: &'static str| (name.to_string(), form);
    assert_eq!(
        named("NVIDIA H100 80GB HBM3", Vulkan),
        expect("h100", "unrolled")
    );
    assert_eq!(named("NVIDIA H200", Vulkan), expect("h200", "unrolled"));
    assert_eq!(
        named("llvmpipe (LLVM 19.1.7, 256 bits)", Vulkan),
        expect("lavapipe", "unrolled")
    );
    assert_eq!(
        named("AMD Radeon RX 7900", Vulkan),
        expect("portable", "unrolled")
    );
    assert_eq!(
        named("NVIDIA H100 80GB HBM3", BrowserWebGpu),
        expect("h100", "compact")
    );
    assert_eq!(
        named("Apple M3", BrowserWebGpu),
        expect("portable", "compact")
    );
    // A browser's fallback adapter (Chromium's is SwiftShader) may give no name at all.
    assert_eq!(
        named("fallback", BrowserWebGpu),
        expect("swiftshader", "compact")
    );
    assert_eq!(
        named("SwiftShader Device (Subzero)", BrowserWebGpu),
        expect("swiftshader", "compact")
    );
    // Phones' GPUs, by a word of their names: planned within WebGPU's default limits.
    assert_eq!(
        named("Adreno (TM) 740", Vulkan),
        expect("mobile", "compact")
    );
    assert_eq!(
        named("Mali-G715", BrowserWebGpu),
        expect("mobile", "compact")
    );
    assert_eq!(
        named("PowerVR B-Series", Vulkan),
        expect("mobile", "compact")
    );
    assert_eq!(
        named("Smalltalk GPU", Vulkan),
        expect("portable", "unrolled")
    );
}
