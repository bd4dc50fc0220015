// Prime-field arithmetic in WGSL with NUM_LIMBS limbs of LIMB_BITS bits, one limb per u32.
//
// Portable WGSL has 32-bit integers only and no high-half multiply, so a limb product must fit in a
// u32: limbs of 12..=16 bits. Where the adapter offers 64-bit integers (wgpu's SHADER_INT64, native
// only) limbs are 29, 30 or 32 bits and products are taken in u64. Values are little-endian, fully
// reduced (< p), each limb < 2^LIMB_BITS.
// Every constant below is injected by crates/msm-gpu/src/field.rs from fastmsm-mont, which derives
// them from the modulus alone; nothing numeric is typed here.

const NUM_LIMBS: u32 = {{NUM_LIMBS}}u;
const LIMB_BITS: u32 = {{LIMB_BITS}}u;
const LIMB_MASK: u32 = {{LIMB_MASK}}u;

alias Big = array<u32, NUM_LIMBS>;
// Limb sums and differences are formed in Acc: u32 up to 30-bit limbs, u64 for 32-bit limbs. A
// negative difference shows as Acc's top bit (ACC_TOP), since limbs are far below Acc's range.
// Limb products (outside the generated Montgomery product) are formed in Prod: u32 up to 16 bits.
alias Acc = {{ACC}};
const ACC_TOP: u32 = {{ACC_TOP}}u;
alias Prod = {{PROD}};

const P = Big({{MODULUS}});
const R_SQUARED = Big({{R_SQUARED}});
const ONE = Big({{ONE}});
// 1 in Montgomery form: R mod p.
const ONE_MONT = R_MOD_P;

// ANCHOR: add_sub
// a + b without reduction; returns the carry out of the top limb in `carry`.
fn big_add(a: Big, b: Big, carry: ptr<function, u32>) -> Big {
    var r: Big;
    var c = 0u;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        let s = Acc(a[i]) + Acc(b[i]) + Acc(c);
        r[i] = u32(s & Acc(LIMB_MASK));
        c = u32(s >> LIMB_BITS);
    }
    *carry = c;
    return r;
}

// a - b modulo 2^(LIMB_BITS·NUM_LIMBS); `borrow` is 1 when b > a.
fn big_sub(a: Big, b: Big, borrow: ptr<function, u32>) -> Big {
    var r: Big;
    var c = 0u;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        let d = Acc(a[i]) - Acc(b[i]) - Acc(c);
        r[i] = u32(d & Acc(LIMB_MASK));
        c = u32(d >> ACC_TOP);
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

// ANCHOR: barrett
// Conversion into Montgomery form by Barrett reduction (as Derei & Koh do): a·R mod p is computed as
// the Barrett reduction of t = a·(R mod p) < p² < 4^k, where k is the bit length of p and
// m = ⌊4^k / p⌋. Loops over local arrays are fine here: this runs once per input, not per product.
const BARRETT_K: u32 = {{BARRETT_K}}u;
const BARRETT_M_LIMBS: u32 = {{BARRETT_M_LIMBS}}u;
const WIDE: u32 = 2u * NUM_LIMBS + 2u;
alias Wide = array<u32, WIDE>;
const BARRETT_M = array<u32, BARRETT_M_LIMBS>({{BARRETT_M}});
const R_MOD_P = Big({{R_MOD_P}});

fn widen(a: Big) -> Wide {
    var r: Wide;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        r[i] = a[i];
    }
    return r;
}

// a·b, where a has a_len limbs and b has b_len; carrying after every product keeps each step below
// 2^(2w), within Prod for every supported width.
fn wide_mul(a: Wide, a_len: u32, b: Wide, b_len: u32) -> Wide {
    var t: Wide;
    for (var i = 0u; i < a_len; i++) {
        var c = 0u;
        for (var j = 0u; j < b_len; j++) {
            let s = Prod(t[i + j]) + Prod(a[i]) * Prod(b[j]) + Prod(c);
            t[i + j] = u32(s & Prod(LIMB_MASK));
            c = u32(s >> LIMB_BITS);
        }
        t[i + b_len] = c;
    }
    return t;
}

// ⌊t / 2^bits⌋
fn wide_shr(t: Wide, bits: u32) -> Wide {
    var r: Wide;
    let limb_shift = bits / LIMB_BITS;
    let bit_shift = bits % LIMB_BITS;
    for (var i = 0u; i + limb_shift < WIDE; i++) {
        var v = t[i + limb_shift] >> bit_shift;
        if (bit_shift != 0u && i + limb_shift + 1u < WIDE) {
            v |= t[i + limb_shift + 1u] << (LIMB_BITS - bit_shift);
        }
        r[i] = v & LIMB_MASK;
    }
    return r;
}

fn to_mont_barrett(a: Big) -> Big {
    var m: Wide;
    for (var i = 0u; i < BARRETT_M_LIMBS; i++) {
        m[i] = BARRETT_M[i];
    }
    let t = wide_mul(widen(a), NUM_LIMBS, widen(R_MOD_P), NUM_LIMBS);
    let q1 = wide_shr(t, BARRETT_K - 1u);                       // < 2^(k+1): fits NUM_LIMBS limbs
    let q3 = wide_shr(wide_mul(q1, NUM_LIMBS, m, BARRETT_M_LIMBS), BARRETT_K + 1u);
    let qp = wide_mul(q3, NUM_LIMBS, widen(P), NUM_LIMBS);
    // r = t − q3·p is below 3p < 2^(w·(NUM_LIMBS+1)): NUM_LIMBS + 1 limbs hold it exactly.
    var r: Wide;
    var borrow = 0u;
    for (var i = 0u; i <= NUM_LIMBS; i++) {
        let d = Acc(t[i]) - Acc(qp[i]) - Acc(borrow);
        r[i] = u32(d & Acc(LIMB_MASK));
        borrow = u32(d >> ACC_TOP);
    }
    let p = widen(P);
    for (var round = 0u; round < 2u; round++) {
        var s: Wide;
        borrow = 0u;
        for (var i = 0u; i <= NUM_LIMBS; i++) {
            let d = Acc(r[i]) - Acc(p[i]) - Acc(borrow);
            s[i] = u32(d & Acc(LIMB_MASK));
            borrow = u32(d >> ACC_TOP);
        }
        if (borrow == 0u) {
            r = s;
        }
    }
    var out: Big;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        out[i] = r[i];
    }
    return out;
}
// ANCHOR_END: barrett

fn from_mont(a: Big) -> Big {
    return mont_mul(a, ONE);
}
