// Field inversion by Bernstein and Yang's divsteps ("safegcd", IACR ePrint 2019/266): a fixed
// number of steps, no branch on the value, and a cost of a few tens of products where Fermat's
// a^(p−2) takes one product per bit of p and per set bit. An experiment (cargo feature
// `experiments`), appended to the MSM's module after field.wgsl; host:
// crates/msm-gpu/src/experiments/safegcd.rs, which derives every constant below.
//
// The state is f = p, g = x (the value to invert), d = 0, e = 1, with d·x ≡ f and e·x ≡ g (mod p)
// throughout, and δ = 1. One divstep is
//   δ > 0 and g odd:  (δ, f, g) ← (1 − δ, g, (g − f)/2)
//   g odd:            (δ, f, g) ← (1 + δ, f, (g + f)/2)
//   g even:           (δ, f, g) ← (1 + δ, f, g/2).
// SG_STEPS of them depend only on δ and the low SG_STEPS bits of f and g, so they are taken on
// one word (sg_divsteps), as a matrix M with 2^SG_STEPS·(f', g') = M·(f, g), which is then applied
// to the whole f and g (exactly divisible) and to d and e (mod p: a multiple of p makes the sum
// divisible by 2^SG_STEPS). After SG_BATCHES·SG_STEPS divsteps, at least the paper's bound for
// numbers of p's size, g = 0 and f = ±1, so x⁻¹ = ±d.
//
// Multi-limb values here are two's complement over SG_LIMBS limbs of LIMB_BITS bits (one limb
// more than p needs: room for the sign and for d's range (−2p, 3p) before it is brought back into
// [0, p)); limb products and their carries are taken in SAcc, i32 for the portable widths and i64
// with 64-bit integers, with SG_STEPS chosen so that no sum overflows it.

const SG_STEPS: u32 = {{SG_STEPS}}u;         // divsteps per batch (at most LIMB_BITS and 30)
const SG_BATCHES: u32 = {{SG_BATCHES}}u;     // batches: SG_BATCHES·SG_STEPS ≥ the divstep bound
const SG_LIMBS: u32 = {{SG_LIMBS}}u;         // NUM_LIMBS + 1
const SG_STEP_MASK: u32 = {{SG_STEP_MASK}}u; // 2^SG_STEPS − 1
const SG_NEG_PINV: u32 = {{SG_NEG_PINV}}u;   // −p⁻¹ mod 2^SG_STEPS
const R_CUBED = Big({{R_CUBED}});            // R³ mod p: turns x⁻¹ for x = aR into a⁻¹R
alias SAcc = {{SACC}};
alias Signed = array<u32, SG_LIMBS>;

struct Transition {
    u: i32,
    v: i32,
    q: i32,
    r: i32,
}

// SG_STEPS divsteps on the low bits f0, g0 of f and g (bit i of g decides step i, so LIMB_BITS
// low bits suffice); updates δ. The entries stay within ±2^SG_STEPS.
fn sg_divsteps(delta: ptr<function, i32>, f0: u32, g0: u32) -> Transition {
    var f = f0;
    var g = g0;
    var u = 1i;
    var v = 0i;
    var q = 0i;
    var r = 1i;
    var d = *delta;
    for (var i = 0u; i < SG_STEPS; i++) {
        let odd = (g & 1u) == 1u;
        let swap = odd && d > 0i;
        // (f, g) ← (g, (g − f)/2) on a swap, (f, (g + f)/2) for odd g, (f, g/2) for even g; the
        // matrix rows follow, doubled where the division by 2 goes to the other row.
        let f_next = select(f, g, swap);
        let g_next = select(select(g, g + f, odd), g - f, swap) >> 1u;
        let u_next = select(u, q, swap);
        let v_next = select(v, r, swap);
        q = select(select(q, q + u, odd), q - u, swap);
        r = select(select(r, r + v, odd), r - v, swap);
        d = select(d + 1i, 1i - d, swap);
        f = f_next;
        g = g_next;
        u = u_next * 2i;
        v = v_next * 2i;
    }
    *delta = d;
    return Transition(u, v, q, r);
}

// Limb j of a two's-complement value, the top limb with its sign.
fn sg_limb(a: Signed, j: u32) -> SAcc {
    if (j + 1u == SG_LIMBS) {
        return SAcc(i32(a[j] << (32u - LIMB_BITS)) >> (32u - LIMB_BITS));
    }
    return SAcc(a[j]);
}

// (t, carry) / 2^SG_STEPS: t holds the low SG_LIMBS limbs, carry the rest (its sign).
fn sg_shift(t: Signed, carry: SAcc) -> Signed {
    var all: array<u32, SG_LIMBS + 1u>;
    for (var j = 0u; j < {{SG_LIMBS}}u; j++) {
        all[j] = t[j];
    }
    all[SG_LIMBS] = u32(carry & SAcc(LIMB_MASK));
    var out: Signed;
    for (var j = 0u; j < {{SG_LIMBS}}u; j++) {
        out[j] = ((all[j] >> SG_STEPS) | (all[j + 1u] << (LIMB_BITS - SG_STEPS))) & LIMB_MASK;
    }
    return out;
}

