// Short-Weierstrass points y² = x³ + b (a = 0) in XYZZ coordinates (x = X/ZZ, y = Y/ZZZ,
// ZZ³ = ZZZ²), over the field functions of field.wgsl; all coordinates in Montgomery form.
// The same formulas as crates/curves/src/sw.rs (EFD g1p/auto-shortw-xyzz), so each has a CPU twin.

struct Point {
    x: Big,
    y: Big,
    zz: Big,
    zzz: Big,
}

struct Affine {
    x: Big,
    y: Big,
}

fn big_eq(a: Big, b: Big) -> bool {
    var diff = 0u;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        diff |= a[i] ^ b[i];
    }
    return diff == 0u;
}

fn point_identity() -> Point {
    return Point(ONE_MONT, ONE_MONT, Big(), Big());
}

fn point_is_identity(p: Point) -> bool {
    return is_zero(p.zz);
}

// The input format encodes the point at infinity as (0, 0), which is not on any of these curves.
fn affine_is_identity(a: Affine) -> bool {
    return is_zero(a.x) && is_zero(a.y);
}

fn affine_neg(a: Affine) -> Affine {
    return Affine(a.x, field_neg(a.y));
}

// ANCHOR: dbl
// dbl-2008-s-1 (a = 0): 2M + 5S-equivalent products in Montgomery form.
fn point_double(p: Point) -> Point {
    let u = field_double(p.y);
    let v = mont_mul(u, u);
    let w = mont_mul(u, v);
    let s = mont_mul(p.x, v);
    let x2 = mont_mul(p.x, p.x);
    let m = field_add(field_double(x2), x2);
    let x3 = field_sub(field_sub(mont_mul(m, m), s), s);
    let y3 = field_sub(mont_mul(m, field_sub(s, x3)), mont_mul(w, p.y));
    return Point(x3, y3, mont_mul(v, p.zz), mont_mul(w, p.zzz));
}
// ANCHOR_END: dbl

// mdbl-2008-s-1: doubling an affine point (ZZ = ZZZ = 1).
fn affine_double(a: Affine) -> Point {
    let u = field_double(a.y);
    let v = mont_mul(u, u);
    let w = mont_mul(u, v);
    let s = mont_mul(a.x, v);
    let x2 = mont_mul(a.x, a.x);
    let m = field_add(field_double(x2), x2);
    let x3 = field_sub(field_sub(mont_mul(m, m), s), s);
    let y3 = field_sub(mont_mul(m, field_sub(s, x3)), mont_mul(w, a.y));
    return Point(x3, y3, v, w);
}

// The SMVP's step, the bucket plus the input point of an entry (index | sign), in one of three forms
// with the same arithmetic (madd-2008-s): every product inlined; or the products one per loop
// iteration through one mont_mul call, with the input point read before the loop (by value) or
// each coordinate read at the step that needs it (by coordinate). The host picks one per field and
// limb width (msm/curve.rs, MixedAdd). entry_affine, entry_x and entry_y (msm.wgsl) read the point.
fn add_entry(p: Point, entry: u32) -> Point {
    return add_entry_{{MIXED_ADD}}(p, entry);
}

fn add_entry_inlined(p: Point, entry: u32) -> Point {
    return point_add_affine(p, entry_affine(entry));
}

fn add_entry_stepped_by_value(p: Point, entry: u32) -> Point {
    return point_add_affine_stepped(p, entry_affine(entry));
}

// ANCHOR: madd
// madd-2008-s: XYZZ + affine, with the exceptional cases (identity on either side, P + P, P − P).
fn point_add_affine(p: Point, a: Affine) -> Point {
    if (affine_is_identity(a)) {
        return p;
    }
    if (point_is_identity(p)) {
        return Point(a.x, a.y, ONE_MONT, ONE_MONT);
    }
    let u2 = mont_mul(a.x, p.zz);
    let s2 = mont_mul(a.y, p.zzz);
    let pd = field_sub(u2, p.x);
    let r = field_sub(s2, p.y);
    if (is_zero(pd)) {
        if (is_zero(r)) {
            return affine_double(a);
        }
        return point_identity();
    }
    let pp = mont_mul(pd, pd);
    let ppp = mont_mul(pd, pp);
    let q = mont_mul(p.x, pp);
    let x3 = field_sub(field_sub(mont_mul(r, r), ppp), field_double(q));
    let y3 = field_sub(mont_mul(r, field_sub(q, x3)), mont_mul(p.y, ppp));
    return Point(x3, y3, mont_mul(p.zz, pp), mont_mul(p.zzz, ppp));
}
// ANCHOR_END: madd

