//! The loop limit of Mesa's llvmpipe, reduced to three loops (`tests/wgsl/loop_limit.wgsl`), and
//! the probe that finds it (`GpuContext::loop_limit`, shaders/loop_probe.wgsl).
//!
//! llvmpipe (lavapipe here and in CI; also what Chromium and Firefox use for WebGPU on a Linux
//! machine without a GPU driver) compiles each loop with a shared counter: every iteration of
//! every loop of an invocation takes one from a budget of 65535 (gallivm's
//! `LP_MAX_TGSI_LOOP_ITERATIONS`, set once per shader function and decremented at the end of
//! each loop iteration), and once it is spent each loop exits at its next iteration. No error is
//! raised: the invocation carries on with whatever its loops had computed. This is what made the
//! GPU MSM wrong there in two forms: the compact Montgomery product loops over its rows (about
//! 300 iterations per point addition at 13-bit limbs, so an SMVP chunk of a few hundred entries
//! ran out), and the batch-affine SMVP's Fermat inversion loops once per exponent bit (a few
//! hundred iterations per round, so lanes of about 170 entries ran out). Both forms are right
//! wherever loops run to the end; the plan now keeps every invocation within the limit where
//! the probe finds one (msm/loops.rs), and tests/msm.rs runs both forms past the old failures.
use fastmsm_gpu::testing::{block_on, gpu};
use fastmsm_gpu::transfer::read_u32;
use wgpu::util::DeviceExt;

/// Runs entry point `entry` of loop_limit.wgsl once with trip counts `trips`; what it counted.
fn counted(entry: &str, trips: [u32; 2]) -> [u32; 2] {
    let ctx = gpu();
    let module = ctx
        .device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("loop_limit"),
            source: wgpu::ShaderSource::Wgsl(include_str!("wgsl/loop_limit.wgsl").into()),
        });
    let pipeline = ctx
        .device
        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry),
            layout: None,
            module: &module,
            entry_point: Some(entry),
            compilation_options: Default::default(),
            cache: None,
        });
    let buffer = |label, words: &[u32]| {
        ctx.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(words),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            })
    };
    let (input, output) = (buffer("trips", &trips), buffer("counted", &[0, 0]));
    let group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: input.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: output.as_entire_binding(),
            },
        ],
    });
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
    ctx.queue.submit([encoder.finish()]);
    let v = block_on(read_u32(ctx, &output, 2)).unwrap();
    [v[0], v[1]]
}

/// On a device without a limit every loop runs to its end; on llvmpipe the three kernels show
/// the one budget shared by all loops of an invocation, and the context's probe found it.
#[test]
fn loops_run_to_the_end_or_the_limit_is_known() {
    let ctx = gpu();
    eprintln!("{}: loop limit {:?}", ctx.info.name, ctx.loop_limit);
    if ctx.info.name.starts_with("llvmpipe") {
        assert_eq!(
            ctx.loop_limit,
            Some(65535),
            "llvmpipe's budget, found by the probe"
        );
    }
    let Some(limit) = ctx.loop_limit else {
        assert_eq!(counted("one_loop", [100_000, 0]), [100_000, 0]);
        assert_eq!(counted("two_loops", [60_000, 60_000]), [60_000, 60_000]);
        assert_eq!(counted("nested_loops", [300, 300]), [300, 90_000]);
        return;
    };
    // One loop stops at the limit, however many iterations it was asked for.
    assert_eq!(counted("one_loop", [limit - 1, 0]), [limit - 1, 0]);
    assert_eq!(counted("one_loop", [limit + 1, 0]), [limit, 0]);
    assert_eq!(counted("one_loop", [10 * limit, 0]), [limit, 0]);
    // Two loops in a row share it: the first runs to its end, the second gets the rest.
    let half = limit / 2 + 5000;
    let [first, second] = counted("two_loops", [half, half]);
    assert_eq!(first, half);
    assert!(
        second < half && first + second <= limit,
        "{first} + {second}"
    );
    assert!(
        first + second + 2 >= limit,
        "the second loop ran the rest: {first} + {second}"
    );
    // Nested loops share it too: the outer loop ends early although each inner loop is short.
    let [outer, inner] = counted("nested_loops", [300, 300]);
    assert!(outer < 300, "outer loop cut short at {outer}");
    assert!(
        inner <= limit && inner >= limit - 2 * 301,
        "inner iterations {inner}"
    );
}
