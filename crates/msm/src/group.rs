//! [`MsmGroup`]: what the MSM needs from a curve beyond [`Group`].
//!
//! Two things: the group order r (the bound on scalars), and arithmetic on *affine* points —
//! negation for signed digits, and affine addition split in two halves around the field
//! inversion, so that [`crate::batch_affine`] can share one inversion among many additions
//! ([`crate::batch_inv`]).
//!
//! Affine addition formulas (short Weierstrass: the chord-and-tangent law, e.g. Hankerson, Menezes,
//! Vanstone, *Guide to Elliptic Curve Cryptography*, §3.1.2; twisted Edwards: Bernstein, Birkner,
//! Joye, Lange, Peters, "Twisted Edwards Curves", AFRICACRYPT 2008, §6) are written out here
//! because the curve crate only has projective ones.

use fastmsm_curves::field::PrimeField;
use fastmsm_curves::sw::{self, SwCurve};
use fastmsm_curves::te::{self, TeCurve};
use fastmsm_curves::{Canonical, Group};

use crate::glv::GlvInput;
use crate::scalar::{self, Scalar};

/// The result of the first half of an affine addition `p + q`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AffineAdd<A, F> {
    /// The sum is known without an inversion (an identity input, or `p + (−p)`).
    Done(A),
    /// The sum needs `1/denominator`; pass that inverse to [`MsmGroup::affine_add_finish`].
    Invert(F),
}

/// A group the MSM runs in: projective arithmetic from [`Group`], plus the scalar bound and the
/// affine operations of the batch-affine path.
pub trait MsmGroup: Group {
    /// The base field (coordinates).
    type Base: PrimeField;
    /// The curve's name, as the `msm` CLI spells it.
    const NAME: &'static str;
    /// The order r of the prime-order subgroup: scalars must be below it.
    const SCALAR_MODULUS: Scalar;
    /// The curve's cofactor h, #E = h·r (1: every curve point has order dividing r).
    const COFACTOR: Canonical;

    /// The affine identity.
    fn affine_identity() -> Self::Affine;
    /// Is `p` the identity?
    fn affine_is_identity(p: &Self::Affine) -> bool;
    /// Does `p` satisfy the curve equation (the identity does)?
    fn affine_is_on_curve(p: &Self::Affine) -> bool;
    /// `−p`.
    fn affine_neg(p: &Self::Affine) -> Self::Affine;
    /// First half of `p + q` in affine coordinates: either the answer, or the denominator to invert.
    fn affine_add_start(p: &Self::Affine, q: &Self::Affine) -> AffineAdd<Self::Affine, Self::Base>;
    /// Second half: `p + q` given the inverse of the denominator that
    /// [`MsmGroup::affine_add_start`] returned for the same `p` and `q`.
    fn affine_add_finish(p: &Self::Affine, q: &Self::Affine, inv: Self::Base) -> Self::Affine;
    /// Two independent second halves, `[p[0] + q[0], p[1] + q[1]]`. A group may override it to
    /// interleave the two additions' field products.
    fn affine_add_finish2(
        p: [&Self::Affine; 2],
        q: [&Self::Affine; 2],
        inv: [Self::Base; 2],
    ) -> [Self::Affine; 2] {
        [
            Self::affine_add_finish(p[0], q[0], inv[0]),
            Self::affine_add_finish(p[1], q[1], inv[1]),
        ]
    }

    /// The MSM rewritten with the curve's GLV endomorphism ([`crate::glv`]): 2n points and
    /// half-length scalars with the same sum (for points of order r). `None` where the curve has
    /// no such endomorphism: the default, and the answer for twisted Edwards curves.
    fn glv_expand(_points: &[Self::Affine], _scalars: &[Scalar]) -> Option<GlvInput<Self::Affine>> {
        None
    }

    /// Does the curve have the GLV endomorphism ([`MsmGroup::glv_expand`])?
    fn has_glv() -> bool {
        Self::glv_expand(&[], &[]).is_some()
    }
}

// ANCHOR: sw_affine_add
/// Short Weierstrass affine addition, first half. Chord: λ = (y₂ − y₁)/(x₂ − x₁); tangent when
/// p = q: λ = 3x₁²/(2y₁); p = −q (equal x, other y, or a doubling of a point with y = 0) is the
/// identity.
#[inline(always)]
fn sw_add_start<C: SwCurve>(
    p: &sw::Affine<C>,
    q: &sw::Affine<C>,
) -> AffineAdd<sw::Affine<C>, C::Base> {
    if p.infinity {
        return AffineAdd::Done(*q);
    }
    if q.infinity {
        return AffineAdd::Done(*p);
    }
    if p.x == q.x {
        if p.y == q.y && !p.y.is_zero() {
            return AffineAdd::Invert(p.y.double());
        }
        return AffineAdd::Done(sw::Affine::IDENTITY);
    }
    // x₁ ≠ x₂: the lazy difference is never ≡ 0, and it is only multiplied (batch inversion)
    AffineAdd::Invert(q.x.sub_lazy(p.x))
}

