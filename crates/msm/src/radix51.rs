//! The 51-bit-limb twins of the curves (`fastmsm_curves::radix51`, Emmart's floating-point
//! product): [`crate::twin`] with the backend [`Radix51`], under the names the WebAssembly
//! packages use ([`crate::Limbs::Radix51`] runs the MSM there). Fast only in a wasm32 build with
//! relaxed SIMD (`wasm-demo/relaxed`); natively it is the portable twin that the tests check.

pub use fastmsm_curves::field::Radix51;

use crate::MsmGroup;
use crate::twin::TwinGroup;

/// A group with a twin over 51-bit limbs: [`TwinGroup<Radix51>`], with the twin group
/// named `Twin` (`G::Twin`, `<G as Radix51Group>::Twin`).
pub trait Radix51Group: TwinGroup<Radix51, Mapped = <Self as Radix51Group>::Twin> {
    /// The same group over the 51-bit field.
    type Twin: MsmGroup;
}
impl<G: TwinGroup<Radix51>> Radix51Group for G {
    type Twin = <G as TwinGroup<Radix51>>::Mapped;
}
