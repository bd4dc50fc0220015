//! Each GPU stage against its CPU reference (`fastmsm_msm::cuzk` and the digit and reduction rules
//! of `fastmsm_msm`), on one small input per curve family: the converted points, the signed digits,
//! the per-bucket counts, the CSR row pointers and entries (a multiset per bucket: the GPU's
//! atomic scatter orders a bucket's entries freely), the bucket sums after the SMVP and its
//! combine levels, and the window sums after the reduction. Montgomery values are converted with
//! num-bigint, independently of the host code.
//!
//! One compiled MSM per family, at the fewest limbs (BN254 at 32 bits, Ed-on-BLS12-377 at 29:
//! the msm tests build the same pipelines, so a warm shader cache serves both), with one #[test]
//! each: on a cold lavapipe cache every build is about a minute of LLVM time.
#![cfg(not(target_arch = "wasm32"))]

use ark_std::rand::{Rng, SeedableRng, rngs::StdRng};
use fastmsm_curves::{Canonical, PrimeField, sw, te};
use fastmsm_gpu::field::radix64_limb_bits;
use fastmsm_gpu::msm::inspect::StageBuffers;
use fastmsm_gpu::msm::{GpuCurve, GpuMsm, ProfileChoice, RunOptions, pack_points, pack_scalars};
use fastmsm_gpu::testing::{block_on, gpu, gpu_int64};
use fastmsm_msm::{Bn254G1, EdBls12_377G, MsmGroup, Scalar, cuzk, digits, reduce};
use num_bigint::BigUint;

/// A group whose points the GPU stores as four coordinates (sw::Xyzz: X, Y, ZZ, ZZZ;
/// te::Extended: X, Y, Z, T), with the affine coordinates of its points.
trait GpuGroup: MsmGroup {
    const CURVE: GpuCurve;
    fn from_coords(c: &[Canonical]) -> Self;
    fn affine_coords(p: &Self::Affine) -> (Canonical, Canonical);
}

fn element<F: PrimeField>(v: &Canonical) -> F {
    F::from_canonical(v).expect("the GPU returned a value below p")
}

impl GpuGroup for Bn254G1 {
    const CURVE: GpuCurve = GpuCurve::Bn254;
    fn from_coords(c: &[Canonical]) -> Self {
        sw::Xyzz {
            x: element(&c[0]),
            y: element(&c[1]),
            zz: element(&c[2]),
            zzz: element(&c[3]),
        }
    }
    fn affine_coords(p: &Self::Affine) -> (Canonical, Canonical) {
        // The packed input's identity is (0, 0).
        match p.infinity {
            true => Default::default(),
            false => (p.x.to_canonical(), p.y.to_canonical()),
        }
    }
}

impl GpuGroup for EdBls12_377G {
    const CURVE: GpuCurve = GpuCurve::EdBls12_377;
    fn from_coords(c: &[Canonical]) -> Self {
        te::Extended {
            x: element(&c[0]),
            y: element(&c[1]),
            z: element(&c[2]),
            t: element(&c[3]),
        }
    }
    fn affine_coords(p: &Self::Affine) -> (Canonical, Canonical) {
        (p.x.to_canonical(), p.y.to_canonical())
    }
}

fn big(v: &Canonical) -> BigUint {
    BigUint::from_slice(
        &v.iter()
            .flat_map(|&w| [w as u32, (w >> 32) as u32])
            .collect::<Vec<_>>(),
    )
}

fn canonical(v: &BigUint) -> Canonical {
    let mut out = [0u64; fastmsm_mont::WORDS];
    for (o, d) in out.iter_mut().zip(v.to_u64_digits()) {
        *o = d;
    }
    out
}

/// Reads the shader's field elements: `limbs` limbs of `limb_bits` bits each, least significant
/// first, optionally out of Montgomery form (times R⁻¹, R = 2^(limb_bits·limbs)).
struct Limbs {
    limbs: usize,
    limb_bits: u32,
    r_inv: BigUint,
    p: BigUint,
}

