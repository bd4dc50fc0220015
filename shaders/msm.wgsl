// The MSM stages (cuZK-style, after Derei & Koh's ZPrize 2023 WebGPU pipeline), over field.wgsl
// and one of curve_sw.wgsl / curve_te.wgsl. Host: crates/msm-gpu/src/msm/; `Params` and the bindings
// below are mirrored by msm/contract.rs and the entry points by msm/stage.rs (tests/contract.rs
// checks both against this file).
//
// Per batch of points (batches keep every buffer under the device's binding limit):
//   convert_points  packed 32-bit words → Montgomery-form limbs
//   decompose       scalars → signed c-bit digits per window; count points per bucket
//   prefix          per window, bucket counts → offsets (CSR row pointers of the transposed matrix)
//   scatter         per window, point indices grouped by bucket (CSR column indices)
//   smvp            one invocation per chunk of K consecutive entries of a window, K from the
//                   entries of all windows: add each run of same-bucket points to its bucket; a run
//                   cut off by the chunk's start goes to a head slot instead
//   smvp_combine    the same over the head slots, level by level, until every bucket is complete
// Once, before the first batch: init_buckets. Once, after the last batch:
//   reduce          one invocation per (window, segment): Σ b·S_b over its segment of buckets
//   fold            tree sum of each window's segment partials (one dispatch per level)
//   window_out      each window's sum out of Montgomery form, for the host's Horner combination

const WORKGROUP_SIZE: u32 = {{WORKGROUP_SIZE}}u;
const PREFIX_THREADS: u32 = {{PREFIX_THREADS}}u;
const COORD_WORDS: u32 = {{COORD_WORDS}}u; // 32-bit words of one input coordinate
const SCALAR_WORDS: u32 = 8u;              // scalars are 256-bit little-endian
const POINT_WORDS: u32 = 4u * NUM_LIMBS;
const NEGATIVE: u32 = 0x80000000u;

struct Params {
    n: u32,           // points in one MSM's window: the batch's, every copy counted (see below)
    base: u32,        // index of the batch's first point in the whole input
    windows: u32,     // all windows: each packed MSM's msm_windows, side by side
    window_bits: u32,
    buckets: u32,     // per window: 2^(window_bits − 1); digit 0 goes to no bucket
    segments: u32,    // per window, for the reduction; divides `buckets`
    threads: u32,     // smvp: T, chunks of this batch when every window is full (K = ⌈entries/T⌉)
    fan_in: u32,      // smvp_combine: F, head slots per invocation
    level: u32,       // smvp_combine: ℓ ≥ 1
    chunks: u32,      // smvp_combine: invocations in this pass
    stride: u32,      // fold: partial t absorbs partial t + stride
    msm_windows: u32, // windows of one MSM (= windows unless several MSMs are packed)
    add_steps: u32,   // curve_sw.wgsl's stepped general addition: its steps (ADD_STEPS)
    copies: u32,      // copies of every point (precomputed bases; else 1)
    offset: u32,      // first invocation of this slice of a dispatch (`invocation`)
}

// One pass may hold several MSMs side by side (GpuMsm::run_batch), or one MSM over several
// precomputed copies of its points (copy t is 2^(c·msm_windows·t) times the point and takes the
// scalar's windows t·msm_windows.. of it). MSM b's points are input points b·m..(b+1)·m, with
// m = n / copies; the SMVP sees its copies as points b·n + t·m + i and its windows as windows
// b·msm_windows + j. With one MSM and one copy every formula below is the plain one.
fn input_points() -> u32 {
    return params.n / params.copies * (params.windows / params.msm_windows);
}

// A storage buffer, not a uniform: lavapipe recompiles a shader for every new set of uniform values
// (it inlines them), which costs minutes for these kernels.
@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read> points_in: array<u32>;       // [point]: x, y as packed words
@group(0) @binding(2) var<storage, read_write> points: array<u32>;    // [point]: Montgomery x, y limbs
@group(0) @binding(3) var<storage, read> scalars: array<u32>;         // [point]: 8 words
@group(0) @binding(4) var<storage, read_write> digits: array<u32>;    // [window][point]: bucket | sign
@group(0) @binding(5) var<storage, read_write> counts: array<atomic<u32>>; // [window][bucket 0..=B]
@group(0) @binding(6) var<storage, read_write> offsets: array<u32>;   // [window][0..=B+1]
@group(0) @binding(7) var<storage, read_write> entries: array<u32>;   // [window][slot]: point | sign
@group(0) @binding(8) var<storage, read_write> buckets: array<u32>;   // [window][bucket 0..=B]: point
@group(0) @binding(9) var<storage, read_write> partials: array<u32>;  // [window][segment]: point
@group(0) @binding(10) var<storage, read_write> window_sums: array<u32>; // [window]: canonical point
@group(0) @binding(11) var<storage, read> heads_in: array<u32>;       // [window][slot]: point
@group(0) @binding(12) var<storage, read_write> heads_out: array<u32>; // [window][slot]: point
// Input checks: [0] least 2·i + c over coordinates c of points i not below p, [1] least index of a
// scalar not below r (u32::MAX: none). The host reports them instead of a result.
@group(0) @binding(13) var<storage, read_write> errors: array<atomic<u32>>;

