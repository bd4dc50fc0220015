// The stepped mixed addition as at 58a1788: the affine point passed by value and held through all
// ten steps. msm_bench's edit 'madd-by-value-58a1788' calls it in place of add_entry_stepped.
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
