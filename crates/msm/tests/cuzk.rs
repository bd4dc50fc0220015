//! The cuZK CPU reference: CSR transposition (round trip, counts and offsets, edge cases), the
//! order-free comparison the GPU checks use, the SMVP against the crate's bucket accumulation,
//! and the whole MSM through CSR + SMVP against arkworks.

use crate::common::{
    Bls377O, Bls381O, Bn254O, EdO, Oracle, OurAffine, adversarial_inputs, ark_msm, random_points,
    random_scalars, rng,
};
use fastmsm_curves::Group;
use fastmsm_msm::bucket::accumulate_window;
use fastmsm_msm::cuzk::{
    CsrMismatch, CsrWindow, NEGATIVE, bucket_counts, decode_entry, smvp, transpose, transpose_all,
};
use fastmsm_msm::digits::{decompose_all, num_windows};
use fastmsm_msm::{Accumulation, Algorithm, CpuGroup, MsmConfig, MsmGroup, Reduction, Window, msm};
use rand::Rng;
use rand::seq::SliceRandom;

/// Random digits in [−B, B] (both conventions' extremes included), with zeros.
fn random_digits(n: usize, buckets: usize, seed: u64) -> Vec<i32> {
    let mut r = rng(seed);
    let b = buckets as i32;
    (0..n).map(|_| r.gen_range(-b..=b)).collect()
}

/// Every structural invariant of one window's CSR form, against the digits it came from.
fn check_invariants(csr: &CsrWindow, digits: &[i32], buckets: usize) {
    assert_eq!(csr.row_ptr.len(), buckets + 2, "B + 2 row pointers");
    assert_eq!(csr.buckets(), buckets);
    assert_eq!(
        (csr.row_ptr[0], csr.row_ptr[1]),
        (0, 0),
        "row 0 (digit 0) is empty"
    );
    let counts = bucket_counts(digits, buckets);
    assert_eq!(counts[0], 0);
    for (b, &count) in counts.iter().enumerate() {
        assert_eq!(
            csr.row_ptr[b + 1] - csr.row_ptr[b],
            count,
            "row {b} holds count[{b}] entries"
        );
    }
    let nonzero = digits.iter().filter(|&&d| d != 0).count();
    assert_eq!(
        *csr.row_ptr.last().unwrap() as usize,
        nonzero,
        "last pointer = nonzeros"
    );
    assert_eq!(csr.entries.len(), nonzero);
    assert_eq!(counts.iter().sum::<u32>() as usize, nonzero);
    // every entry sits in the row of its digit, with the digit's sign, once
    let mut seen = vec![false; digits.len()];
    for b in 1..=buckets {
        for &e in csr.bucket(b) {
            let (i, negative) = decode_entry(e);
            assert!(!seen[i], "point {i} appears twice");
            seen[i] = true;
            assert_eq!(
                digits[i].unsigned_abs() as usize,
                b,
                "point {i} in the wrong bucket"
            );
            assert_eq!(digits[i] < 0, negative, "point {i}: sign bit");
        }
    }
}

#[test]
fn transposition_round_trip_and_invariants() {
    for c in [2u32, 3, 5, 8, 13, 16] {
        let buckets = 1usize << (c - 1);
        for n in [0usize, 1, 2, 7, 100, 3000] {
            let digits = random_digits(n, buckets, (c as u64) << 20 | n as u64);
            let csr = transpose(&digits, buckets);
            check_invariants(&csr, &digits, buckets);
            assert_eq!(csr.to_digits(n), digits, "c = {c}, n = {n}: round trip");
        }
    }
}

