//! Precomputed bases ([`super::RunOptions::precompute`]): besides each resident point P,
//! `copies − 1` multiples 2^(c·g·t)·P (t = 1, 2, …), g = ⌈W/copies⌉, computed once on the GPU when
//! the bases are uploaded (shaders/precompute.wgsl). An MSM over them then sums g windows of
//! `copies · n` points instead of W windows of n: the same SMVP additions at the same c, but a
//! reduction and a Horner step over g windows, and (the window rule seeing `copies · n` points) a
//! larger c, hence fewer windows in all. The doublings cost c·g per point and copy, the affine
//! form one inversion each: seconds for 2^24 points, once.

use fastmsm_curves::Canonical;
use fastmsm_mont::LimbConstants;
use wgpu::util::DeviceExt;

use super::GpuMsm;
use super::contract::{Binding, Params};
use super::curve::{ADD_STEPS, GpuCurve, MixedAdd, WORKGROUP_SIZE, bit_length, module_source};
use super::loops::LoopBudget;
use super::submit::{self, SubmitModel};
use crate::mont_wgsl::product_loop_iterations;
use crate::transfer::{dispatch_grid, wait_idle};
use crate::{GpuContext, GpuError, wgsl};

/// Most copies of a point: far more than any window count, and each copy is the bases' memory
/// again.
pub const MAX_COPIES: u32 = 64;

/// Projective from affine and back, short Weierstrass (XYZZ; the identity is (0, 0) in the input):
/// x = X/ZZ, y = Y/ZZZ with one inversion of ZZ·ZZZ.
const SW_AFFINE_FORMS: &str = "fn point_from_affine(a: Affine) -> Point {
    if (affine_is_identity(a)) { return point_identity(); }
    return Point(a.x, a.y, ONE_MONT, ONE_MONT);
}

fn point_to_affine(p: Point) -> Affine {
    if (point_is_identity(p)) { return Affine(Big(), Big()); }
    let inverse = field_inverse(mont_mul(p.zz, p.zzz));
    return Affine(mont_mul(p.x, mont_mul(inverse, p.zzz)), mont_mul(p.y, mont_mul(inverse, p.zz)));
}";

/// The same in twisted Edwards form (extended coordinates, Z never zero): x = X/Z, y = Y/Z.
const TE_AFFINE_FORMS: &str = "fn point_from_affine(a: Affine) -> Point {
    return Point(a.x, a.y, ONE_MONT, mont_mul(a.x, a.y));
}

fn point_to_affine(p: Point) -> Affine {
    let inverse = field_inverse(p.z);
    return Affine(mont_mul(p.x, inverse), mont_mul(p.y, inverse));
}";

/// The entry points of shaders/precompute.wgsl and the bindings each uses.
const STAGES: [(&str, &[Binding]); 3] = [
    (
        "precompute_load",
        &[Binding::Params, Binding::Points, Binding::Buckets],
    ),
    ("precompute_double", &[Binding::Params, Binding::Buckets]),
    (
        "precompute_store",
        &[Binding::Params, Binding::Points, Binding::Buckets],
    ),
];

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

/// shaders/field_inverse.wgsl for `curve`'s base field at the limbs of `constants`, to append to
/// a module of field.wgsl's functions.
pub(crate) fn field_inverse_source(
    curve: GpuCurve,
    constants: &LimbConstants,
) -> Result<String, GpuError> {
    let exponent = minus_two(&curve.base_field().params().modulus);
    let values = [
        ("INV_BITS", bit_length(&exponent).to_string()),
        (
            "INV_EXP_WORDS",
            super::words32_list(&exponent, curve.coord_words()),
        ),
    ];
    let source = wgsl::render(crate::shaders::FIELD_INVERSE, &values)?;
    Ok(wgsl::unroll_fixed_loops(&source, constants.limbs))
}

