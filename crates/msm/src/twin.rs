//! The MSM over a curve's twin in another field representation (`fastmsm_curves::twin`).
//!
//! The algorithm is unchanged; only the field's backend differs. `via_twin` converts the
//! points into the twin curve (one field product per coordinate), runs the MSM there, and
//! converts the one result back ([`crate::Limbs`] picks the twin). In WebAssembly,
//! where 64-bit limb products are expensive, the 30-bit ([`Radix30`]) and 51-bit ([`Radix51`])
//! twins are the fast paths; natively the 64-bit representation ([`Mont64`], where the twin is
//! the group itself) is faster.
//!
//! [`Radix30`]: fastmsm_curves::field::Radix30
//! [`Radix51`]: fastmsm_curves::field::Radix51
//! [`Mont64`]: fastmsm_curves::field::Mont64

use fastmsm_curves::field::{Backend, TwinField};
use fastmsm_curves::twin::{SwTwin, TeTwin};
use fastmsm_curves::{Group, sw, te};

use crate::MsmGroup;

/// A group with a twin in the backend `B`, and the conversions the MSM needs.
pub trait TwinGroup<B: Backend>: MsmGroup {
    /// The same group over the twin field. (Not named `Twin`: [`crate::radix30::Radix30Group`]
    /// and [`crate::radix51::Radix51Group`] give it that name, and a group bounded by one of
    /// them would otherwise see two `Twin`s.)
    type Mapped: MsmGroup;
    /// An input point, converted.
    fn affine_to_twin(p: &Self::Affine) -> <Self::Mapped as Group>::Affine;
    /// The result, converted back.
    fn from_twin(p: &Self::Mapped) -> Self;
}

/// A short Weierstrass affine point on the twin curve.
fn sw_affine<B: Backend, C: SwTwin<B>>(p: &sw::Affine<C>) -> sw::Affine<C::Twin> {
    sw::Affine {
        x: p.x.to_twin(),
        y: p.y.to_twin(),
        infinity: p.infinity,
    }
}

impl<B: Backend, C: SwTwin<B>> TwinGroup<B> for sw::Xyzz<C> {
    type Mapped = sw::Xyzz<C::Twin>;
    fn affine_to_twin(p: &sw::Affine<C>) -> sw::Affine<C::Twin> {
        sw_affine::<B, C>(p)
    }
    fn from_twin(p: &sw::Xyzz<C::Twin>) -> Self {
        let back = <C::Base as TwinField<B>>::from_twin;
        sw::Xyzz {
            x: back(&p.x),
            y: back(&p.y),
            zz: back(&p.zz),
            zzz: back(&p.zzz),
        }
    }
}

impl<B: Backend, C: SwTwin<B>> TwinGroup<B> for sw::Jacobian<C> {
    type Mapped = sw::Jacobian<C::Twin>;
    fn affine_to_twin(p: &sw::Affine<C>) -> sw::Affine<C::Twin> {
        sw_affine::<B, C>(p)
    }
    fn from_twin(p: &sw::Jacobian<C::Twin>) -> Self {
        let back = <C::Base as TwinField<B>>::from_twin;
        sw::Jacobian {
            x: back(&p.x),
            y: back(&p.y),
            z: back(&p.z),
        }
    }
}

impl<B: Backend, C: TeTwin<B>> TwinGroup<B> for te::Extended<C> {
    type Mapped = te::Extended<C::Twin>;
    fn affine_to_twin(p: &te::Affine<C>) -> te::Affine<C::Twin> {
        te::Affine::new_unchecked(p.x.to_twin(), p.y.to_twin())
    }
    fn from_twin(p: &te::Extended<C::Twin>) -> Self {
        let back = <C::Base as TwinField<B>>::from_twin;
        te::Extended {
            x: back(&p.x),
            y: back(&p.y),
            t: back(&p.t),
            z: back(&p.z),
        }
    }
}

// ANCHOR: via_twin
/// Runs an MSM of the twin group in the backend `B` on the converted points and converts its
/// result back: the same sum as on the original group.
pub(crate) fn via_twin<B: Backend, G: TwinGroup<B>>(
    points: &[G::Affine],
    run: impl FnOnce(&[<G::Mapped as Group>::Affine]) -> G::Mapped,
) -> G {
    let twin: Vec<_> = points.iter().map(G::affine_to_twin).collect();
    G::from_twin(&run(&twin))
}
// ANCHOR_END: via_twin