/// Real digits (from scalars, window-major, as the MSM lays them out), every window.
fn scalar_digits_round_trip<O: Oracle>(seed: u64) {
    let r = O::G::SCALAR_MODULUS;
    let n = 300;
    let mut scalars = random_scalars::<O>(n, seed);
    scalars[0] = crate::common::r_minus_one::<O>();
    scalars[1] = [0; 4];
    for c in [4u32, 9, 16] {
        let windows = num_windows(c, &r);
        let buckets = 1usize << (c - 1);
        let digits = decompose_all(&scalars, c, windows);
        let all = transpose_all(&digits, n, buckets);
        assert_eq!(all.len(), windows);
        for (w, csr) in all.iter().enumerate() {
            let column = &digits[w * n..(w + 1) * n];
            check_invariants(csr, column, buckets);
            assert_eq!(
                csr.to_digits(n),
                column,
                "{}: c = {c}, window {w}",
                O::G::NAME
            );
        }
    }
}

#[test]
fn transposition_of_scalar_digits() {
    scalar_digits_round_trip::<Bn254O>(1);
    scalar_digits_round_trip::<Bls377O>(2);
    scalar_digits_round_trip::<Bls381O>(3);
    scalar_digits_round_trip::<EdO>(4);
}

#[test]
fn edge_cases() {
    // n = 0: all pointers zero, no entries, no windows
    let csr = transpose(&[], 8);
    assert_eq!(csr.row_ptr, vec![0; 10]);
    assert!(csr.entries.is_empty());
    assert!(transpose_all(&[], 0, 8).is_empty());
    // all digits zero: every row empty
    let csr = transpose(&[0; 50], 8);
    assert_eq!(csr.row_ptr, vec![0; 10]);
    assert_eq!(csr.to_digits(50), vec![0; 50]);
    // all in one bucket, the top one, with both signs (CPU −2^(c−1) and GPU +2^(c−1))
    let digits: Vec<i32> = (0..40).map(|i| if i % 2 == 0 { 8 } else { -8 }).collect();
    let csr = transpose(&digits, 8);
    check_invariants(&csr, &digits, 8);
    assert_eq!(&csr.row_ptr[..9], &[0; 9]);
    assert_eq!(csr.row_ptr[9], 40);
    assert_eq!(csr.bucket(8).len(), 40);
    // all in bucket 1
    let csr = transpose(&[-1; 17], 8);
    assert_eq!(csr.row_ptr, vec![0, 0, 17, 17, 17, 17, 17, 17, 17, 17]);
    assert!(csr.entries.iter().all(|&e| e & NEGATIVE != 0));
}

#[test]
fn comparison_is_order_free_but_exact() {
    let digits = random_digits(500, 32, 9);
    let csr = transpose(&digits, 32);
    // a GPU-like result: the same buckets, each shuffled
    let mut shuffled = csr.clone();
    let mut r = rng(10);
    for b in 0..=32 {
        let (lo, hi) = (csr.row_ptr[b] as usize, csr.row_ptr[b + 1] as usize);
        shuffled.entries[lo..hi].shuffle(&mut r);
    }
    assert_ne!(shuffled.entries, csr.entries, "the shuffle moved something");
    assert_eq!(csr.matches(&shuffled.row_ptr, &shuffled.entries), Ok(()));
    assert_eq!(shuffled.sorted(), csr.sorted());

    // a flipped sign, a swap across buckets, a shifted pointer, a lost entry: all caught
    let b = (1..=32).find(|&b| csr.bucket(b).len() >= 2).unwrap();
    let lo = csr.row_ptr[b] as usize;
    let mut flipped = csr.entries.clone();
    flipped[lo] ^= NEGATIVE;
    assert!(matches!(
        csr.matches(&csr.row_ptr, &flipped),
        Err(CsrMismatch::Bucket { bucket, .. }) if bucket == b
    ));
    let other = (b + 1..=32).find(|&o| !csr.bucket(o).is_empty()).unwrap();
    let mut swapped = csr.entries.clone();
    swapped.swap(lo, csr.row_ptr[other] as usize);
    assert!(matches!(
        csr.matches(&csr.row_ptr, &swapped),
        Err(CsrMismatch::Bucket { bucket, .. }) if bucket == b
    ));
    let mut pointers = csr.row_ptr.clone();
    pointers[b] += 1;
    assert!(matches!(
        csr.matches(&pointers, &csr.entries),
        Err(CsrMismatch::RowPointer { index, .. }) if index == b
    ));
    let short = &csr.entries[1..];
    assert!(matches!(
        csr.matches(&csr.row_ptr, short),
        Err(CsrMismatch::Shape { .. })
    ));
    assert!(
        csr.matches(&csr.row_ptr, &flipped)
            .unwrap_err()
            .to_string()
            .contains("bucket")
    );
}

