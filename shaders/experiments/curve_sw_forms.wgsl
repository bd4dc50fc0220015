// Forms of the short-Weierstrass mixed addition that no device profile selects (cargo feature
// `experiments`; msm/curve.rs, MixedAdd): appended to curve_sw.wgsl and msm.wgsl only when a build
// asks for one of them, or for the batch-affine SMVP (smvp_affine.wgsl), which merges its affine
// sums with `point_add_affine` and compares coordinates with `big_eq`. Each has the arithmetic of
// the stepped form in curve_sw.wgsl (madd-2008-s) and is tested against arkworks like it.

fn big_eq(a: Big, b: Big) -> bool {
    var diff = 0u;
    for (var i = 0u; i < NUM_LIMBS; i++) {
        diff |= a[i] ^ b[i];
    }
    return diff == 0u;
}

fn add_entry_inlined(p: Point, entry: u32) -> Point {
    return point_add_affine(p, entry_affine(entry));
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

// One coordinate of an SMVP entry's input point, for the form below that reads each where it
// needs it (the other coordinate's loads are dead code to the compiler).
fn entry_x(entry: u32) -> Big {
    return entry_affine(entry).x;
}

fn entry_y(entry: u32) -> Big {
    return entry_affine(entry).y;
}

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
