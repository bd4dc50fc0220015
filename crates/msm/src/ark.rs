//! The MSM over arkworks types (feature `ark`, on by default): the same call shape as ark-ec's
//! `VariableBaseMSM::msm`, computed by this crate's fastest CPU path.
//!
//! That path is the all-affine MSM ([`crate::all_affine`]); with the `rayon` feature it is cut
//! into one share per thread of rayon's pool (`split::msm_parallel`). Points and scalars
//! cross over through `fastmsm_curves::ark`, so every curve of the book works the same way:
//!
//! ```
//! use ark_ec::{CurveGroup, PrimeGroup, VariableBaseMSM};
//! use ark_ff::UniformRand;
//! use ark_bn254::{Fr, G1Projective};
//!
//! let mut rng = rand::thread_rng();
//! let bases: Vec<_> = (0..100).map(|_| G1Projective::rand(&mut rng).into_affine()).collect();
//! let scalars: Vec<Fr> = (0..100).map(|_| Fr::rand(&mut rng)).collect();
//! let q: G1Projective = fastmsm_msm::ark::msm(&bases, &scalars).unwrap();
//! assert_eq!(q, G1Projective::msm(&bases, &scalars).unwrap());
//! ```

use ark_ec::CurveGroup;
use ark_ec::short_weierstrass as ark_sw;
use ark_ec::twisted_edwards as ark_te;
use ark_ff::BigInt;
use fastmsm_curves::Group;
use fastmsm_curves::ark::{ArkSw, ArkTe, scalar_from_ark};
use fastmsm_curves::{sw, te};

use crate::all_affine::AllAffineConfig;
use crate::pippenger::MsmError;
use crate::{MsmGroup, Scalar};

/// An arkworks projective group whose MSM this crate computes: the G1 groups of BN254, BLS12-377
/// and BLS12-381, and Ed-on-BLS12-377.
pub trait ArkMsm: CurveGroup {
    /// Our group that computes it (XYZZ or extended twisted Edwards coordinates).
    type Ours: MsmGroup;
    /// An arkworks base as our affine point.
    fn base(a: &Self::Affine) -> <Self::Ours as Group>::Affine;
    /// An arkworks scalar as our `[u64; 4]`.
    fn scalar(s: &Self::ScalarField) -> Scalar;
    /// Our result as an arkworks point.
    fn from_ours(q: &Self::Ours) -> Self;
}

impl<P> ArkMsm for ark_sw::Projective<P>
where
    P: ArkSw<ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>>,
{
    type Ours = sw::Xyzz<P::Curve>;
    fn base(a: &ark_sw::Affine<P>) -> sw::Affine<P::Curve> {
        (*a).into()
    }
    fn scalar(s: &P::ScalarField) -> Scalar {
        scalar_from_ark(s)
    }
    fn from_ours(q: &sw::Xyzz<P::Curve>) -> Self {
        ark_sw::Affine::<P>::from(q.to_affine()).into()
    }
}

impl<P> ArkMsm for ark_te::Projective<P>
where
    P: ArkTe<ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>>,
{
    type Ours = te::Extended<P::Curve>;
    fn base(a: &ark_te::Affine<P>) -> te::Affine<P::Curve> {
        (*a).into()
    }
    fn scalar(s: &P::ScalarField) -> Scalar {
        scalar_from_ark(s)
    }
    fn from_ours(q: &te::Extended<P::Curve>) -> Self {
        ark_te::Affine::<P>::from(q.to_affine()).into()
    }
}

/// `Σ scalars[i]·bases[i]`, as arkworks' `G::msm(bases, scalars)` computes it. Different lengths
/// are [`MsmError::LengthMismatch`] (arkworks returns the shorter length instead); no points give
/// the identity, as in arkworks.
pub fn msm<G: ArkMsm>(bases: &[G::Affine], scalars: &[G::ScalarField]) -> Result<G, MsmError> {
    if bases.len() != scalars.len() {
        return Err(MsmError::LengthMismatch {
            points: bases.len(),
            scalars: scalars.len(),
        });
    }
    let points: Vec<_> = bases.iter().map(G::base).collect();
    let scalars: Vec<Scalar> = scalars.iter().map(G::scalar).collect();
    let q = fastest::<G::Ours>(&points, &scalars)?;
    Ok(G::from_ours(&q))
}

/// The all-affine MSM on every thread of rayon's pool.
#[cfg(feature = "rayon")]
fn fastest<G: MsmGroup>(points: &[G::Affine], scalars: &[Scalar]) -> Result<G, MsmError> {
    let threads = rayon::current_num_threads();
    crate::split::msm_parallel(points, scalars, &AllAffineConfig::default(), threads)
}

/// The all-affine MSM on this thread (enable the `rayon` feature for every core).
#[cfg(not(feature = "rayon"))]
fn fastest<G: MsmGroup>(points: &[G::Affine], scalars: &[Scalar]) -> Result<G, MsmError> {
    let mut stats = crate::all_affine::AllAffineStats::default();
    crate::all_affine::msm_all_affine(points, scalars, &AllAffineConfig::default(), &mut stats)
}
