//! The whole bucket method in affine coordinates: sorted accumulation and batched reduction.
//!
//! [`crate::batch_affine`] shares inversions among bucket additions but keeps the reduction
//! projective, and must handle two additions that meet in one bucket. Mitscha-Baude's ZPrize 2022
//! WebAssembly MSM ("Affine Addition is All You Need", github.com/mitschabaude/montgomery,
//! doc/zprize22.md) removes both limits:
//!
//! - **Accumulation by sorting.** A counting sort puts each window's points in bucket order (a
//!   negative digit stores −P). Then, in rounds, every bucket adds its points in pairs — P₀ + P₁,
//!   P₂ + P₃, … — and keeps the sums; an odd point waits for the next round. Different pairs never
//!   share a point, so *all pairs of all buckets* form one batch with one inversion
//!   ([`crate::batch_inv`]), and after ⌈log₂ (largest bucket)⌉ rounds each bucket holds its sum.
//!   There are no collisions to defer or spill, the batches hold tens of thousands of additions,
//!   and an adversarial input (every point in one bucket) costs log₂ n rounds instead of n
//!   inversions. The additions are the same n − (non-empty buckets) per window. The first round
//!   needs no sorted copy of the points: it pairs them up as they arrive in input order
//!   (`first_round`), and only its sums are written in bucket order.
//! - **Reduction in affine.** Σ j·B_j by running sums is sequential, but cuZK's split
//!   ([`crate::reduce::running_sum_split`]) cuts each window's buckets into S segments that run
//!   independently. Here the S segments of *every* window advance in lock step: each step is one
//!   batch of K·S additions R += B (running sums), then one batch T += R (totals). The segment
//!   corrections Σ_t (t·L)·R_t = L·Σ_t t·R_t are a running sum over the S segments and log₂ L
//!   doublings per window, in projective coordinates, as is the final Horner step.
//!
//! With every addition affine at about 6 products (2M + 1S for the addition, 3M for its share of
//! Montgomery's trick) against 10 for a mixed and 14 for a full XYZZ addition, the whole MSM costs
//! about 6·K·(n + 2^c) products: the additions of [`crate::window::cost`], each at the same price,
//! so the same rule picks c here, with K counted from the digits of a sample of the scalars
//! ([`crate::window::window_size_sampled`]).

use fastmsm_curves::field::PrimeField;

use fastmsm_curves::horner;

use crate::MsmGroup;
use crate::batch_inv::batch_inverse_lazy;
use crate::config::AllAffineConfig;
use crate::digits::{decompose_all, num_windows};
use crate::group::AffineAdd;
use crate::scalar::Scalar;

/// What the all-affine MSM did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllAffineStats {
    /// Pairwise rounds of the accumulation, all windows together.
    pub accumulation_rounds: usize,
    /// Batches of the reduction (two per segment step).
    pub reduction_rounds: usize,
    /// Field inversions (one per batch that needed one).
    pub inversions: usize,
    /// Affine additions that shared an inversion.
    pub batched_additions: usize,
    /// Additions that needed no inversion (an identity operand, or P + (−P)).
    pub immediate: usize,
}

impl AllAffineStats {
    /// Adds another share's counts to these.
    pub fn merge(&mut self, o: &AllAffineStats) {
        self.accumulation_rounds += o.accumulation_rounds;
        self.reduction_rounds += o.reduction_rounds;
        self.inversions += o.inversions;
        self.batched_additions += o.batched_additions;
        self.immediate += o.immediate;
    }
}

/// Which of the two round buffers holds a bucket's current points.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    A,
    B,
}

/// Reusable buffers of the accumulation. A round reads one buffer and writes the other, so
/// nothing is copied back.
pub(crate) struct Scratch<A, F> {
    a: Vec<A>,
    b: Vec<A>,
    /// the first round's operands, two per pending addition, copied as they pair up
    operands: Vec<A>,
    /// per bucket, the first round's point waiting for its partner (if `waiting[k]`)
    partner: Vec<A>,
    waiting: Vec<bool>,
    start: Vec<u32>,
    len: Vec<u32>,
    place: Vec<Place>,
    /// (destination, first of the two operands) of the additions waiting for the batch inversion
    pending: Vec<(u32, u32)>,
    denominators: Vec<F>,
}