impl Limbs {
    fn new(msm: &GpuMsm) -> Self {
        let p = big(&msm.curve.base_field().params().modulus);
        let (limbs, limb_bits) = (msm.constants.limbs, msm.constants.limb_bits);
        let r = (BigUint::from(1u32) << (limbs as u32 * limb_bits)) % &p;
        let r_inv = r.modpow(&(&p - 2u32), &p);
        Limbs {
            limbs,
            limb_bits,
            r_inv,
            p,
        }
    }

    fn value(&self, words: &[u32], montgomery: bool) -> Canonical {
        let v = words
            .iter()
            .rev()
            .fold(BigUint::default(), |acc, &l| (acc << self.limb_bits) + l);
        match montgomery {
            true => canonical(&(v * &self.r_inv % &self.p)),
            false => canonical(&v),
        }
    }

    /// The `count` field elements at the start of `words`.
    fn values(&self, words: &[u32], count: usize, montgomery: bool) -> Vec<Canonical> {
        (0..count)
            .map(|i| self.value(&words[i * self.limbs..][..self.limbs], montgomery))
            .collect()
    }
}

/// The GPU's signed digits of `k`: d ∈ (−2^(c−1), 2^(c−1)], a window value above 2^(c−1)
/// carrying into the next (the CPU MSM's digits lie in [−2^(c−1), 2^(c−1)) instead).
fn gpu_digits(k: &Scalar, c: u32, windows: usize) -> Vec<i32> {
    let half = 1u32 << (c - 1);
    let mut carry = 0;
    let out = (0..windows)
        .map(|j| {
            let v = digits::chunk(k, j, c) + carry;
            carry = (v > half) as u32;
            v as i32 - ((carry << c) as i32)
        })
        .collect();
    assert_eq!(carry, 0, "the plan's windows absorb the last carry");
    out
}

/// Uniform scalars mixed with the patterns that stress the stages: zeros (no bucket), small
/// scalars (high windows empty: the SMVP's chunks go to the low ones), one repeated scalar (a few
/// buckets of many points, cut by many chunks: the combine levels), and r − 1.
fn scalars(r: &Scalar, n: usize, rng: &mut StdRng) -> Vec<Scalar> {
    let uniform = |rng: &mut StdRng| {
        let mut k: Scalar = rng.r#gen();
        k[3] %= r[3];
        k
    };
    let shared = uniform(rng);
    let mut r_minus_1 = *r;
    r_minus_1[0] -= 1;
    (0..n)
        .map(|i| match i % 8 {
            0 | 5 => [0; 4],
            1 | 6 => [rng.gen_range(1..1024), 0, 0, 0],
            2 | 4 => shared,
            3 if i % 3 == 0 => r_minus_1,
            _ => uniform(rng),
        })
        .collect()
}

/// Builds the MSM once and checks every stage on two plans: the default, and small windows with
/// two entries per SMVP chunk (many chunks per bucket: several combine levels do work).
fn check_stages<G: GpuGroup>(limb_bits: u32) {
    let ctx = gpu_int64();
    // The portable plan, in the product form this adapter's profile picks.
    let form = fastmsm_gpu::DeviceProfile::for_adapter(&gpu().info).kernel_form;
    let clock = std::time::Instant::now();
    let build = GpuMsm::builder(G::CURVE)
        .limb_bits(limb_bits)
        .kernel_form(form)
        .profile(ProfileChoice::Named("portable".into()));
    let msm = block_on(build.build(ctx)).unwrap();
    eprintln!(
        "{} {limb_bits}-bit: pipelines built in {:.0} s",
        G::CURVE.name(),
        clock.elapsed().as_secs_f64()
    );
    let mut rng = StdRng::seed_from_u64(19);
    let n = 300;
    let points: Vec<G::Affine> = (0..n)
        .map(|_| {
            let k: [u64; 2] = rng.r#gen();
            G::generator().mul_scalar(&k).to_affine()
        })
        .collect();
    let scalars = scalars(&G::SCALAR_MODULUS, n, &mut rng);
    let coords: Vec<_> = points.iter().map(G::affine_coords).collect();
    let (packed_points, packed_scalars) = (pack_points(G::CURVE, &coords), pack_scalars(&scalars));
    for options in [
        RunOptions::default(),
        RunOptions {
            window_bits: Some(5),
            chunk: Some(2),
            ..Default::default()
        },
    ] {
        let got =
            block_on(msm.stage_buffers(ctx, &packed_points, &packed_scalars, &options)).unwrap();
        compare::<G>(&msm, &got, &points, &coords, &scalars);
    }
}

