// How many loop iterations one invocation may run before the implementation cuts its loops short.
//
// WGSL and Vulkan put no bound on a loop, but Mesa's llvmpipe (lavapipe, and browsers on top of it)
// gives every invocation a budget of 65535 iterations shared by all of its loops, and once it is
// spent every loop exits at its next iteration, silently, with whatever the registers hold.
// GpuContext runs this kernel once per device: it counts `counter[0]` iterations of one loop
// whose trip count no compiler can see, and writes how many ran to `counter[1]`. Where that is
// fewer, the MSM's plan keeps every invocation's loops within the count (msm/loops.rs).

@group(0) @binding(0) var<storage, read_write> counter: array<u32>; // [iterations asked, run]

@compute @workgroup_size(1)
fn count_iterations() {
    var run = 0u;
    for (var i = 0u; i < counter[0]; i += 1u) {
        run += 1u;
    }
    counter[1] = run;
}
