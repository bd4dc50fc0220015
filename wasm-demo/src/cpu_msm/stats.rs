//! What the cpu-msm widget shows beside a run's time: the rounds, inversions and additions of
//! the batch-affine and all-affine MSMs, in one shape for both.

use fastmsm_msm::BatchAffineStats;
use fastmsm_msm::all_affine::AllAffineStats;
use serde::Serialize;

#[derive(Serialize, Default)]
pub(crate) struct Stats {
    /// The window the MSM chose, where it reports it (the all-affine one picks it from the
    /// scalars): the run's window then, not the one the size alone would give.
    #[serde(skip)]
    pub window: Option<u32>,
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
            window: None,
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
            window: Some(s.window),
            rounds: s.accumulation_rounds + s.reduction_rounds,
            inversions: s.inversions,
            batched_additions: s.batched_additions,
            immediate: s.immediate,
            deferred: 0,
            spilled: 0,
        }
    }
}
