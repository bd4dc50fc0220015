//! The MSM built from edited shader source: to time a change before it goes into the shaders,
//! or to run a form of a kernel that no device profile selects.

use crate::mont_wgsl::KernelForm;
use crate::msm::{GpuCurve, GpuMsm, MixedAdd};
use crate::{GpuContext, GpuError};

impl GpuMsm {
    /// As [`GpuMsm::with_limb_bits`], with the assembled WGSL passed through `edit` first.
    pub async fn with_source_edit(
        ctx: &GpuContext,
        curve: GpuCurve,
        limb_bits: u32,
        edit: &dyn Fn(String) -> String,
    ) -> Result<Self, GpuError> {
        Self::build(ctx, curve, limb_bits, KernelForm::Unrolled, edit).await
    }

    /// A short-Weierstrass MSM whose SMVP adds its points with `form` instead of the form
    /// [`MixedAdd::for_limbs`] picks.
    pub async fn with_mixed_add(
        ctx: &GpuContext,
        curve: GpuCurve,
        limb_bits: u32,
        form: MixedAdd,
    ) -> Result<Self, GpuError> {
        if curve.is_edwards() {
            return Err(GpuError::Input(format!(
                "{} has no mixed addition forms: its additions are complete",
                curve.name()
            )));
        }
        let to = format!("return add_entry_{}(p, entry);", form.wgsl_suffix());
        let edit = |source: String| {
            let from = format!(
                "return add_entry_{}(p, entry);",
                MixedAdd::SteppedByValue.wgsl_suffix()
            );
            assert!(source.contains(&from), "the shader no longer calls `{from}`");
            source.replace(&from, &to)
        };
        Self::with_source_edit(ctx, curve, limb_bits, &edit).await
    }
}
