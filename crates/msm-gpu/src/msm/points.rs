//! The two layouts an MSM takes its input in ([`Layout`]): points and scalars of a type that says
//! its curve ([`GpuPoint`]: ours, and arkworks' with the `ark` feature), with the answer in the
//! same family of types; or packed 32-bit words (`u32`), with the answer as canonical affine
//! coordinates. Both go through the same checks and the same packed form on their way to the GPU.

use std::borrow::Cow;

use fastmsm_curves::Canonical;
use fastmsm_curves::field::PrimeField;
use fastmsm_curves::sw::{self, SwCurve};
use fastmsm_curves::te::{self, TeCurve};

use super::{AffineOut, GpuCurve, count_points, pack_points, pack_scalars};
use crate::GpuError;

/// An affine point type the GPU MSM takes: which curve it is on, its canonical coordinates, and
/// the types of the scalars and of the answer that go with it.
pub trait GpuPoint: Copy {
    /// The scalars an MSM of these points takes.
    type Scalar;
    /// What an MSM of these points returns.
    type Output;
    /// The curve the points are on.
    fn curve() -> GpuCurve;
    /// The scalar as little-endian 64-bit words.
    fn scalar_words(s: &Self::Scalar) -> [u64; 4];
    /// Canonical (x, y), the identity as the packed input writes it ((0, 0) in short
    /// Weierstrass form, (0, 1) in twisted Edwards form).
    fn coordinates(&self) -> (Canonical, Canonical);
    /// Does the point satisfy the curve's equation? (The GPU adds points without checking.)
    fn is_on_curve(&self) -> bool;
    /// The answer from the MSM's canonical affine result; `None` if a coordinate is not below p
    /// (which only a faulty device produces).
    fn output(result: AffineOut) -> Option<Self::Output>;
}

/// The GPU curve of one of our curves, by the name both use.
fn curve_named(name: &str) -> GpuCurve {
    GpuCurve::from_name(name).expect("every curve of fastmsm-curves has a GPU build")
}

fn field_element<F: PrimeField>(c: &Canonical) -> Option<F> {
    F::from_canonical(c)
}

impl<C: SwCurve> GpuPoint for sw::Affine<C> {
    type Scalar = [u64; 4];
    type Output = sw::Affine<C>;
    fn curve() -> GpuCurve {
        curve_named(C::NAME)
    }
    fn scalar_words(s: &[u64; 4]) -> [u64; 4] {
        *s
    }
    fn coordinates(&self) -> (Canonical, Canonical) {
        if self.infinity {
            ([0; 6], [0; 6])
        } else {
            (self.x.to_canonical(), self.y.to_canonical())
        }
    }
    fn is_on_curve(&self) -> bool {
        sw::Affine::is_on_curve(self)
    }
    fn output(result: AffineOut) -> Option<Self> {
        match result {
            None => Some(sw::Affine::IDENTITY),
            Some((x, y)) => Some(sw::Affine::new_unchecked(
                field_element(&x)?,
                field_element(&y)?,
            )),
        }
    }
}

impl<C: TeCurve> GpuPoint for te::Affine<C> {
    type Scalar = [u64; 4];
    type Output = te::Affine<C>;
    fn curve() -> GpuCurve {
        curve_named(C::NAME)
    }
    fn scalar_words(s: &[u64; 4]) -> [u64; 4] {
        *s
    }
    fn coordinates(&self) -> (Canonical, Canonical) {
        (self.x.to_canonical(), self.y.to_canonical())
    }
    fn is_on_curve(&self) -> bool {
        te::Affine::is_on_curve(self)
    }
    fn output(result: AffineOut) -> Option<Self> {
        match result {
            None => Some(te::Affine::IDENTITY),
            Some((x, y)) => Some(te::Affine::new_unchecked(
                field_element(&x)?,
                field_element(&y)?,
            )),
        }
    }
}

#[cfg(feature = "ark")]
mod ark_points {
    use ark_ec::short_weierstrass as ark_sw;
    use ark_ec::twisted_edwards as ark_te;
    use ark_ff::BigInt;
    use fastmsm_curves::ark::{ArkSw, ArkTe, scalar_from_ark};
    use fastmsm_curves::{Canonical, sw, te};

    use super::{AffineOut, GpuCurve, GpuPoint};

    impl<P> GpuPoint for ark_sw::Affine<P>
    where
        P: ArkSw<ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>>,
    {
        type Scalar = P::ScalarField;
        type Output = ark_sw::Projective<P>;
        fn curve() -> GpuCurve {
            <sw::Affine<P::Curve> as GpuPoint>::curve()
        }
        fn scalar_words(s: &P::ScalarField) -> [u64; 4] {
            scalar_from_ark(s)
        }
        fn coordinates(&self) -> (Canonical, Canonical) {
            sw::Affine::<P::Curve>::from(*self).coordinates()
        }
        fn is_on_curve(&self) -> bool {
            sw::Affine::<P::Curve>::from(*self).is_on_curve()
        }
        fn output(result: AffineOut) -> Option<Self::Output> {
            let ours = <sw::Affine<P::Curve> as GpuPoint>::output(result)?;
            Some(ark_sw::Affine::<P>::from(ours).into())
        }
    }

