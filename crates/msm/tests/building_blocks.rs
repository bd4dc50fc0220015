//! Bucket accumulation (both paths), running-sum reduction, its parallel split and Horner, each
//! against a naive computation with double-and-add, on every curve.

use crate::common::{
    Bls377O, Bls381O, Bn254Jac, Bn254O, EdO, Oracle, OurAffine, random_points, rng,
};
use fastmsm_curves::Group;
use fastmsm_curves::horner;
use fastmsm_msm::batch_affine::accumulate_batch_affine;
use fastmsm_msm::bucket::accumulate_window;
use fastmsm_msm::reduce::{running_sum, running_sum_split, segment_sums};
use fastmsm_msm::{BatchAffineConfig, BatchAffineStats, MsmGroup};
use rand::Rng;

fn points<O: Oracle>(n: usize, seed: u64) -> Vec<OurAffine<O>> {
    random_points::<O>(n, seed).iter().map(O::ours).collect()
}

/// Σ j·B_j the slow way.
fn naive_weighted<G: MsmGroup>(buckets: &[G]) -> G {
    buckets
        .iter()
        .enumerate()
        .fold(G::identity(), |acc, (j, b)| {
            acc.add(&b.mul_scalar(&[j as u64 + 1]))
        })
}

fn some_buckets<O: Oracle>(m: usize, seed: u64) -> Vec<O::G> {
    let mut r = rng(seed);
    points::<O>(m, seed)
        .iter()
        .map(|p| {
            if r.gen_bool(0.2) {
                O::G::identity()
            } else {
                O::G::from_affine(p).double()
            }
        })
        .collect()
}

fn reductions<O: Oracle>(seed: u64) {
    for m in [0usize, 1, 2, 3, 7, 16, 33] {
        let b = some_buckets::<O>(m, seed + m as u64);
        let want = naive_weighted(&b);
        assert_eq!(
            running_sum(&b),
            want,
            "{}: running sum, m = {m}",
            O::G::NAME
        );
        for t in 1..=m + 3 {
            assert_eq!(
                running_sum_split(&b, t),
                want,
                "{}: split, m = {m}, T = {t}",
                O::G::NAME
            );
        }
    }
    // a segment on its own: (Σ (j+1)·B_j, Σ B_j)
    let b = some_buckets::<O>(5, seed);
    let (s, plain) = segment_sums(&b);
    assert_eq!(s, naive_weighted(&b));
    assert_eq!(plain, b.iter().fold(O::G::identity(), |a, x| a.add(x)));
    // Horner: Σ 2^(c·w)·W_w
    let w = some_buckets::<O>(6, seed + 99);
    for c in [2u32, 5, 16] {
        let want = w.iter().enumerate().fold(O::G::identity(), |acc, (i, x)| {
            let mut e = [0u64; 2];
            let bit = c as usize * i;
            e[bit / 64] = 1 << (bit % 64);
            acc.add(&x.mul_scalar(&e))
        });
        assert_eq!(horner(&w, c), want, "{}: Horner, c = {c}", O::G::NAME);
    }
}

/// Naive buckets: bucket j = Σ sign(d_i)·P_i over the points with |d_i| = j.
fn naive_buckets<G: MsmGroup>(pts: &[G::Affine], digits: &[i32], count: usize) -> Vec<G> {
    let mut out = vec![G::identity(); count];
    for (p, &d) in pts.iter().zip(digits) {
        if d != 0 {
            let q = G::from_affine(p);
            let j = d.unsigned_abs() as usize - 1;
            out[j] = out[j].add(&if d > 0 { q } else { q.neg() });
        }
    }
    out
}

