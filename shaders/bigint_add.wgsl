// Big-integer addition with carries, one element per invocation.
//
// Numbers are little-endian arrays of NUM_LIMBS limbs of LIMB_BITS bits, each limb in its own u32.
// The spare high bits of a u32 limb are what make carries cheap here: the sum of two limbs plus a
// carry always fits in 32 bits, so no overflow test is needed (WGSL has no add-with-carry).
// Constants are injected by crates/msm-gpu/src/bigint.rs; do not type numbers here.

const NUM_LIMBS: u32 = {{NUM_LIMBS}}u;
const LIMB_BITS: u32 = {{LIMB_BITS}}u;
const LIMB_MASK: u32 = {{LIMB_MASK}}u;
const WORKGROUP_SIZE: u32 = {{WORKGROUP_SIZE}}u;

struct Params {
    count: u32,
}

@group(0) @binding(0) var<storage, read> lhs: array<u32>;
@group(0) @binding(1) var<storage, read> rhs: array<u32>;
// NUM_LIMBS + 1 words per element: the limbs of the sum, then the carry out of the top limb.
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

// ANCHOR: add
@compute @workgroup_size(WORKGROUP_SIZE)
fn add(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let index = gid.x + gid.y * groups.x * WORKGROUP_SIZE;
    if (index >= params.count) {
        return;
    }
    let src = index * NUM_LIMBS;
    let dst = index * (NUM_LIMBS + 1u);
    var carry = 0u;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        let s = lhs[src + i] + rhs[src + i] + carry;
        sums[dst + i] = s & LIMB_MASK;
        carry = s >> LIMB_BITS;
    }
    sums[dst + NUM_LIMBS] = carry;
}
// ANCHOR_END: add
