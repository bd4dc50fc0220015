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

/// Doublings per `precompute_double` pass on a device whose loops stop after `budget.limit`
/// iterations per invocation (each doubling counted as an addition), or all of them.
fn doublings_per_pass(total: u32, budget: Option<LoopBudget>) -> Result<u32, GpuError> {
    let Some(budget) = budget else {
        return Ok(total.max(1));
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
    pub(super) async fn precompute_copies(
        &self,
        ctx: &GpuContext,
        chunks: &[wgpu::Buffer],
        ranges: &[std::ops::Range<usize>],
        copies: u32,
        doublings: u32,
    ) -> Result<(), GpuError> {
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
        let per_pass = doublings_per_pass(doublings, budget)?;
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
        for (chunk, range) in chunks.iter().zip(ranges) {
            let n = range.len() as u32;
            let (x, y) = dispatch_grid(ctx, n.div_ceil(WORKGROUP_SIZE))?;
            let mut encoder = ctx
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("precompute"),
                });
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
                    let record = Params {
                        n,
                        level: copy,
                        stride,
                        add_steps: ADD_STEPS,
                        windows: 1,
                        msm_windows: 1,
                        copies: 1,
                        ..Params::default()
                    };
                    let params = ctx
                        .device
                        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                            label: Some("precompute params"),
                            contents: bytemuck::bytes_of(&record),
                            usage: wgpu::BufferUsages::STORAGE,
                        });
                    let (pipeline, layout) = &pipelines[stage];
                    let entries: Vec<_> = STAGES[stage]
                        .1
                        .iter()
                        .map(|&b| wgpu::BindGroupEntry {
                            binding: b.index(),
                            resource: match b {
                                Binding::Params => params.as_entire_binding(),
                                Binding::Points => chunk.as_entire_binding(),
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
                }
            }
            ctx.queue.submit([encoder.finish()]);
            // One chunk at a time: a device that cuts long submissions short sees short ones.
            wait_idle(ctx).await?;
        }
        if let Some(error) = scope.pop().await {
            return Err(GpuError::Validation(format!(
                "precomputing the bases' multiples: {error}"
            )));
        }
        Ok(())
    }
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
