//! The inputs [`crate::msm`] takes: this crate's own affine points with `[u64; 4]` scalars, and
//! (feature `ark`, on by default) arkworks' affine points with their scalar-field elements. One
//! trait, [`MsmPoint`], on the point type: it names the scalars that go with it, the group the MSM
//! computes in and what the sum comes back as. Our own inputs are used in place; arkworks' cross
//! over, one point and one scalar at a time, through `fastmsm_curves::ark`.

use std::borrow::Cow;

use fastmsm_curves::field::{Radix30, Radix51};
use fastmsm_curves::twin::{SwTwin, TeTwin};
use fastmsm_curves::{Group, sw, te};

use crate::MsmGroup;
use crate::count::CountableGroup;
use crate::scalar::Scalar;
use crate::twin::TwinGroup;

/// A group the front door runs in: an MSM group with twins in every field representation
/// ([`crate::Limbs`]) and a counted twin ([`crate::count`]), whose affine points are
/// themselves an [`MsmPoint`] summing to this group. [`crate::Bn254G1`], [`crate::Bls12_377G1`],
/// [`crate::Bls12_381G1`] and [`crate::EdBls12_377G`].
pub trait CpuGroup:
    MsmGroup<Affine: MsmPoint<Scalar = Scalar, Group = Self, Output = Self>>
    + TwinGroup<Radix30>
    + TwinGroup<Radix51>
    + CountableGroup
{
}

impl<G> CpuGroup for G where
    G: MsmGroup<Affine: MsmPoint<Scalar = Scalar, Group = G, Output = G>>
        + TwinGroup<Radix30>
        + TwinGroup<Radix51>
        + CountableGroup
{
}

/// A point type [`crate::msm`] takes, with the scalars that go with it.
pub trait MsmPoint: Copy + Send + Sync + 'static {
    /// The scalars: `[u64; 4]` little-endian integers for our points, the scalar field's elements
    /// for arkworks'.
    type Scalar;
    /// The group the MSM computes in.
    type Group: CpuGroup;
    /// What the sum is returned as: the group itself, or arkworks' projective point.
    type Output;
    /// The points as the group's affine points (borrowed where they already are).
    fn to_group(points: &[Self]) -> Cow<'_, [<Self::Group as Group>::Affine]>;
    /// The scalars as little-endian integers, not reduced (borrowed where they already are).
    fn to_integers(scalars: &[Self::Scalar]) -> Cow<'_, [Scalar]>;
    /// The sum as the caller's type.
    fn from_group(q: &Self::Group) -> Self::Output;
}

impl<C: SwTwin<Radix30> + SwTwin<Radix51>> MsmPoint for sw::Affine<C> {
    type Scalar = Scalar;
    type Group = sw::Xyzz<C>;
    type Output = sw::Xyzz<C>;
    fn to_group(points: &[Self]) -> Cow<'_, [Self]> {
        Cow::Borrowed(points)
    }
    fn to_integers(scalars: &[Scalar]) -> Cow<'_, [Scalar]> {
        Cow::Borrowed(scalars)
    }
    fn from_group(q: &sw::Xyzz<C>) -> sw::Xyzz<C> {
        *q
    }
}

impl<C: TeTwin<Radix30> + TeTwin<Radix51>> MsmPoint for te::Affine<C> {
    type Scalar = Scalar;
    type Group = te::Extended<C>;
    type Output = te::Extended<C>;
    fn to_group(points: &[Self]) -> Cow<'_, [Self]> {
        Cow::Borrowed(points)
    }
    fn to_integers(scalars: &[Scalar]) -> Cow<'_, [Scalar]> {
        Cow::Borrowed(scalars)
    }
    fn from_group(q: &te::Extended<C>) -> te::Extended<C> {
        *q
    }
}

#[cfg(feature = "ark")]
mod ark {
    //! arkworks' points and scalars. arkworks' affine constructors and its validating
    //! deserialisation check the curve and the subgroup; `new_unchecked` checks nothing, so the
    //! door checks these points as it checks ours.

    use std::borrow::Cow;

    use ark_ec::short_weierstrass as ark_sw;
    use ark_ec::twisted_edwards as ark_te;
    use ark_ff::BigInt;
    use fastmsm_curves::ark::{ArkSw, ArkTe, scalar_from_ark};
    use fastmsm_curves::field::{Radix30, Radix51};
    use fastmsm_curves::twin::{SwTwin, TeTwin};
    use fastmsm_curves::{Group, sw, te};

    use super::MsmPoint;
    use crate::scalar::Scalar;

    impl<P> MsmPoint for ark_sw::Affine<P>
    where
        P: ArkSw<ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>>,
        P::Curve: SwTwin<Radix30> + SwTwin<Radix51>,
    {
        type Scalar = P::ScalarField;
        type Group = sw::Xyzz<P::Curve>;
        type Output = ark_sw::Projective<P>;
        fn to_group(points: &[Self]) -> Cow<'_, [sw::Affine<P::Curve>]> {
            Cow::Owned(points.iter().map(|&p| p.into()).collect())
        }
        fn to_integers(scalars: &[P::ScalarField]) -> Cow<'_, [Scalar]> {
            Cow::Owned(scalars.iter().map(scalar_from_ark).collect())
        }
        fn from_group(q: &sw::Xyzz<P::Curve>) -> ark_sw::Projective<P> {
            ark_sw::Affine::<P>::from(q.to_affine()).into()
        }
    }

    impl<P> MsmPoint for ark_te::Affine<P>
    where
        P: ArkTe<ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>>,
        P::Curve: TeTwin<Radix30> + TeTwin<Radix51>,
    {
        type Scalar = P::ScalarField;
        type Group = te::Extended<P::Curve>;
        type Output = ark_te::Projective<P>;
        fn to_group(points: &[Self]) -> Cow<'_, [te::Affine<P::Curve>]> {
            Cow::Owned(points.iter().map(|&p| p.into()).collect())
        }
        fn to_integers(scalars: &[P::ScalarField]) -> Cow<'_, [Scalar]> {
            Cow::Owned(scalars.iter().map(scalar_from_ark).collect())
        }
        fn from_group(q: &te::Extended<P::Curve>) -> ark_te::Projective<P> {
            ark_te::Affine::<P>::from(q.to_affine()).into()
        }
    }
}
