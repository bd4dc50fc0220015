//! Limb-wise big-integer addition on the GPU: the smallest kernel that exercises the whole path
//! (constants injected into WGSL, pipeline built once, buffers up, dispatch, buffers back).

use crate::transfer::{dispatch_grid, output_u32, read_u32, uniform_u32, upload_u32};
use crate::{GpuContext, GpuError, wgsl};

use crate::shaders::BIGINT_ADD as SHADER;
const WORKGROUP_SIZE: u32 = 64;

/// A compiled big-integer adder for one limb layout. Build once, call [`BigIntAdder::add`] many times.
pub struct BigIntAdder {
    num_limbs: usize,
    limb_bits: u32,
    pipeline: wgpu::ComputePipeline,
}

impl BigIntAdder {
    /// `limb_bits` must be 1..=31 so that limb + limb + carry fits a u32.
    pub fn new(ctx: &GpuContext, num_limbs: usize, limb_bits: u32) -> Result<Self, GpuError> {
        if !(1..=31).contains(&limb_bits) {
            return Err(GpuError::Input(format!(
                "limb width {limb_bits} bits: must be 1..=31"
            )));
        }
        if num_limbs == 0 {
            return Err(GpuError::Input(
                "a big integer needs at least one limb".into(),
            ));
        }
        let source = wgsl::render(
            SHADER,
            &[
                ("NUM_LIMBS", num_limbs.to_string()),
                ("LIMB_BITS", limb_bits.to_string()),
                ("LIMB_MASK", ((1u32 << limb_bits) - 1).to_string()),
                ("WORKGROUP_SIZE", WORKGROUP_SIZE.to_string()),
            ],
        )?;
        let module = ctx
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("bigint_add"),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
        let pipeline = ctx
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some("bigint_add"),
                layout: None,
                module: &module,
                entry_point: Some("add"),
                compilation_options: Default::default(),
                cache: None,
            });
        Ok(Self {
            num_limbs,
            limb_bits,
            pipeline,
        })
    }

    /// Adds `lhs[i] + rhs[i]` for every element. Inputs are flat arrays of `num_limbs` limbs per
    /// element; the output has `num_limbs + 1` words per element (the last is the carry out).
    pub async fn add(
        &self,
        ctx: &GpuContext,
        lhs: &[u32],
        rhs: &[u32],
    ) -> Result<Vec<u32>, GpuError> {
        let count = self.check_operands(lhs, rhs)?;
        let out_words = count * (self.num_limbs + 1);
        let max_binding = ctx.limits.max_storage_buffer_binding_size;
        if (out_words * 4) as u64 > max_binding {
            return Err(GpuError::LimitExceeded {
                what: "the sum buffer".into(),
                needed: (out_words * 4) as u64,
                limit: max_binding,
            });
        }
        let lhs_buf = upload_u32(ctx, "lhs", lhs);
        let rhs_buf = upload_u32(ctx, "rhs", rhs);
        let out_buf = output_u32(ctx, "sums", out_words);
        let params = uniform_u32(ctx, "params", &[count as u32, 0, 0, 0]);
        let bind_group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("bigint_add"),
            layout: &self.pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: lhs_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: rhs_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: out_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: params.as_entire_binding(),
                },
            ],
        });
        let (x, y) = dispatch_grid(ctx, (count as u32).div_ceil(WORKGROUP_SIZE))?;
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("bigint_add"),
            });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("add"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(x, y, 1);
        }
        ctx.queue.submit([encoder.finish()]);
        if let Some(error) = scope.pop().await {
            return Err(GpuError::Validation(error.to_string()));
        }
        read_u32(ctx, &out_buf, out_words).await
    }

    fn check_operands(&self, lhs: &[u32], rhs: &[u32]) -> Result<usize, GpuError> {
        if lhs.len() != rhs.len() {
            return Err(GpuError::Input(format!(
                "operand lengths differ: {} vs {} limbs",
                lhs.len(),
                rhs.len()
            )));
        }
        if !lhs.len().is_multiple_of(self.num_limbs) {
            return Err(GpuError::Input(format!(
                "{} limbs is not a whole number of {}-limb integers",
                lhs.len(),
                self.num_limbs
            )));
        }
        let limit = 1u32 << self.limb_bits;
        for (side, limbs) in [("lhs", lhs), ("rhs", rhs)] {
            if let Some(i) = limbs.iter().position(|&l| l >= limit) {
                return Err(GpuError::Input(format!(
                    "{side} element {} limb {}: {} does not fit in {} bits",
                    i / self.num_limbs,
                    i % self.num_limbs,
                    limbs[i],
                    self.limb_bits
                )));
            }
        }
        Ok(lhs.len() / self.num_limbs)
    }
}
