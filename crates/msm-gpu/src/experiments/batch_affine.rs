//! The batch-affine SMVP, an experiment (cargo feature `experiments`): affine additions sharing
//! one inversion per round of `lanes` additions (shaders/experiments/smvp_affine.wgsl), against
//! the projective form every device profile selects (one mixed XYZZ addition per entry, `smvp` in
//! msm.wgsl). Both leave the same buckets for the combine levels and the reduction. Measured 2.5×
//! slower than the projective form on the H100 (the ledger), so no profile picks it.

use crate::msm::GpuCurve;
use crate::{GpuContext, GpuError, wgsl};
use fastmsm_mont::LimbConstants;

/// How the SMVP adds a bucket's points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SmvpForm {
    /// Each invocation adds its entries one after another into an XYZZ sum: ten products each.
    #[default]
    Projective,
    /// Each invocation runs `lanes` affine sums side by side, every round one addition per lane
    /// under one field inversion (Montgomery's trick), shared by the `shared` invocations of a
    /// workgroup (1: each its own): about 6 + I/(lanes·shared) products per addition for an
    /// inversion of I products, or 6 + 32·I/(lanes·shared) counting the SIMD lanes an inversion
    /// keeps busy (ledger, "Batch-affine accumulation that pays"). Short Weierstrass curves only.
    BatchAffine {
        /// Independent sums per invocation.
        lanes: u32,
        /// Invocations whose sums share one inversion per round: 1, or the affine kernel's
        /// workgroup size (64, 128 or 256), with a product tree in workgroup memory.
        shared: u32,
        /// How the inversion is computed.
        inversion: Inversion,
    },
}

/// The field inversion of the batch-affine SMVP.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Inversion {
    /// a^(p−2): one product per bit of p and one per set bit (shaders/field_inverse.wgsl).
    #[default]
    Fermat,
    /// Bernstein and Yang's divsteps, a word of them at a time (shaders/experiments/safegcd.wgsl).
    Divsteps,
}

/// Most lanes per invocation: each lane keeps three field elements in the invocation's private
/// memory, and the round's additions wait for the inversion together.
pub const MAX_LANES: u32 = 256;

/// The workgroup sizes a shared inversion may span: a product tree needs a power of two, and
/// 256 is WebGPU's default bound on a workgroup's invocations.
pub const SHARED_SIZES: [u32; 4] = [1, 64, 128, 256];

impl SmvpForm {
    /// The batch-affine form with a lane count that amortises the inversion over a batch about as
    /// large as the private memory of one invocation comfortably holds.
    pub const DEFAULT_BATCH_AFFINE: SmvpForm = SmvpForm::BatchAffine {
        lanes: 64,
        shared: 1,
        inversion: Inversion::Fermat,
    };

    /// Name in benchmark output: `projective`, or `affine-<lanes>` with `-wg<shared>` where
    /// invocations share the inversion and `-by` for the divstep inversion.
    pub fn name(self) -> String {
        match self {
            SmvpForm::Projective => "projective".into(),
            SmvpForm::BatchAffine {
                lanes,
                shared,
                inversion,
            } => {
                let mut name = format!("affine-{lanes}");
                if shared > 1 {
                    name += &format!("-wg{shared}");
                }
                if inversion == Inversion::Divsteps {
                    name += "-by";
                }
                name
            }
        }
    }

    /// Parses [`SmvpForm::name`]'s output.
    pub fn from_name(name: &str) -> Option<Self> {
        if name == "projective" {
            return Some(SmvpForm::Projective);
        }
        let mut parts = name.strip_prefix("affine-")?.split('-');
        let lanes = parts.next()?.parse().ok()?;
        let (mut shared, mut inversion) = (1, Inversion::Fermat);
        for part in parts {
            match part {
                "by" => inversion = Inversion::Divsteps,
                wg => shared = wg.strip_prefix("wg")?.parse().ok()?,
            }
        }
        Some(SmvpForm::BatchAffine {
            lanes,
            shared,
            inversion,
        })
    }

    /// Chunks (lanes) each level-0 SMVP invocation takes: 1 for the projective form.
    pub fn lanes(self) -> u32 {
        match self {
            SmvpForm::Projective => 1,
            SmvpForm::BatchAffine { lanes, .. } => lanes,
        }
    }

    /// The workgroup size of the level-0 SMVP kernel.
    pub fn workgroup(self) -> u32 {
        match self {
            SmvpForm::BatchAffine { shared, .. } if shared > 1 => shared,
            _ => crate::msm::WORKGROUP_SIZE,
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
            SmvpForm::BatchAffine { lanes, .. } if !(2..=MAX_LANES).contains(&lanes) => {
                Err(GpuError::Input(format!(
                    "batch-affine SMVP with {lanes} lanes: supported 2..={MAX_LANES}"
                )))
            }
            SmvpForm::BatchAffine { shared, .. } if !SHARED_SIZES.contains(&shared) => {
                Err(GpuError::Input(format!(
                    "batch-affine SMVP shared by {shared} invocations: supported {SHARED_SIZES:?}"
                )))
            }
            SmvpForm::BatchAffine { .. } => Ok(()),
        }
    }

