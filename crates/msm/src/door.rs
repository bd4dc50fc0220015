//! The front door: [`msm`] checks the input once and runs the configured algorithm.

use std::borrow::Cow;

use fastmsm_curves::field::{Radix30, Radix51};

use crate::config::{Algorithm, Limbs, MsmConfig, MsmError, MsmOutput, MsmStats, Points, Threads};
use crate::input::{CpuGroup, MsmPoint};
use crate::scalar::Scalar;
use crate::{MsmGroup, all_affine, check, count, pippenger, split, twin, window};

/// `Σ scalars[i]·points[i]`, **variable-time in the scalars**, checked and computed as `cfg`
/// says; the same call shape as arkworks' `VariableBaseMSM::msm`.
///
/// `points` are this crate's affine points ([`fastmsm_curves::sw::Affine`],
/// [`fastmsm_curves::te::Affine`]) with `[u64; 4]` scalars, or, with the `ark` feature (on by
/// default), arkworks' affine points with their scalar-field elements; the sum comes back in the
/// same family ([`MsmPoint`]).
///
/// **Checks**, before any work: equal lengths ([`MsmError::LengthMismatch`]); every scalar below
/// the group order r ([`MsmError::ScalarOutOfRange`], naming the first index); every point on
/// the curve ([`MsmError::PointNotOnCurve`], naming the first index), and in the subgroup of
/// order r with [`Points::InSubgroup`] ([`MsmError::PointNotInSubgroup`]); a configuration that
/// can run on the curve ([`MsmError::BadConfig`], [`MsmError::NoEndomorphism`]). No points give
/// the identity.
///
/// **Variable time.** The work, the memory touched and the branches taken depend on the scalars
/// (zero digits are skipped, buckets are addressed by digit), so the running time and cache
/// traces carry information about them: see the book's security chapter. For secret scalars,
/// [`crate::Window::FromSize`] takes the scalar values out of the window choice, the one
/// dependence a setting can remove; the rest stays.
///
/// ```
/// use ark_ec::{CurveGroup, PrimeGroup, VariableBaseMSM};
/// use ark_ff::UniformRand;
/// use ark_bn254::{Fr, G1Projective};
/// use fastmsm_msm::MsmConfig;
///
/// let mut rng = rand::thread_rng();
/// let bases: Vec<_> = (0..100).map(|_| G1Projective::rand(&mut rng).into_affine()).collect();
/// let scalars: Vec<Fr> = (0..100).map(|_| Fr::rand(&mut rng)).collect();
/// let q: G1Projective = fastmsm_msm::msm(&bases, &scalars, &MsmConfig::default()).unwrap().sum;
/// assert_eq!(q, G1Projective::msm(&bases, &scalars).unwrap());
/// ```
pub fn msm<P: MsmPoint>(
    points: &[P],
    scalars: &[P::Scalar],
    cfg: &MsmConfig,
) -> Result<MsmOutput<P::Output>, MsmError> {
    check::config::<P::Group>(cfg)?;
    check::lengths(points.len(), scalars.len())?;
    let scalars = P::to_integers(scalars);
    check::scalars::<P::Group>(&scalars, 0)?;
    let points = P::to_group(points);
    check::points::<P::Group>(&points, cfg.points, cfg.threads == Threads::Pool)?;
    let (sum, stats) = run::<P::Group>(&points, &scalars, cfg);
    Ok(MsmOutput {
        sum: P::from_group(&sum),
        stats,
    })
}

/// The point checks of [`msm`] alone, for points that are loaded once and used in many MSMs
/// (a proving key): with [`Points::InSubgroup`], later calls can pass
/// [`Points::InSubgroupUnchecked`] and skip the costly part.
pub fn check_points<P: MsmPoint>(points: &[P], check: Points) -> Result<(), MsmError> {
    check::points::<P::Group>(&P::to_group(points), check, false)
}

/// Validated input, in the configured field representation.
fn run<G: CpuGroup>(points: &[G::Affine], scalars: &[Scalar], cfg: &MsmConfig) -> (G, MsmStats) {
    let mut stats = MsmStats::default();
    let s = &mut stats;
    let sum = if cfg.count_ops {
        let (q, ops) = count::count_via::<G>(points, |p| on(p, scalars, cfg, s));
        stats.ops = Some(ops);
        q
    } else {
        match cfg.limbs {
            Limbs::Mont64 => on(points, scalars, cfg, s),
            Limbs::Radix30 => twin::via_twin::<Radix30, G>(points, |p| on(p, scalars, cfg, s)),
            Limbs::Radix51 => twin::via_twin::<Radix51, G>(points, |p| on(p, scalars, cfg, s)),
        }
    };
    (sum, stats)
}

