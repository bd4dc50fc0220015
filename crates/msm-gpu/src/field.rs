//! Prime-field arithmetic on the GPU for any supported field and limb width (12..=16 bits, and
//! 29, 30 and 32 bits where the adapter has 64-bit integers).
//!
//! [`FieldKernels::new`] assembles `shaders/field.wgsl` with the constants of
//! `fastmsm_mont::limb_constants` and the generated Montgomery product, and builds every pipeline
//! once; the methods then run one operation over whole arrays of elements.

use fastmsm_mont::{Canonical, Field, LimbConstants, Variant, limb_constants};

use crate::transfer::{dispatch_grid, output_u32, read_u32, uniform_u32, upload_u32};
use crate::{GpuContext, GpuError, wgsl};

use crate::shaders::{FIELD as FIELD_FUNCTIONS, FIELD_KERNELS};
/// Invocations per workgroup of every field kernel.
pub const WORKGROUP_SIZE: u32 = 64;

/// The limb widths portable WGSL field arithmetic supports: a product of two limbs must fit a u32.
pub const LIMB_WIDTHS: [u32; 5] = [12, 13, 14, 15, 16];
/// The limb widths of the native fast paths, for adapters with 64-bit integers in shaders (wgpu's
/// `SHADER_INT64`: Vulkan, DX12, Metal; never WebGPU in a browser): 29- and 30-bit limbs in the
/// reduced radix with u64 column sums, and 32-bit limbs in a no-carry CIOS with 64-bit products.
pub const INT64_LIMB_WIDTHS: [u32; 3] = [29, 30, 32];

/// Whether `limb_bits` is one of the widths with 64-bit limb products (SHADER_INT64); the others
/// are the portable widths, 32-bit integers only.
pub fn int64_products(limb_bits: u32) -> bool {
    INT64_LIMB_WIDTHS.contains(&limb_bits)
}

// ANCHOR: int64_width
/// The limb width of the SHADER_INT64 path for `field`: 30 bits where that saves a limb (13 instead
/// of 14 for BLS12-377 and BLS12-381), else 29, the widest whose products leave a u64 column room
/// for a whole row without a carry (nSafe = 32 ≥ limbs for every field here). Fewer limbs are
/// fewer products (benches/experiments.json, "64-bit limb width").
pub fn radix64_limb_bits(field: Field) -> u32 {
    let limbs = |w| {
        limb_constants(field.params(), w)
            .expect("29 and 30 bits suit every field")
            .limbs
    };
    if limbs(30) < limbs(29) { 30 } else { 29 }
}
// ANCHOR_END: int64_width

/// The limb widths this device can run: the portable ones, plus the native ones where it has
/// 64-bit integers.
pub fn supported_limb_widths(ctx: &GpuContext) -> Vec<u32> {
    let mut widths = LIMB_WIDTHS.to_vec();
    if ctx.features.contains(wgpu::Features::SHADER_INT64) {
        widths.extend(INT64_LIMB_WIDTHS);
    }
    widths
}

/// The limb width of the `portable` device profile for `field` (15 bits; it never relies on 64-bit
/// integers). A calibrated or named profile may choose otherwise: [`DeviceProfile::limb_bits`].
///
/// [`DeviceProfile::limb_bits`]: crate::profile::DeviceProfile::limb_bits
pub fn default_limb_bits(ctx: &GpuContext, field: Field) -> u32 {
    crate::profile::DeviceProfile::portable().limb_bits(ctx, field)
}

/// Rejects a limb width this device cannot run, saying why.
pub fn check_limb_bits(ctx: &GpuContext, limb_bits: u32) -> Result<(), GpuError> {
    if supported_limb_widths(ctx).contains(&limb_bits) {
        return Ok(());
    }
    if int64_products(limb_bits) {
        return Err(GpuError::Input(format!(
            "{limb_bits}-bit limbs need 64-bit integers in shaders (SHADER_INT64), which the adapter '{}' does not offer; use one of {LIMB_WIDTHS:?}",
            ctx.info.name
        )));
    }
    Err(GpuError::Input(format!(
        "{limb_bits}-bit limbs: WGSL field arithmetic supports {LIMB_WIDTHS:?}, and {INT64_LIMB_WIDTHS:?} with SHADER_INT64"
    )))
}

