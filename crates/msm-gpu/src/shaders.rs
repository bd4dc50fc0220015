//! The WGSL sources, in one place. They live in the repository's top-level `shaders/`, reached
//! through the crate's `shaders` link to it, so that `cargo package` copies them into the crate.

/// Big-integer addition with carries (the first kernel, `bigint`).
pub(crate) const BIGINT_ADD: &str = include_str!("../shaders/bigint_add.wgsl");
/// The field functions every module starts with: limb arithmetic and the Montgomery product's
/// placeholder.
pub(crate) const FIELD: &str = include_str!("../shaders/field.wgsl");
/// Entry points over the field functions, one per field operation (tests and benchmarks).
pub(crate) const FIELD_KERNELS: &str = include_str!("../shaders/field_kernels.wgsl");
/// Short-Weierstrass point formulas (XYZZ) in the forms a device profile selects.
pub(crate) const CURVE_SW: &str = include_str!("../shaders/curve_sw.wgsl");
/// Twisted-Edwards point formulas (extended coordinates).
pub(crate) const CURVE_TE: &str = include_str!("../shaders/curve_te.wgsl");
/// The MSM's stages.
pub(crate) const MSM: &str = include_str!("../shaders/msm.wgsl");
/// Field inversion (Fermat), for the kernels that need one.
pub(crate) const FIELD_INVERSE: &str = include_str!("../shaders/field_inverse.wgsl");
/// Precomputed bases: the multiples of every resident point.
pub(crate) const PRECOMPUTE: &str = include_str!("../shaders/precompute.wgsl");
/// Mixed-addition forms no device profile selects (cargo feature `experiments`).
#[cfg(feature = "experiments")]
pub(crate) const CURVE_SW_FORMS: &str = include_str!("../shaders/experiments/curve_sw_forms.wgsl");
/// The batch-affine SMVP (cargo feature `experiments`).
#[cfg(feature = "experiments")]
pub(crate) const SMVP_AFFINE: &str = include_str!("../shaders/experiments/smvp_affine.wgsl");
/// The divstep inversion (cargo feature `experiments`).
#[cfg(feature = "experiments")]
pub(crate) const SAFEGCD: &str = include_str!("../shaders/experiments/safegcd.wgsl");
