//! The MSM over the 30-bit-limb twins of the curves (`fastmsm_curves::radix30`).
//!
//! The algorithm is unchanged; only the field representation differs. [`msm_radix30`] converts
//! the points into the twin curve (two field products per point), runs [`msm_with_stats`] there,
//! and converts the one result back. In WebAssembly, where 64-bit limb products are expensive,
//! this is the fast path; natively the 64-bit representation is faster.

use fastmsm_curves::Group;
use fastmsm_curves::radix30::{SwTwin30, TeTwin30, ToRadix30};
use fastmsm_curves::{sw, te};

use crate::MsmGroup;
use crate::batch_affine::BatchAffineStats;
use crate::pippenger::{MsmConfig, MsmError, msm_with_stats};
use crate::scalar::Scalar;

/// A group with a twin over 30-bit limbs, and the conversions the MSM needs.
pub trait Radix30Group: MsmGroup {
    /// The same group over the 30-bit field.
    type Twin: MsmGroup;
    /// An input point, converted.
    fn affine_to_twin(p: &Self::Affine) -> <Self::Twin as Group>::Affine;
    /// The result, converted back.
    fn from_twin(p: &Self::Twin) -> Self;
}

impl<C: SwTwin30> Radix30Group for sw::Xyzz<C> {
    type Twin = sw::Xyzz<C::Twin>;
    fn affine_to_twin(p: &sw::Affine<C>) -> sw::Affine<C::Twin> {
        sw::Affine {
            x: p.x.to_r30(),
            y: p.y.to_r30(),
            infinity: p.infinity,
        }
    }
    fn from_twin(p: &sw::Xyzz<C::Twin>) -> Self {
        sw::Xyzz {
            x: C::Base::from_r30(&p.x),
            y: C::Base::from_r30(&p.y),
            zz: C::Base::from_r30(&p.zz),
            zzz: C::Base::from_r30(&p.zzz),
        }
    }
}

impl<C: SwTwin30> Radix30Group for sw::Jacobian<C> {
    type Twin = sw::Jacobian<C::Twin>;
    fn affine_to_twin(p: &sw::Affine<C>) -> sw::Affine<C::Twin> {
        sw::Affine {
            x: p.x.to_r30(),
            y: p.y.to_r30(),
            infinity: p.infinity,
        }
    }
    fn from_twin(p: &sw::Jacobian<C::Twin>) -> Self {
        sw::Jacobian {
            x: C::Base::from_r30(&p.x),
            y: C::Base::from_r30(&p.y),
            z: C::Base::from_r30(&p.z),
        }
    }
}

impl<C: TeTwin30> Radix30Group for te::Extended<C> {
    type Twin = te::Extended<C::Twin>;
    fn affine_to_twin(p: &te::Affine<C>) -> te::Affine<C::Twin> {
        te::Affine::new_unchecked(p.x.to_r30(), p.y.to_r30())
    }
    fn from_twin(p: &te::Extended<C::Twin>) -> Self {
        te::Extended {
            x: C::Base::from_r30(&p.x),
            y: C::Base::from_r30(&p.y),
            t: C::Base::from_r30(&p.t),
            z: C::Base::from_r30(&p.z),
        }
    }
}

/// The points converted to the twin curve, once, for repeated MSMs over the same bases.
pub fn twin_points<G: Radix30Group>(points: &[G::Affine]) -> Vec<<G::Twin as Group>::Affine> {
    points.iter().map(G::affine_to_twin).collect()
}

/// Runs an MSM of the twin group on the converted points and converts its result back: the
/// same thing as [`msm_radix30`] for any MSM driver (e.g. [`crate::all_affine::msm_all_affine`]).
pub fn via_radix30<G: Radix30Group>(
    points: &[G::Affine],
    run: impl FnOnce(&[<G::Twin as Group>::Affine]) -> Result<G::Twin, MsmError>,
) -> Result<G, MsmError> {
    let twin = twin_points::<G>(points);
    run(&twin).map(|q| G::from_twin(&q))
}

// ANCHOR: msm_radix30
/// [`msm_with_stats`] computed over the 30-bit twin: the points are converted, the MSM runs
/// there, the result is converted back. Same result, same errors, as [`msm_with_stats`].
pub fn msm_radix30<G: Radix30Group>(
    points: &[G::Affine],
    scalars: &[Scalar],
    cfg: &MsmConfig,
    stats: &mut BatchAffineStats,
) -> Result<G, MsmError> {
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch {
            points: points.len(),
            scalars: scalars.len(),
        });
    }
    let twin = twin_points::<G>(points);
    msm_with_stats::<G::Twin>(&twin, scalars, cfg, stats).map(|q| G::from_twin(&q))
}
// ANCHOR_END: msm_radix30