// (ca·a + cb·b) / 2^SG_STEPS for f and g, where the division is exact.
fn sg_combine(a: Signed, b: Signed, ca: i32, cb: i32) -> Signed {
    var t: Signed;
    var carry = SAcc(0);
    for (var j = 0u; j < {{SG_LIMBS}}u; j++) {
        let acc = SAcc(ca) * sg_limb(a, j) + SAcc(cb) * sg_limb(b, j) + carry;
        t[j] = u32(acc & SAcc(LIMB_MASK));
        carry = acc >> LIMB_BITS;
    }
    return sg_shift(t, carry);
}

// (ca·a + cb·b + m·p) / 2^SG_STEPS for d and e in [0, p), with m < 2^SG_STEPS making the sum
// divisible: in (−2p, 3p).
fn sg_update(a: Signed, b: Signed, ca: i32, cb: i32) -> Signed {
    let low = u32((SAcc(ca) * SAcc(a[0]) + SAcc(cb) * SAcc(b[0])) & SAcc(SG_STEP_MASK));
    let m = SAcc((low * SG_NEG_PINV) & SG_STEP_MASK);
    let p = sg_widen(P);
    var t: Signed;
    var carry = SAcc(0);
    for (var j = 0u; j < {{SG_LIMBS}}u; j++) {
        let acc = SAcc(ca) * sg_limb(a, j) + SAcc(cb) * sg_limb(b, j) + m * SAcc(p[j]) + carry;
        t[j] = u32(acc & SAcc(LIMB_MASK));
        carry = acc >> LIMB_BITS;
    }
    return sg_shift(t, carry);
}

fn sg_negative(a: Signed) -> bool {
    return ((a[SG_LIMBS - 1u] >> (LIMB_BITS - 1u)) & 1u) == 1u;
}

// a + sign·p over the whole width (sign ±1).
fn sg_add_p(a: Signed, sign: i32) -> Signed {
    let p = sg_widen(P);
    var out: Signed;
    var carry = SAcc(0);
    for (var j = 0u; j < {{SG_LIMBS}}u; j++) {
        let acc = sg_limb(a, j) + SAcc(sign) * SAcc(p[j]) + carry;
        out[j] = u32(acc & SAcc(LIMB_MASK));
        carry = acc >> LIMB_BITS;
    }
    return out;
}

fn sg_choose(a: Signed, b: Signed, take_b: bool) -> Signed {
    var out: Signed;
    for (var j = 0u; j < {{SG_LIMBS}}u; j++) {
        out[j] = select(a[j], b[j], take_b);
    }
    return out;
}

// A value in (−2p, 3p) brought into [0, p): p added while it is negative, taken off while it is
// not below p (twice each, without branching on the value).
fn sg_reduce(a: Signed) -> Signed {
    var x = a;
    for (var k = 0u; k < 2u; k++) {
        x = sg_choose(x, sg_add_p(x, 1i), sg_negative(x));
    }
    for (var k = 0u; k < 2u; k++) {
        let y = sg_add_p(x, -1i);
        x = sg_choose(x, y, !sg_negative(y));
    }
    return x;
}

fn sg_widen(a: Big) -> Signed {
    var out: Signed;
    for (var j = 0u; j < NUM_LIMBS; j++) {
        out[j] = a[j];
    }
    return out;
}

// ANCHOR: field_inverse_safegcd
// a⁻¹R for a nonzero a = xR in Montgomery form: x⁻¹ by divsteps, then one product by R³.
fn field_inverse_safegcd(a: Big) -> Big {
    var f = sg_widen(P);
    var g = sg_widen(a);
    var d: Signed;
    var e: Signed;
    e[0] = 1u;
    var delta = 1i;
    for (var batch = 0u; batch < SG_BATCHES; batch++) {
        let m = sg_divsteps(&delta, f[0], g[0]);
        let f_next = sg_combine(f, g, m.u, m.v);
        g = sg_combine(f, g, m.q, m.r);
        f = f_next;
        let d_next = sg_reduce(sg_update(d, e, m.u, m.v));
        e = sg_reduce(sg_update(d, e, m.q, m.r));
        d = d_next;
    }
    // f = ±1 and d·x ≡ f: the inverse is ±d.
    var inverse: Big;
    for (var j = 0u; j < NUM_LIMBS; j++) {
        inverse[j] = d[j];
    }
    if (sg_negative(f)) {
        inverse = field_neg(inverse);
    }
    return mont_mul(inverse, R_CUBED);
}
// ANCHOR_END: field_inverse_safegcd
