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

// The SMVP's step: the bucket plus the input point of an entry (index | sign), through the
// stepped mixed addition below with the input point read before the loop (by value). The forms
// no device profile selects (every product inlined; the point read coordinate by coordinate) are
// experiments (shaders/experiments/curve_sw_forms.wgsl, cargo feature `experiments`): the host
// names the form (msm/curve.rs, MixedAdd). entry_affine (msm.wgsl) reads the point.
fn add_entry(p: Point, entry: u32) -> Point {
    return add_entry_{{MIXED_ADD}}(p, entry);
}

fn add_entry_stepped_by_value(p: Point, entry: u32) -> Point {
    return point_add_affine_stepped(p, entry_affine(entry));
}

// Steps of the stepped forms. A named constant, not a literal: the host unrolls loops with a
// literal bound (wgsl::unroll_fixed_loops), and this loop exists so as not to be unrolled.
const MADD_STEPS: u32 = 10u;

// ANCHOR: madd_stepped
// madd-2008-s: XYZZ + affine, with the exceptional cases (identity on either side, P + P, P − P),
// the ten products one per iteration through a single mont_mul call. GPU compilers inline every
// call, so the inlined form (experiments/curve_sw_forms.wgsl) carries ten copies of the product
// in the SMVP's loop (197 KB of machine code for BLS12-377 at 29 bits on the H200, against 13 KB
// for a chained product); this form keeps one. Each step picks its operands from a fixed set of
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

// The general addition of the combine, the reduction and the fold, in the form the host picks
// for the limb count (msm/curve.rs, GeneralAdd).
fn point_add(p: Point, q: Point) -> Point {
    return point_add_{{POINT_ADD}}(p, q);
}

// add-2008-s: XYZZ + XYZZ with the same exceptional cases.
fn point_add_inlined(p: Point, q: Point) -> Point {
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

// ANCHOR: add_stepped
// add-2008-s and, where it meets P + P, dbl-2008-s-1, stepped like the mixed addition: fourteen
// products for the addition (steps 0..13), nine for the doubling (steps 14..22), one mont_mul
// call in a loop whose bound the compiler cannot see (params.add_steps = 14), so that it cannot
// unroll the loop back into 23 products. Steps 0..3 write only temporaries, so p is intact when
// step 3 finds P = R = 0 and the loop goes on with the doubling.
fn point_add_stepped(p: Point, q: Point) -> Point {
    if (point_is_identity(p)) {
        return q;
    }
    if (point_is_identity(q)) {
        return p;
    }
    var x1 = p.x;
    var y1 = p.y;
    var zz1 = p.zz;
    var zzz1 = p.zzz;
    var x2 = q.x;
    var y2 = q.y;
    var zz2 = q.zz;
    var zzz2 = q.zzz;
    var t0: Big;
    var t1: Big;
    var t2: Big;
    var t3: Big;
    var last = params.add_steps;
    for (var step = 0u; step < last; step++) {
        var lhs: Big;
        var rhs: Big;
        switch step {
            case 0u: { lhs = x1; rhs = zz2; }
            case 1u: { lhs = x2; rhs = zz1; }
            case 2u: { lhs = y1; rhs = zzz2; }
            case 3u: { lhs = y2; rhs = zzz1; }
            case 4u: { lhs = zz1; rhs = zz2; }
            case 5u: { lhs = zzz1; rhs = zzz2; }
            case 6u: { lhs = t1; rhs = t1; }
            case 7u: { lhs = t1; rhs = x2; }
            case 8u: { lhs = zz1; rhs = x2; }
            case 9u: { lhs = zzz1; rhs = y2; }
            case 10u: { lhs = t0; rhs = x2; }
            case 11u: { lhs = t3; rhs = t3; }
            case 12u: { lhs = t2; rhs = y2; }
            case 13u: { lhs = t3; rhs = field_sub(t0, x1); }
            case 14u: { lhs = field_double(y1); rhs = lhs; }
            case 15u: { lhs = field_double(y1); rhs = t0; }
            case 16u: { lhs = x1; rhs = t0; }
            case 17u: { lhs = x1; rhs = x1; }
            case 18u: { lhs = zz1; rhs = t0; }
            case 19u: { lhs = zzz1; rhs = t1; }
            case 20u: { lhs = y1; rhs = t1; }
            case 21u: { lhs = t3; rhs = t3; }
            default: { lhs = t3; rhs = field_sub(t2, x1); }
        }
        let m = mont_mul(lhs, rhs);
        switch step {
            case 0u: { t0 = m; }                                         // U1 = X1·ZZ2
            case 1u: { t1 = field_sub(m, t0); }                          // P = U2 − U1
            case 2u: { t2 = m; }                                         // S1 = Y1·ZZZ2
            case 3u: { t3 = field_sub(m, t2); }                          // R = S2 − S1
            case 4u: { zz1 = m; }                                        // ZZ1·ZZ2
            case 5u: { zzz1 = m; }                                       // ZZZ1·ZZZ2
            case 6u: { x2 = m; }                                         // PP
            case 7u: { y2 = m; }                                         // PPP
            case 8u: { zz1 = m; }                                        // ZZ3 = ZZ1·ZZ2·PP
            case 9u: { zzz1 = m; }                                       // ZZZ3 = ZZZ1·ZZZ2·PPP
            case 10u: { t0 = m; }                                        // Q = U1·PP
            case 11u: { x1 = field_sub(field_sub(m, y2), field_double(t0)); } // X3 = R² − PPP − 2Q
            case 12u: { t2 = m; }                                        // S1·PPP
            case 13u: { y1 = field_sub(m, t2); }                         // Y3 = R(Q − X3) − S1·PPP
            case 14u: { t0 = m; }                                        // V = U², U = 2Y1
            case 15u: { t1 = m; }                                        // W = U·V
            case 16u: { t2 = m; }                                        // S = X1·V
            case 17u: { t3 = field_add(field_double(m), m); }            // M = 3X1²
            case 18u: { zz1 = m; }                                       // ZZ3 = V·ZZ1
            case 19u: { zzz1 = m; }                                      // ZZZ3 = W·ZZZ1
            case 20u: { y1 = m; }                                        // W·Y1
            case 21u: { x1 = field_sub(m, field_double(t2)); }            // X3 = M² − 2S
            default: { y1 = field_sub(m, y1); }                          // Y3 = M(S − X3) − W·Y1
        }
        if (step == 3u && is_zero(t1)) {
            if (!is_zero(t3)) {
                return point_identity();                                 // q = −p
            }
            step = last - 1u;                                            // q = p: double p
            last = last + 9u;
        }
    }
    return Point(x1, y1, zz1, zzz1);
}
// ANCHOR_END: add_stepped

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