const P_WORDS = array<u32, COORD_WORDS>({{P_WORDS}});
const R_WORDS = array<u32, SCALAR_WORDS>({{R_WORDS}});

// The flat index of this invocation: where the host cut one dispatch into several to keep each
// submission short (msm/submit.rs), `params.offset` is the first invocation of this slice.
fn invocation(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return params.offset + gid.x + gid.y * groups.x * WORKGROUP_SIZE;
}

// Limb l of coordinate `c` of point i, cut from the packed little-endian words.
fn input_limb(i: u32, c: u32, l: u32) -> u32 {
    let bit = l * LIMB_BITS;
    let word = bit / 32u;
    let shift = bit % 32u;
    let base = (2u * i + c) * COORD_WORDS;
    var v = points_in[base + word] >> shift;
    if (shift + LIMB_BITS > 32u && word + 1u < COORD_WORDS) {
        v |= points_in[base + word + 1u] << (32u - shift);
    }
    return v & LIMB_MASK;
}

// Whether coordinate c of point i, as packed, is below p (compared word by word from the top).
fn coordinate_below_p(i: u32, c: u32) -> bool {
    let base = (2u * i + c) * COORD_WORDS;
    var p = P_WORDS;
    for (var k = COORD_WORDS; k > 0u; k--) {
        let w = points_in[base + k - 1u];
        if (w != p[k - 1u]) { return w < p[k - 1u]; }
    }
    return false;
}

