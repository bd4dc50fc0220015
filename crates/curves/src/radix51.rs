//! The same fields and curves with 51-bit limbs multiplied by floating-point FMA ([`Radix51`]),
//! for WebAssembly with relaxed SIMD.
//!
//! The 30-bit form of [`crate::radix30`] multiplies with 64-bit integer products, 13 × 13 of them
//! per BLS12-377 product plus as many for the reduction. Emmart's method
//! (`fastmsm_mont::emmart`) multiplies 51-bit limbs as doubles, two limb pairs per
//! `f64x2.relaxed_madd`; a BLS12-377 element is 8 such limbs. The `mont-bench` widget measures
//! the product at about 100 ns against 123.5 ns for the 30-bit one in Chromium
//! (benches/results/mont-wasm-*.json).
//!
//! Below: the six fields as [`Fp`](crate::field::Fp) over [`Radix51`] and the four curves over
//! them, declared as in [`crate::radix30`]. BN254's 5 × 51 = 255 bits are fewer than its 4 × 64,
//! so its constants are converted by modular halvings rather than doublings.

pub use crate::field::Radix51;
use crate::twin::{SwTwin, TeTwin};

/// Limb width of this representation.
pub const LIMB_BITS: u32 = <Radix51 as crate::field::Backend>::LIMB_BITS;

mod declared {
    use crate::field::Radix51;
    crate::twin::representation! {
        backend: Radix51, limbs: N51, mont: field::EMMART.mont, product: field::EMMART,
        in "51-bit limbs (5 for BN254 and the scalar fields, 8 for the BLS12 base fields)";
        fields: [Bn254Fq51 Bn254Fq51Config, Bn254Fr51 Bn254Fr51Config,
                 Bls12_377Fq51 Bls12_377Fq51Config, Bls12_377Fr51 Bls12_377Fr51Config,
                 Bls12_381Fq51 Bls12_381Fq51Config, Bls12_381Fr51 Bls12_381Fr51Config];
        curves: [Bn254R51, Bls12_377R51, Bls12_381R51, EdBls12_377R51];
    }
}
pub use declared::*;

/// A short Weierstrass curve with a 51-bit twin: the name `wasm-demo` bounds its curves by.
pub trait SwTwin51: SwTwin<Radix51> {}
impl<C: SwTwin<Radix51>> SwTwin51 for C {}

/// A twisted Edwards curve with a 51-bit twin.
pub trait TeTwin51: TeTwin<Radix51> {}
impl<C: TeTwin<Radix51>> TeTwin51 for C {}