fn accumulation<O: Oracle>(seed: u64) {
    let mut r = rng(seed);
    let n = 300;
    let mut pts = points::<O>(n, seed);
    // repeats, negatives and identities among the points
    pts[7] = pts[3];
    pts[8] = O::G::affine_neg(&pts[3]);
    pts[9] = O::G::affine_identity();
    pts[10] = pts[3];
    for count in [1usize, 2, 8, 64] {
        let c = count as i32;
        let cases: Vec<(&str, Vec<i32>)> = vec![
            ("uniform", (0..n).map(|_| r.gen_range(-c..=c)).collect()),
            ("one bucket", vec![1; n]),
            (
                "± one bucket",
                (0..n).map(|i| if i % 2 == 0 { c } else { -c }).collect(),
            ),
            (
                "P and −P into one bucket",
                (0..n)
                    .map(|i| if i == 3 || i == 8 || i == 7 { 1 } else { 0 })
                    .collect(),
            ),
            ("zeros", vec![0; n]),
        ];
        for (what, digits) in &cases {
            let want = naive_buckets::<O::G>(&pts, digits, count);
            let proj = accumulate_window::<O::G>(&pts, digits, count);
            assert_eq!(
                proj,
                want,
                "{}: projective, {what}, {count} buckets",
                O::G::NAME
            );
            for cfg in [
                BatchAffineConfig::default(),
                BatchAffineConfig {
                    batch_size: 1,
                    max_deferred: 0,
                    min_batch: 1,
                },
                BatchAffineConfig {
                    batch_size: 3,
                    max_deferred: 5,
                    min_batch: 1,
                },
                BatchAffineConfig {
                    batch_size: 16,
                    max_deferred: 1000,
                    min_batch: 0,
                },
                BatchAffineConfig {
                    batch_size: 16,
                    max_deferred: 4,
                    min_batch: 8,
                },
            ] {
                let mut stats = BatchAffineStats::default();
                let ba = accumulate_batch_affine::<O::G>(&pts, digits, count, &cfg, &mut stats);
                assert_eq!(
                    ba,
                    want,
                    "{}: batch-affine, {what}, {count} buckets, {cfg:?}",
                    O::G::NAME
                );
                let nonzero = digits.iter().filter(|&&d| d != 0).count();
                assert_eq!(
                    stats.batched_additions + stats.immediate + stats.spilled,
                    nonzero,
                    "every addition is done exactly once"
                );
            }
        }
    }
}

/// The collision handling is exercised: with everything in one bucket, additions are deferred,
/// and with no room to defer they are spilled; with room and no minimum batch, nothing spills.
fn collisions<O: Oracle>(seed: u64) {
    let n = 64;
    let pts = points::<O>(n, seed);
    let digits = vec![1; n];
    let want = naive_buckets::<O::G>(&pts, &digits, 4);

    let mut s = BatchAffineStats::default();
    let cfg = BatchAffineConfig {
        batch_size: 4,
        max_deferred: 1000,
        min_batch: 0,
    };
    assert_eq!(
        accumulate_batch_affine::<O::G>(&pts, &digits, 4, &cfg, &mut s),
        want
    );
    assert_eq!(s.spilled, 0);
    assert_eq!(
        s.immediate, 1,
        "only the first point lands in an empty bucket"
    );
    assert_eq!(s.batched_additions, n - 1);
    assert_eq!(s.rounds, n - 1, "one bucket: one addition per batch");
    assert!(s.deferred >= n - 2);

    let mut s = BatchAffineStats::default();
    let cfg = BatchAffineConfig {
        batch_size: 4,
        max_deferred: 0,
        min_batch: 0,
    };
    assert_eq!(
        accumulate_batch_affine::<O::G>(&pts, &digits, 4, &cfg, &mut s),
        want
    );
    assert_eq!((s.deferred, s.spilled, s.batched_additions), (0, n - 2, 1));

    // Uniform digits over many buckets: batches are large and collisions rare.
    let mut r = rng(seed + 1);
    let n = 300;
    let pts = points::<O>(n, seed + 2);
    let digits: Vec<i32> = (0..n).map(|_| r.gen_range(-128..=128)).collect();
    let mut s = BatchAffineStats::default();
    let got =
        accumulate_batch_affine::<O::G>(&pts, &digits, 128, &BatchAffineConfig::default(), &mut s);
    assert_eq!(got, naive_buckets::<O::G>(&pts, &digits, 128));
    assert!(s.batched_additions > 100 && s.inversions < 10, "{s:?}");
}

#[test]
fn bn254() {
    reductions::<Bn254O>(10);
    accumulation::<Bn254O>(11);
    collisions::<Bn254O>(12);
    reductions::<Bn254Jac>(13);
    accumulation::<Bn254Jac>(14);
}

#[test]
fn bls12_377() {
    reductions::<Bls377O>(20);
    accumulation::<Bls377O>(21);
    collisions::<Bls377O>(22);
}

#[test]
fn bls12_381() {
    reductions::<Bls381O>(30);
    accumulation::<Bls381O>(31);
    collisions::<Bls381O>(32);
}

#[test]
fn ed_on_bls12_377() {
    reductions::<EdO>(40);
    accumulation::<EdO>(41);
    collisions::<EdO>(42);
}
