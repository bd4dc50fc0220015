//! Batch-affine bucket accumulation, with bucket collisions deferred.
//!
//! An affine addition costs about 3 multiplications (2M + 1S for short Weierstrass) once the
//! inverse of its denominator is known, against 8M + 2S for a mixed XYZZ addition. With
//! Montgomery's trick ([`crate::batch_inv`]) a batch of m additions shares one inversion for
//! 3(m − 1) more multiplications, so for large batches an addition costs about 6M: the
//! "batch-affine" method of ZPrize 2022 WASM entries (Mitscha-Baude; Aztec's barretenberg before
//! it), and of Emmart & Wu's ZPrize 2023 FPGA MSM, which batches the x-differences of in-flight
//! additions.
//!
//! **Collisions.** The additions of one batch must be independent: the new value of a bucket is
//! only known after the batch's inversion, so two additions into the same bucket cannot share a
//! batch. Like Emmart & Wu's collision handler, which parks an operation whose bucket is *locked*
//! (in flight) in a pending buffer and lets later non-colliding operations go first, this code
//! marks a bucket busy when an addition into it joins the batch, and an addition that finds its
//! bucket busy is **deferred** to a queue that is served first in the next round. Two bounds keep
//! adversarial inputs (all scalars equal: every point in one bucket) from degenerating into one
//! inversion per addition:
//! - the queue holds at most `max_deferred` additions; a collision beyond that is added at once,
//!   with a projective mixed addition, into a per-bucket *spill* accumulator;
//! - once the input is exhausted, a batch smaller than `min_batch` ends the batching, and what is
//!   still deferred is spilled.
//!
//! Each bucket is then spill + affine bucket, handed to the same reduction as the projective path.

use std::collections::VecDeque;

use crate::batch_inv::batch_inverse;
use crate::group::{AffineAdd, MsmGroup};

/// Tuning of [`accumulate_batch_affine`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchAffineConfig {
    /// The most additions that share one inversion. The batch is also capped at half the
    /// buckets (at least 1): one batch touches each bucket at most once, and with most buckets in
    /// flight nearly every fresh point would land on a busy one and be deferred.
    pub batch_size: usize,
    /// The most additions waiting in the deferred queue; further collisions are spilled.
    pub max_deferred: usize,
    /// After the last input point, a batch with fewer additions than this stops the batching and
    /// the remaining deferred additions are spilled.
    pub min_batch: usize,
}

impl Default for BatchAffineConfig {
    fn default() -> Self {
        BatchAffineConfig {
            batch_size: 512,
            max_deferred: 512,
            min_batch: 16,
        }
    }
}

/// What [`accumulate_batch_affine`] did: the operation counts the book's widget shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchAffineStats {
    /// Batches executed.
    pub rounds: usize,
    /// Field inversions (one per batch that needed one).
    pub inversions: usize,
    /// Affine additions that shared an inversion.
    pub batched_additions: usize,
    /// Additions that needed no inversion (into an empty bucket, or P + (−P)).
    pub immediate: usize,
    /// Times an addition found its bucket busy and was put off to a later batch.
    pub deferred: usize,
    /// Additions done projectively in the spill buckets instead.
    pub spilled: usize,
}

impl BatchAffineStats {
    /// Adds another window's counts to these.
    pub fn merge(&mut self, o: &BatchAffineStats) {
        self.rounds += o.rounds;
        self.inversions += o.inversions;
        self.batched_additions += o.batched_additions;
        self.immediate += o.immediate;
        self.deferred += o.deferred;
        self.spilled += o.spilled;
    }
}

/// One pending addition: `point` into bucket `bucket`.
#[derive(Clone, Copy)]
struct Op<A> {
    bucket: usize,
    point: A,
}

/// The state of one window's accumulation.
struct Accumulator<G: MsmGroup> {
    buckets: Vec<G::Affine>,
    spill: Vec<G>,
    busy: Vec<bool>,
    batch: Vec<Op<G::Affine>>,
    denominators: Vec<G::Base>,
    deferred: VecDeque<Op<G::Affine>>,
    stats: BatchAffineStats,
}

impl<G: MsmGroup> Accumulator<G> {
    // ANCHOR: batch_affine_take
    /// Starts the addition `op` now: done at once if no inversion is needed, else into the batch.
    fn take(&mut self, op: Op<G::Affine>) {
        match G::affine_add_start(&self.buckets[op.bucket], &op.point) {
            AffineAdd::Done(sum) => {
                self.buckets[op.bucket] = sum;
                self.stats.immediate += 1;
            }
            AffineAdd::Invert(den) => {
                self.busy[op.bucket] = true;
                self.batch.push(op);
                self.denominators.push(den);
            }
        }
    }
    // ANCHOR_END: batch_affine_take