/// The MSM's module with the inversion and the precomputation's kernels after it.
fn module(msm: &GpuMsm) -> Result<String, GpuError> {
    let (curve, constants) = (msm.curve, &msm.constants);
    let mut source = module_source(
        curve,
        constants,
        msm.form,
        MixedAdd::for_limbs(constants),
        &[],
    )?;
    source.push('\n');
    source.push_str(&field_inverse_source(curve, constants)?);
    let forms = if curve.is_edwards() {
        TE_AFFINE_FORMS
    } else {
        SW_AFFINE_FORMS
    };
    let kernels = wgsl::render(
        crate::shaders::PRECOMPUTE,
        &[("AFFINE_FORMS", forms.to_string())],
    )?;
    source.push('\n');
    source.push_str(&wgsl::unroll_fixed_loops(&kernels, constants.limbs));
    Ok(source)
}

/// Additions (in the SMVP's mixed additions, [`submit::steps`]) one invocation of each kernel
/// runs, for the submission bound: `precompute_load` a conversion, `precompute_double` one per
/// doubling (a doubling costs less than a mixed addition), `precompute_store` the inversion's
/// products (a square or a multiply per bit of p − 2, at most two per bit; 11 products and
/// squarings make a mixed addition) and a few more.
fn steps(curve: GpuCurve, stage: usize, doublings: u32) -> f64 {
    match stage {
        0 => 0.3,
        1 => doublings as f64,
        _ => (2 * bit_length(&curve.base_field().params().modulus)) as f64 / 11.0 + 1.0,
    }
}

/// Doublings per `precompute_double` pass: all of them, or fewer on a device whose loops stop
/// after `budget.limit` iterations per invocation (each doubling counted as an addition), and
/// few enough that one wave of the pass stays within the submission bound of `model`.
fn doublings_per_pass(
    total: u32,
    budget: Option<LoopBudget>,
    model: &SubmitModel,
) -> Result<u32, GpuError> {
    // One wave within the bound (at least one doubling: a bound below that is refused first).
    let total = (model.max_steps().floor().min(total as f64) as u32).max(1);
    let Some(budget) = budget else {
        return Ok(total);
    };
    let most = budget.limit.saturating_sub(16) / (1 + budget.per_addition);
    if most == 0 {
        return Err(GpuError::LimitExceeded {
            what: "loop iterations of one doubling of a precomputed base".into(),
            needed: (1 + budget.per_addition) as u64 + 16,
            limit: budget.limit as u64,
        });
    }
    Ok(most.min(total).max(1))
}

