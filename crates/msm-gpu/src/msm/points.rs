//! The typed face of the GPU MSM: [`GpuMsm::new`] for a curve on a device, and [`GpuMsm::msm`]
//! over points and scalars of a type that says its curve ([`GpuPoint`]: ours, and arkworks' with
//! the `ark` feature), with the answer in the same family of types.

use fastmsm_curves::Canonical;
use fastmsm_curves::field::PrimeField;
use fastmsm_curves::sw::{self, SwCurve};
use fastmsm_curves::te::{self, TeCurve};

use super::{AffineOut, GpuCurve, GpuMsm, MsmOptions, pack_points, pack_scalars};
use crate::calibrate::{self, ProfileRequest};
use crate::{GpuContext, GpuError};

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

/// Choices made once, when the MSM is compiled for a device; every field has a default.
#[derive(Clone, Debug, Default)]
pub struct GpuMsmOptions {
    /// Where the device profile (limb width and plan) comes from. Default: calibrate on the
    /// device, reusing natively the calibration cached at [`calibrate::default_cache_path`] and
    /// caching a new one there.
    pub profile: Option<ProfileRequest>,
    /// A clock in seconds for the calibration. Default natively: the process's monotonic clock.
    /// In WebAssembly there is no default clock; without one the `portable` profile is used.
    pub clock: Option<fn() -> f64>,
}

#[cfg(not(target_arch = "wasm32"))]
fn process_clock() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

impl GpuMsm {
    /// The MSM of `curve`, compiled for this device at the limb width and with the plan of the
    /// device's profile (calibrated on first use and cached natively; see [`GpuMsmOptions`]).
    ///
    /// ```no_run
    /// use ark_bn254::{Fr, G1Affine, G1Projective};
    /// use fastmsm_gpu::GpuContext;
    /// use fastmsm_gpu::msm::{GpuCurve, GpuMsm};
    ///
    /// # async fn prove(bases: &[G1Affine], scalars: &[Fr]) -> Result<(), fastmsm_gpu::GpuError> {
    /// let ctx = GpuContext::new().await?;
    /// let gpu = GpuMsm::new(&ctx, GpuCurve::Bn254).await?;
    /// let commitment: G1Projective = gpu.msm(&ctx, bases, scalars).await?;
    /// # Ok(()) }
    /// ```
    pub async fn new(ctx: &GpuContext, curve: GpuCurve) -> Result<Self, GpuError> {
        Self::with_options(ctx, curve, &GpuMsmOptions::default()).await
    }

    /// [`GpuMsm::new`] with the profile or the clock chosen.
    pub async fn with_options(
        ctx: &GpuContext,
        curve: GpuCurve,
        options: &GpuMsmOptions,
    ) -> Result<Self, GpuError> {
        #[cfg(not(target_arch = "wasm32"))]
        let clock = options.clock.unwrap_or(process_clock);
        #[cfg(target_arch = "wasm32")]
        let Some(clock) = options.clock else {
            let request = options
                .profile
                .clone()
                .unwrap_or(ProfileRequest::Named("portable".into()));
            let (msm, _) = calibrate::prepare(ctx, curve, request, &|| 0.0, &|_, _| {}).await?;
            return Ok(msm);
        };
        let request = match &options.profile {
            Some(request) => request.clone(),
            None => ProfileRequest::Calibrate {
                cached: cached_profile(ctx),
            },
        };
        let (msm, profile) = calibrate::prepare(ctx, curve, request, &clock, &|_, _| {}).await?;
        if options.profile.is_none() && profile.origin == crate::profile::Origin::Calibrated {
            store_profile(ctx, &profile);
        }
        Ok(msm)
    }

    /// `Σ scalars[i]·points[i]` on the GPU. Every point is checked on the curve first
    /// ([`GpuError::PointNotOnCurve`]); the GPU checks that coordinates are below p and scalars
    /// below r ([`GpuError::ScalarOutOfRange`]).
    pub async fn msm<A: GpuPoint>(
        &self,
        ctx: &GpuContext,
        points: &[A],
        scalars: &[A::Scalar],
    ) -> Result<A::Output, GpuError> {
        self.check_curve::<A>()?;
        if points.len() != scalars.len() {
            return Err(GpuError::InputLength {
                points: points.len(),
                scalars: scalars.len(),
            });
        }
        let packed = pack_typed(self.curve, points)?;
        let words: Vec<[u64; 4]> = scalars.iter().map(A::scalar_words).collect();
        let out = self
            .run_packed(
                ctx,
                &packed,
                &pack_scalars(&words),
                &MsmOptions::default(),
                &|| 0.0,
            )
            .await?;
        typed_output::<A>(out.result)
    }

    /// [`GpuError::CurveMismatch`] unless `A` is on this MSM's curve.
    pub(super) fn check_curve<A: GpuPoint>(&self) -> Result<(), GpuError> {
        if A::curve() != self.curve {
            return Err(GpuError::CurveMismatch {
                expected: self.curve,
                given: A::curve(),
            });
        }
        Ok(())
    }
}

/// The points, checked on the curve and packed as [`GpuMsm::run_packed`] takes them.
pub(super) fn pack_typed<A: GpuPoint>(curve: GpuCurve, points: &[A]) -> Result<Vec<u32>, GpuError> {
    if let Some(index) = points.iter().position(|p| !p.is_on_curve()) {
        return Err(GpuError::PointNotOnCurve { index });
    }
    let coords: Vec<_> = points.iter().map(A::coordinates).collect();
    Ok(pack_points(curve, &coords))
}

/// The typed answer, or the error a result coordinate at or above p means.
pub(super) fn typed_output<A: GpuPoint>(result: AffineOut) -> Result<A::Output, GpuError> {
    A::output(result).ok_or_else(|| {
        GpuError::Validation("the device returned a coordinate that is not below p".into())
    })
}

/// The calibration cached for this device, natively. A cache that cannot be read only costs a
/// new calibration, so it is passed over.
fn cached_profile(ctx: &GpuContext) -> Option<crate::DeviceProfile> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let path = calibrate::default_cache_path()?;
        calibrate::load_cached(&path, ctx).ok().flatten()
    }
    #[cfg(target_arch = "wasm32")]
    {
        let _ = ctx;
        None
    }
}

/// Caches a new calibration natively. A cache that cannot be written only costs a calibration
/// next time, so the MSM goes on.
fn store_profile(ctx: &GpuContext, profile: &crate::DeviceProfile) {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(path) = calibrate::default_cache_path() {
        let _ = calibrate::store_cached(&path, ctx, profile);
    }
    #[cfg(target_arch = "wasm32")]
    let _ = (ctx, profile);
}
