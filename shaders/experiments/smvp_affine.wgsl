// Batch-affine bucket accumulation: the SMVP's first level with affine additions that share one
// field inversion (Montgomery's trick), for short Weierstrass curves (y² = x³ + b). An experiment
// (cargo feature `experiments`): appended with curve_sw_forms.wgsl to msm.wgsl only when a build
// asks for it; host: crates/msm-gpu/src/experiments/batch_affine.rs.
//
// Why: with the inverse of its denominator known, an affine addition costs three products
// (λ = Δy·Δx⁻¹, λ², λ·(x₁ − x₃)) against ten for the mixed XYZZ addition of `smvp`. Montgomery's
// trick gives the inverses of m denominators for one inversion and 3(m − 1) products, so an
// addition costs about 6 + I/m products, I being the inversion's (about 1.5 products per bit of p
// here, by Fermat). The m additions of a batch must be independent: one invocation runs LANES
// accumulations side by side (lanes), each over its own L consecutive entries, and every round
// adds one entry to each lane's affine sum under one shared inversion.
//
// Each lane is one of the chunks of the projective `smvp` (chunks of L entries, numbered across
// windows), so `smvp_combine` and its head slots work unchanged. A lane's runs end in one of two
// places: the run that began in an earlier lane goes to the lane's head slot (as in `smvp`), and
// a run that begins its bucket is stored, affine, in `bucket_sums` (no arithmetic: a branch that
// needed a product there would stall the other lanes), which `bucket_merge` then adds into the
// projective buckets before the combine levels run.
//
// The inversion is Fermat's (field_inverse, shaders/field_inverse.wgsl) or the divstep one
// (field_inverse_safegcd, shaders/experiments/safegcd.wgsl), appended before this file. With
// SHARED > 1 the SHARED invocations of a workgroup share it too: each puts the product of its
// lanes' denominators into a product tree in workgroup memory, INVERTERS invocations invert the
// tree's INVERTERS roots at once (the lanes of one SIMD group cost what one does), and the tree
// hands each invocation the inverse of its product (shared_inverse). One inversion then serves
// SHARED·LANES additions.
//
// Exceptional additions stay inside the shared batch: P + P takes λ = 3x²/(2y) (denominator 2y),
// P + (−P) empties the lane's sum, and an empty sum takes the next point as it is; the last two
// contribute a denominator of one. Input points at infinity, (0, 0), are skipped.

const LANES: u32 = {{AFFINE_LANES}}u;
const SHARED: u32 = {{AFFINE_SHARED}}u;          // invocations sharing an inversion: 1 or the workgroup
const AFFINE_WORKGROUP: u32 = {{AFFINE_WORKGROUP}}u;
const INVERTERS: u32 = {{AFFINE_INVERTERS}}u;    // roots of the shared tree, inverted side by side

@group(0) @binding(14) var<storage, read_write> bucket_sums: array<u32>; // [window][bucket 0..=B]: affine x, y
// Each lane's running sum (x, y) and its prefix product, [lane][coordinate][limb][invocation]: in
// device memory rather than the invocation's private memory, which WebGPU caps at 8 KiB per
// function; invocation-minor, so neighbouring invocations touch neighbouring words.
@group(0) @binding(15) var<storage, read_write> lane_values: array<u32>;

// Lane state bits, beside the bucket slot.
const EMPTY: u32 = 1u;  // the lane's running sum is the point at infinity
const BEGINS: u32 = 2u; // the current run begins its bucket (else it goes to the lane's head slot)

// What a lane does this round (forward and backward passes agree: both derive it from the same
// sum and point).
const SKIP: u32 = 0u;
const TAKE: u32 = 1u;   // empty sum: the point becomes the sum
const CANCEL: u32 = 2u; // P + (−P): the sum becomes empty
const ADD: u32 = 3u;
const DOUBLE: u32 = 4u;


fn affine_at(i: u32) -> Affine {
    var a: Affine;
    let base = i * 2u * NUM_LIMBS;
    for (var l = 0u; l < NUM_LIMBS; l++) {
        a.x[l] = bucket_sums[base + l];
        a.y[l] = bucket_sums[base + NUM_LIMBS + l];
    }
    return a;
}

fn store_affine(i: u32, a: Affine) {
    let base = i * 2u * NUM_LIMBS;
    for (var l = 0u; l < NUM_LIMBS; l++) {
        bucket_sums[base + l] = a.x[l];
        bucket_sums[base + NUM_LIMBS + l] = a.y[l];
    }
}

// Coordinates of a lane's values.
const SUM_X: u32 = 0u;
const SUM_Y: u32 = 1u;
const PREFIX: u32 = 2u;
const LANE_VALUES: u32 = 3u;

