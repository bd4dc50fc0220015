//! The 30-bit-limb twins of the curves (`fastmsm_curves::radix30`): [`crate::twin`] with the
//! backend [`Radix30`], under the names the WebAssembly packages use ([`crate::Limbs::Radix30`]
//! runs the MSM there).

pub use fastmsm_curves::field::Radix30;

use crate::MsmGroup;
use crate::twin::TwinGroup;

/// A group with a twin over 30-bit limbs: [`TwinGroup<Radix30>`], with the twin group
/// named `Twin` (`G::Twin`, `<G as Radix30Group>::Twin`).
pub trait Radix30Group: TwinGroup<Radix30, Mapped = <Self as Radix30Group>::Twin> {
    /// The same group over the 30-bit field.
    type Twin: MsmGroup;
}
impl<G: TwinGroup<Radix30>> Radix30Group for G {
    type Twin = <G as TwinGroup<Radix30>>::Mapped;
}
