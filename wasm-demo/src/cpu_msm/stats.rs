//! What the cpu-msm widget shows beside a run's time: the rounds, inversions and additions of
//! the batch-affine and all-affine MSMs, in one shape for both.

use fastmsm_msm::{AllAffineStats, BatchAffineStats};
use serde::Serialize;

#[derive(Serialize, Default)]
pub(crate) struct Stats {
    pub rounds: usize,
    pub inversions: usize,
    pub batched_additions: usize,
    pub immediate: usize,
    pub deferred: usize,
    pub spilled: usize,
}

impl From<BatchAffineStats> for Stats {
    fn from(s: BatchAffineStats) -> Self {
        Stats {
            rounds: s.rounds,
            inversions: s.inversions,
            batched_additions: s.batched_additions,
            immediate: s.immediate,
            deferred: s.deferred,
            spilled: s.spilled,
        }
    }
}

impl From<AllAffineStats> for Stats {
    fn from(s: AllAffineStats) -> Self {
        Stats {
            rounds: s.accumulation_rounds + s.reduction_rounds,
            inversions: s.inversions,
            batched_additions: s.batched_additions,
            immediate: s.immediate,
            deferred: 0,
            spilled: 0,
        }
    }
}
