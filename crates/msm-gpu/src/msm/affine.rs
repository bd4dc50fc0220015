//! The SMVP's two forms: projective (one mixed XYZZ addition per entry, `smvp` in msm.wgsl) and
//! batch-affine (affine additions sharing one inversion per round of `lanes` additions,
//! shaders/smvp_affine.wgsl). Both leave the same buckets for the combine levels and the reduction.

use super::curve::GpuCurve;
use crate::mont_wgsl::KernelForm;
use crate::{GpuError, wgsl};
use fastmsm_curves::Canonical;
use fastmsm_mont::LimbConstants;

const SMVP_AFFINE: &str = include_str!("../../../../shaders/smvp_affine.wgsl");

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
            SmvpForm::BatchAffine { lanes } if !(1..=MAX_LANES).contains(&lanes) => {
                Err(GpuError::Input(format!(
                    "batch-affine SMVP with {lanes} lanes: supported 1..={MAX_LANES}"
                )))
            }
            SmvpForm::BatchAffine { .. } => Ok(()),
        }
    }
}

/// The MSM module for `curve` at the limb layout of `constants`, with the product in `form` and
/// the SMVP in `smvp`: msm.wgsl's module, plus the batch-affine stages when `smvp` asks for them.
pub fn shader_source_for(
    curve: GpuCurve,
    constants: &LimbConstants,
    form: KernelForm,
    smvp: SmvpForm,
) -> Result<String, GpuError> {
    smvp.check(curve)?;
    let mut source = super::curve::shader_source_in(curve, constants, form)?;
    let SmvpForm::BatchAffine { lanes } = smvp else {
        return Ok(source);
    };
    let exponent = minus_two(&curve.base_field().params().modulus);
    let words = super::words32(&exponent, curve.coord_words());
    let list = words
        .iter()
        .map(|w| format!("{w}u"))
        .collect::<Vec<_>>()
        .join(", ");
    let values = [
        ("AFFINE_LANES", lanes.to_string()),
        ("INV_BITS", super::curve::bit_length(&exponent).to_string()),
        ("INV_EXP_WORDS", list),
    ];
    let affine = wgsl::render(SMVP_AFFINE, &values)?;
    source.push('\n');
    source.push_str(&wgsl::unroll_fixed_loops(&affine, constants.limbs));
    Ok(source)
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
        assert!(SmvpForm::DEFAULT_BATCH_AFFINE.check(GpuCurve::EdBls12_377).is_err());
        assert!(SmvpForm::BatchAffine { lanes: 0 }.check(GpuCurve::Bn254).is_err());
        assert!(SmvpForm::BatchAffine { lanes: MAX_LANES + 1 }.check(GpuCurve::Bn254).is_err());
        assert!(SmvpForm::DEFAULT_BATCH_AFFINE.check(GpuCurve::Bls12_377).is_ok());
    }

    #[test]
    fn exponent_is_p_minus_two() {
        let p: Canonical = [5, 1, 0, 0, 0, 0];
        assert_eq!(minus_two(&p)[..2], [3, 1]);
        let p: Canonical = [1, 1, 0, 0, 0, 0];
        assert_eq!(minus_two(&p)[..2], [u64::MAX, 0]);
    }
}