/// Field operations with one argument or two; each is an entry point of `field.wgsl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Montgomery product x·y·R⁻¹ mod p (both arguments in Montgomery form).
    Mul,
    /// x + y mod p.
    Add,
    /// x − y mod p.
    Sub,
    /// −x mod p.
    Neg,
    /// 2x mod p.
    Double,
    /// Into Montgomery form by one product with R² mod p.
    IntoMont,
    /// Into Montgomery form by Barrett reduction of x·(R mod p).
    IntoMontBarrett,
    /// Out of Montgomery form: one product with 1, x·R⁻¹ mod p.
    OutOfMont,
    /// x ← x·y repeated `iterations` times (the benchmark loop).
    Chain,
}

impl Op {
    /// Every op, in the order [`FieldKernels`] builds their pipelines.
    pub const ALL: [Op; 9] = [
        Op::Mul,
        Op::Add,
        Op::Sub,
        Op::Neg,
        Op::Double,
        Op::IntoMont,
        Op::IntoMontBarrett,
        Op::OutOfMont,
        Op::Chain,
    ];

    fn entry_point(self) -> &'static str {
        match self {
            Op::Mul => "mul",
            Op::Add => "add",
            Op::Sub => "sub",
            Op::Neg => "neg",
            Op::Double => "double",
            Op::IntoMont => "into_mont",
            Op::IntoMontBarrett => "into_mont_barrett",
            Op::OutOfMont => "out_of_mont",
            Op::Chain => "chain",
        }
    }
}

/// Compiled field kernels for one (field, limb width).
pub struct FieldKernels {
    /// The field's constants at this limb width (modulus, R², Barrett factor, nSafe), as injected
    /// into the shader; the host converts elements to and from limbs with them.
    pub constants: LimbConstants,
    /// Invocations per workgroup the pipelines were built with.
    pub workgroup_size: u32,
    layout: wgpu::BindGroupLayout,
    pipelines: Vec<(Op, wgpu::ComputePipeline)>,
}

/// The WGSL source of the element-wise kernels for `constants`' field and limb width.
pub fn shader_source(constants: &LimbConstants, workgroup_size: u32) -> Result<String, GpuError> {
    shader_source_in(
        constants,
        workgroup_size,
        crate::mont_wgsl::KernelForm::Unrolled,
    )
}

/// As [`shader_source`], with the Montgomery product in `form`.
pub fn shader_source_in(
    constants: &LimbConstants,
    workgroup_size: u32,
    form: crate::mont_wgsl::KernelForm,
) -> Result<String, GpuError> {
    let mut values = field_constants_in(constants, form);
    values.push(("WORKGROUP_SIZE", workgroup_size.to_string()));
    wgsl::render(&format!("{FIELD_FUNCTIONS}\n{FIELD_KERNELS}"), &values)
}

/// The values of every `{{NAME}}` in field.wgsl for one field and limb width.
pub fn field_constants(constants: &LimbConstants) -> Vec<(&'static str, String)> {
    field_constants_in(constants, crate::mont_wgsl::KernelForm::Unrolled)
}