// Level 0's invocations: one per LANES of its params.chunks chunks.
fn lane_invocations() -> u32 {
    return (params.chunks + LANES - 1u) / LANES;
}

fn lane_get(invocation: u32, s: u32, c: u32) -> Big {
    var v: Big;
    let base = (s * LANE_VALUES + c) * NUM_LIMBS;
    let stride = lane_invocations();
    for (var l = 0u; l < NUM_LIMBS; l++) {
        v[l] = lane_values[(base + l) * stride + invocation];
    }
    return v;
}

fn lane_set(invocation: u32, s: u32, c: u32, v: Big) {
    let base = (s * LANE_VALUES + c) * NUM_LIMBS;
    let stride = lane_invocations();
    for (var l = 0u; l < NUM_LIMBS; l++) {
        lane_values[(base + l) * stride + invocation] = v[l];
    }
}

fn lane_sum(invocation: u32, s: u32) -> Affine {
    return Affine(lane_get(invocation, s, SUM_X), lane_get(invocation, s, SUM_Y));
}

fn lane_kind(live: bool, p: Affine, sum: Affine, state: u32) -> u32 {
    if (!live || affine_is_identity(p)) { return SKIP; }
    if ((state & EMPTY) != 0u) { return TAKE; }
    if (big_eq(p.x, sum.x)) {
        if (big_eq(p.y, sum.y)) { return DOUBLE; }
        return CANCEL;
    }
    return ADD;
}

fn lane_denominator(kind: u32, p: Affine, sum: Affine) -> Big {
    if (kind == ADD) { return field_sub(p.x, sum.x); }
    if (kind == DOUBLE) { return field_double(sum.y); }
    return ONE_MONT;
}

// ANCHOR: smvp_affine
@compute @workgroup_size(AFFINE_WORKGROUP)
fn smvp_affine(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let me = gid.x + gid.y * groups.x * AFFINE_WORKGROUP;
    // Invocations past the last lane take part in the shared tree with nothing to add.
    let has_lanes = me < lane_invocations();
    let first_lane = me * LANES;
    {{K_LOAD}} // L: entries per lane (chunk)
    var next: array<u32, LANES>;   // the lane's next entry
    var stop: array<u32, LANES>;   // one past the lane's last entry
    var run_end: array<u32, LANES>;
    var slot: array<u32, LANES>;   // bucket slot of the current run
    var state: array<u32, LANES>;
    var window: array<u32, LANES>;
    // Lanes are consecutive chunks; walk the windows once for all of them.
    var at = vec2<u32>(params.windows, 0u);
    if (has_lanes) {
        at = chunk_window(first_lane, k);
    }
    for (var s = 0u; s < LANES; s++) {
        let g = first_lane + s;
        while (at.x < params.windows && g >= at.y + (window_entries(at.x) + k - 1u) / k) {
            at = vec2<u32>(at.x + 1u, at.y + (window_entries(at.x) + k - 1u) / k);
        }
        next[s] = 0u;
        stop[s] = 0u;
        if (!has_lanes || at.x >= params.windows) { continue; }
        let j = at.x;
        let row = j * (params.buckets + 2u);
        let start = (g - at.y) * k;
        let end = min(start + k, window_entries(j));
        let b = entry_bucket(j, start);
        window[s] = j;
        next[s] = start;
        stop[s] = end;
        slot[s] = j * (params.buckets + 1u) + b;
        run_end[s] = min(offsets[row + b + 1u], end);
        state[s] = EMPTY | select(0u, BEGINS, offsets[row + b] == start);
    }
    for (var r = 0u; r < k; r++) {
        var running = ONE_MONT;
        var busy = false; // some lane still has entries
        for (var s = 0u; s < LANES; s++) {
            let e = next[s];
            let live = e < stop[s];
            busy = busy || live;
            var p: Affine;
            if (live) {
                p = entry_affine(entries[window[s] * params.n + e]);
            }
            var sum: Affine;
            if (live) {
                sum = lane_sum(me, s);
            }
            let kind = lane_kind(live, p, sum, state[s]);
            if (kind == ADD || kind == DOUBLE) {
                // The product of this round's denominators of lanes 0..s−1.
                lane_set(me, s, PREFIX, running);
                running = mont_mul(running, lane_denominator(kind, p, sum));
            }
        }
        {{ROUND_END}}
        {{ROUND_INVERSE}}
        for (var t = 0u; t < LANES; t++) {
            let s = LANES - 1u - t;
            let e = next[s];
            if (e < stop[s]) {
                let p = entry_affine(entries[window[s] * params.n + e]);
                var sum = lane_sum(me, s);
                let kind = lane_kind(true, p, sum, state[s]);
                if (kind == TAKE) {
                    sum = p;
                    lane_set(me, s, SUM_X, p.x);
                    lane_set(me, s, SUM_Y, p.y);
                    state[s] &= ~EMPTY;
                } else if (kind == CANCEL) {
                    state[s] |= EMPTY;
                } else if (kind == ADD || kind == DOUBLE) {
                    // 1/den_s = (den_0 ⋯ den_s)⁻¹ · (den_0 ⋯ den_{s−1}); then drop den_s.
                    let lane_inverse = mont_mul(inverse, lane_get(me, s, PREFIX));
                    inverse = mont_mul(inverse, lane_denominator(kind, p, sum));
                    var numerator = field_sub(p.y, sum.y);
                    if (kind == DOUBLE) {
                        let xx = mont_mul(sum.x, sum.x);
                        numerator = field_add(field_double(xx), xx);
                    }
                    let lambda = mont_mul(numerator, lane_inverse);
                    let x3 = field_sub(field_sub(mont_mul(lambda, lambda), sum.x), p.x);
                    sum = Affine(x3, field_sub(mont_mul(lambda, field_sub(sum.x, x3)), sum.y));
                    lane_set(me, s, SUM_X, sum.x);
                    lane_set(me, s, SUM_Y, sum.y);
                }
                next[s] = e + 1u;
                if (e + 1u == run_end[s]) {
                    // The run is complete in this lane: out to the bucket's sum or the head slot.
                    let empty = (state[s] & EMPTY) != 0u;
                    if ((state[s] & BEGINS) != 0u) {
                        var out = sum;
                        if (empty) {
                            out = Affine(Big(), Big());
                        }
                        store_affine(slot[s], out);
                    } else if (empty) {
                        write_head(first_lane + s, point_identity());
                    } else {
                        write_head(first_lane + s, Point(sum.x, sum.y, ONE_MONT, ONE_MONT));
                    }
                    if (e + 1u < stop[s]) {
                        let j = window[s];
                        let row = j * (params.buckets + 2u);
                        let b = entry_bucket(j, e + 1u);
                        slot[s] = j * (params.buckets + 1u) + b;
                        run_end[s] = min(offsets[row + b + 1u], stop[s]);
                        state[s] = EMPTY | BEGINS;
                    }
                }
            }
        }
    }
}
// ANCHOR_END: smvp_affine