impl GpuMsm {
    /// Fills copies 1 to `copies − 1` of every chunk of resident points (`ranges[i]` the points
    /// of `chunks[i]`, copy 0 already converted there): copy t is 2^doublings times copy t − 1.
    /// Each dispatch is cut into slices and the passes into submissions within the bound of
    /// `model` (the bases' plan's, [`submit`]), as an MSM's are; returns each submission's
    /// estimated seconds.
    pub(super) async fn precompute_copies(
        &self,
        ctx: &GpuContext,
        chunks: &[wgpu::Buffer],
        ranges: &[std::ops::Range<usize>],
        copies: u32,
        doublings: u32,
        model: &SubmitModel,
    ) -> Result<Vec<f64>, GpuError> {
        let budget = self.loop_budget(ctx);
        if let Some(b) = budget {
            // One inversion per point in `precompute_store`: a product per bit of p and per set bit.
            let product = 1 + product_loop_iterations(&self.constants, self.form);
            let needed = 2 * self.constants.barrett_n * product + 16;
            if needed > b.limit {
                return Err(GpuError::LimitExceeded {
                    what: "loop iterations of the inversion of a precomputed base".into(),
                    needed: needed as u64,
                    limit: b.limit as u64,
                });
            }
        }
        // One workgroup of each kernel (the least slice) must fit the bound, as
        // `submit::check` asks of the MSM's stages.
        for (stage, (entry, _)) in STAGES.iter().enumerate() {
            let seconds = model.seconds(WORKGROUP_SIZE, steps(self.curve, stage, 1));
            if seconds > model.bound() {
                return Err(GpuError::Input(format!(
                    "max_submission_seconds {:.3e} s cannot be met: one workgroup of {entry} is \
                     estimated at {seconds:.3e} s by the profile; raise the bound",
                    model.bound(),
                )));
            }
        }
        let per_pass = doublings_per_pass(doublings, budget, model)?;
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = ctx
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("precompute"),
                source: wgpu::ShaderSource::Wgsl(module(self)?.into()),
            });
        let pipelines: Vec<_> = STAGES
            .iter()
            .map(|(entry, bindings)| super::build::pipeline_of(ctx, &module, entry, bindings))
            .collect();
        let point_words = 4 * self.constants.limbs;
        let most = ranges.iter().map(|r| r.len()).max().unwrap_or(0);
        let work = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("precompute: running multiples"),
            size: (most.max(1) * point_words * 4) as u64,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let new_encoder = || {
            ctx.device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("precompute"),
                })
        };
        let mut submissions = Vec::new();
        for (chunk, range) in chunks.iter().zip(ranges) {
            let n = range.len() as u32;
            let mut encoder = new_encoder();
            // Estimated seconds of the passes recorded into `encoder`.
            let mut open = 0.0;
            for copy in 1..copies {
                let mut passes = vec![(0, 0)];
                let mut left = doublings;
                while left > 0 {
                    let d = per_pass.min(left);
                    passes.push((1, d));
                    left -= d;
                }
                passes.push((2, 0));
                for (stage, stride) in passes {
                    let each = steps(self.curve, stage, stride);
                    for (offset, count) in submit::cut(n, model.slice(each)) {
                        let estimate = model.seconds(count, each);
                        if open > 0.0 && open + estimate > model.bound() {
                            let full = std::mem::replace(&mut encoder, new_encoder());
                            ctx.queue.submit([full.finish()]);
                            submissions.push(std::mem::take(&mut open));
                        }
                        open += estimate;
                        let record = Params {
                            n,
                            level: copy,
                            stride,
                            add_steps: ADD_STEPS,
                            windows: 1,
                            msm_windows: 1,
                            copies: 1,
                            offset,
                            ..Params::default()
                        };
                        record_pass(
                            ctx,
                            &mut encoder,
                            &pipelines[stage],
                            stage,
                            &record,
                            [chunk, &work],
                            count,
                        )?;
                    }
                }
            }
            ctx.queue.submit([encoder.finish()]);
            submissions.push(open);
            // One chunk at a time: a device that cuts long submissions short sees short ones.
            wait_idle(ctx).await?;
        }
        if let Some(error) = scope.pop().await {
            return Err(GpuError::Validation(format!(
                "precomputing the bases' multiples: {error}"
            )));
        }
        Ok(submissions)
    }
}

/// Records one precomputation kernel (`STAGES[stage]`) over `invocations` invocations with
/// parameter record `record`, binding `points` and `work` (the running multiples).
fn record_pass(
    ctx: &GpuContext,
    encoder: &mut wgpu::CommandEncoder,
    (pipeline, layout): &(wgpu::ComputePipeline, wgpu::BindGroupLayout),
    stage: usize,
    record: &Params,
    [points, work]: [&wgpu::Buffer; 2],
    invocations: u32,
) -> Result<(), GpuError> {
    let (x, y) = dispatch_grid(ctx, invocations.div_ceil(WORKGROUP_SIZE))?;
    let params = ctx
        .device
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("precompute params"),
            contents: bytemuck::bytes_of(record),
            usage: wgpu::BufferUsages::STORAGE,
        });
    let entries: Vec<_> = STAGES[stage]
        .1
        .iter()
        .map(|&b| wgpu::BindGroupEntry {
            binding: b.index(),
            resource: match b {
                Binding::Params => params.as_entire_binding(),
                Binding::Points => points.as_entire_binding(),
                _ => work.as_entire_binding(),
            },
        })
        .collect();
    let group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(STAGES[stage].0),
        layout,
        entries: &entries,
    });
    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: Some(STAGES[stage].0),
        timestamp_writes: None,
    });
    pass.set_pipeline(pipeline);
    pass.set_bind_group(0, &group, &[]);
    pass.dispatch_workgroups(x, y, 1);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponent_is_p_minus_two() {
        let p: Canonical = [5, 1, 0, 0, 0, 0];
        assert_eq!(minus_two(&p)[..2], [3, 1]);
        let p: Canonical = [1, 1, 0, 0, 0, 0];
        assert_eq!(minus_two(&p)[..2], [u64::MAX, 0]);
    }
}
