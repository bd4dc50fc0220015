//! # fastmsm-curves: points and formulas of the Fast MSM book
//!
//! The code behind the chapter *Elliptic-curve arithmetic*. Four curves, each stated once in
//! [`curves`] (coefficients and generator, checked against arkworks in the tests):
//!
//! | curve | shape | base field | coordinates |
//! |---|---|---|---|
//! | BN254 G1 | y² = x³ + 3 | [`field::Bn254Fq`] | [`sw::Affine`], [`sw::Jacobian`], [`sw::Xyzz`] |
//! | BLS12-377 G1 | y² = x³ + 1 | [`field::Bls12_377Fq`] | same |
//! | BLS12-381 G1 | y² = x³ + 4 | [`field::Bls12_381Fq`] | same |
//! | Ed-on-BLS12-377 | −x² + y² = 1 + d·x²y², d = 3021 | [`field::Bls12_377Fr`] | [`te::Affine`], [`te::Extended`] |
//!
//! Field elements are one type, [`Fp`], whose config names its [`backend`]: `fastmsm-mont`'s
//! 64-bit Montgomery product natively ([`field`]); for WebAssembly, the same fields in 30-bit
//! limbs ([`radix30`]) and in 51-bit limbs multiplied by FMA ([`radix51`]), with the four curves
//! over each ([`twin`]: constants converted from the 64-bit ones at compile time). Every formula is
//! one function with a doc comment naming its source on the Explicit-Formulas Database (EFD,
//! <https://hyperelliptic.org/EFD/>) or in Hisil–Wong–Carter–Dawson 2008, and an mdBook anchor
//! around it. [`Group`] is the interface the MSM code is written against, and [`horner`] the
//! last step that the CPU and GPU MSMs share. With the `ark` feature
//! (on by default), `ark` converts points and scalars to and from arkworks' types.
#![deny(missing_docs)]

#[cfg(feature = "ark")]
pub mod ark;
pub mod backend;
pub mod curves;
pub mod field;
mod horner;
pub mod radix30;
pub mod radix51;
pub mod sw;
pub mod te;
pub mod twin;

pub use curves::{Bls12_377, Bls12_381, Bn254, EdBls12_377};
pub use fastmsm_mont::words::Canonical;
pub use field::{Backend, Fp, FpConfig, PrimeField, TwinField};
pub use horner::horner;

// ANCHOR: group_trait
/// A curve group in one projective coordinate system, with its affine form.
///
/// Implemented by [`sw::Jacobian`], [`sw::Xyzz`] and [`te::Extended`]. Every operation handles the
/// identity and the exceptional cases (P + P, P + (−P)) itself.
pub trait Group: Copy + Eq + core::fmt::Debug + Send + Sync + 'static {
    /// The affine representation that mixed addition takes.
    type Affine: Copy + Eq + core::fmt::Debug + Send + Sync + 'static;

    /// The neutral element.
    fn identity() -> Self;
    /// Is this the neutral element?
    fn is_identity(&self) -> bool;
    /// The curve's fixed generator (the arkworks one).
    fn generator() -> Self;
    /// `P + Q`.
    fn add(&self, other: &Self) -> Self;
    /// `P + Q` with Q affine (mixed addition).
    fn add_affine(&self, other: &Self::Affine) -> Self;
    /// `2P`.
    fn double(&self) -> Self;
    /// `−P`.
    fn neg(&self) -> Self;
    /// From affine.
    fn from_affine(p: &Self::Affine) -> Self;
    /// To affine: one field inversion.
    fn to_affine(&self) -> Self::Affine;
    /// Does the point satisfy the curve equation (in these coordinates)?
    fn is_on_curve(&self) -> bool;

    // ANCHOR: double_and_add
    /// `k·P` by left-to-right double-and-add, `k` given as little-endian 64-bit words (any size,
    /// not reduced). The reference the MSM is tested against; not constant time.
    fn mul_scalar(&self, k: &[u64]) -> Self {
        let top = k
            .iter()
            .rposition(|&w| w != 0)
            .map_or(0, |j| 64 * j + 64 - k[j].leading_zeros() as usize);
        let mut acc = Self::identity();
        for i in (0..top).rev() {
            acc = acc.double();
            if (k[i / 64] >> (i % 64)) & 1 == 1 {
                acc = acc.add(self);
            }
        }
        acc
    }
    // ANCHOR_END: double_and_add
}
// ANCHOR_END: group_trait
