//! The batch-affine SMVP, an experiment (cargo feature `experiments`): affine additions sharing
//! one inversion per round of `lanes` additions (shaders/experiments/smvp_affine.wgsl), against
//! the projective form every device profile selects (one mixed XYZZ addition per entry, `smvp` in
//! msm.wgsl). Both leave the same buckets for the combine levels and the reduction. Measured 2.5×
//! slower than the projective form on the H100 (the ledger), so no profile picks it.

use crate::msm::GpuCurve;
use crate::{GpuError, wgsl};
use fastmsm_curves::Canonical;
use fastmsm_mont::LimbConstants;

/// How the SMVP adds a bucket's points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SmvpForm {
    /// Each invocation adds its entries one after another into an XYZZ sum: ten products each.
    #[default]
    Projective,
    /// Each invocation runs `lanes` affine sums side by side, every round one addition per lane
    /// under one shared field inversion (Montgomery's trick): about 6 + I/lanes products per
    /// addition for an inversion of I products. Short Weierstrass curves only.
    BatchAffine {
        /// Independent sums per invocation: the additions that share one inversion.
        lanes: u32,
    },
}

/// Most lanes per invocation: each lane keeps three field elements in the invocation's private
/// memory, and the round's additions wait for the inversion together.
pub const MAX_LANES: u32 = 256;

impl SmvpForm {
    /// The batch-affine form with a lane count that amortises the inversion over a batch about as
    /// large as the private memory of one invocation comfortably holds.
    pub const DEFAULT_BATCH_AFFINE: SmvpForm = SmvpForm::BatchAffine { lanes: 64 };

    /// Name in benchmark output: `projective` or `affine-<lanes>`.
    pub fn name(self) -> String {
        match self {
            SmvpForm::Projective => "projective".into(),
            SmvpForm::BatchAffine { lanes } => format!("affine-{lanes}"),
        }
    }

    /// Parses [`SmvpForm::name`]'s output.
    pub fn from_name(name: &str) -> Option<Self> {
        if name == "projective" {
            return Some(SmvpForm::Projective);
        }
        let lanes = name.strip_prefix("affine-")?.parse().ok()?;
        Some(SmvpForm::BatchAffine { lanes })
    }

    /// Chunks (lanes) each level-0 SMVP invocation takes: 1 for the projective form.
    pub fn lanes(self) -> u32 {
        match self {
            SmvpForm::Projective => 1,
            SmvpForm::BatchAffine { lanes } => lanes,
        }
    }

    /// Refuses a form the curve or the shader cannot run, naming what is wrong.
    pub fn check(self, curve: GpuCurve) -> Result<(), GpuError> {
        match self {
            SmvpForm::Projective => Ok(()),
            SmvpForm::BatchAffine { .. } if curve.is_edwards() => Err(GpuError::Input(format!(
                "batch-affine SMVP: {} is twisted Edwards; the affine formulas are short Weierstrass",
                curve.name()
            ))),
            // One lane would be the projective pass: the plan takes the affine one from two.
            SmvpForm::BatchAffine { lanes } if !(2..=MAX_LANES).contains(&lanes) => {
                Err(GpuError::Input(format!(
                    "batch-affine SMVP with {lanes} lanes: supported 2..={MAX_LANES}"
                )))
            }
            SmvpForm::BatchAffine { .. } => Ok(()),
        }
    }
}

/// The batch-affine stages for `curve` at the limb layout of `constants` with `lanes` lanes,
/// appended to the MSM's module (which must hold curve_sw_forms.wgsl: `point_add_affine` and
/// `big_eq`).
pub(crate) fn stages_source(
    curve: GpuCurve,
    constants: &LimbConstants,
    lanes: u32,
) -> Result<String, GpuError> {
    let exponent = minus_two(&curve.base_field().params().modulus);
    let list = crate::msm::words32_list(&exponent, curve.coord_words());
    let values = [
        ("AFFINE_LANES", lanes.to_string()),
        (
            "INV_BITS",
            crate::msm::curve::bit_length(&exponent).to_string(),
        ),
        ("INV_EXP_WORDS", list),
    ];
    let affine = wgsl::render(crate::shaders::SMVP_AFFINE, &values)?;
    Ok(wgsl::unroll_fixed_loops(&affine, constants.limbs))
}

/// p − 2 for an odd prime p > 2: the exponent of Fermat's inversion.
fn minus_two(p: &Canonical) -> Canonical {
    let mut out = *p;
    let mut borrow = 2u64;
    for word in out.iter_mut() {
        let (w, b) = word.overflowing_sub(borrow);
        *word = w;
        borrow = b as u64;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for form in [SmvpForm::Projective, SmvpForm::BatchAffine { lanes: 64 }] {
            assert_eq!(SmvpForm::from_name(&form.name()), Some(form));
        }
        assert_eq!(SmvpForm::from_name("affine-x"), None);
    }

    #[test]
    fn refuses_edwards_and_bad_lanes() {
        assert!(
            SmvpForm::DEFAULT_BATCH_AFFINE
                .check(GpuCurve::EdBls12_377)
                .is_err()
        );
        assert!(
            SmvpForm::BatchAffine { lanes: 1 }
                .check(GpuCurve::Bn254)
                .is_err()
        );
        assert!(
            SmvpForm::BatchAffine {
                lanes: MAX_LANES + 1
            }
            .check(GpuCurve::Bn254)
            .is_err()
        );
        assert!(
            SmvpForm::DEFAULT_BATCH_AFFINE
                .check(GpuCurve::Bls12_377)
                .is_ok()
        );
    }

    #[test]
    fn exponent_is_p_minus_two() {
        let p: Canonical = [5, 1, 0, 0, 0, 0];
        assert_eq!(minus_two(&p)[..2], [3, 1]);
        let p: Canonical = [1, 1, 0, 0, 0, 0];
        assert_eq!(minus_two(&p)[..2], [u64::MAX, 0]);
    }
}
