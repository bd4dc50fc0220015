//! Building a [`GpuMsm`]: the device profile, the limb width and the kernel form are chosen once
//! here, and the stages compiled. The default never calibrates: it takes this device's cached
//! calibration, else the named profile that matches the adapter, so the first MSM of a process
//! waits only for its pipelines. Calibration is a separate step ([`crate::calibrate`]) whose
//! profile a caller passes in ([`ProfileChoice::Given`]) or caches for the default to find.

use fastmsm_mont::limb_constants;

use super::{GpuCurve, GpuMsm, Stage, check_limits};
use crate::mont_wgsl::KernelForm;
use crate::profile::DeviceProfile;
use crate::{GpuContext, GpuError};

/// A progress callback: the fraction done in [0, 1] and what is happening.
pub type Progress<'a> = &'a dyn Fn(f64, &str);

/// Where a [`GpuMsm`]'s device profile comes from.
#[derive(Clone, Debug, Default)]
pub enum ProfileChoice {
    /// This device's cached calibration (natively the file of
    /// [`crate::profile::cache::default_cache_path`]), else the named profile that matches the
    /// adapter ([`DeviceProfile::for_adapter`]). Never calibrates.
    #[default]
    Auto,
    /// A named profile ([`DeviceProfile::named`]: `h200`, `h100`, `swiftshader`, `lavapipe`,
    /// `portable`), for reproducible runs.
    Named(String),
    /// This profile as it is: a calibration's, one read from a file, a named one changed.
    Given(DeviceProfile),
}

impl ProfileChoice {
    /// The profile this choice stands for on `ctx`'s device. A cache that cannot be read is
    /// passed over (its error reported through `progress`): it only costs the named profile.
    pub fn resolve(
        &self,
        ctx: &GpuContext,
        progress: Progress<'_>,
    ) -> Result<DeviceProfile, GpuError> {
        Ok(match self {
            ProfileChoice::Named(name) => DeviceProfile::named(name)?,
            ProfileChoice::Given(profile) => profile.clone(),
            ProfileChoice::Auto => {
                #[cfg(not(target_arch = "wasm32"))]
                {
                    use crate::profile::cache;
                    let cached = cache::default_cache_path()
                        .map(|path| cache::load_cached(&path, ctx))
                        .transpose();
                    match cached {
                        Ok(Some(Some(profile))) => return Ok(profile),
                        Ok(_) => {}
                        Err(e) => progress(0.0, &format!("device profile cache not used: {e}")),
                    }
                }
                #[cfg(target_arch = "wasm32")]
                let _ = progress;
                DeviceProfile::for_adapter(&ctx.info)
            }
        })
    }
}

/// The choices of one [`GpuMsm`], made before it is compiled ([`GpuMsm::builder`]).
pub struct GpuMsmBuilder<'a> {
    curve: GpuCurve,
    limb_bits: Option<u32>,
    form: Option<KernelForm>,
    profile: ProfileChoice,
    progress: Option<Progress<'a>>,
    precompile: bool,
    /// Forms no device profile selects (cargo feature `experiments`).
    #[cfg(feature = "experiments")]
    pub(crate) experiment: crate::experiments::Experiment<'a>,
}

impl GpuMsm {
    /// The MSM of `curve`: limb width and kernel form from the device profile unless chosen,
    /// the profile [`ProfileChoice::Auto`] unless chosen. Nothing is compiled before
    /// [`GpuMsmBuilder::build`].
    ///
    /// ```no_run
    /// use fastmsm_gpu::GpuContext;
    /// use fastmsm_gpu::msm::{GpuCurve, GpuMsm, ProfileChoice};
    ///
    /// # async fn make() -> Result<(), fastmsm_gpu::GpuError> {
    /// let ctx = GpuContext::new().await?;
    /// let report = |_done: f64, what: &str| eprintln!("{what}");
    /// let gpu = GpuMsm::builder(GpuCurve::Bls12_381)
    ///     .profile(ProfileChoice::Named("portable".into()))
    ///     .progress(&report)
    ///     .build(&ctx)
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn builder<'a>(curve: GpuCurve) -> GpuMsmBuilder<'a> {
        GpuMsmBuilder {
            curve,
            limb_bits: None,
            form: None,
            profile: ProfileChoice::Auto,
            progress: None,
            precompile: true,
            #[cfg(feature = "experiments")]
            experiment: Default::default(),
        }
    }
}

