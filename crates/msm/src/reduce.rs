//! Bucket reduction: Σ j·B_j per window. (The windows then combine by Horner's rule,
//! [`fastmsm_curves::horner`].)
//!
//! **Running sums.** Walking the buckets from the top, keep R = B_m + … + B_j and add R into a total
//! S at every step: B_j ends up in S exactly j times, so S = Σ_{j=1}^{m} j·B_j after 2m additions
//! and no scalar multiplication.
//!
//! **Parallel split** (cuZK: Lu, Wei, Zhao, Zhang, Li, Liu, Zeng, Yu, Chen, "cuZK: Accelerating
//! Zero-Knowledge Proof with A Faster Parallel Multi-Scalar Multiplication Algorithm on GPUs",
//! IACR ePrint 2022/1321, Algorithm 4; the bucket-reduction stage of Derei & Koh's ZPrize 2023
//! MSM). The running sum is sequential. Cut the m buckets into T segments of s = ⌈m/T⌉ buckets;
//! segment t covers j = t·s + 1 … t·s + s. Each segment, on its own, runs the running sum with
//! local weights j − t·s, giving S_t = Σ (j − t·s)·B_j and its plain sum R_t = Σ B_j. Then
//!
//! ```text
//! Σ_j j·B_j = Σ_t ( S_t + (t·s)·R_t )
//! ```
//!
//! The T segments share nothing, so T threads (GPU invocations in `msm-gpu`) compute them at once;
//! the price is one small scalar multiplication (t·s)·R_t per segment and T − 1 final additions.

use crate::MsmGroup;

// ANCHOR: running_sum
/// Σ_{j=1}^{m} j·`buckets[j−1]` by running sums: 2m additions.
pub fn running_sum<G: MsmGroup>(buckets: &[G]) -> G {
    let mut running = G::identity();
    let mut total = G::identity();
    for b in buckets.iter().rev() {
        running = running.add(b);
        total = total.add(&running);
    }
    total
}
// ANCHOR_END: running_sum

// ANCHOR: parallel_split
/// One segment of the parallel split: `(S, R)` with S = Σ_j (j+1)·`segment[j]` (local weights
/// 1, 2, …) and R = Σ_j `segment[j]`. Independent of every other segment.
pub fn segment_sums<G: MsmGroup>(segment: &[G]) -> (G, G) {
    let mut running = G::identity();
    let mut total = G::identity();
    for b in segment.iter().rev() {
        running = running.add(b);
        total = total.add(&running);
    }
    (total, running)
}

/// Σ_{j=1}^{m} j·`buckets[j−1]` by cuZK's split into `segments` (T ≥ 1) independent running sums,
/// each corrected by (t·s)·R_t. Equal to [`running_sum`] for every T; T > m leaves the extra
/// segments empty.
pub fn running_sum_split<G: MsmGroup>(buckets: &[G], segments: usize) -> G {
    assert!(segments >= 1, "at least one segment");
    if buckets.is_empty() {
        return G::identity();
    }
    let s = buckets.len().div_ceil(segments);
    // Each iteration of this map is one thread's work in a parallel implementation.
    let partial: Vec<G> = buckets
        .chunks(s)
        .enumerate()
        .map(|(t, seg)| {
            let (sum, plain) = segment_sums(seg);
            let offset = (t * s) as u64;
            sum.add(&plain.mul_scalar(&[offset]))
        })
        .collect();
    partial.iter().fold(G::identity(), |acc, p| acc.add(p))
}
// ANCHOR_END: parallel_split