fn scalar_below_r(i: u32) -> bool {
    var r = R_WORDS;
    for (var k = SCALAR_WORDS; k > 0u; k--) {
        let w = scalars[i * SCALAR_WORDS + k - 1u];
        if (w != r[k - 1u]) { return w < r[k - 1u]; }
    }
    return false;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn convert_points(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = invocation(gid, groups);
    if (i >= input_points()) { return; }
    for (var c = 0u; c < 2u; c++) {
        if (!coordinate_below_p(i, c)) {
            atomicMin(&errors[0], 2u * (params.base + i) + c);
        }
        var v: Big;
        for (var l = 0u; l < NUM_LIMBS; l++) {
            v[l] = input_limb(i, c, l);
        }
        let m = to_mont(v);
        let base = (2u * i + c) * NUM_LIMBS;
        for (var l = 0u; l < NUM_LIMBS; l++) {
            points[base + l] = m[l];
        }
    }
}

// Bits [start, start + count) of scalar i (count ≤ 16).
fn scalar_bits(i: u32, start: u32, count: u32) -> u32 {
    let word = start / 32u;
    let shift = start % 32u;
    if (word >= SCALAR_WORDS) { return 0u; }
    var v = scalars[i * SCALAR_WORDS + word] >> shift;
    if (shift + count > 32u && word + 1u < SCALAR_WORDS) {
        v |= scalars[i * SCALAR_WORDS + word + 1u] << (32u - shift);
    }
    return v & ((1u << count) - 1u);
}

// ANCHOR: decompose
// Signed digits d_j ∈ [−2^(c−1), 2^(c−1)]: a window value above 2^(c−1) becomes v − 2^c and
// carries 1 into the next window. The host picks enough windows that the last carry is absorbed.
@compute @workgroup_size(WORKGROUP_SIZE)
fn decompose(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = invocation(gid, groups);
    if (i >= input_points()) { return; }
    if (!scalar_below_r(i)) {
        atomicMin(&errors[1], params.base + i);
    }
    let c = params.window_bits;
    let half = 1u << (c - 1u);
    // The point's MSM (packed MSMs) and its index there; window j goes to copy j / msm_windows.
    let m = params.n / params.copies;
    let first_window = i / m * params.msm_windows;
    var carry = 0u;
    for (var j = 0u; j < params.copies * params.msm_windows; j++) {
        let v = scalar_bits(i, j * c, c) + carry;
        var entry = v;
        carry = 0u;
        if (v > half) {
            entry = ((1u << c) - v) | NEGATIVE;
            carry = 1u;
        }
        let window = first_window + j % params.msm_windows;
        digits[window * params.n + j / params.msm_windows * m + i % m] = entry;
        let bucket = entry & ~NEGATIVE;
        if (bucket != 0u) {
            atomicAdd(&counts[window * (params.buckets + 1u) + bucket], 1u);
        }
    }
}
// ANCHOR_END: decompose

// ANCHOR: prefix
// One workgroup per window: exclusive prefix sum of the bucket counts. Each invocation sums a
// contiguous run of buckets, the workgroup scans those run totals (Hillis–Steele, in workgroup
// memory), then each invocation writes its run's offsets.
var<workgroup> run_totals: array<u32, PREFIX_THREADS>;

@compute @workgroup_size(PREFIX_THREADS)
fn prefix(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let j = wid.x;
    let total = params.buckets + 1u;
    let per = (total + PREFIX_THREADS - 1u) / PREFIX_THREADS;
    let start = min(lid.x * per, total);
    let end = min(start + per, total);
    var own = 0u;
    for (var b = start; b < end; b++) {
        own += atomicLoad(&counts[j * total + b]);
    }
    run_totals[lid.x] = own;
    workgroupBarrier();
    for (var d = 1u; d < PREFIX_THREADS; d = d << 1u) {
        var left = 0u;
        if (lid.x >= d) { left = run_totals[lid.x - d]; }
        workgroupBarrier();
        run_totals[lid.x] += left;
        workgroupBarrier();
    }
    var running = run_totals[lid.x] - own;
    for (var b = start; b < end; b++) {
        offsets[j * (total + 1u) + b] = running;
        running += atomicLoad(&counts[j * total + b]);
        // Reset the count: scatter reuses it as the per-bucket cursor.
        atomicStore(&counts[j * total + b], 0u);
    }
    if (lid.x == PREFIX_THREADS - 1u) {
        offsets[j * (total + 1u) + total] = run_totals[lid.x];
    }
}
// ANCHOR_END: prefix

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    // One invocation per point the SMVP sees (every copy); its MSM's windows only.
    let i = invocation(gid, groups);
    if (i >= params.n * (params.windows / params.msm_windows)) { return; }
    let first_window = i / params.n * params.msm_windows;
    for (var w = 0u; w < params.msm_windows; w++) {
        let j = first_window + w;
        let digit = digits[j * params.n + i % params.n];
        let bucket = digit & ~NEGATIVE;
        if (bucket == 0u) { continue; }
        let slot = atomicAdd(&counts[j * (params.buckets + 1u) + bucket], 1u);
        entries[j * params.n + offsets[j * (params.buckets + 2u) + bucket] + slot] = i | (digit & NEGATIVE);
    }
}

fn read_affine(i: u32) -> Affine {
    var a: Affine;
    let base = i * 2u * NUM_LIMBS;
    for (var l = 0u; l < NUM_LIMBS; l++) {
        a.x[l] = points[base + l];
        a.y[l] = points[base + NUM_LIMBS + l];
    }
    return a;
}

// The input point of an SMVP entry (point index | NEGATIVE), negated where the sign says.
fn entry_affine(entry: u32) -> Affine {
    var a = read_affine(entry & ~NEGATIVE);
    if ((entry & NEGATIVE) != 0u) {
        a = affine_neg(a);
    }
    return a;
}

// read_bucket/write_bucket, read_partial/write_partial, read_head/write_head: a Point at index i of
// the buckets, partials and heads_in/heads_out buffers. Generated by the host (msm/curve.rs), one
// template for all three: WGSL functions cannot take a pointer into a storage buffer.
{{POINT_ACCESSORS}}

// One invocation per bucket slot, before the first batch: every batch adds to what is there.
@compute @workgroup_size(WORKGROUP_SIZE)
fn init_buckets(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let id = invocation(gid, groups);
    if (id >= params.windows * (params.buckets + 1u)) { return; }
    write_bucket(id, point_identity());
}