/// As [`field_constants`], with the Montgomery product generated in `form`.
pub fn field_constants_in(
    constants: &LimbConstants,
    form: crate::mont_wgsl::KernelForm,
) -> Vec<(&'static str, String)> {
    let list = |limbs: &[u32]| {
        limbs
            .iter()
            .map(|l| format!("{l}u"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut one = vec![0u32; constants.limbs];
    one[0] = 1;
    vec![
        ("NUM_LIMBS", constants.limbs.to_string()),
        ("LIMB_BITS", constants.limb_bits.to_string()),
        (
            "LIMB_MASK",
            (u32::MAX >> (32 - constants.limb_bits)).to_string(),
        ),
        // Limb sums need u64 only for 32-bit limbs; limb products need it above 16 bits.
        (
            "ACC",
            if constants.limb_bits == 32 {
                "u64"
            } else {
                "u32"
            }
            .into(),
        ),
        (
            "ACC_TOP",
            if constants.limb_bits == 32 {
                "63"
            } else {
                "31"
            }
            .into(),
        ),
        (
            "PROD",
            if constants.limb_bits > 16 {
                "u64"
            } else {
                "u32"
            }
            .into(),
        ),
        ("MODULUS", list(&constants.modulus)),
        ("R_SQUARED", list(&constants.r_squared)),
        ("R_MOD_P", list(&constants.r_mod_p)),
        ("BARRETT_K", constants.barrett_n.to_string()),
        ("BARRETT_M_LIMBS", constants.barrett_m.len().to_string()),
        ("BARRETT_M", list(&constants.barrett_m)),
        ("ONE", list(&one)),
        (
            "MONT_MUL",
            crate::mont_wgsl::mont_mul_source_in(constants, form),
        ),
    ]
}

impl FieldKernels {
    /// Builds every [`Op`]'s pipeline for `field` at `limb_bits`, with [`WORKGROUP_SIZE`];
    /// fails on a width this device cannot run ([`check_limb_bits`]) or a shader the device rejects.
    pub async fn new(ctx: &GpuContext, field: Field, limb_bits: u32) -> Result<Self, GpuError> {
        Self::with_workgroup_size(ctx, field, limb_bits, WORKGROUP_SIZE).await
    }

    /// As [`FieldKernels::new`] with another workgroup size (the throughput benchmark sweeps it).
    pub async fn with_workgroup_size(
        ctx: &GpuContext,
        field: Field,
        limb_bits: u32,
        workgroup_size: u32,
    ) -> Result<Self, GpuError> {
        Self::build(
            ctx,
            field,
            limb_bits,
            workgroup_size,
            &Op::ALL,
            Default::default(),
        )
        .await
    }

    /// Every op with the Montgomery product generated in `form`.
    pub async fn with_form(
        ctx: &GpuContext,
        field: Field,
        limb_bits: u32,
        form: crate::mont_wgsl::KernelForm,
    ) -> Result<Self, GpuError> {
        Self::build(ctx, field, limb_bits, WORKGROUP_SIZE, &Op::ALL, form).await
    }

    /// Only the pipelines of `ops` (each pipeline is a compile; a probe needs one). Running an op
    /// that was not built panics.
    pub async fn with_ops(
        ctx: &GpuContext,
        field: Field,
        limb_bits: u32,
        ops: &[Op],
    ) -> Result<Self, GpuError> {
        Self::build(
            ctx,
            field,
            limb_bits,
            WORKGROUP_SIZE,
            ops,
            Default::default(),
        )
        .await
    }

    async fn build(
        ctx: &GpuContext,
        field: Field,
        limb_bits: u32,
        workgroup_size: u32,
        ops: &[Op],
        form: crate::mont_wgsl::KernelForm,
    ) -> Result<Self, GpuError> {
        if workgroup_size == 0 || workgroup_size > ctx.limits.max_compute_workgroup_size_x {
            return Err(GpuError::LimitExceeded {
                what: "workgroup size".into(),
                needed: workgroup_size.into(),
                limit: ctx.limits.max_compute_workgroup_size_x.into(),
            });
        }
        check_limb_bits(ctx, limb_bits)?;
        let constants = limb_constants(field.params(), limb_bits)
            .map_err(|e| GpuError::Input(e.to_string()))?;
        let source = shader_source_in(&constants, workgroup_size, form)?;
        // Shader or pipeline errors come back as a GpuError instead of wgpu's default panic.
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = ctx
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("field"),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
        let storage = |binding, read_only| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let layout = ctx
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("field"),
                entries: &[
                    storage(0, true),
                    storage(1, true),
                    storage(2, false),
                    wgpu::BindGroupLayoutEntry {
                        binding: 3,
                        visibility: wgpu::ShaderStages::COMPUTE,
                        ty: wgpu::BindingType::Buffer {
                            ty: wgpu::BufferBindingType::Uniform,
                            has_dynamic_offset: false,
                            min_binding_size: None,
                        },
                        count: None,
                    },
                ],
            });
        let pipeline_layout = ctx
            .device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("field"),
                bind_group_layouts: &[Some(&layout)],
                immediate_size: 0,
            });
        let pipelines = ops
            .iter()
            .map(|&op| {
                let pipeline =
                    ctx.device
                        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                            label: Some(op.entry_point()),
                            layout: Some(&pipeline_layout),
                            module: &module,
                            entry_point: Some(op.entry_point()),
                            compilation_options: Default::default(),
                            cache: None,
                        });
                (op, pipeline)
            })
            .collect();
        if let Some(error) = scope.pop().await {
            return Err(GpuError::Validation(format!(
                "{} with {limb_bits}-bit limbs: {error}",
                field.name()
            )));
        }
        Ok(Self {
            constants,
            workgroup_size,
            layout,
            pipelines,
        })
    }

    /// u32 words per element: the limb count at this width (one limb per word).
    pub fn limbs(&self) -> usize {
        self.constants.limbs
    }

    /// Runs `op` over elements given as flat limb arrays (`limbs()` u32 per element, each limb
    /// below 2^w and each element below p). One-argument ops ignore `rhs` (pass an empty slice).
    pub async fn run(
        &self,
        ctx: &GpuContext,
        op: Op,
        lhs: &[u32],
        rhs: &[u32],
        iterations: u32,
    ) -> Result<Vec<u32>, GpuError> {
        let n = self.limbs();
        if !lhs.len().is_multiple_of(n) {
            return Err(GpuError::Input(format!(
                "{} limbs is not a whole number of {n}-limb elements",
                lhs.len()
            )));
        }
        let count = lhs.len() / n;
        let binary = matches!(op, Op::Mul | Op::Add | Op::Sub | Op::Chain);
        if binary && rhs.len() != lhs.len() {
            return Err(GpuError::Input(format!(
                "operand lengths differ: {} vs {} limbs",
                lhs.len(),
                rhs.len()
            )));
        }
        let (buffers, bind_group) =
            self.bind(ctx, lhs, if binary { rhs } else { &[] }, count, iterations);
        self.dispatch(ctx, op, &bind_group, count)?;
        read_u32(ctx, &buffers, lhs.len()).await
    }

    fn bind(
        &self,
        ctx: &GpuContext,
        lhs: &[u32],
        rhs: &[u32],
        count: usize,
        iterations: u32,
    ) -> (wgpu::Buffer, wgpu::BindGroup) {
        let lhs_buf = upload_u32(ctx, "lhs", lhs);
        let rhs_buf = upload_u32(ctx, "rhs", rhs);
        let out_buf = output_u32(ctx, "out", lhs.len());
        let params = uniform_u32(ctx, "params", &[count as u32, iterations, 0, 0]);
        let bind_group = self.bind_group(ctx, &lhs_buf, &rhs_buf, &out_buf, &params);
        (out_buf, bind_group)
    }

    /// Binds caller-owned buffers (benchmarks reuse them across dispatches).
    pub fn bind_group(
        &self,
        ctx: &GpuContext,
        lhs: &wgpu::Buffer,
        rhs: &wgpu::Buffer,
        out: &wgpu::Buffer,
        params: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("field"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: lhs.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: rhs.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: out.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: params.as_entire_binding(),
                },
            ],
        })
    }

    /// Records and submits one dispatch of `op`; returns as soon as it is queued.
    pub fn dispatch(
        &self,
        ctx: &GpuContext,
        op: Op,
        bind_group: &wgpu::BindGroup,
        count: usize,
    ) -> Result<(), GpuError> {
        let pipeline = &self
            .pipelines
            .iter()
            .find(|(o, _)| *o == op)
            .expect("the op's pipeline was built")
            .1;
        let (x, y) = dispatch_grid(ctx, (count as u32).div_ceil(self.workgroup_size))?;
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("field"),
            });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(op.entry_point()),
                timestamp_writes: None,
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, bind_group, &[]);
            pass.dispatch_workgroups(x, y, 1);
        }
        ctx.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Splits canonical field elements into this layout's limbs (not Montgomery form).
    pub fn to_limbs(&self, values: &[Canonical]) -> Vec<u32> {
        let w = self.constants.limb_bits;
        values
            .iter()
            .flat_map(|v| {
                (0..self.limbs()).map(move |i| fastmsm_mont::words::limb_of(v, i, w) as u32)
            })
            .collect()
    }

    /// Joins limbs back into canonical integers.
    pub fn from_limbs(&self, limbs: &[u32]) -> Vec<Canonical> {
        let w = self.constants.limb_bits;
        limbs
            .chunks(self.limbs())
            .map(|chunk| {
                let mut v: Canonical = [0; fastmsm_mont::WORDS];
                for (i, &l) in chunk.iter().enumerate() {
                    let bit = i as u32 * w;
                    let (word, shift) = ((bit / 64) as usize, bit % 64);
                    v[word] |= (l as u64) << shift;
                    if shift + w > 64 && word + 1 < v.len() {
                        v[word + 1] |= (l as u64) >> (64 - shift);
                    }
                }
                v
            })
            .collect()
    }
}

