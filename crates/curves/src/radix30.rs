//! The same fields and curves with 30-bit limbs ([`Radix30`]), for WebAssembly.
//!
//! [`crate::field`]'s 64-bit words multiply with `u64 × u64 → u128` products. WebAssembly has no
//! such instruction (each product becomes four 32-bit multiplications and carry handling), and
//! there the 64-bit form is slower than ark-ff. Mitscha-Baude's reduced radix (ZPrize 2022; see
//! `fastmsm_mont::reduced_radix`) keeps limbs of 30 bits, so a limb product leaves headroom and
//! the Montgomery loop carries only every few steps. The `mont-bench` widget measures that
//! product at about 1.5× ark-ff's speed in Chromium, and 2.5× the speed of the 64-bit one
//! (benches/results/mont-wasm-*.json).
//!
//! Below: the six fields as [`Fp`](crate::field::Fp) over [`Radix30`] (each the
//! [`TwinField<Radix30>`](crate::field::TwinField) of its 64-bit field) and the four curves over
//! them ([`crate::twin`]). An MSM moves its points here and its result back with one product per
//! coordinate (`fastmsm_msm::radix30`).

pub use crate::field::Radix30;
use crate::twin::{SwTwin, TeTwin};

/// Limb width of this representation.
pub const LIMB_BITS: u32 = <Radix30 as crate::field::Backend>::LIMB_BITS;

mod declared {
    use crate::field::Radix30;
    crate::twin::representation! {
        backend: Radix30, limbs: N30, mont: field::R30, product: (),
        in "30-bit limbs (9 for BN254 and the scalar fields, 13 for the BLS12 base fields)";
        fields: [Bn254Fq30 Bn254Fq30Config, Bn254Fr30 Bn254Fr30Config,
                 Bls12_377Fq30 Bls12_377Fq30Config, Bls12_377Fr30 Bls12_377Fr30Config,
                 Bls12_381Fq30 Bls12_381Fq30Config, Bls12_381Fr30 Bls12_381Fr30Config];
        curves: [Bn254R30, Bls12_377R30, Bls12_381R30, EdBls12_377R30];
    }
}
pub use declared::*;

/// A short Weierstrass curve with a 30-bit twin: the name `wasm-demo` bounds its curves by.
pub trait SwTwin30: SwTwin<Radix30> {}
impl<C: SwTwin<Radix30>> SwTwin30 for C {}

/// A twisted Edwards curve with a 30-bit twin.
pub trait TeTwin30: TeTwin<Radix30> {}
impl<C: TeTwin<Radix30>> TeTwin30 for C {}
