//! Forms of the MSM that no device profile selects (cargo feature `experiments`), kept runnable
//! and tested so that a measurement can be repeated or a form promoted: the batch-affine SMVP
//! ([`batch_affine`]), the mixed addition's other forms ([`crate::msm::MixedAdd`], WGSL in
//! shaders/experiments/curve_sw_forms.wgsl), and builds from edited shader source, for timing a
//! change before it goes into the shaders. Each is a choice on [`GpuMsmBuilder`].

pub mod batch_affine;
pub mod safegcd;

use batch_affine::SmvpForm;
use fastmsm_mont::LimbConstants;

use crate::GpuError;
use crate::mont_wgsl::KernelForm;
use crate::msm::curve::module_source;
use crate::msm::{GpuCurve, GpuMsm, GpuMsmBuilder, MixedAdd};
use crate::shaders::CURVE_SW_FORMS;

/// The experimental choices of one build; the default is the build every profile makes.
#[derive(Default)]
pub(crate) struct Experiment<'a> {
    smvp: SmvpForm,
    mixed_add: Option<MixedAdd>,
    edit: Option<&'a dyn Fn(String) -> String>,
}

impl Experiment<'_> {
    /// The SMVP's form.
    pub(crate) fn smvp(&self) -> SmvpForm {
        self.smvp
    }

    /// The module's source with these choices.
    pub(crate) fn source(
        &self,
        curve: GpuCurve,
        constants: &LimbConstants,
        form: KernelForm,
    ) -> Result<String, GpuError> {
        let source = shader_source(curve, constants, form, self.smvp, self.mixed_add)?;
        Ok(match self.edit {
            Some(edit) => edit(source),
            None => source,
        })
    }
}

/// The MSM module for `curve` at the limb layout of `constants`, with the product in `form`, the
/// SMVP in `smvp` and its mixed addition in `mixed_add` (default: the form the rule picks).
pub fn shader_source(
    curve: GpuCurve,
    constants: &LimbConstants,
    form: KernelForm,
    smvp: SmvpForm,
    mixed_add: Option<MixedAdd>,
) -> Result<String, GpuError> {
    smvp.check(curve)?;
    if curve.is_edwards() && mixed_add.is_some() {
        return Err(GpuError::Input(format!(
            "{} has no mixed addition forms: its additions are complete",
            curve.name()
        )));
    }
    let mixed = mixed_add.unwrap_or_else(|| MixedAdd::for_limbs(constants));
    let forms_needed = mixed_add.is_some() || smvp != SmvpForm::Projective;
    let extra: &[&str] = if forms_needed { &[CURVE_SW_FORMS] } else { &[] };
    let mut source = module_source(curve, constants, form, mixed, extra)?;
    if smvp != SmvpForm::Projective {
        source.push('\n');
        source.push_str(&batch_affine::stages_source(curve, constants, smvp)?);
    }
    Ok(source)
}

impl<'a> GpuMsmBuilder<'a> {
    /// The SMVP in `form` (the batch-affine form: short Weierstrass curves only).
    pub fn smvp(mut self, form: SmvpForm) -> Self {
        self.experiment.smvp = form;
        self
    }

    /// The SMVP's mixed addition in `form` instead of the form [`MixedAdd::for_limbs`] picks
    /// (short Weierstrass curves only).
    pub fn mixed_add(mut self, form: MixedAdd) -> Self {
        self.experiment.mixed_add = Some(form);
        self
    }

    /// The assembled WGSL passed through `edit` before it is compiled.
    pub fn source_edit(mut self, edit: &'a dyn Fn(String) -> String) -> Self {
        self.experiment.edit = Some(edit);
        self
    }
}

impl GpuMsm {
    /// How this MSM's SMVP adds each bucket's points.
    pub fn smvp(&self) -> SmvpForm {
        self.smvp
    }
}