impl<A: Copy, F> Scratch<A, F> {
    pub(crate) fn new() -> Self {
        Scratch {
            a: Vec::new(),
            b: Vec::new(),
            operands: Vec::new(),
            partner: Vec::new(),
            waiting: Vec::new(),
            start: Vec::new(),
            len: Vec::new(),
            place: Vec::new(),
            pending: Vec::new(),
            denominators: Vec::new(),
        }
    }
}

/// The buffer at `place`.
#[inline(always)]
fn buf<A, F>(s: &Scratch<A, F>, place: Place) -> &[A] {
    match place {
        Place::A => &s.a,
        Place::B => &s.b,
    }
}

/// Runs the pending additions of a round: one batch inversion, then every second half, read from
/// the buffer at `from` and written to the other one.
fn flush<G: MsmGroup>(
    s: &mut Scratch<G::Affine, G::Base>,
    from: Place,
    stats: &mut AllAffineStats,
) {
    let Scratch {
        a,
        b,
        pending,
        denominators,
        ..
    } = s;
    let (src, dst): (&[G::Affine], &mut [G::Affine]) = match from {
        Place::A => (a, b),
        Place::B => (b, a),
    };
    finish_batch::<G>(src, dst, pending, denominators, stats);
}

/// The pending additions `(destination, i)`, `src[i] + src[i + 1]` into `dst[destination]`:
/// one batch inversion of their denominators, then every second half. Empties both lists.
fn finish_batch<G: MsmGroup>(
    src: &[G::Affine],
    dst: &mut [G::Affine],
    pending: &mut Vec<(u32, u32)>,
    denominators: &mut Vec<G::Base>,
    stats: &mut AllAffineStats,
) {
    if pending.is_empty() {
        return;
    }
    // the inverses are only multiplied (affine_add_finish*): lazy
    batch_inverse_lazy(denominators);
    stats.inversions += 1;
    stats.batched_additions += pending.len();
    // two additions at a time, their products interleaved (MsmGroup::affine_add_finish2), each
    // sum written straight to its place
    let mut pairs = pending.chunks_exact(2).zip(denominators.chunks_exact(2));
    for (pair, inv) in &mut pairs {
        let ((d0, i0), (d1, i1)) = (pair[0], pair[1]);
        let (i0, i1) = (i0 as usize, i1 as usize);
        let sums = G::affine_add_finish2(
            [&src[i0], &src[i1]],
            [&src[i0 + 1], &src[i1 + 1]],
            [inv[0], inv[1]],
        );
        dst[d0 as usize] = sums[0];
        dst[d1 as usize] = sums[1];
    }
    if pending.len() % 2 == 1 {
        let ((d, i), inv) = (
            pending[pending.len() - 1],
            denominators[denominators.len() - 1],
        );
        let i = i as usize;
        dst[d as usize] = G::affine_add_finish(&src[i], &src[i + 1], inv);
    }
    pending.clear();
    denominators.clear();
}

// ANCHOR: first_round
/// The first round, fused with the sort: the points are read once, in input order (negated for
/// a negative digit). A bucket's point waits in its slot for the next point of the same bucket;
/// the two start their addition, and if it needs an inversion they are copied, side by side,
/// into `operands`, which holds one batch and stays in cache for its second halves. The sum of
/// bucket k's j-th pair goes to B at `start[k] + j`, an odd last point after them: then bucket k
/// holds ⌈len/2⌉ points in B. Nothing is written in bucket order before the first addition.
fn first_round<G: MsmGroup>(
    points: &[G::Affine],
    digits: &[i32],
    batch: usize,
    s: &mut Scratch<G::Affine, G::Base>,
    stats: &mut AllAffineStats,
) {
    let buckets = s.len.len();
    let identity = G::affine_identity();
    s.waiting.clear();
    s.waiting.resize(buckets, false);
    s.partner.resize(buckets, identity);
    let mut next = s.start.clone();
    let Scratch {
        b: out,
        operands,
        partner,
        waiting,
        pending,
        denominators,
        ..
    } = s;
    for (p, &d) in points.iter().zip(digits) {
        if d == 0 {
            continue;
        }
        let k = d.unsigned_abs() as usize - 1;
        let p = if d > 0 { *p } else { G::affine_neg(p) };
        if !waiting[k] {
            partner[k] = p;
            waiting[k] = true;
            continue;
        }
        waiting[k] = false;
        let dest = next[k] as usize;
        next[k] += 1;
        match G::affine_add_start(&partner[k], &p) {
            AffineAdd::Done(sum) => {
                out[dest] = sum;
                stats.immediate += 1;
            }
            AffineAdd::Invert(den) => {
                pending.push((dest as u32, operands.len() as u32));
                operands.push(partner[k]);
                operands.push(p);
                denominators.push(den);
                if pending.len() >= batch {
                    finish_batch::<G>(operands, out, pending, denominators, stats);
                    operands.clear();
                }
            }
        }
    }
    finish_batch::<G>(operands, out, pending, denominators, stats);
    operands.clear();
    for k in 0..buckets {
        if waiting[k] {
            out[next[k] as usize] = partner[k];
        }
    }
}
// ANCHOR_END: first_round