    /// Refuses a shared inversion whose product tree does not fit the device's workgroup memory
    /// (two field elements per invocation) or workgroup size.
    pub fn check_device(self, ctx: &GpuContext, constants: &LimbConstants) -> Result<(), GpuError> {
        let SmvpForm::BatchAffine { shared, .. } = self else {
            return Ok(());
        };
        if shared == 1 {
            return Ok(());
        }
        let bytes = 2 * shared as u64 * constants.limbs as u64 * 4;
        for (what, needed, limit) in [
            (
                "workgroup memory of the shared inversion's product tree \
                 (maxComputeWorkgroupStorageSize)",
                bytes,
                ctx.limits.max_compute_workgroup_storage_size as u64,
            ),
            (
                "invocations per workgroup (maxComputeInvocationsPerWorkgroup)",
                shared as u64,
                ctx.limits.max_compute_invocations_per_workgroup as u64,
            ),
        ] {
            if needed > limit {
                return Err(GpuError::LimitExceeded {
                    what: format!("the batch-affine SMVP's {what}"),
                    needed,
                    limit,
                });
            }
        }
        Ok(())
    }

    /// Loop iterations of a round's inversion (and product tree), for the loop budget of a device
    /// that cuts loops short: `product` is one Montgomery product's.
    pub(crate) fn round_inversion_iterations(
        self,
        curve: GpuCurve,
        constants: &LimbConstants,
        product: u32,
    ) -> u32 {
        let SmvpForm::BatchAffine {
            shared, inversion, ..
        } = self
        else {
            return 0;
        };
        let inverse = match inversion {
            Inversion::Fermat => 2 * constants.barrett_n * product,
            Inversion::Divsteps => {
                super::safegcd::loop_iterations(curve, constants.limb_bits, product)
            }
        };
        // Up and down the tree: a product (two going down) per level.
        let levels = shared.max(1).ilog2();
        inverse + levels * (3 * product + 2) + 2
    }
}

/// The batch-affine stages for `curve` at the limb layout of `constants` in `form`, appended to
/// the MSM's module (which must hold curve_sw_forms.wgsl: `point_add_affine` and `big_eq`).
pub(crate) fn stages_source(
    curve: GpuCurve,
    constants: &LimbConstants,
    form: SmvpForm,
) -> Result<String, GpuError> {
    let SmvpForm::BatchAffine {
        lanes,
        shared,
        inversion,
    } = form
    else {
        return Err(GpuError::Input(
            "the projective SMVP has no batch-affine stages".into(),
        ));
    };
    let invert = match inversion {
        Inversion::Fermat => "field_inverse",
        Inversion::Divsteps => "field_inverse_safegcd",
    };
    let (k_load, round_end, round_inverse) = if shared > 1 {
        (
            "if (lid == 0u) { wg_k = chunk_size(); }\n    let k = workgroupUniformLoad(&wg_k);"
                .to_string(),
            "// every invocation runs every round: the shared tree's barriers".to_string(),
            "var inverse = shared_inverse(running, lid);".to_string(),
        )
    } else {
        (
            "let k = chunk_size();".to_string(),
            "if (!busy) { break; }".to_string(),
            format!(
                "// No addition this round leaves running = 1, which is its own inverse.\n        \
                 var inverse = running;\n        \
                 if (!big_eq(running, ONE_MONT)) {{ inverse = {invert}(running); }}"
            ),
        )
    };
    let values = [
        ("AFFINE_LANES", lanes.to_string()),
        ("AFFINE_SHARED", shared.to_string()),
        ("AFFINE_WORKGROUP", form.workgroup().to_string()),
        ("AFFINE_INVERTERS", (shared / 2).clamp(1, 32).to_string()),
        ("K_LOAD", k_load),
        ("ROUND_END", round_end),
        ("ROUND_INVERSE", round_inverse),
        ("INVERT", invert.to_string()),
    ];
    let affine = wgsl::render(crate::shaders::SMVP_AFFINE, &values)?;
    let mut source = crate::msm::field_inverse_source(curve, constants)?;
    if inversion == Inversion::Divsteps {
        source.push('\n');
        source.push_str(&super::safegcd::source(curve, constants)?);
    }
    source.push('\n');
    source.push_str(&wgsl::unroll_fixed_loops(&affine, constants.limbs));
    Ok(source)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn affine(lanes: u32, shared: u32, inversion: Inversion) -> SmvpForm {
        SmvpForm::BatchAffine {
            lanes,
            shared,
            inversion,
        }
    }

    #[test]
    fn names_round_trip() {
        for form in [
            SmvpForm::Projective,
            affine(64, 1, Inversion::Fermat),
            affine(8, 256, Inversion::Fermat),
            affine(4, 64, Inversion::Divsteps),
            affine(16, 1, Inversion::Divsteps),
        ] {
            assert_eq!(SmvpForm::from_name(&form.name()), Some(form));
        }
        assert_eq!(
            affine(8, 256, Inversion::Divsteps).name(),
            "affine-8-wg256-by"
        );
        assert_eq!(SmvpForm::from_name("affine-x"), None);
        assert_eq!(SmvpForm::from_name("affine-8-wgx"), None);
    }

    #[test]
    fn refuses_edwards_and_bad_lanes() {
        assert!(
            SmvpForm::DEFAULT_BATCH_AFFINE
                .check(GpuCurve::EdBls12_377)
                .is_err()
        );
        assert!(
            affine(1, 1, Inversion::Fermat)
                .check(GpuCurve::Bn254)
                .is_err()
        );
        assert!(
            affine(MAX_LANES + 1, 1, Inversion::Fermat)
                .check(GpuCurve::Bn254)
                .is_err()
        );
        assert!(
            affine(8, 32, Inversion::Fermat)
                .check(GpuCurve::Bn254)
                .is_err()
        );
        assert!(
            SmvpForm::DEFAULT_BATCH_AFFINE
                .check(GpuCurve::Bls12_377)
                .is_ok()
        );
    }
}