/// The numerator of λ, whose denominator [`sw_add_start`] returned: 3x₁² (tangent) or y₂ − y₁.
#[inline(always)]
fn sw_lambda_numerator<C: SwCurve>(p: &sw::Affine<C>, q: &sw::Affine<C>) -> C::Base {
    if p.x == q.x {
        let xx = p.x.square();
        xx.double() + xx
    } else {
        // only multiplied (by the inverse): lazy
        q.y.sub_lazy(p.y)
    }
}

/// Short Weierstrass affine addition, second half: x₃ = λ² − x₁ − x₂, y₃ = λ(x₁ − x₃) − y₁.
fn sw_add_finish<C: SwCurve>(p: &sw::Affine<C>, q: &sw::Affine<C>, inv: C::Base) -> sw::Affine<C> {
    let lambda = sw_lambda_numerator(p, q) * inv;
    let x3 = lambda.square() - p.x - q.x;
    let y3 = lambda * p.x.sub_lazy(x3) - p.y;
    sw::Affine::new_unchecked(x3, y3)
}
// ANCHOR_END: sw_affine_add

// ANCHOR: sw_affine_add_pair
/// [`sw_add_finish`] for two independent additions, each product next to its twin in the other
/// addition ([`PrimeField::mul_many`]): a product then never waits for the one just before it (λ²
/// for λ, λ(x₁ − x₃) for x₃), and the CPU overlaps the two — a field whose product is one long
/// dependency chain computes each pair in lockstep.
#[inline(always)]
fn sw_add_finish2<C: SwCurve>(
    p: [&sw::Affine<C>; 2],
    q: [&sw::Affine<C>; 2],
    inv: [C::Base; 2],
) -> [sw::Affine<C>; 2] {
    // λ is only multiplied (λ², λ·(x₁ − x₃)): lazy
    let lambda = C::Base::mul_many_lazy(
        [
            sw_lambda_numerator(p[0], q[0]),
            sw_lambda_numerator(p[1], q[1]),
        ],
        inv,
    );
    let l2 = C::Base::square_many(lambda);
    let x3 = [l2[0] - p[0].x - q[0].x, l2[1] - p[1].x - q[1].x];
    let t = C::Base::mul_many(lambda, [p[0].x.sub_lazy(x3[0]), p[1].x.sub_lazy(x3[1])]);
    [
        sw::Affine::new_unchecked(x3[0], t[0] - p[0].y),
        sw::Affine::new_unchecked(x3[1], t[1] - p[1].y),
    ]
}
// ANCHOR_END: sw_affine_add_pair

macro_rules! sw_msm_group {
    ($ty:ident) => {
        impl<C: SwCurve> MsmGroup for sw::$ty<C> {
            type Base = C::Base;
            const NAME: &'static str = C::NAME;
            const SCALAR_MODULUS: Scalar = scalar::from_canonical(&C::SCALAR_MODULUS);
            const COFACTOR: Canonical = C::COFACTOR;

            fn affine_identity() -> sw::Affine<C> {
                sw::Affine::IDENTITY
            }
            fn affine_is_identity(p: &sw::Affine<C>) -> bool {
                p.infinity
            }
            fn affine_is_on_curve(p: &sw::Affine<C>) -> bool {
                p.is_on_curve()
            }
            fn affine_neg(p: &sw::Affine<C>) -> sw::Affine<C> {
                p.neg()
            }
            #[inline(always)]
            fn affine_add_start(
                p: &sw::Affine<C>,
                q: &sw::Affine<C>,
            ) -> AffineAdd<sw::Affine<C>, C::Base> {
                sw_add_start(p, q)
            }
            fn affine_add_finish(
                p: &sw::Affine<C>,
                q: &sw::Affine<C>,
                inv: C::Base,
            ) -> sw::Affine<C> {
                sw_add_finish(p, q, inv)
            }
            fn affine_add_finish2(
                p: [&sw::Affine<C>; 2],
                q: [&sw::Affine<C>; 2],
                inv: [C::Base; 2],
            ) -> [sw::Affine<C>; 2] {
                sw_add_finish2(p, q, inv)
            }
            fn glv_expand(
                points: &[sw::Affine<C>],
                scalars: &[Scalar],
            ) -> Option<GlvInput<sw::Affine<C>>> {
                crate::glv::glv_of::<C>().map(|g| g.expand(points, scalars))
            }
        }
    };
}
sw_msm_group!(Xyzz);
sw_msm_group!(Jacobian);

// ANCHOR: te_affine_add
/// Twisted Edwards (a = −1) affine addition, first half. With t = d·x₁x₂y₁y₂ the sum is
/// x₃ = (x₁y₂ + y₁x₂)/(1 + t), y₃ = (y₁y₂ + x₁x₂)/(1 − t); both denominators are inverted at once
/// as (1 + t)(1 − t). The law is complete on Ed-on-BLS12-377 (d is not a square), so the
/// denominator is never zero; only the identity shortcut needs no inversion.
fn te_add_start<C: TeCurve>(
    p: &te::Affine<C>,
    q: &te::Affine<C>,
) -> AffineAdd<te::Affine<C>, C::Base> {
    if p.is_identity() {
        return AffineAdd::Done(*q);
    }
    if q.is_identity() {
        return AffineAdd::Done(*p);
    }
    let t = C::D * p.x * q.x * p.y * q.y;
    AffineAdd::Invert((C::Base::ONE + t) * (C::Base::ONE - t))
}