// ANCHOR: sorted_accumulation
/// One window's bucket sums, in affine coordinates, by sorting and pairwise rounds: `digits[i]` is
/// point i's signed digit; bucket j − 1 of the result is the sum of the points with digit ±j
/// (negated for −j), or the identity.
pub(crate) fn accumulate_sorted<G: MsmGroup>(
    points: &[G::Affine],
    digits: &[i32],
    buckets: usize,
    batch: usize,
    s: &mut Scratch<G::Affine, G::Base>,
    stats: &mut AllAffineStats,
) -> impl Iterator<Item = G::Affine> {
    // counting sort of the input indices by bucket
    s.len.clear();
    s.len.resize(buckets, 0);
    for &d in digits {
        if d != 0 {
            s.len[d.unsigned_abs() as usize - 1] += 1;
        }
    }
    s.start.clear();
    let mut total = 0u32;
    for &l in &s.len {
        s.start.push(total);
        total += l;
    }
    let identity = G::affine_identity();
    // Both buffers keep their length between windows: every place a round reads was written
    // before, in this window, so stale points from an earlier window are never read. A window
    // needs a place per nonzero digit (a share's piece, whose digits name only some buckets,
    // needs fewer than n); they grow with an eighth to spare, so that the next window, which
    // needs about as many, does not copy them again.
    let need = total as usize;
    for buf in [&mut s.a, &mut s.b] {
        if buf.len() < need {
            buf.resize((need + need / 8).min(points.len()), identity);
        }
    }
    first_round::<G>(points, digits, batch, s, stats);
    if s.len.iter().any(|&l| l >= 2) {
        stats.accumulation_rounds += 1;
    }
    for l in s.len.iter_mut() {
        *l = l.div_ceil(2);
    }
    s.place.clear();
    s.place.resize(buckets, Place::B);
    // Further rounds: every bucket with two or more points adds them in pairs (P0 + P1 →
    // position 0, P2 + P3 → 1, …; an odd last point moves to position ⌊len/2⌋). All pairs are
    // independent.
    let mut from = Place::B;
    let mut to = Place::A;
    loop {
        let mut active = false;
        for b in 0..buckets {
            let (start, len) = (s.start[b] as usize, s.len[b] as usize);
            if len < 2 {
                continue;
            }
            active = true;
            for k in 0..len / 2 {
                let (i, dest) = (start + 2 * k, start + k);
                let src = buf(s, from);
                match G::affine_add_start(&src[i], &src[i + 1]) {
                    AffineAdd::Done(sum) => {
                        match to {
                            Place::A => s.a[dest] = sum,
                            _ => s.b[dest] = sum,
                        }
                        stats.immediate += 1;
                    }
                    AffineAdd::Invert(den) => {
                        s.pending.push((dest as u32, i as u32));
                        s.denominators.push(den);
                        if s.pending.len() >= batch {
                            flush::<G>(s, from, stats);
                        }
                    }
                }
            }
            if len % 2 == 1 {
                let last = buf(s, from)[start + len - 1];
                match to {
                    Place::A => s.a[start + len / 2] = last,
                    _ => s.b[start + len / 2] = last,
                }
            }
            s.len[b] = len.div_ceil(2) as u32;
            s.place[b] = to;
        }
        if !active {
            break;
        }
        flush::<G>(s, from, stats);
        stats.accumulation_rounds += 1;
        (from, to) = (to, if to == Place::A { Place::B } else { Place::A });
    }
    (0..buckets).map(move |b| {
        if s.len[b] == 0 {
            identity
        } else {
            buf(s, s.place[b])[s.start[b] as usize]
        }
    })
}
// ANCHOR_END: sorted_accumulation

