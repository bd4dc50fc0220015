// Prime-field arithmetic in WGSL with NUM_LIMBS limbs of LIMB_BITS bits (12..=16), one limb per u32.
//
// WGSL has 32-bit integers only and no high-half multiply, so a limb product must fit in a u32:
// limbs of at most 16 bits. Values are little-endian, fully reduced (< p), each limb < 2^LIMB_BITS.
// Every constant below is injected by crates/msm-gpu/src/field.rs from fastmsm-mont, which derives
// them from the modulus alone; nothing numeric is typed here.

const NUM_LIMBS: u32 = {{NUM_LIMBS}}u;
const LIMB_BITS: u32 = {{LIMB_BITS}}u;
const LIMB_MASK: u32 = {{LIMB_MASK}}u;
const WORKGROUP_SIZE: u32 = {{WORKGROUP_SIZE}}u;

alias Big = array<u32, NUM_LIMBS>;

const P = Big({{MODULUS}});
const R_SQUARED = Big({{R_SQUARED}});
const ONE = Big({{ONE}});

// ANCHOR: add_sub
// a + b without reduction; returns the carry out of the top limb in `carry`.
fn big_add(a: Big, b: Big, carry: ptr<function, u32>) -> Big {
    var r: Big;
    var c = 0u;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        let s = a[i] + b[i] + c;
        r[i] = s & LIMB_MASK;
        c = s >> LIMB_BITS;
    }
    *carry = c;
    return r;
}

// a - b modulo 2^(LIMB_BITS·NUM_LIMBS); `borrow` is 1 when b > a. A borrow shows as the top bit of
// the wrapped u32 difference, since limbs are far below 2^31.
fn big_sub(a: Big, b: Big, borrow: ptr<function, u32>) -> Big {
    var r: Big;
    var c = 0u;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        let d = a[i] - b[i] - c;
        r[i] = d & LIMB_MASK;
        c = d >> 31u;
    }
    *borrow = c;
    return r;
}

// b where take_b, else a; limb-wise so the choice costs no branch (WGSL select takes no arrays).
fn choose(a: Big, b: Big, take_b: bool) -> Big {
    var r: Big;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        r[i] = select(a[i], b[i], take_b);
    }
    return r;
}

fn field_add(a: Big, b: Big) -> Big {
    var carry: u32;
    var borrow: u32;
    let s = big_add(a, b, &carry);
    let d = big_sub(s, P, &borrow);
    // s ≥ p exactly when the subtraction did not borrow (or the addition carried out).
    return choose(s, d, carry == 1u || borrow == 0u);
}

fn field_sub(a: Big, b: Big) -> Big {
    var borrow: u32;
    var carry: u32;
    let d = big_sub(a, b, &borrow);
    let wrapped = big_add(d, P, &carry);
    return choose(d, wrapped, borrow == 1u);
}
// ANCHOR_END: add_sub

fn is_zero(a: Big) -> bool {
    var acc = 0u;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        acc |= a[i];
    }
    return acc == 0u;
}

fn field_neg(a: Big) -> Big {
    var borrow: u32;
    let d = big_sub(P, a, &borrow);
    return choose(d, a, is_zero(a));
}

fn field_double(a: Big) -> Big {
    return field_add(a, a);
}

// The Montgomery product is generated straight-line for this limb width (see field.rs): every limb
// lives in its own register and the carry schedule (every nSafe steps) is fixed at generation time.
{{MONT_MUL}}

fn to_mont(a: Big) -> Big {
    return mont_mul(a, R_SQUARED);
}

fn from_mont(a: Big) -> Big {
    return mont_mul(a, ONE);
}

// ---- kernels: one element per invocation -------------------------------------------------------

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
