//! The WGSL big-integer adder against num-bigint, on the test adapter (lavapipe in CI).

use fastmsm_gpu::bigint::BigIntAdder;
use fastmsm_gpu::testing::{block_on, gpu};
use num_bigint::{BigUint, RandBigInt};
use rand::{SeedableRng, rngs::StdRng};

fn to_limbs(x: &BigUint, num_limbs: usize, bits: u32) -> Vec<u32> {
    let mask = (BigUint::from(1u32) << bits) - 1u32;
    (0..num_limbs)
        .map(|i| u32::try_from((x >> (i as u32 * bits)) & &mask).unwrap())
        .collect()
}

fn from_limbs(limbs: &[u32], bits: u32) -> BigUint {
    limbs
        .iter()
        .rev()
        .fold(BigUint::from(0u32), |acc, &l| (acc << bits) + l)
}

/// Random 2^(limbs*bits)-bit operands plus the edge cases that stress carries.
fn operands(num_limbs: usize, bits: u32, random: usize) -> Vec<(BigUint, BigUint)> {
    let top = BigUint::from(1u32) << (num_limbs as u32 * bits);
    let max = &top - 1u32;
    let mut rng = StdRng::seed_from_u64(0x5eed + bits as u64);
    let mut pairs = vec![
        (BigUint::from(0u32), BigUint::from(0u32)),
        (max.clone(), BigUint::from(1u32)), // carry ripples through every limb
        (max.clone(), max.clone()),
        (max.clone(), BigUint::from(0u32)),
        (&top >> 1u32, &top >> 1u32),
    ];
    pairs.extend((0..random).map(|_| (rng.gen_biguint_below(&top), rng.gen_biguint_below(&top))));
    pairs
}

fn check_width(num_limbs: usize, bits: u32) {
    let ctx = gpu();
    let adder = BigIntAdder::new(ctx, num_limbs, bits).unwrap();
    let pairs = operands(num_limbs, bits, 1000);
    let lhs: Vec<u32> = pairs
        .iter()
        .flat_map(|(a, _)| to_limbs(a, num_limbs, bits))
        .collect();
    let rhs: Vec<u32> = pairs
        .iter()
        .flat_map(|(_, b)| to_limbs(b, num_limbs, bits))
        .collect();
    let sums = block_on(adder.add(ctx, &lhs, &rhs)).unwrap();
    assert_eq!(sums.len(), pairs.len() * (num_limbs + 1));
    for (i, ((a, b), sum)) in pairs.iter().zip(sums.chunks(num_limbs + 1)).enumerate() {
        assert!(
            sum.iter().all(|&l| l < 1 << bits),
            "element {i}: limb overflow {sum:?}"
        );
        assert_eq!(from_limbs(sum, bits), a + b, "element {i}: {a} + {b}");
    }
}

#[test]
fn adds_13_bit_limbs() {
    check_width(20, 13); // 260 bits: the layout the WGSL field arithmetic uses for 254/253-bit fields
}

#[test]
fn adds_16_bit_limbs() {
    check_width(24, 16); // 384 bits
}

#[test]
fn adds_31_bit_limbs() {
    check_width(9, 31); // widest width this kernel allows
}

#[test]
fn empty_input_gives_empty_output() {
    let ctx = gpu();
    let adder = BigIntAdder::new(ctx, 20, 13).unwrap();
    assert!(block_on(adder.add(ctx, &[], &[])).unwrap().is_empty());
}

#[test]
fn rejects_bad_input() {
    let ctx = gpu();
    assert!(BigIntAdder::new(ctx, 20, 32).is_err());
    assert!(BigIntAdder::new(ctx, 0, 13).is_err());
    let adder = BigIntAdder::new(ctx, 2, 13).unwrap();
    let err = block_on(adder.add(ctx, &[1, 2], &[1]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("lengths differ"), "{err}");
    let err = block_on(adder.add(ctx, &[1, 2, 3], &[1, 2, 3]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("whole number"), "{err}");
    let err = block_on(adder.add(ctx, &[1, 1 << 13], &[0, 0]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("lhs element 0 limb 1"), "{err}");
}

#[test]
fn adapter_reports_usable_limits() {
    let report = gpu().report();
    let binding = report
        .limits
        .iter()
        .find(|(n, _, _)| *n == "maxStorageBufferBindingSize")
        .unwrap();
    assert!(
        binding.1 >= 1 << 27,
        "maxStorageBufferBindingSize {} below the WebGPU minimum",
        binding.1
    );
    assert!(!report.name.is_empty());
}
