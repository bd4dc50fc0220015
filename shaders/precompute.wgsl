// Precomputed bases (RunOptions::precompute; host: crates/msm-gpu/src/msm/precompute.rs): copy t
// of every resident point is 2^(c·g) times copy t − 1, so that the MSM's window j of copy t stands
// for window t·g + j of the scalar. Appended, with field_inverse.wgsl, to the MSM's module; its
// kernels use three of msm.wgsl's bindings: `params` (n: the points of one copy in this chunk;
// level: the copy written; stride: doublings in this pass), `points` (the chunk of resident
// points, copy t at t·n) and `buckets` (one running multiple per point, in projective form).

// The curve's affine point as a projective one, and back (one inversion).
{{AFFINE_FORMS}}

fn write_affine(i: u32, a: Affine) {
    let base = i * 2u * NUM_LIMBS;
    for (var l = 0u; l < NUM_LIMBS; l++) {
        points[base + l] = a.x[l];
        points[base + NUM_LIMBS + l] = a.y[l];
    }
}

// The running multiple of point i starts at copy level − 1.
@compute @workgroup_size(WORKGROUP_SIZE)
fn precompute_load(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = invocation(gid, groups);
    if (i >= params.n) { return; }
    write_bucket(i, point_from_affine(read_affine((params.level - 1u) * params.n + i)));
}

// `stride` doublings of every running multiple (the host splits the c·g doublings into passes
// that stay within a device's loop limit).
@compute @workgroup_size(WORKGROUP_SIZE)
fn precompute_double(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = invocation(gid, groups);
    if (i >= params.n) { return; }
    var p = read_bucket(i);
    for (var k = 0u; k < params.stride; k++) {
        p = point_double(p);
    }
    write_bucket(i, p);
}

// The running multiple, affine, as copy `level`.
@compute @workgroup_size(WORKGROUP_SIZE)
fn precompute_store(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = invocation(gid, groups);
    if (i >= params.n) { return; }
    write_affine(params.level * params.n + i, point_to_affine(read_bucket(i)));
}
