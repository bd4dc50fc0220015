// Twisted Edwards points a·x² + y² = 1 + d·x²y² with a = −1, in extended coordinates
// (x = X/Z, y = Y/Z, T = XY/Z; Hisil, Wong, Carter, Dawson 2008), over field.wgsl; Montgomery form.
// The formulas are complete on Ed-on-BLS12-377 (−1 is a square and d is not), so no case needs a
// branch. Same formulas as crates/curves/src/te.rs.

// 2d in Montgomery form, injected by crates/msm-gpu/src/msm.rs.
const K_MONT = Big({{TE_K_MONT}});

struct Point {
    x: Big,
    y: Big,
    z: Big,
    t: Big,
}

struct Affine {
    x: Big,
    y: Big,
}

fn point_identity() -> Point {
    return Point(Big(), ONE_MONT, ONE_MONT, Big());
}

// The identity (0, 1) is an ordinary input here: complete formulas handle it.
fn affine_is_identity(a: Affine) -> bool {
    return false;
}

fn affine_neg(a: Affine) -> Affine {
    return Affine(field_neg(a.x), a.y);
}

// The SMVP's step: the bucket plus the input point of an entry (msm.wgsl reads it).
fn add_entry(p: Point, entry: u32) -> Point {
    return point_add_affine(p, entry_affine(entry));
}

// add-2008-hwcd-3 (a = −1, k = 2d): 8M + 1 product by k.
fn point_add(p: Point, q: Point) -> Point {
    let a = mont_mul(field_sub(p.y, p.x), field_sub(q.y, q.x));
    let b = mont_mul(field_add(p.y, p.x), field_add(q.y, q.x));
    let c = mont_mul(mont_mul(p.t, K_MONT), q.t);
    let d = field_double(mont_mul(p.z, q.z));
    let e = field_sub(b, a);
    let f = field_sub(d, c);
    let g = field_add(d, c);
    let h = field_add(b, a);
    return Point(mont_mul(e, f), mont_mul(g, h), mont_mul(f, g), mont_mul(e, h));
}

// madd-2008-hwcd-3 with Z2 = 1 and T2 = x2·y2 computed on the fly.
fn point_add_affine(p: Point, q: Affine) -> Point {
    let t2 = mont_mul(q.x, q.y);
    let a = mont_mul(field_sub(p.y, p.x), field_sub(q.y, q.x));
    let b = mont_mul(field_add(p.y, p.x), field_add(q.y, q.x));
    let c = mont_mul(mont_mul(p.t, K_MONT), t2);
    let d = field_double(p.z);
    let e = field_sub(b, a);
    let f = field_sub(d, c);
    let g = field_add(d, c);
    let h = field_add(b, a);
    return Point(mont_mul(e, f), mont_mul(g, h), mont_mul(f, g), mont_mul(e, h));
}

// dbl-2008-hwcd (a = −1).
fn point_double(p: Point) -> Point {
    let a = mont_mul(p.x, p.x);
    let b = mont_mul(p.y, p.y);
    let c = field_double(mont_mul(p.z, p.z));
    let d = field_neg(a);
    let xy = field_add(p.x, p.y);
    let e = field_sub(field_sub(mont_mul(xy, xy), a), b);
    let g = field_add(d, b);
    let f = field_sub(g, c);
    let h = field_sub(d, b);
    return Point(mont_mul(e, f), mont_mul(g, h), mont_mul(f, g), mont_mul(e, h));
}

// Coordinates out of Montgomery form, for the host: (X, Y, Z, T) canonical.
fn point_to_canonical(p: Point) -> Point {
    return Point(from_mont(p.x), from_mont(p.y), from_mont(p.z), from_mont(p.t));
}

// Storage order of a point's four coordinates (used by the MSM stages): X, Y, Z, T.
fn point_pack(c: array<Big, 4>) -> Point {
    return Point(c[0], c[1], c[2], c[3]);
}

fn point_unpack(p: Point) -> array<Big, 4> {
    return array<Big, 4>(p.x, p.y, p.z, p.t);
}