fn compare<G: GpuGroup>(
    msm: &GpuMsm,
    got: &StageBuffers,
    points: &[G::Affine],
    coords: &[(Canonical, Canonical)],
    scalars: &[Scalar],
) {
    let plan = &got.plan;
    let name = format!(
        "{} c={} K={}",
        G::CURVE.name(),
        plan.window_bits,
        plan.chunk
    );
    let (n, windows, b) = (scalars.len(), plan.windows as usize, plan.buckets as usize);
    let limbs = Limbs::new(msm);

    let converted = limbs.values(&got.points, 2 * n, true);
    for (i, xy) in converted.chunks(2).enumerate() {
        assert_eq!(
            (xy[0], xy[1]),
            coords[i],
            "{name}: convert_points, point {i}"
        );
    }

    let digits: Vec<Vec<i32>> = scalars
        .iter()
        .map(|k| gpu_digits(k, plan.window_bits, windows))
        .collect();
    let mut window_sums = Vec::new();
    for j in 0..windows {
        let column: Vec<i32> = digits.iter().map(|d| d[j]).collect();
        let gpu_column: Vec<i32> = got.digits[j * n..][..n]
            .iter()
            .map(|&w| cuzk::decode_digit(w))
            .collect();
        assert_eq!(gpu_column, column, "{name}: decompose, window {j}");

        let counts = &got.counts[j * (b + 1)..][..b + 1];
        assert_eq!(
            counts,
            cuzk::bucket_counts(&column, b),
            "{name}: counts, window {j}"
        );

        let csr = cuzk::transpose(&column, b);
        let row_ptr = &got.offsets[j * (b + 2)..][..b + 2];
        let entries = &got.entries[j * n..][..csr.entries.len()];
        if let Err(e) = csr.matches(row_ptr, entries) {
            panic!("{name}: prefix/scatter, window {j}: {e}");
        }

        let sums = cuzk::smvp::<G>(points, &csr);
        let point_words = 4 * limbs.limbs;
        for (bucket, want) in (1..=b).zip(&sums) {
            let words = &got.buckets[(j * (b + 1) + bucket) * point_words..][..point_words];
            let found = G::from_coords(&limbs.values(words, 4, true));
            assert!(
                found.to_affine() == want.to_affine(),
                "{name}: smvp, window {j} bucket {bucket} ({} entries)",
                csr.bucket(bucket).len()
            );
        }
        window_sums.push(reduce::running_sum(&sums));
    }

    let point_words = 4 * limbs.limbs;
    for (j, want) in window_sums.iter().enumerate() {
        let words = &got.window_sums[j * point_words..][..point_words];
        let found = G::from_coords(&limbs.values(words, 4, false));
        assert!(
            found.to_affine() == want.to_affine(),
            "{name}: reduce/fold/window_out, window {j}"
        );
    }
}

#[test]
fn short_weierstrass_stages_match_cpu() {
    check_stages::<Bn254G1>(32);
}

#[test]
fn twisted_edwards_stages_match_cpu() {
    check_stages::<EdBls12_377G>(radix64_limb_bits(GpuCurve::EdBls12_377.base_field()));
}