impl<'a> GpuMsmBuilder<'a> {
    /// Limbs of `bits` bits (12 to 16, or 29, 30, 32 where the adapter has 64-bit integers)
    /// instead of the profile's width for the curve's field.
    pub fn limb_bits(mut self, bits: u32) -> Self {
        self.limb_bits = Some(bits);
        self
    }

    /// The Montgomery product generated in `form` instead of the profile's.
    pub fn kernel_form(mut self, form: KernelForm) -> Self {
        self.form = Some(form);
        self
    }

    /// Where the device profile comes from (default [`ProfileChoice::Auto`]).
    pub fn profile(mut self, choice: ProfileChoice) -> Self {
        self.profile = choice;
        self
    }

    /// Hears what the build is doing (the profile, then the compile, which takes seconds on a
    /// first run where no driver cache holds the pipelines).
    pub fn progress(mut self, progress: Progress<'a>) -> Self {
        self.progress = Some(progress);
        self
    }

    /// In a browser, whether every stage's pipeline is first compiled asynchronously and in
    /// parallel (`createComputePipelineAsync`, [`super::precompile`]) before wgpu creates it
    /// synchronously (default true). False creates them one after another, as wgpu alone does:
    /// the reference the E2E suite times the parallel path against. Natively the pipelines are
    /// always created on threads of their own, and this changes nothing.
    pub fn precompile(mut self, on: bool) -> Self {
        self.precompile = on;
        self
    }

    /// Resolves the profile and compiles every stage (natively, the pipelines in parallel).
    pub async fn build(self, ctx: &GpuContext) -> Result<GpuMsm, GpuError> {
        let report = |done: f64, what: &str| {
            if let Some(progress) = self.progress {
                progress(done, what)
            }
        };
        let curve = self.curve;
        let profile = self.profile.resolve(ctx, &report)?;
        report(0.05, &format!("device profile: {}", profile.summary()));
        let limb_bits = self
            .limb_bits
            .unwrap_or_else(|| profile.limb_bits(ctx, curve.base_field()));
        let form = self.form.unwrap_or(profile.kernel_form);
        crate::field::check_limb_bits(ctx, limb_bits)?;
        check_limits(ctx)?;
        let constants = limb_constants(curve.base_field().params(), limb_bits)
            .map_err(|e| GpuError::Input(e.to_string()))?;
        #[cfg(feature = "experiments")]
        let (source, lanes) = {
            self.experiment.smvp().check_device(ctx, &constants)?;
            (
                self.experiment.source(curve, &constants, form)?,
                self.experiment.smvp().lanes(),
            )
        };
        #[cfg(not(feature = "experiments"))]
        let (source, lanes) = (super::shader_source_in(curve, &constants, form)?, 1);
        let stages = GpuMsm::stages_of(lanes);
        report(
            0.1,
            &format!(
                "compiling {} pipelines of the {} MSM ({limb_bits}-bit limbs, {} kernels)",
                stages.len(),
                curve.name(),
                form.name()
            ),
        );
        // The raw pipelines stay alive until wgpu's are made (Dawn's cache holds only live
        // ones). A failure here is left for wgpu's own request to report.
        #[cfg(target_arch = "wasm32")]
        let _kept = if self.precompile {
            let kept = super::precompile::precompile(ctx, &source, &stages).await;
            if let Some(Ok(done)) = &kept {
                report(0.5, &format!("{}; creating them in wgpu", done.summary()));
            }
            kept
        } else {
            None
        };
        let pipelines = compile(ctx, &source, &stages)
            .await
            .map_err(|e| GpuError::Validation(format!("MSM shaders for {}: {e}", curve.name())))?;
        let msm = GpuMsm {
            curve,
            constants,
            form,
            lanes,
            #[cfg(feature = "experiments")]
            smvp: self.experiment.smvp(),
            pipelines,
            resources: Default::default(),
            profile,
        };
        // Some drivers (lavapipe among them) compile a pipeline at its first dispatch rather
        // than when it is created: one MSM of one point dispatches every stage, so that the
        // MSM is ready when `build` returns and the first real call is not the slow one.
        report(
            0.9,
            "first dispatch of every stage (where some drivers compile)",
        );
        msm.warm_up(ctx).await?;
        report(1.0, &format!("the {} MSM is compiled", curve.name()));
        Ok(msm)
    }
}