    impl<P> GpuPoint for ark_te::Affine<P>
    where
        P: ArkTe<ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>>,
    {
        type Scalar = P::ScalarField;
        type Output = ark_te::Projective<P>;
        fn curve() -> GpuCurve {
            <te::Affine<P::Curve> as GpuPoint>::curve()
        }
        fn scalar_words(s: &P::ScalarField) -> [u64; 4] {
            scalar_from_ark(s)
        }
        fn coordinates(&self) -> (Canonical, Canonical) {
            te::Affine::<P::Curve>::from(*self).coordinates()
        }
        fn is_on_curve(&self) -> bool {
            te::Affine::<P::Curve>::from(*self).is_on_curve()
        }
        fn output(result: AffineOut) -> Option<Self::Output> {
            let ours = <te::Affine<P::Curve> as GpuPoint>::output(result)?;
            Some(ark_te::Affine::<P>::from(ours).into())
        }
    }
}

mod sealed {
    /// Only the two layouts below: typed points and packed words.
    pub trait Sealed {}
}

impl<A: GpuPoint> sealed::Sealed for A {}
impl sealed::Sealed for u32 {}

/// Points and scalars packed into the kernels' little-endian words (borrowed where already so).
pub type PackedInput<'a> = (Cow<'a, [u32]>, Cow<'a, [u32]>);

/// How an MSM's input is laid out: every [`GpuPoint`] type (typed points with their scalars), or
/// `u32` (packed words: per point x then y, [`GpuCurve::coord_words`] words each; per scalar 8
/// words; see [`super::pack_points`]). [`super::Bases`] and [`super::BatchMsm`] take either.
pub trait Layout: sealed::Sealed + Sized {
    /// What one scalar is: the point type's scalar, or a packed word (8 per scalar).
    type Scalar;
    /// What the MSM returns: the point type's output, or [`AffineOut`].
    type Output;
    /// The points and scalars checked (curve, lengths, points on the curve) and packed.
    #[doc(hidden)]
    fn pack<'a>(
        curve: GpuCurve,
        points: &'a [Self],
        scalars: &'a [Self::Scalar],
    ) -> Result<PackedInput<'a>, GpuError>;
    /// The points alone, checked and packed (for bases uploaded once).
    #[doc(hidden)]
    fn pack_points(curve: GpuCurve, points: &[Self]) -> Result<Cow<'_, [u32]>, GpuError>;
    /// The scalars alone, packed.
    #[doc(hidden)]
    fn pack_scalars(scalars: &[Self::Scalar]) -> Cow<'_, [u32]>;
    /// The answer from the canonical affine result.
    #[doc(hidden)]
    fn output(result: AffineOut) -> Result<Self::Output, GpuError>;
}

impl<A: GpuPoint> Layout for A {
    type Scalar = A::Scalar;
    type Output = A::Output;

    fn pack<'a>(
        curve: GpuCurve,
        points: &'a [A],
        scalars: &'a [A::Scalar],
    ) -> Result<(Cow<'a, [u32]>, Cow<'a, [u32]>), GpuError> {
        if points.len() != scalars.len() {
            return Err(GpuError::InputLength {
                points: points.len(),
                scalars: scalars.len(),
            });
        }
        Ok((
            Self::pack_points(curve, points)?,
            Self::pack_scalars(scalars),
        ))
    }

    fn pack_points(curve: GpuCurve, points: &[A]) -> Result<Cow<'_, [u32]>, GpuError> {
        if A::curve() != curve {
            return Err(GpuError::CurveMismatch {
                expected: curve,
                given: A::curve(),
            });
        }
        if let Some(index) = points.iter().position(|p| !p.is_on_curve()) {
            return Err(GpuError::PointNotOnCurve { index });
        }
        let coords: Vec<_> = points.iter().map(A::coordinates).collect();
        Ok(Cow::Owned(pack_points(curve, &coords)))
    }

    fn pack_scalars(scalars: &[A::Scalar]) -> Cow<'_, [u32]> {
        let words: Vec<[u64; 4]> = scalars.iter().map(A::scalar_words).collect();
        Cow::Owned(pack_scalars(&words))
    }

    fn output(result: AffineOut) -> Result<A::Output, GpuError> {
        A::output(result).ok_or_else(|| {
            GpuError::Validation("the device returned a coordinate that is not below p".into())
        })
    }
}

impl Layout for u32 {
    type Scalar = u32;
    type Output = AffineOut;

    fn pack<'a>(
        curve: GpuCurve,
        points: &'a [u32],
        scalars: &'a [u32],
    ) -> Result<(Cow<'a, [u32]>, Cow<'a, [u32]>), GpuError> {
        // The shape (whole points and scalars, as many of each) is checked on the MSM's one path.
        let _ = curve;
        Ok((Cow::Borrowed(points), Cow::Borrowed(scalars)))
    }

    fn pack_points(curve: GpuCurve, points: &[u32]) -> Result<Cow<'_, [u32]>, GpuError> {
        count_points(curve, points)?;
        Ok(Cow::Borrowed(points))
    }

    fn pack_scalars(scalars: &[u32]) -> Cow<'_, [u32]> {
        Cow::Borrowed(scalars)
    }

    fn output(result: AffineOut) -> Result<AffineOut, GpuError> {
        Ok(result)
    }
}
