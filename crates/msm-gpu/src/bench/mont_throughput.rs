//! The WGSL Montgomery throughput benchmark, shared by the native binary (`wgsl-mont-bench`) and
//! the book's widget: `threads` invocations each run `iterations` dependent products; the clock
//! is supplied by the caller (`Instant` natively, `performance.now()` in a browser).

use fastmsm_mont::{Field, raw_product};

use crate::field::{Op, cpu_twin, sample_elements};
use crate::transfer::{self, wait_idle};
use crate::{GpuContext, GpuError};

/// One configuration's measurement: products per second for every timed repetition.
#[derive(Clone, Debug)]
pub struct ChainThroughput {
    /// The field whose product was chained.
    pub field: Field,
    /// Limb width of the WGSL product, in bits (12 to 16, or 29, 30, 32 with 64-bit integers).
    pub limb_bits: u32,
    /// Limbs per element at that width.
    pub limbs: usize,
    /// How many limb products a column may sum before it must carry (the generator's nSafe).
    pub n_safe: u64,
    /// Integer operations in one product, from the generated WGSL.
    pub ops: crate::mont_wgsl::OpCount,
    /// Invocations per workgroup of the dispatch.
    pub workgroup_size: u32,
    /// Invocations dispatched, one independent chain each.
    pub threads: usize,
    /// Dependent products per chain.
    pub iterations: u32,
    /// Seconds per repetition, in run order.
    pub seconds: Vec<f64>,
    /// A spread sample of outputs matched the CPU twin chained the same way.
    pub verified: bool,
}

impl ChainThroughput {
    /// Products per second per repetition, sorted ascending.
    pub fn rates(&self) -> Vec<f64> {
        let products = self.threads as f64 * self.iterations as f64;
        let mut r: Vec<f64> = self.seconds.iter().map(|s| products / s).collect();
        r.sort_by(f64::total_cmp);
        r
    }

    /// The median of [`ChainThroughput::rates`] (mean of the middle two for an even count): the
    /// figure the tables report, robust to one slow repetition.
    pub fn median_rate(&self) -> f64 {
        let r = self.rates();
        let n = r.len();
        if n % 2 == 1 {
            r[n / 2]
        } else {
            (r[n / 2 - 1] + r[n / 2]) / 2.0
        }
    }
}

/// Runs the benchmark for one configuration: warm-up, `reps` timed dispatches, verification of
/// `verify_samples` outputs spread over the threads.
#[allow(clippy::too_many_arguments)]
pub async fn chain_throughput(
    ctx: &GpuContext,
    cache: &mut crate::field::FieldKernelCache,
    field: Field,
    limb_bits: u32,
    workgroup_size: u32,
    threads: usize,
    iterations: u32,
    reps: usize,
    verify_samples: usize,
    now_seconds: &dyn Fn() -> f64,
) -> Result<ChainThroughput, GpuError> {
    if threads == 0 || reps == 0 {
        return Err(GpuError::Input(
            "threads and repetitions must be at least 1".into(),
        ));
    }
    let kernels = cache.get(ctx, field, limb_bits, workgroup_size).await?;
    let x = sample_elements(field, threads, 0x9e37_79b9 + limb_bits as u64);
    let y = sample_elements(field, threads, 0x85eb_ca6b + limb_bits as u64);
    let (lx, ly) = (kernels.to_limbs(&x), kernels.to_limbs(&y));
    let binding_limit = ctx.limits.max_storage_buffer_binding_size;
    if (lx.len() * 4) as u64 > binding_limit {
        return Err(GpuError::LimitExceeded {
            what: format!("{threads} elements"),
            needed: (lx.len() * 4) as u64,
            limit: binding_limit,
        });
    }
    let lhs = transfer::upload_u32(ctx, "x", &lx);
    let rhs = transfer::upload_u32(ctx, "y", &ly);
    let out = transfer::output_u32(ctx, "out", lx.len());
    let params = transfer::uniform_u32(ctx, "params", &[threads as u32, iterations, 0, 0]);
    let bind_group = kernels.bind_group(ctx, &lhs, &rhs, &out, &params);

    // Warm-up: the first dispatches pay for driver-side compilation and clock ramp-up.
    for _ in 0..2 {
        kernels.dispatch(ctx, Op::Chain, &bind_group, threads)?;
        wait_idle(ctx).await?;
    }
    let mut seconds = Vec::with_capacity(reps);
    for _ in 0..reps {
        let start = now_seconds();
        kernels.dispatch(ctx, Op::Chain, &bind_group, threads)?;
        wait_idle(ctx).await?;
        seconds.push(now_seconds() - start);
    }

    let result = kernels.from_limbs(&transfer::read_u32(ctx, &out, lx.len()).await?);
    let twin = cpu_twin(limb_bits).expect("width checked by FieldKernels");
    let stride = (threads / verify_samples.max(1)).max(1);
    let mut verified = true;
    for i in (0..threads).step_by(stride) {
        let mut acc = x[i];
        for _ in 0..iterations {
            acc = raw_product(twin, field, &acc, &y[i])
                .map_err(|e| GpuError::Input(e.to_string()))?;
        }
        verified &= acc == result[i];
    }
    Ok(ChainThroughput {
        field,
        limb_bits,
        limbs: kernels.limbs(),
        n_safe: kernels.constants.n_safe(),
        ops: crate::mont_wgsl::count_ops(&kernels.constants),
        workgroup_size,
        threads,
        iterations,
        seconds,
        verified,
    })
}
