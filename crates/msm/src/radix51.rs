//! The MSM over the 51-bit-limb twins of the curves (`fastmsm_curves::radix51`, Emmart's
//! floating-point product), the same way [`crate::radix30`] runs it over the 30-bit twins: the
//! points are converted, any MSM driver runs on the twin group, the result is converted back.
//! Fast only in a wasm32 build with relaxed SIMD (`wasm-demo/relaxed`); natively it is the
//! portable twin that the tests check.

use fastmsm_curves::Group;
use fastmsm_curves::radix51::{SwTwin51, TeTwin51, ToRadix51};
use fastmsm_curves::{sw, te};

use crate::MsmGroup;
use crate::pippenger::MsmError;

/// A group with a twin over 51-bit limbs, and the conversions the MSM needs.
pub trait Radix51Group: MsmGroup {
    /// The same group over the 51-bit field.
    type Twin: MsmGroup;
    /// An input point, converted.
    fn affine_to_twin(p: &Self::Affine) -> <Self::Twin as Group>::Affine;
    /// The result, converted back.
    fn from_twin(p: &Self::Twin) -> Self;
}

fn sw_affine<C: SwTwin51>(p: &sw::Affine<C>) -> sw::Affine<C::Twin> {
    sw::Affine {
        x: p.x.to_r51(),
        y: p.y.to_r51(),
        infinity: p.infinity,
    }
}

impl<C: SwTwin51> Radix51Group for sw::Xyzz<C> {
    type Twin = sw::Xyzz<C::Twin>;
    fn affine_to_twin(p: &sw::Affine<C>) -> sw::Affine<C::Twin> {
        sw_affine(p)
    }
    fn from_twin(p: &sw::Xyzz<C::Twin>) -> Self {
        let back = C::Base::from_r51;
        sw::Xyzz {
            x: back(&p.x),
            y: back(&p.y),
            zz: back(&p.zz),
            zzz: back(&p.zzz),
        }
    }
}

impl<C: SwTwin51> Radix51Group for sw::Jacobian<C> {
    type Twin = sw::Jacobian<C::Twin>;
    fn affine_to_twin(p: &sw::Affine<C>) -> sw::Affine<C::Twin> {
        sw_affine(p)
    }
    fn from_twin(p: &sw::Jacobian<C::Twin>) -> Self {
        let back = C::Base::from_r51;
        sw::Jacobian {
            x: back(&p.x),
            y: back(&p.y),
            z: back(&p.z),
        }
    }
}

impl<C: TeTwin51> Radix51Group for te::Extended<C> {
    type Twin = te::Extended<C::Twin>;
    fn affine_to_twin(p: &te::Affine<C>) -> te::Affine<C::Twin> {
        te::Affine::new_unchecked(p.x.to_r51(), p.y.to_r51())
    }
    fn from_twin(p: &te::Extended<C::Twin>) -> Self {
        let back = C::Base::from_r51;
        te::Extended {
            x: back(&p.x),
            y: back(&p.y),
            t: back(&p.t),
            z: back(&p.z),
        }
    }
}

// ANCHOR: via_radix51
/// Runs an MSM of the 51-bit twin group on the converted points (e.g.
/// [`crate::all_affine::msm_all_affine`] or [`crate::msm_with_stats`]) and converts its result
/// back. Same result, same errors, as the driver on the original group.
pub fn via_radix51<G: Radix51Group>(
    points: &[G::Affine],
    run: impl FnOnce(&[<G::Twin as Group>::Affine]) -> Result<G::Twin, MsmError>,
) -> Result<G, MsmError> {
    let twin: Vec<_> = points.iter().map(G::affine_to_twin).collect();
    run(&twin).map(|q| G::from_twin(&q))
}
// ANCHOR_END: via_radix51