/// Validated input on group `G` (ours, a twin or the counted one): the configured algorithm and
/// threading.
fn on<G: MsmGroup>(
    points: &[G::Affine],
    scalars: &[Scalar],
    cfg: &MsmConfig,
    stats: &mut MsmStats,
) -> G {
    if points.is_empty() {
        return G::identity();
    }
    // the shares of the all-affine algorithm; check::config refused threads for the others
    match (&cfg.algorithm, cfg.threads) {
        (Algorithm::AllAffine(aa), Threads::Shares(shares)) => {
            return split::in_turn(points, scalars, cfg.window, cfg.glv, aa, shares, stats);
        }
        #[cfg(feature = "rayon")]
        (Algorithm::AllAffine(aa), Threads::Pool) => {
            let threads = rayon::current_num_threads();
            return split::parallel(points, scalars, cfg.window, cfg.glv, aa, threads, stats);
        }
        _ => {}
    }
    let (points, scalars, bound) = if cfg.glv {
        let e = G::glv_expand(points, scalars).expect("check::config saw the endomorphism");
        (Cow::Owned(e.points), Cow::Owned(e.scalars), e.bound)
    } else {
        (
            Cow::Borrowed(points),
            Cow::Borrowed(scalars),
            G::SCALAR_MODULUS,
        )
    };
    let sampled = matches!(cfg.algorithm, Algorithm::AllAffine(_));
    let c = window::choose(cfg.window, sampled, &scalars, &bound);
    stats.window = c;
    match &cfg.algorithm {
        Algorithm::Pippenger {
            accumulation,
            reduction,
        } => pippenger::bucket_method(
            &points,
            &scalars,
            &bound,
            c,
            accumulation,
            *reduction,
            &mut stats.batch_affine,
        ),
        Algorithm::AllAffine(aa) => {
            all_affine::all_affine(&points, &scalars, &bound, c, aa, &mut stats.all_affine)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Accumulation, Reduction};
    use crate::{Bn254G1, MsmGroup};
    use fastmsm_curves::{Bn254, Group, sw};

    /// The same engine over Jacobian buckets (not a door group: its affine points sum to XYZZ)
    /// gives the same sum as over XYZZ, which the integration tests hold to arkworks.
    #[test]
    fn jacobian_buckets_give_the_xyzz_sum() {
        type J = sw::Jacobian<Bn254>;
        let g = Bn254G1::generator();
        let points: Vec<_> = (1u64..300)
            .map(|k| g.mul_scalar(&[k * 0x9e37_79b9_7f4a]).to_affine())
            .collect();
        let scalars: Vec<Scalar> = (0..points.len() as u64)
            .map(|i| [i.wrapping_mul(0xdead_beef_1234_5678), i, !i, i & 0xff])
            .collect();
        for algorithm in [
            Algorithm::pippenger(),
            Algorithm::batch_affine(),
            Algorithm::Pippenger {
                accumulation: Accumulation::Csr,
                reduction: Reduction::Split(3),
            },
            Algorithm::AllAffine(Default::default()),
        ] {
            for glv in [false, true] {
                let cfg = MsmConfig {
                    algorithm,
                    glv,
                    ..MsmConfig::default()
                };
                let want: Bn254G1 = on(&points, &scalars, &cfg, &mut MsmStats::default());
                let got: J = on(&points, &scalars, &cfg, &mut MsmStats::default());
                assert_eq!(
                    got.to_affine(),
                    want.to_affine(),
                    "{algorithm:?}, GLV {glv}"
                );
                let got: J = twin::via_twin::<Radix30, J>(&points, |p| {
                    on(p, &scalars, &cfg, &mut MsmStats::default())
                });
                assert_eq!(
                    got.to_affine(),
                    want.to_affine(),
                    "{algorithm:?}, GLV {glv}, 30-bit limbs"
                );
            }
        }
        assert!(<J as MsmGroup>::SCALAR_MODULUS == Bn254G1::SCALAR_MODULUS);
    }
}