// Steps of the stepped forms. A named constant, not a literal: the host unrolls loops with a
// literal bound (wgsl::unroll_fixed_loops), and this loop exists so as not to be unrolled.
const MADD_STEPS: u32 = 10u;

// ANCHOR: madd_stepped
// The same formulas, the ten products one per iteration through a single mont_mul call. GPU
// compilers inline every call, so the inlined form carries ten copies of the product in the
// SMVP's loop (197 KB of machine code for BLS12-377 at 29 bits on the H200, against 13 KB for a
// chained product); this form keeps one. Each step picks its operands from a fixed set of
// registers (the bucket's X, Y, ZZ, ZZZ, updated in place, and three temporaries) and writes one
// of them; the comments give the EFD names. The affine point is an argument, read by the caller
// before the loop and held through it.
fn point_add_affine_stepped(p: Point, a: Affine) -> Point {
    if (affine_is_identity(a)) {
        return p;
    }
    if (point_is_identity(p)) {
        return Point(a.x, a.y, ONE_MONT, ONE_MONT);
    }
    var x1 = p.x;
    var y1 = p.y;
    var zz1 = p.zz;
    var zzz1 = p.zzz;
    var t0: Big;
    var t1: Big;
    var t2: Big;
    for (var step = 0u; step < MADD_STEPS; step++) {
        var lhs: Big;
        var rhs: Big;
        switch step {
            case 0u: { lhs = a.x; rhs = zz1; }
            case 1u: { lhs = a.y; rhs = zzz1; }
            case 2u: { lhs = t0; rhs = t0; }
            case 3u: { lhs = t0; rhs = t2; }
            case 4u: { lhs = zz1; rhs = t2; }
            case 5u: { lhs = zzz1; rhs = t0; }
            case 6u: { lhs = x1; rhs = t2; }
            case 7u: { lhs = t1; rhs = t1; }
            case 8u: { lhs = y1; rhs = t0; }
            default: { lhs = t1; rhs = field_sub(t2, x1); }
        }
        let m = mont_mul(lhs, rhs);
        switch step {
            case 0u: { t0 = field_sub(m, x1); }                          // P = U2 − X1
            case 1u: { t1 = field_sub(m, y1); }                          // R = S2 − Y1
            case 2u: { t2 = m; }                                         // PP
            case 3u: { t0 = m; }                                         // PPP
            case 4u: { zz1 = m; }                                        // ZZ3 = ZZ1·PP
            case 5u: { zzz1 = m; }                                       // ZZZ3 = ZZZ1·PPP
            case 6u: { t2 = m; }                                         // Q = X1·PP
            case 7u: { x1 = field_sub(field_sub(m, t0), field_double(t2)); } // X3 = R² − PPP − 2Q
            case 8u: { y1 = m; }                                         // Y1·PPP
            default: { y1 = field_sub(m, y1); }                          // Y3 = R(Q − X3) − Y1·PPP
        }
        if (step == 1u && is_zero(t0)) {
            if (is_zero(t1)) {
                return affine_double(a);
            }
            return point_identity();
        }
    }
    return Point(x1, y1, zz1, zzz1);
}
// ANCHOR_END: madd_stepped

