//! Every check on an MSM's input and configuration, written once: [`crate::msm`] and the
//! workers' shares ([`crate::split`]) call these and nothing else.

use fastmsm_curves::Canonical;

use crate::MsmGroup;
use crate::config::{Algorithm, Limbs, MsmConfig, MsmError, Points, Reduction, Threads, Window};
use crate::scalar::{Scalar, first_out_of_range};
use crate::window::WINDOW_RANGE;

/// Equal numbers of points and scalars.
pub(crate) fn lengths(points: usize, scalars: usize) -> Result<(), MsmError> {
    if points == scalars {
        Ok(())
    } else {
        Err(MsmError::LengthMismatch { points, scalars })
    }
}

/// Every scalar below r; the error names the first that is not, at its place in the whole input
/// (`offset` is the position of `scalars[0]` there).
pub(crate) fn scalars<G: MsmGroup>(scalars: &[Scalar], offset: usize) -> Result<(), MsmError> {
    match first_out_of_range(scalars, &G::SCALAR_MODULUS) {
        Some(i) => Err(MsmError::ScalarOutOfRange { index: offset + i }),
        None => Ok(()),
    }
}

/// Is the curve's group of points of prime order r (cofactor 1)?
pub(crate) fn prime_order<G: MsmGroup>() -> bool {
    let h: &Canonical = &G::COFACTOR;
    h[0] == 1 && h[1..].iter().all(|&w| w == 0)
}

/// The points as `check` asks: on the curve, and in the subgroup of order r for
/// [`Points::InSubgroup`] where the cofactor is not 1 (`r·P = O`, by double-and-add). The error
/// names the first offending point. With `parallel` (and the `rayon` feature) the points are
/// checked on rayon's pool.
pub(crate) fn points<G: MsmGroup>(
    points: &[G::Affine],
    check: Points,
    parallel: bool,
) -> Result<(), MsmError> {
    if let Some(index) = first(points, parallel, |p| !G::affine_is_on_curve(p)) {
        return Err(MsmError::PointNotOnCurve { index });
    }
    if check == Points::InSubgroup && !prime_order::<G>() {
        let r = G::SCALAR_MODULUS;
        if let Some(index) = first(points, parallel, |p| {
            !G::from_affine(p).mul_scalar(&r).is_identity()
        }) {
            return Err(MsmError::PointNotInSubgroup { index });
        }
    }
    Ok(())
}

/// The index of the first point for which `bad` holds.
fn first<A: Sync>(
    points: &[A],
    parallel: bool,
    bad: impl Fn(&A) -> bool + Sync + Send,
) -> Option<usize> {
    #[cfg(feature = "rayon")]
    if parallel {
        use rayon::prelude::*;
        return points.par_iter().position_first(bad);
    }
    let _ = parallel;
    points.iter().position(bad)
}

/// A window width in 2..=16.
pub(crate) fn window(c: u32) -> Result<(), MsmError> {
    if WINDOW_RANGE.contains(&c) {
        Ok(())
    } else {
        Err(MsmError::BadConfig(format!(
            "window width {c} outside 2..=16"
        )))
    }
}

/// A configuration that can run on group `G`: everything that does not depend on the input.
pub(crate) fn config<G: MsmGroup>(cfg: &MsmConfig) -> Result<(), MsmError> {
    if let Window::Fixed(c) = cfg.window {
        window(c)?;
    }
    let all_affine = matches!(cfg.algorithm, Algorithm::AllAffine(_));
    if let Algorithm::Pippenger {
        reduction: Reduction::Split(0),
        ..
    } = cfg.algorithm
    {
        return Err(MsmError::BadConfig("split into zero segments".into()));
    }
    if cfg.glv {
        if !G::has_glv() {
            return Err(MsmError::NoEndomorphism { curve: G::NAME });
        }
        if cfg.points == Points::OnCurve && !prime_order::<G>() {
            return Err(MsmError::BadConfig(format!(
                "GLV on {} needs points of order r: check them (Points::InSubgroup) or vouch \
                 for them (Points::InSubgroupUnchecked)",
                G::NAME
            )));
        }
    }
    match cfg.threads {
        Threads::One => {}
        Threads::Shares(0) => return Err(MsmError::BadConfig("zero shares".into())),
        Threads::Shares(_) | Threads::Pool if !all_affine => {
            return Err(MsmError::BadConfig(
                "only the all-affine algorithm shares out over threads".into(),
            ));
        }
        Threads::Pool if !cfg!(feature = "rayon") => {
            return Err(MsmError::BadConfig(
                "Threads::Pool needs fastmsm-msm's `rayon` feature".into(),
            ));
        }
        Threads::Shares(_) | Threads::Pool => {}
    }
    if cfg.count_ops && (cfg.limbs != Limbs::Mont64 || cfg.threads == Threads::Pool) {
        return Err(MsmError::BadConfig(
            "operation counts run on 64-bit limbs on this thread (Limbs::Mont64, no Threads::Pool)"
                .into(),
        ));
    }
    Ok(())
}