fn points<O: Oracle>(n: usize, seed: u64) -> Vec<OurAffine<O>> {
    random_points::<O>(n, seed).iter().map(O::ours).collect()
}

/// SMVP bucket sums equal the projective bucket accumulation, on random and adversarial digits
/// and points (repeated points, P with −P, identity points).
fn smvp_vs_accumulation<O: Oracle>(seed: u64) {
    let base = random_points::<O>(400, seed);
    for &n in &[0usize, 1, 3, 400] {
        for (what, pts, scalars) in adversarial_inputs::<O>(n, &base, seed) {
            let ours: Vec<_> = pts.iter().map(O::ours).collect();
            let c = 6;
            let buckets = 1usize << (c - 1);
            let windows = num_windows(c, &O::G::SCALAR_MODULUS);
            let digits = decompose_all(&scalars, c, windows);
            for (w, csr) in transpose_all(&digits, n, buckets).iter().enumerate() {
                let want = accumulate_window::<O::G>(&ours, &digits[w * n..(w + 1) * n], buckets);
                let got = smvp::<O::G>(&ours, csr);
                assert_eq!(got, want, "{}: n = {n}, {what}, window {w}", O::G::NAME);
            }
        }
    }
    // every digit in the top bucket, half of them negative
    let ours = points::<O>(64, seed + 1);
    let digits: Vec<i32> = (0..64).map(|i| if i % 3 == 0 { -16 } else { 16 }).collect();
    let got = smvp::<O::G>(&ours, &transpose(&digits, 16));
    assert_eq!(got, accumulate_window::<O::G>(&ours, &digits, 16));
    assert!(got[..15].iter().all(|b| b.is_identity()) && !got[15].is_identity());
}

#[test]
fn smvp_equals_bucket_accumulation() {
    smvp_vs_accumulation::<Bn254O>(20);
    smvp_vs_accumulation::<Bls377O>(21);
    smvp_vs_accumulation::<Bls381O>(22);
    smvp_vs_accumulation::<EdO>(23);
}

/// The whole MSM with CSR + SMVP accumulation against arkworks.
fn csr_msm<O: Oracle>(seed: u64)
where
    O::G: CpuGroup,
{
    let base = random_points::<O>(1000, seed);
    for n in [0usize, 1, 2, 3, 100, 1000] {
        for (what, pts, scalars) in adversarial_inputs::<O>(n, &base, seed + n as u64) {
            let want = ark_msm::<O>(&pts, &scalars);
            let ours: Vec<_> = pts.iter().map(O::ours).collect();
            for (reduction, window) in [
                (Reduction::RunningSum, Window::Auto),
                (Reduction::Split(4), Window::Fixed(7)),
            ] {
                let cfg = MsmConfig {
                    algorithm: Algorithm::Pippenger {
                        accumulation: Accumulation::Csr,
                        reduction,
                    },
                    window,
                    ..MsmConfig::default()
                };
                let got: O::G = msm(&ours, &scalars, &cfg).unwrap().sum;
                assert_eq!(
                    got.to_affine(),
                    want,
                    "{}: n = {n}, {what}, {cfg:?}",
                    O::G::NAME
                );
            }
        }
    }
}

#[test]
fn csr_msm_against_arkworks() {
    csr_msm::<Bn254O>(30);
    csr_msm::<Bls377O>(31);
    csr_msm::<Bls381O>(32);
    csr_msm::<EdO>(33);
}