/// Twisted Edwards affine addition, second half: 1/(1 + t) = inv·(1 − t), 1/(1 − t) = inv·(1 + t).
fn te_add_finish<C: TeCurve>(p: &te::Affine<C>, q: &te::Affine<C>, inv: C::Base) -> te::Affine<C> {
    let t = C::D * p.x * q.x * p.y * q.y;
    let x3 = (p.x * q.y + p.y * q.x) * inv * (C::Base::ONE - t);
    let y3 = (p.y * q.y + p.x * q.x) * inv * (C::Base::ONE + t);
    te::Affine::new_unchecked(x3, y3)
}
// ANCHOR_END: te_affine_add

impl<C: TeCurve> MsmGroup for te::Extended<C> {
    type Base = C::Base;
    const NAME: &'static str = C::NAME;
    const SCALAR_MODULUS: Scalar = scalar::from_canonical(&C::SCALAR_MODULUS);
    const COFACTOR: Canonical = C::COFACTOR;

    fn affine_identity() -> te::Affine<C> {
        te::Affine::IDENTITY
    }
    fn affine_is_identity(p: &te::Affine<C>) -> bool {
        p.is_identity()
    }
    fn affine_is_on_curve(p: &te::Affine<C>) -> bool {
        p.is_on_curve()
    }
    fn affine_neg(p: &te::Affine<C>) -> te::Affine<C> {
        p.neg()
    }
    fn affine_add_start(p: &te::Affine<C>, q: &te::Affine<C>) -> AffineAdd<te::Affine<C>, C::Base> {
        te_add_start(p, q)
    }
    fn affine_add_finish(p: &te::Affine<C>, q: &te::Affine<C>, inv: C::Base) -> te::Affine<C> {
        te_add_finish(p, q, inv)
    }
}

/// `p + q` in affine coordinates with its own inversion (for tests and one-off use).
pub fn affine_add<G: MsmGroup>(p: &G::Affine, q: &G::Affine) -> G::Affine {
    match G::affine_add_start(p, q) {
        AffineAdd::Done(s) => s,
        AffineAdd::Invert(d) => {
            let inv = d
                .inverse()
                .expect("affine addition: zero denominator (point off the curve?)");
            G::affine_add_finish(p, q, inv)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bls12_377G1, Bls12_381G1, Bn254G1, EdBls12_377G};

    /// Affine addition against the projective formulas of fastmsm-curves, on multiples of the
    /// generator, including p + p, p + (−p) and the identity on either side.
    fn affine_add_matches_projective<G: MsmGroup>() {
        let g = G::generator();
        let pts: Vec<G> = (1u64..8)
            .map(|k| g.mul_scalar(&[k * 0x9e37_79b9 + 1]))
            .collect();
        let aff: Vec<G::Affine> = pts.iter().map(|p| p.to_affine()).collect();
        for (i, p) in pts.iter().enumerate() {
            for (j, q) in pts.iter().enumerate() {
                let s = affine_add::<G>(&aff[i], &aff[j]);
                assert_eq!(G::from_affine(&s), p.add(q), "{}: P{i} + P{j}", G::NAME);
            }
            let minus = affine_add::<G>(&aff[i], &G::affine_neg(&aff[i]));
            assert!(G::from_affine(&minus).is_identity(), "{}: P − P", G::NAME);
            let id = G::affine_identity();
            assert_eq!(affine_add::<G>(&aff[i], &id), aff[i]);
            assert_eq!(affine_add::<G>(&id, &aff[i]), aff[i]);
        }
        assert!(G::affine_is_identity(&affine_add::<G>(
            &G::affine_identity(),
            &G::affine_identity()
        )));
    }

    #[test]
    fn affine_addition_all_curves() {
        affine_add_matches_projective::<Bn254G1>();
        affine_add_matches_projective::<Bls12_377G1>();
        affine_add_matches_projective::<Bls12_381G1>();
        affine_add_matches_projective::<EdBls12_377G>();
        affine_add_matches_projective::<sw::Jacobian<fastmsm_curves::Bn254>>();
    }

    /// BLS12-377's curve y² = x³ + 1 has the point (−1, 0) of order 2 (outside G1, but on the
    /// curve, so the CLI accepts it): doubling it must give the identity, not divide by 2y = 0.
    #[test]
    fn two_torsion_doubles_to_identity() {
        use fastmsm_curves::Bls12_377;
        type F = <Bls12_377G1 as MsmGroup>::Base;
        let t = sw::Affine::<Bls12_377>::new(-F::ONE, F::ZERO).expect("(−1, 0) is on y² = x³ + 1");
        assert_eq!(sw_add_start(&t, &t), AffineAdd::Done(sw::Affine::IDENTITY));
        assert!(Bls12_377G1::from_affine(&t).double().is_identity());
    }
}