// One invocation per bucket slot: the batch's affine bucket sums into the projective buckets,
// before the combine levels add the head slots. Slots no lane began this batch hold (0, 0).
@compute @workgroup_size(WORKGROUP_SIZE)
fn bucket_merge(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let id = invocation(gid, groups);
    if (id >= params.windows * (params.buckets + 1u)) { return; }
    let a = affine_at(id);
    if (affine_is_identity(a)) { return; }
    write_bucket(id, point_add_affine(read_bucket(id), a));
}

// L, read once per workgroup where its invocations share the inversion: the tree's barriers
// need every invocation in the same round, which the analysis proves only for a value loaded
// this way.
var<workgroup> wg_k: u32;

// The inverse of every invocation's x, for one inversion per workgroup: a product tree over the
// AFFINE_WORKGROUP values in workgroup memory (node k has children 2k and 2k + 1; the values
// are the leaves AFFINE_WORKGROUP..), whose INVERTERS roots are inverted by as many invocations
// at once; going down, a child's inverse is its parent's times its sibling. Ones (an invocation
// with nothing to add) pass through. Called by every invocation of the workgroup.
var<workgroup> tree: array<Big, 2u * AFFINE_WORKGROUP>;

fn shared_inverse(x: Big, lid: u32) -> Big {
    tree[AFFINE_WORKGROUP + lid] = x;
    workgroupBarrier();
    for (var level = AFFINE_WORKGROUP / 2u; level >= INVERTERS; level /= 2u) {
        if (lid < level) {
            let k = level + lid;
            tree[k] = mont_mul(tree[2u * k], tree[2u * k + 1u]);
        }
        workgroupBarrier();
    }
    if (lid < INVERTERS) {
        let root = tree[INVERTERS + lid];
        if (!big_eq(root, ONE_MONT)) {
            tree[INVERTERS + lid] = {{INVERT}}(root);
        }
    }
    workgroupBarrier();
    for (var level = INVERTERS; level < AFFINE_WORKGROUP; level *= 2u) {
        if (lid < level) {
            let k = level + lid;
            let inverse = tree[k];
            let left = tree[2u * k];
            tree[2u * k] = mont_mul(inverse, tree[2u * k + 1u]);
            tree[2u * k + 1u] = mont_mul(inverse, left);
        }
        workgroupBarrier();
    }
    return tree[AFFINE_WORKGROUP + lid];
}