// ANCHOR: smvp
// Load-balanced bucket accumulation. Window j's entries (CSR: grouped by bucket, offsets[b] to
// offsets[b + 1]) are cut into chunks of K, with K = ⌈entries/T⌉ over all windows of the batch,
// so that the batch's T invocations (plus one per window for rounding) all have work however the
// scalars fill the windows: skewed scalars leave most windows nearly empty and their chunks to
// the full ones. Window j has ⌈m_j/K⌉ chunks, numbered after those of windows 0..j−1; chunk g
// adds the points of its K entries, run by run. A run that begins its bucket adds to the bucket's
// stored value and writes it back; a run that began in an earlier chunk (only a chunk's first run
// can) goes to head slot g instead. One bucket of m entries thus leaves ≈ m/K head slots, which
// smvp_combine sums the same way. No invocation adds more than K points, whatever the scalars.
fn entry_bucket(j: u32, e: u32) -> u32 {
    let point = entries[j * params.n + e] & ~NEGATIVE;
    return digits[j * params.n + point % params.n] & ~NEGATIVE;
}

fn window_entries(j: u32) -> u32 {
    return offsets[j * (params.buckets + 2u) + params.buckets + 1u];
}

// K: entries per chunk, so that about T chunks cover every window's entries.
fn chunk_size() -> u32 {
    var total = 0u;
    for (var j = 0u; j < params.windows; j++) {
        total += window_entries(j);
    }
    return max((total + params.threads - 1u) / params.threads, 1u);
}

// The window of chunk g, and the number of the window's first chunk; window = params.windows
// when g is past the last chunk.
fn chunk_window(g: u32, k: u32) -> vec2<u32> {
    var j = 0u;
    var first = 0u;
    for (; j < params.windows; j++) {
        let chunks = (window_entries(j) + k - 1u) / k;
        if (g < first + chunks) {
            break;
        }
        first += chunks;
    }
    return vec2<u32>(j, first);
}

// ANCHOR: smvp_loop
@compute @workgroup_size(WORKGROUP_SIZE)
fn smvp(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let g = invocation(gid, groups);
    let k = chunk_size();
    let at = chunk_window(g, k);
    if (at.x >= params.windows) { return; }
    let j = at.x;
    let row = j * (params.buckets + 2u);
    let start = (g - at.y) * k;
    let end = min(start + k, offsets[row + params.buckets + 1u]);
    if (start >= end) { return; }
    // One loop over the chunk's entries, not a loop over runs around a loop over a run's entries:
    // in a warp, a nested loop runs each round as long as its thread with the longest run (about
    // 1.5x the mean for Poisson-sized buckets of 32 points), while here every thread adds one
    // point per iteration and only a run's end branches.
    var b = entry_bucket(j, start);
    var slot = j * (params.buckets + 1u) + b;
    var run_end = min(offsets[row + b + 1u], end);
    // Only the chunk's first run can have begun in an earlier chunk; it goes to head slot g.
    var begins = offsets[row + b] == start;
    var acc = point_identity();
    if (begins) {
        acc = read_bucket(slot);
    }
    for (var e = start; e < end; e++) {
        acc = add_entry(acc, entries[j * params.n + e]);
        if (e + 1u == run_end) {
            if (begins) {
                write_bucket(slot, acc);
            } else {
                write_head(g, acc);
            }
            if (run_end < end) {
                b = entry_bucket(j, run_end);
                slot = j * (params.buckets + 1u) + b;
                run_end = min(offsets[row + b + 1u], end);
                begins = true;
                acc = read_bucket(slot);
            }
        }
    }
}
// ANCHOR_END: smvp_loop