impl GpuMsm {
    /// One MSM of the identity with scalar 1, which must give the identity.
    async fn warm_up(&self, ctx: &GpuContext) -> Result<(), GpuError> {
        let words = self.curve.coord_words();
        let mut identity = vec![0u32; 2 * words];
        if self.curve.is_edwards() {
            identity[words] = 1; // (0, 1)
        }
        let mut one = [0u32; 8];
        one[0] = 1;
        let out = self
            .run_packed(ctx, &identity, &one, &super::RunOptions::default())
            .await?;
        let edwards_identity = self.curve.is_edwards().then(|| {
            let mut y = [0u64; fastmsm_mont::WORDS];
            y[0] = 1;
            ([0u64; fastmsm_mont::WORDS], y)
        });
        if out.result != edwards_identity {
            return Err(GpuError::Validation(format!(
                "the {} MSM of the identity gave {:?}",
                self.curve.name(),
                out.result
            )));
        }
        Ok(())
    }
}

type Compiled = (wgpu::ComputePipeline, wgpu::BindGroupLayout);

/// One module from `source`, and a pipeline per stage with the bind-group layout of its bindings.
/// Natively each pipeline is created on its own thread: the driver compiles a pipeline when it
/// is created, each from its entry point alone, and a first run with no driver cache spends
/// nearly all its time there. Errors are the first validation error met.
async fn compile(
    ctx: &GpuContext,
    source: &str,
    stages: &[Stage],
) -> Result<Vec<Compiled>, String> {
    let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = ctx
        .device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("msm"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
    if let Some(error) = scope.pop().await {
        return Err(error.to_string());
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        // Error scopes are per thread: each thread catches its own pipeline's.
        std::thread::scope(|threads| {
            let module = &module;
            let handles: Vec<_> = stages
                .iter()
                .map(|&stage| {
                    threads.spawn(move || {
                        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
                        let made = pipeline(ctx, module, stage);
                        match pollster::block_on(scope.pop()) {
                            Some(error) => Err(error.to_string()),
                            None => Ok(made),
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a pipeline thread panicked"))
                .collect()
        })
    }
    #[cfg(target_arch = "wasm32")]
    {
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let made = stages.iter().map(|&s| pipeline(ctx, &module, s)).collect();
        match scope.pop().await {
            Some(error) => Err(error.to_string()),
            None => Ok(made),
        }
    }
}

/// The pipeline of one stage and the bind-group layout of exactly its bindings.
fn pipeline(ctx: &GpuContext, module: &wgpu::ShaderModule, stage: Stage) -> Compiled {
    pipeline_of(ctx, module, stage.entry_point(), stage.bindings())
}

/// The pipeline of entry point `entry` and the bind-group layout of exactly `bindings`.
pub(super) fn pipeline_of(
    ctx: &GpuContext,
    module: &wgpu::ShaderModule,
    entry: &str,
    bindings: &[super::contract::Binding],
) -> Compiled {
    let entries: Vec<_> = bindings.iter().map(|b| b.layout_entry()).collect();
    let label = Some(entry);
    let layout = ctx
        .device
        .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label,
            entries: &entries,
        });
    let pipeline_layout = ctx
        .device
        .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label,
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
    let pipeline = ctx
        .device
        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label,
            layout: Some(&pipeline_layout),
            module,
            entry_point: label,
            compilation_options: Default::default(),
            cache: None,
        });
    (pipeline, layout)
}
