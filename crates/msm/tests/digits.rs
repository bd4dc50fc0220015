//! Signed-digit decomposition: digits in range, round trip to the scalar, and the final carry,
//! for every curve's r and every window width 2..=16.

use crate::common::{Bls377O, Bls381O, Bn254O, EdO, Oracle, random_scalars, rng};
use fastmsm_msm::digits::{
    decompose_all, decompose_into, from_shifted, num_windows, signed_digits, to_shifted,
};
use fastmsm_msm::scalar::{bit_len, minus_one};
use fastmsm_msm::{MsmGroup, Scalar};
use num_bigint::{BigInt, BigUint};
use rand::Rng;

fn big(k: &Scalar) -> BigInt {
    BigInt::from(BigUint::from_slice(
        &k.iter()
            .flat_map(|w| [*w as u32, (*w >> 32) as u32])
            .collect::<Vec<_>>(),
    ))
}

/// Σ d_w·2^(c·w) as a big integer.
fn recompose(d: &[i32], c: u32) -> BigInt {
    d.iter()
        .rev()
        .fold(BigInt::from(0), |acc, &x| (acc << c) + BigInt::from(x))
}

/// A scalar from a big integer (which must fit 256 bits).
fn scalar_from(b: &BigUint) -> Scalar {
    let mut out = [0u64; 4];
    for (i, w) in b.to_u64_digits().into_iter().enumerate() {
        out[i] = w;
    }
    out
}

fn round_trip<O: Oracle>(seed: u64) {
    let r = O::G::SCALAR_MODULUS;
    let mut scalars = random_scalars::<O>(64, seed);
    scalars.extend([[0; 4], [1, 0, 0, 0], minus_one(&r), [2, 0, 0, 0]]);
    let mut rg = rng(seed ^ 1);
    // small and top-heavy scalars too
    scalars.extend((0..16).map(|_| [rg.r#gen::<u64>() & 0xffff, 0, 0, 0]));
    for c in 2..=16u32 {
        let windows = num_windows(c, &r);
        let half = 1i32 << (c - 1);
        for k in &scalars {
            let d = signed_digits(k, c, windows)
                .unwrap_or_else(|| panic!("{}: c = {c}: carry left", O::G::NAME));
            assert!(
                d.iter().all(|&x| (-half..half).contains(&x)),
                "c = {c}: digit out of range"
            );
            assert_eq!(
                recompose(&d, c),
                big(k),
                "{}: c = {c}: digits do not add up to the scalar",
                O::G::NAME
            );
            let shifted: Vec<u32> = d.iter().map(|&x| to_shifted(x, c)).collect();
            assert!(shifted.iter().all(|&s| s < 1 << c));
            assert_eq!(
                shifted
                    .iter()
                    .map(|&s| from_shifted(s, c))
                    .collect::<Vec<_>>(),
                d
            );
        }
        // window-major layout agrees with one-at-a-time
        let all = decompose_all(&scalars, c, windows);
        let n = scalars.len();
        for (i, k) in scalars.iter().enumerate() {
            let d = signed_digits(k, c, windows).unwrap();
            for w in 0..windows {
                assert_eq!(all[w * n + i], d[w]);
            }
        }
    }
}

/// The extra window is allocated exactly when some scalar below r needs it: M_K (every window
/// 0111…1) is the largest scalar K = ⌈b/c⌉ windows can hold, and M_K + 1 carries out.
fn final_carry<O: Oracle>() -> Vec<u32> {
    let r = O::G::SCALAR_MODULUS;
    let b = bit_len(&minus_one(&r));
    let mut extra = vec![];
    for c in 2..=16u32 {
        let k = b.div_ceil(c) as usize;
        let windows = num_windows(c, &r);
        assert!(windows == k || windows == k + 1);
        let m_k: BigUint = (0..k).fold(BigUint::from(0u32), |acc, _| {
            (acc << c) + ((1u32 << (c - 1)) - 1)
        });
        if m_k.bits() <= 256 {
            assert!(
                signed_digits(&scalar_from(&m_k), c, k).is_some(),
                "M_K fits K windows"
            );
        }
        let above = m_k.clone() + 1u32;
        let mut out = vec![0; k];
        if above.bits() <= 256 {
            assert_eq!(
                decompose_into(&scalar_from(&above), c, &mut out),
                1,
                "M_K + 1 carries out"
            );
        }
        let r_minus_1 = BigUint::from_slice(
            &minus_one(&r)
                .iter()
                .flat_map(|w| [*w as u32, (*w >> 32) as u32])
                .collect::<Vec<_>>(),
        );
        let needed = r_minus_1 > m_k;
        assert_eq!(
            windows == k + 1,
            needed,
            "{} c = {c}: extra window iff r − 1 > M_K",
            O::G::NAME
        );
        if needed {
            extra.push(c);
            // the scalar M_K + 1 is below r and really uses the extra window (digit 1)
            let d = signed_digits(&scalar_from(&above), c, windows).unwrap();
            assert_eq!(*d.last().unwrap(), 1);
            assert!(signed_digits(&scalar_from(&above), c, k).is_none());
        }
    }
    eprintln!("{}: carry window needed for c in {extra:?}", O::G::NAME);
    extra
}

#[test]
fn bn254() {
    round_trip::<Bn254O>(1);
    // the widths whose K = ⌈b/c⌉ windows cannot hold r − 1
    assert_eq!(final_carry::<Bn254O>(), vec![2]);
}

#[test]
fn bls12_377() {
    round_trip::<Bls377O>(2);
    // the widths whose K = ⌈b/c⌉ windows cannot hold r − 1
    assert_eq!(final_carry::<Bls377O>(), vec![11]);
    // Derei & Koh: no carry window for c = 16 (top 16 bits of r are 0x12ab < 2^15).
    assert_eq!(num_windows(16, &<Bls377O as Oracle>::G::SCALAR_MODULUS), 16);
}

#[test]
fn bls12_381() {
    round_trip::<Bls381O>(3);
    // the widths whose K = ⌈b/c⌉ windows cannot hold r − 1
    assert_eq!(final_carry::<Bls381O>(), vec![2, 3, 5, 15]);
}

#[test]
fn ed_on_bls12_377() {
    round_trip::<EdO>(4);
    // the widths whose K = ⌈b/c⌉ windows cannot hold r − 1
    // r ≈ 2^250.2 has 251 bits but lies below M_K for every c: never a carry window.
    assert_eq!(final_carry::<EdO>(), Vec::<u32>::new());
}