// Level ℓ ≥ 1 over the head slots of level ℓ − 1, F slots per invocation (F small: these levels
// have few slots, and an invocation's slots are added one after another). Slot i of level ℓ holds
// the part of a bucket that begins in chunk i·F^(ℓ−1). A bucket spanning entries [s, e) of window
// j, whose first chunk is G, owns slots [s_ℓ, e_ℓ) with s_1 = G + ⌊s/K⌋ + 1,
// e_1 = G + ⌊(e − 1)/K⌋ + 1 and above s_ℓ = ⌊s_{ℓ−1}/F⌋ + 1, e_ℓ = ⌊(e_{ℓ−1} − 1)/F⌋ + 1 (empty
// once it fits one chunk or invocation). Other slots were not written and are skipped.
fn level_range(s: u32, e: u32, first_chunk: u32, k: u32) -> vec2<u32> {
    var r = vec2<u32>(first_chunk + s / k + 1u, first_chunk + (e - 1u) / k + 1u);
    for (var l = 1u; l < params.level; l++) {
        r = vec2<u32>(r.x / params.fan_in + 1u, (r.y - 1u) / params.fan_in + 1u);
    }
    return r;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn smvp_combine(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let c = invocation(gid, groups);
    if (c >= params.chunks) { return; }
    let k = chunk_size();
    // Slot i of this level starts in chunk i·F^(ℓ−1); `slots` is the level's slot count.
    var span = 1u;
    var slots = chunk_window(0xffffffffu, k).y;
    for (var l = 1u; l < params.level; l++) {
        span *= params.fan_in;
        slots = (slots + params.fan_in - 1u) / params.fan_in;
    }
    let end = min(c * params.fan_in + params.fan_in, slots);
    var i = c * params.fan_in;
    while (i < end) {
        let at = chunk_window(i * span, k);
        let j = at.x;
        let row = j * (params.buckets + 2u);
        let b = entry_bucket(j, (i * span - at.y) * k);
        let range = level_range(offsets[row + b], offsets[row + b + 1u], at.y, k);
        if (i < range.x || i >= range.y) {
            i++;
            continue;
        }
        let begins = i == range.x;
        let run_end = min(range.y, end);
        let slot = j * (params.buckets + 1u) + b;
        var acc = point_identity();
        if (begins) {
            acc = read_bucket(slot);
        }
        for (; i < run_end; i++) {
            acc = point_add(acc, read_head(i));
        }
        if (begins) {
            write_bucket(slot, acc);
        } else {
            write_head(c, acc);
        }
    }
}
// ANCHOR_END: smvp

// ANCHOR: reduce
// One invocation per (window, segment). For buckets lo..=hi of the segment, the running sum from the
// top gives A = Σ (b − lo + 1)·S_b and R = Σ S_b; the segment's share of Σ b·S_b is A + (lo − 1)·R,
// with (lo − 1)·R by double-and-add. Every step is one point_add (a doubling is P + P), so the
// kernel holds a single inlined copy of the addition formulas: shader compilers (lavapipe's LLVM
// most of all) then see a fifth of the code that four call sites would give them.
@compute @workgroup_size(WORKGROUP_SIZE)
fn reduce(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let id = invocation(gid, groups);
    if (id >= params.windows * params.segments) { return; }
    let j = id / params.segments;
    let t = id % params.segments;
    let size = params.buckets / params.segments;
    let lo = t * size + 1u;
    let k = lo - 1u;
    let k_bits = 32u - countLeadingZeros(k);
    let running_steps = 2u * size;           // even: R += S_b (b from the top); odd: A += R
    let scale_steps = 2u * k_bits;           // even: D += D; odd: D += R where bit of k is set
    var running = point_identity();          // R
    var acc = point_identity();              // A
    var scaled = point_identity();           // D = (lo − 1)·R once the scale steps are done
    for (var s = 0u; s < running_steps + scale_steps + 1u; s++) {
        var lhs = acc;
        var rhs = running;
        var dest = 1u; // 0: R, 1: A, 2: D
        if (s < running_steps) {
            if ((s & 1u) == 0u) {
                lhs = running;
                rhs = read_bucket(j * (params.buckets + 1u) + lo + size - 1u - s / 2u);
                dest = 0u;
            }
        } else if (s < running_steps + scale_steps) {
            let q = s - running_steps;
            lhs = scaled;
            dest = 2u;
            if ((q & 1u) == 0u) {
                rhs = scaled;
            } else if (((k >> (k_bits - 1u - q / 2u)) & 1u) == 0u) {
                continue;
            }
        } else {
            rhs = scaled;
        }
        let sum = point_add(lhs, rhs);
        if (dest == 0u) {
            running = sum;
        } else if (dest == 1u) {
            acc = sum;
        } else {
            scaled = sum;
        }
    }
    write_partial(id, acc);
}
// ANCHOR_END: reduce

// One invocation per (window, t < stride): partial t absorbs partial t + stride. The host halves
// `stride` from segments/2 down to 1, leaving each window's sum in its segment 0.
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let id = invocation(gid, groups);
    if (id >= params.windows * params.stride) { return; }
    let j = id / params.stride;
    let t = id % params.stride;
    let here = j * params.segments + t;
    write_partial(here, point_add(read_partial(here), read_partial(here + params.stride)));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn window_out(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let j = invocation(gid, groups);
    if (j >= params.windows) { return; }
    let c = point_unpack(point_to_canonical(read_partial(j * params.segments)));
    for (var q = 0u; q < 4u; q++) {
        for (var l = 0u; l < NUM_LIMBS; l++) {
            window_sums[j * POINT_WORDS + q * NUM_LIMBS + l] = c[q][l];
        }
    }
}