/// One batch of independent affine additions `acc[x] += addend(x)` for the listed x.
fn add_batch<G: MsmGroup>(
    acc: &mut [G::Affine],
    addend: impl Fn(usize) -> G::Affine,
    pending: &mut Vec<usize>,
    denominators: &mut Vec<G::Base>,
    stats: &mut AllAffineStats,
) {
    pending.clear();
    denominators.clear();
    for (x, a) in acc.iter_mut().enumerate() {
        match G::affine_add_start(a, &addend(x)) {
            AffineAdd::Done(sum) => {
                *a = sum;
                stats.immediate += 1;
            }
            AffineAdd::Invert(den) => {
                pending.push(x);
                denominators.push(den);
            }
        }
    }
    stats.reduction_rounds += 1;
    if denominators.is_empty() {
        return;
    }
    batch_inverse_lazy(denominators);
    stats.inversions += 1;
    stats.batched_additions += pending.len();
    // two additions at a time (distinct x: independent), their products interleaved
    let mut pairs = pending.chunks_exact(2).zip(denominators.chunks_exact(2));
    for (x, inv) in &mut pairs {
        let (a0, a1) = (addend(x[0]), addend(x[1]));
        let sums = G::affine_add_finish2([&acc[x[0]], &acc[x[1]]], [&a0, &a1], [inv[0], inv[1]]);
        acc[x[0]] = sums[0];
        acc[x[1]] = sums[1];
    }
    if pending.len() % 2 == 1 {
        let (x, inv) = (
            pending[pending.len() - 1],
            denominators[denominators.len() - 1],
        );
        acc[x] = G::affine_add_finish(&acc[x], &addend(x), inv);
    }
}

// ANCHOR: affine_reduction
/// Σ_j (b₀ + j + 1)·`sums[o + j]` for every range (b₀, len) of `ranges`, whose sums lie one after
/// another in `sums` (range k's at o = the lengths before it): the running-sum reduction of the
/// buckets b₀ .. b₀ + len of a window, all ranges at once. Each range is cut into segments of `l`
/// buckets; the running sums R and totals T of all segments of all ranges advance together, one
/// batch per step. A range's result is Σ_t T_t + l·Σ_t t·R_t (cuZK's correction, the second sum
/// by a running sum over t), plus b₀·Σ_t R_t for a range that does not start at the first bucket.
pub(crate) fn reduce_ranges<G: MsmGroup>(
    sums: &[G::Affine],
    ranges: &[(usize, usize)],
    l: usize,
    stats: &mut AllAffineStats,
) -> Vec<G> {
    let l = l.max(1);
    // segment x: (range, first bucket of the range's sums in `sums`, segment index t)
    let mut segs = Vec::new();
    let mut first = Vec::with_capacity(ranges.len());
    let mut offset = 0;
    for (k, &(_, len)) in ranges.iter().enumerate() {
        first.push(segs.len());
        for t in 0..len.div_ceil(l) {
            segs.push((k, offset, t));
        }
        offset += len;
    }
    let mut running = vec![G::affine_identity(); segs.len()];
    let mut total = vec![G::affine_identity(); segs.len()];
    let (mut pending, mut denominators) = (Vec::new(), Vec::new());
    // bucket of segment x at local position j, or the identity past its range's last bucket
    let bucket = |x: usize, j: usize| {
        let (k, o, t) = segs[x];
        let b = t * l + j;
        if b < ranges[k].1 {
            sums[o + b]
        } else {
            G::affine_identity()
        }
    };
    for j in (0..l).rev() {
        add_batch::<G>(
            &mut running,
            |x| bucket(x, j),
            &mut pending,
            &mut denominators,
            stats,
        );
        let r = &running;
        add_batch::<G>(&mut total, |x| r[x], &mut pending, &mut denominators, stats);
    }
    ranges
        .iter()
        .enumerate()
        .map(|(k, &(b0, len))| {
            let (from, count) = (first[k], len.div_ceil(l));
            let t_sum = (0..count).fold(G::identity(), |acc, t| acc.add_affine(&total[from + t]));
            // Σ_t t·R_t by a running sum over the segments, from the top
            let (mut run, mut weighted) = (G::identity(), G::identity());
            for t in (1..count).rev() {
                run = run.add_affine(&running[from + t]);
                weighted = weighted.add(&run);
            }
            let mut q = t_sum.add(&weighted.mul_scalar(&[l as u64]));
            if b0 > 0 && count > 0 {
                let all = run.add_affine(&running[from]);
                q = q.add(&all.mul_scalar(&[b0 as u64]));
            }
            q
        })
        .collect()
}

