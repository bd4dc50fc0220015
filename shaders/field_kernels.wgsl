// Element-wise kernels over the field functions of field.wgsl (prepended by
// crates/msm-gpu/src/field.rs): one element per invocation, used by tests and benchmarks.

const WORKGROUP_SIZE: u32 = {{WORKGROUP_SIZE}}u;

struct Params {
    count: u32,
    iterations: u32,
}

@group(0) @binding(0) var<storage, read> lhs: array<u32>;
@group(0) @binding(1) var<storage, read> rhs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

fn load_lhs(index: u32) -> Big {
    var r: Big;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        r[i] = lhs[index * NUM_LIMBS + i];
    }
    return r;
}

fn load_rhs(index: u32) -> Big {
    var r: Big;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        r[i] = rhs[index * NUM_LIMBS + i];
    }
    return r;
}

fn store(index: u32, value: Big) {
    let base = index * NUM_LIMBS;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        out[base + i] = value[i];
    }
}

fn element_index(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return gid.x + gid.y * groups.x * WORKGROUP_SIZE;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn mul(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = element_index(gid, groups);
    if (i < params.count) { store(i, mont_mul(load_lhs(i), load_rhs(i))); }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn add(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = element_index(gid, groups);
    if (i < params.count) { store(i, field_add(load_lhs(i), load_rhs(i))); }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn sub(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = element_index(gid, groups);
    if (i < params.count) { store(i, field_sub(load_lhs(i), load_rhs(i))); }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn neg(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = element_index(gid, groups);
    if (i < params.count) { store(i, field_neg(load_lhs(i))); }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn double(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = element_index(gid, groups);
    if (i < params.count) { store(i, field_double(load_lhs(i))); }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn into_mont(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = element_index(gid, groups);
    if (i < params.count) { store(i, to_mont(load_lhs(i))); }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn into_mont_barrett(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = element_index(gid, groups);
    if (i < params.count) { store(i, to_mont_barrett(load_lhs(i))); }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn out_of_mont(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = element_index(gid, groups);
    if (i < params.count) { store(i, from_mont(load_lhs(i))); }
}

// ANCHOR: chain
// The benchmark loop: x ← x·y, `iterations` times, each product depending on the last.
@compute @workgroup_size(WORKGROUP_SIZE)
fn chain(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = element_index(gid, groups);
    if (i >= params.count) { return; }
    var x = load_lhs(i);
    let y = load_rhs(i);
    for (var k = 0u; k < params.iterations; k++) {
        x = mont_mul(x, y);
    }
    store(i, x);
}
// ANCHOR_END: chain
