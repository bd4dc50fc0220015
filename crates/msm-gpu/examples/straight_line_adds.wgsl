// The XYZZ additions as they were before one product call site (shaders/curve_sw.wgsl), with every product inlined
// straight-line: msm_bench's edit 'straight-line-adds' puts them back in place of shaders/curve_sw.wgsl's.
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