/// Σ_j j·`sums[w·m + j − 1]` for every window w (m buckets each), all windows at once, in
/// `segments` segments per window ([`reduce_ranges`] with whole windows).
pub(crate) fn reduce_all_affine<G: MsmGroup>(
    sums: &[G::Affine],
    m: usize,
    segments: usize,
    stats: &mut AllAffineStats,
) -> Vec<G> {
    let windows = sums.len() / m;
    let l = m.div_ceil(segments.clamp(1, m));
    reduce_ranges::<G>(sums, &vec![(0, m); windows], l, stats)
}
// ANCHOR_END: affine_reduction

// ANCHOR: all_affine_segments
/// Products the segment model charges each segment for its correction in the window's projective
/// finish: three projective additions (two mixed, one general: 34 products in XYZZ), rounded up
/// to leave room for the window's multiplication by L. One value for both models below and the
/// book's derivation (book_numbers: `all_affine.segments.correction_products`).
pub const SEGMENT_CORRECTION_PRODUCTS: f64 = 40.0;

/// Segments per window for the affine reduction of `windows` windows of m buckets. Each step of
/// the reduction is two batches, each one inversion (about 1.5·bits products by Fermat), and there
/// are L = m/S steps; each segment costs C = SEGMENT_CORRECTION_PRODUCTS products of correction.
/// 2·(m/S)·1.5·bits = C·S·windows at S = √(2·m·1.5·bits / (C·windows)).
pub fn segments(m: usize, windows: usize, bits: u32) -> usize {
    let inversion = 1.5 * bits as f64;
    let s =
        (2.0 * m as f64 * inversion / (SEGMENT_CORRECTION_PRODUCTS * windows.max(1) as f64)).sqrt();
    (s.round() as usize).clamp(1, m.max(1))
}

/// The same balance for `total` buckets in ranges of any length: the segment length L (the steps
/// of the reduction) with 2·L·1.5·bits = C·(total/L), L = √(C·total / (3·bits)).
pub fn segment_length(total: usize, bits: u32) -> usize {
    let l = (SEGMENT_CORRECTION_PRODUCTS * total as f64 / (3.0 * bits as f64)).sqrt();
    (l.round() as usize).clamp(1, total.max(1))
}
// ANCHOR_END: all_affine_segments

// ANCHOR: all_affine_pipeline
/// The pipeline with window width `c` on validated, non-empty input, every scalar below `bound`.
pub(crate) fn all_affine<G: MsmGroup>(
    points: &[G::Affine],
    scalars: &[Scalar],
    bound: &Scalar,
    c: u32,
    cfg: &AllAffineConfig,
    stats: &mut AllAffineStats,
) -> G {
    let n = points.len();
    let windows = num_windows(c, bound);
    let m = 1usize << (c - 1);
    let digits = decompose_all(scalars, c, windows);
    let mut scratch = Scratch::new();
    let mut sums = Vec::with_capacity(windows * m);
    for d in digits.chunks(n) {
        sums.extend(accumulate_sorted::<G>(
            points,
            d,
            m,
            cfg.accumulation_batch.max(1),
            &mut scratch,
            stats,
        ));
    }
    drop(scratch);
    let segments = match cfg.reduction_batch {
        Some(batch) => batch.div_ceil(windows).max(1),
        None => segments(m, windows, G::Base::params().bits),
    };
    let window_sums = reduce_all_affine::<G>(&sums, m, segments, stats);
    horner(&window_sums, c)
}
// ANCHOR_END: all_affine_pipeline

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_balance() {
        // BLS12-377 base field (377 bits), c = 13: 20 windows of 4096 buckets
        assert_eq!(segments(4096, 20, 377), 76);
        // never more segments than buckets, never none
        assert_eq!(segments(1, 1, 377), 1);
        assert_eq!(segments(2, 1, 377), 2);
        assert_eq!(segments(0, 0, 254), 1);
    }
}