// ANCHOR: madd_stepped_by_coordinate
// The stepped form with the input point read where a step needs it (x at step 0, y at step 1),
// so that it need not be held through the other eight. The same step table; only the reads and
// the identity test (on the coordinates as they arrive) differ. NVIDIA's compiler did not give it
// fewer registers (results chapter), but at 30-bit limbs it ran faster than the by-value form.
fn add_entry_stepped_by_coordinate(p: Point, entry: u32) -> Point {
    if (point_is_identity(p)) {
        let a = entry_affine(entry);
        if (affine_is_identity(a)) {
            return p;
        }
        return Point(a.x, a.y, ONE_MONT, ONE_MONT);
    }
    var x1 = p.x;
    var y1 = p.y;
    var zz1 = p.zz;
    var zzz1 = p.zzz;
    var t0: Big;
    var t1: Big;
    var t2: Big;
    var x2_is_zero = false;
    for (var step = 0u; step < MADD_STEPS; step++) {
        var lhs: Big;
        var rhs: Big;
        switch step {
            case 0u: { lhs = entry_x(entry); rhs = zz1; x2_is_zero = is_zero(lhs); }
            case 1u: { lhs = entry_y(entry); rhs = zzz1; }
            case 2u: { lhs = t0; rhs = t0; }
            case 3u: { lhs = t0; rhs = t2; }
            case 4u: { lhs = zz1; rhs = t2; }
            case 5u: { lhs = zzz1; rhs = t0; }
            case 6u: { lhs = x1; rhs = t2; }
            case 7u: { lhs = t1; rhs = t1; }
            case 8u: { lhs = y1; rhs = t0; }
            default: { lhs = t1; rhs = field_sub(t2, x1); }
        }
        let m = mont_mul(lhs, rhs);
        switch step {
            case 0u: { t0 = field_sub(m, x1); }                          // P = U2 − X1
            case 1u: { t1 = field_sub(m, y1); }                          // R = S2 − Y1
            case 2u: { t2 = m; }                                         // PP
            case 3u: { t0 = m; }                                         // PPP
            case 4u: { zz1 = m; }                                        // ZZ3 = ZZ1·PP
            case 5u: { zzz1 = m; }                                       // ZZZ3 = ZZZ1·PPP
            case 6u: { t2 = m; }                                         // Q = X1·PP
            case 7u: { x1 = field_sub(field_sub(m, t0), field_double(t2)); } // X3 = R² − PPP − 2Q
            case 8u: { y1 = m; }                                         // Y1·PPP
            default: { y1 = field_sub(m, y1); }                          // Y3 = R(Q − X3) − Y1·PPP
        }
        if (step == 1u) {
            if (x2_is_zero && is_zero(lhs)) {
                return p; // the input point is the identity, (0, 0)
            }
            if (is_zero(t0)) {
                if (is_zero(t1)) {
                    return affine_double(entry_affine(entry));
                }
                return point_identity();
            }
        }
    }
    return Point(x1, y1, zz1, zzz1);
}
// ANCHOR_END: madd_stepped_by_coordinate

// add-2008-s: XYZZ + XYZZ with the same exceptional cases.
fn point_add(p: Point, q: Point) -> Point {
    if (point_is_identity(p)) {
        return q;
    }
    if (point_is_identity(q)) {
        return p;
    }
    let u1 = mont_mul(p.x, q.zz);
    let u2 = mont_mul(q.x, p.zz);
    let s1 = mont_mul(p.y, q.zzz);
    let s2 = mont_mul(q.y, p.zzz);
    let pd = field_sub(u2, u1);
    let r = field_sub(s2, s1);
    if (is_zero(pd)) {
        if (is_zero(r)) {
            return point_double(p);
        }
        return point_identity();
    }
    let pp = mont_mul(pd, pd);
    let ppp = mont_mul(pd, pp);
    let q1 = mont_mul(u1, pp);
    let x3 = field_sub(field_sub(mont_mul(r, r), ppp), field_double(q1));
    let y3 = field_sub(mont_mul(r, field_sub(q1, x3)), mont_mul(s1, ppp));
    return Point(x3, y3, mont_mul(mont_mul(p.zz, q.zz), pp), mont_mul(mont_mul(p.zzz, q.zzz), ppp));
}

// Coordinates out of Montgomery form, for the host: (X, Y, ZZ, ZZZ) canonical.
fn point_to_canonical(p: Point) -> Point {
    return Point(from_mont(p.x), from_mont(p.y), from_mont(p.zz), from_mont(p.zzz));
}

// Storage order of a point's four coordinates (used by the MSM stages).
fn point_pack(c: array<Big, 4>) -> Point {
    return Point(c[0], c[1], c[2], c[3]);
}

fn point_unpack(p: Point) -> array<Big, 4> {
    return array<Big, 4>(p.x, p.y, p.zz, p.zzz);
}