/// Builds [`FieldKernels`] once per (field, limb width, workgroup size) and hands out shared
/// references afterwards: shader compilation costs far more than a typical dispatch.
#[derive(Default)]
pub struct FieldKernelCache {
    entries: Vec<((Field, u32, u32), std::sync::Arc<FieldKernels>)>,
}

impl FieldKernelCache {
    /// The kernels for (`field`, `limb_bits`, `workgroup_size`), built on first use.
    pub async fn get(
        &mut self,
        ctx: &GpuContext,
        field: Field,
        limb_bits: u32,
        workgroup_size: u32,
    ) -> Result<std::sync::Arc<FieldKernels>, GpuError> {
        let key = (field, limb_bits, workgroup_size);
        if let Some((_, k)) = self.entries.iter().find(|(k, _)| *k == key) {
            return Ok(k.clone());
        }
        let kernels = std::sync::Arc::new(
            FieldKernels::with_workgroup_size(ctx, field, limb_bits, workgroup_size).await?,
        );
        self.entries.push((key, kernels.clone()));
        Ok(kernels)
    }
}

/// The CPU twin (`fastmsm_mont::gpu_twin`) of the WGSL product with `limb_bits`-bit limbs.
pub fn cpu_twin(limb_bits: u32) -> Option<Variant> {
    Some(match limb_bits {
        12 => Variant::U32Limbs12,
        13 => Variant::U32Limbs13,
        14 => Variant::U32Limbs14,
        15 => Variant::U32Limbs15,
        16 => Variant::U32Limbs16,
        // 29/30-bit limbs: the shader's reduced radix with u64 columns is the CPU loop step for step.
        29 => Variant::ReducedRadix29,
        30 => Variant::ReducedRadix30,
        // 32-bit limbs: R = 2^(32·limbs) equals the 64-bit CIOS's R = 2^(64·words) for every field
        // here (tests/field.rs compares them), and a fully reduced product is unique.
        32 => Variant::Cios,
        _ => return None,
    })
}

/// Deterministic varied elements below p (xorshift64; quality does not matter, variety does).
pub fn sample_elements(field: Field, count: usize, seed: u64) -> Vec<Canonical> {
    let p = field.params().modulus;
    let top = (0..p.len())
        .rev()
        .find(|&i| p[i] != 0)
        .expect("p is not zero");
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..count)
        .map(|_| {
            let mut v = [0u64; fastmsm_mont::WORDS];
            for (i, word) in v.iter_mut().enumerate().take(top + 1) {
                *word = if i == top { next() % p[top] } else { next() }; // top word below p's: v < p
            }
            v
        })
        .collect()
}
