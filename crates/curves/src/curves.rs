//! The four curves of the book, each stated once: coefficients, generator and group order.
//!
//! The values are arkworks' (ark-bn254, ark-bls12-377, ark-bls12-381, ark-ed-on-bls12-377, all
//! 0.5); `tests/constants.rs` checks every one against those crates. Base-field moduli live in
//! `fastmsm_mont::fields`; the group orders of the three pairing curves are their scalar fields
//! there too, and only Ed-on-BLS12-377's order is typed here.

use fastmsm_mont::fields;
use fastmsm_mont::words::{Canonical, parse_hex};

use crate::field::{Bls12_377Fq, Bls12_377Fr, Bls12_381Fq, Bn254Fq, Fp};
use crate::sw::SwCurve;
use crate::te::TeCurve;

// ANCHOR: curve_constants
/// BN254 (alt_bn128) G1: y² = x³ + 3 over the BN254 base field; generator (1, 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bn254;
impl SwCurve for Bn254 {
    type Base = Bn254Fq;
    const NAME: &'static str = "bn254";
    const B: Bn254Fq = Fp::from_hex("0x3");
    const GENERATOR_X: Bn254Fq = Fp::from_hex("0x1");
    const GENERATOR_Y: Bn254Fq = Fp::from_hex("0x2");
    const SCALAR_MODULUS: Canonical = fields::bn254_fr::FIELD.modulus;
    const COFACTOR: Canonical = parse_hex("0x1");
}

/// BLS12-377 G1: y² = x³ + 1 over the BLS12-377 base field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bls12_377;
impl SwCurve for Bls12_377 {
    type Base = Bls12_377Fq;
    const NAME: &'static str = "bls12-377";
    const B: Bls12_377Fq = Fp::from_hex("0x1");
    const GENERATOR_X: Bls12_377Fq = Fp::from_hex(
        "0x008848defe740a67c8fc6225bf87ff5485951e2caa9d41bb188282c8bd37cb5cd5481512ffcd394eeab9b16eb21be9ef",
    );
    const GENERATOR_Y: Bls12_377Fq = Fp::from_hex(
        "0x01914a69c5102eff1f674f5d30afeec4bd7fb348ca3e52d96d182ad44fb82305c2fe3d3634a9591afd82de55559c8ea6",
    );
    const SCALAR_MODULUS: Canonical = fields::bls12_377_fr::FIELD.modulus;
    // (x − 1)²/3 for the curve parameter x; even: (−1, 0) is a point of order 2
    const COFACTOR: Canonical = parse_hex("0x170b5d44300000000000000000000000");
}

/// BLS12-381 G1: y² = x³ + 4 over the BLS12-381 base field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bls12_381;
impl SwCurve for Bls12_381 {
    type Base = Bls12_381Fq;
    const NAME: &'static str = "bls12-381";
    const B: Bls12_381Fq = Fp::from_hex("0x4");
    const GENERATOR_X: Bls12_381Fq = Fp::from_hex(
        "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb",
    );
    const GENERATOR_Y: Bls12_381Fq = Fp::from_hex(
        "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1",
    );
    const SCALAR_MODULUS: Canonical = fields::bls12_381_fr::FIELD.modulus;
    // (x − 1)²/3 for the curve parameter x
    const COFACTOR: Canonical = parse_hex("0x396c8c005555e1568c00aaab0000aaab");
}

/// Ed-on-BLS12-377, the ZPrize 2023 harness curve: −x² + y² = 1 + 3021·x²·y² over the BLS12-377
/// scalar field (a = −1, d = 3021, cofactor 4). The generator is ark-ed-on-bls12-377's (its
/// `GENERATOR_X`, `GENERATOR_Y`); it has prime order r, given below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdBls12_377;
impl TeCurve for EdBls12_377 {
    type Base = Bls12_377Fr;
    const NAME: &'static str = "ed-on-bls12-377";
    const D: Bls12_377Fr = Fp::from_hex("0xbcd"); // 3021
    const GENERATOR_X: Bls12_377Fr =
        Fp::from_hex("0x09f1b5a5baf6acf06fed91c9ae9ebfa06068dd2835790980894e2328f3ebca05");
    const GENERATOR_Y: Bls12_377Fr =
        Fp::from_hex("0x09a20df36571ac3cd906b256080ba8454453c177aaf3131bb50a67bf1a806781");
    const SCALAR_MODULUS: Canonical =
        parse_hex("0x04aad957a68b2955982d1347970dec005293a3afc43c8afeb95aee9ac33fd9ff");
    const COFACTOR: Canonical = parse_hex("0x4");
}
// ANCHOR_END: curve_constants
