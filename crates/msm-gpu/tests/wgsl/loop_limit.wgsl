// The smallest case of Mesa llvmpipe's loop limit (tests/loop_limit.rs): how many loop iterations
// one invocation completes, for trip counts read from a buffer at run time (so that no compiler
// can unroll or fold the loops). Every entry point writes what it counted; WGSL has no bound on
// loops, so a conforming implementation counts exactly the trip counts.

@group(0) @binding(0) var<storage, read> trips: array<u32>;        // [a, b]
@group(0) @binding(1) var<storage, read_write> counted: array<u32>; // [loop 1, loop 2]

// One loop of a iterations.
@compute @workgroup_size(1)
fn one_loop() {
    var n = 0u;
    for (var i = 0u; i < trips[0]; i += 1u) {
        n += 1u;
    }
    counted[0] = n;
}

// A loop of a iterations, then another of b.
@compute @workgroup_size(1)
fn two_loops() {
    var n = 0u;
    for (var i = 0u; i < trips[0]; i += 1u) {
        n += 1u;
    }
    var m = 0u;
    for (var i = 0u; i < trips[1]; i += 1u) {
        m += 1u;
    }
    counted[0] = n;
    counted[1] = m;
}

// a iterations of an outer loop, each running an inner loop of b.
@compute @workgroup_size(1)
fn nested_loops() {
    var outer = 0u;
    var inner = 0u;
    for (var i = 0u; i < trips[0]; i += 1u) {
        for (var j = 0u; j < trips[1]; j += 1u) {
            inner += 1u;
        }
        outer += 1u;
    }
    counted[0] = outer;
    counted[1] = inner;
}
