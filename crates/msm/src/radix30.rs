//! The MSM over the 30-bit-limb twins of the curves (`fastmsm_curves::radix30`): [`crate::twin`]
//! with the backend [`Radix30`], under the names the WebAssembly packages use.

pub use fastmsm_curves::field::Radix30;

use crate::MsmGroup;
use crate::batch_affine::BatchAffineStats;
use crate::pippenger::{MsmConfig, MsmError};
use crate::scalar::Scalar;
use crate::twin::{TwinGroup, msm_twin, via_twin};
use fastmsm_curves::Group;

type TwinAffine<G> = <<G as Radix30Group>::Twin as Group>::Affine;

/// A group with a twin over 30-bit limbs: [`TwinGroup<Radix30>`], with the twin group
/// named `Twin` (`G::Twin`, `<G as Radix30Group>::Twin`).
pub trait Radix30Group: TwinGroup<Radix30, Mapped = <Self as Radix30Group>::Twin> {
    /// The same group over the 30-bit field.
    type Twin: MsmGroup;
}
impl<G: TwinGroup<Radix30>> Radix30Group for G {
    type Twin = <G as TwinGroup<Radix30>>::Mapped;
}

/// [`via_twin`] over 30-bit limbs.
pub fn via_radix30<G: Radix30Group>(
    points: &[G::Affine],
    run: impl FnOnce(&[TwinAffine<G>]) -> Result<<G as Radix30Group>::Twin, MsmError>,
) -> Result<G, MsmError> {
    via_twin::<Radix30, G>(points, run)
}

/// [`crate::msm_with_stats`] computed over the 30-bit twin ([`msm_twin`]).
pub fn msm_radix30<G: Radix30Group>(
    points: &[G::Affine],
    scalars: &[Scalar],
    cfg: &MsmConfig,
    stats: &mut BatchAffineStats,
) -> Result<G, MsmError> {
    msm_twin::<Radix30, G>(points, scalars, cfg, stats)
}
