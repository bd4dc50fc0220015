//! Bucket accumulation in projective coordinates.
//!
//! For one window w, bucket j (1 ≤ j ≤ 2^(c−1)) collects every point whose digit d_w is ±j, added
//! as P for +j and as −P for −j. The buckets are XYZZ points for the short Weierstrass curves
//! (mixed XYZZ + affine addition, 8M + 2S, EFD "madd-2008-s") and extended points for
//! Ed-on-BLS12-377 (7M + 1 by k, EFD "madd-2008-hwcd-3"); the points stay affine, which is what
//! makes the addition "mixed" and cheap. Pippenger's bucket method; signed digits halve the
//! buckets (see [`crate::digits`]).

use crate::MsmGroup;

// ANCHOR: bucket_accumulation
/// Adds each point into the bucket of its digit: `buckets[|d| − 1] += sign(d)·P`. `digits[i]` is
/// point i's digit in this window, in [−buckets.len(), buckets.len()]; zero digits are skipped.
pub fn accumulate<G: MsmGroup>(points: &[G::Affine], digits: &[i32], buckets: &mut [G]) {
    debug_assert_eq!(points.len(), digits.len());
    for (p, &d) in points.iter().zip(digits) {
        if d > 0 {
            let b = &mut buckets[d as usize - 1];
            *b = b.add_affine(p);
        } else if d < 0 {
            let b = &mut buckets[d.unsigned_abs() as usize - 1];
            *b = b.add_affine(&G::affine_neg(p));
        }
    }
}
// ANCHOR_END: bucket_accumulation

/// A fresh set of `count` identity buckets, filled by [`accumulate`].
pub fn accumulate_window<G: MsmGroup>(
    points: &[G::Affine],
    digits: &[i32],
    count: usize,
) -> Vec<G> {
    let mut buckets = vec![G::identity(); count];
    accumulate(points, digits, &mut buckets);
    buckets
}