    fn spill(&mut self, op: Op<G::Affine>) {
        self.spill[op.bucket] = self.spill[op.bucket].add_affine(&op.point);
        self.stats.spilled += 1;
    }

    // ANCHOR: batch_affine_round
    /// Runs the batch: one batch inversion, then every addition's second half; frees the buckets.
    fn execute(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        batch_inverse(&mut self.denominators);
        // two additions at a time (distinct buckets: independent), their products interleaved
        let mut pairs = self
            .batch
            .chunks_exact(2)
            .zip(self.denominators.chunks_exact(2));
        for (ops, inv) in &mut pairs {
            let (b0, b1) = (ops[0].bucket, ops[1].bucket);
            let sums = G::affine_add_finish2(
                [&self.buckets[b0], &self.buckets[b1]],
                [&ops[0].point, &ops[1].point],
                [inv[0], inv[1]],
            );
            self.buckets[b0] = sums[0];
            self.buckets[b1] = sums[1];
        }
        if self.batch.len() % 2 == 1 {
            let (op, inv) = (
                self.batch[self.batch.len() - 1],
                self.denominators[self.batch.len() - 1],
            );
            let b = &mut self.buckets[op.bucket];
            *b = G::affine_add_finish(b, &op.point, inv);
        }
        for op in &self.batch {
            self.busy[op.bucket] = false;
        }
        self.stats.rounds += 1;
        self.stats.inversions += 1;
        self.stats.batched_additions += self.batch.len();
        self.batch.clear();
        self.denominators.clear();
    }
    // ANCHOR_END: batch_affine_round
}

// ANCHOR: batch_affine_collisions
/// Fills `count` buckets for one window like [`crate::bucket::accumulate_window`], but with
/// batch-affine additions: each round takes the deferred additions whose bucket is free, then
/// fresh ones, until `batch_size` additions are in flight; an addition whose bucket is already in
/// this batch waits for the next round (or is spilled, see the module docs). Returns the buckets
/// as projective points and adds the counts to `stats`.
pub fn accumulate_batch_affine<G: MsmGroup>(
    points: &[G::Affine],
    digits: &[i32],
    count: usize,
    cfg: &BatchAffineConfig,
    stats: &mut BatchAffineStats,
) -> Vec<G> {
    debug_assert_eq!(points.len(), digits.len());
    let cap = cfg.batch_size.clamp(1, (count / 2).max(1));
    let mut acc = Accumulator::<G> {
        buckets: vec![G::affine_identity(); count],
        spill: vec![G::identity(); count],
        busy: vec![false; count],
        batch: Vec::with_capacity(cap),
        denominators: Vec::with_capacity(cap),
        deferred: VecDeque::new(),
        stats: BatchAffineStats::default(),
    };
    let mut fresh = points
        .iter()
        .zip(digits)
        .filter(|(_, d)| **d != 0)
        .map(|(p, &d)| Op {
            bucket: d.unsigned_abs() as usize - 1,
            point: if d > 0 { *p } else { G::affine_neg(p) },
        });
    let mut input_done = false;
    loop {
        // Deferred additions first: at the start of a round no bucket is busy, so the first one
        // always goes, and every round makes progress.
        for _ in 0..acc.deferred.len() {
            let op = acc.deferred.pop_front().expect("counted");
            if acc.batch.len() < cap && !acc.busy[op.bucket] {
                acc.take(op);
            } else {
                acc.deferred.push_back(op);
                acc.stats.deferred += 1;
            }
        }
        while acc.batch.len() < cap {
            let Some(op) = fresh.next() else {
                input_done = true;
                break;
            };
            if !acc.busy[op.bucket] {
                acc.take(op);
            } else if acc.deferred.len() < cfg.max_deferred {
                acc.deferred.push_back(op);
                acc.stats.deferred += 1;
            } else {
                acc.spill(op);
            }
        }
        let batch_len = acc.batch.len();
        acc.execute();
        if input_done && (acc.deferred.is_empty() || batch_len < cfg.min_batch) {
            while let Some(op) = acc.deferred.pop_front() {
                acc.spill(op);
            }
            break;
        }
    }
    stats.merge(&acc.stats);
    acc.spill
        .iter()
        .zip(&acc.buckets)
        .map(|(s, b)| s.add_affine(b))
        .collect()
}
// ANCHOR_END: batch_affine_collisions
