//! Loop iterations per invocation, for devices that cut long-running loops short.
//!
//! Mesa's llvmpipe (lavapipe natively, and what Chromium or Firefox run WebGPU on where Linux has no
//! GPU driver) gives each invocation 65535 loop iterations in all, shared by every loop it runs,
//! and then ends each loop at its next iteration without any error: the invocation goes on with
//! half-finished values, and the MSM comes out wrong. [`crate::GpuContext::loop_limit`] measures
//! such a limit when a device opens; on a device that has one, the plan sizes its work so that
//! no invocation comes near it. The counts here are upper bounds on the iterations the generated
//! kernels run (the host unrolls every loop over limbs, `wgsl::unroll_fixed_loops`, so the loops
//! left are the kernels' own, the stepped additions' and the compact product's rows).

use super::plan::FAN_IN;
use crate::mont_wgsl::{KernelForm, product_loop_iterations};
use fastmsm_mont::LimbConstants;

/// Montgomery products of one point addition, at most, in every formula of `curve_sw.wgsl` and
/// `curve_te.wgsl`: the stepped general addition's 14 steps plus the 9 of its doubling branch are
/// the most; a stepped form runs one loop iteration per product.
pub const ADDITION_PRODUCTS: u32 = 24;

/// What one MSM's kernels may run per invocation on a device with a loop limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopBudget {
    /// Iterations one invocation may run, all of its loops together.
    pub limit: u32,
    /// Iterations of one point addition (its steps and its products' rows).
    pub per_addition: u32,
    /// Iterations of one step of the SMVP's level-0 loop: an entry (projective) or a round of
    /// every lane (batch-affine).
    pub per_smvp_step: u32,
    /// Iterations before the SMVP's loop starts, per window (finding the invocation's window).
    pub smvp_setup_per_window: u32,
}

impl LoopBudget {
    /// The budget of the MSM compiled for `constants` in `form` with `lanes` chunks per level-0
    /// SMVP invocation (1: the projective SMVP; more: the batch-affine experiment), on a device
    /// whose loops stop after `limit` iterations.
    pub fn new(limit: u32, constants: &LimbConstants, form: KernelForm, lanes: u32) -> Self {
        let product = 1 + product_loop_iterations(constants, form);
        let per_addition = ADDITION_PRODUCTS * product + 2;
        let per_smvp_step = match lanes {
            1 => 1 + per_addition,
            // A round: every lane's forward step (one product) and backward step (at most twelve
            // products), and one inversion by Fermat: a square, and a multiply where the bit is
            // set, for every bit of p − 2.
            lanes => {
                let inversion = 2 * constants.barrett_n * product;
                lanes * (2 + 13 * product) + inversion + 2
            }
        };
        Self {
            limit,
            per_addition,
            per_smvp_step,
            smvp_setup_per_window: 2 + lanes,
        }
    }

    /// The same budget for the batch-affine experiment with `lanes` lanes whose round's inversion
    /// (and shared product tree) runs `inversion` loop iterations, `product` those of one product.
    pub fn with_round_inversion(self, lanes: u32, product: u32, inversion: u32) -> Self {
        if lanes == 1 || inversion == 0 {
            return self;
        }
        Self {
            per_smvp_step: lanes * (2 + 13 * product) + inversion + 2,
            ..self
        }
    }

    /// The most entries (projective) or rounds (batch-affine) one SMVP invocation may take with
    /// `windows` windows: `None` where even the smallest chunk would not fit.
    pub fn max_chunk(&self, windows: u32) -> Option<u32> {
        let setup = self.smvp_setup_per_window * windows + 8;
        let k = self.limit.checked_sub(setup)? / self.per_smvp_step;
        (k >= super::plan::MIN_CHUNK).then_some(k)
    }

    /// The fewest reduction segments per window (a power of two) that keep one reduction
    /// invocation within the limit: it runs 2·(B/S) running-sum steps and 2·(c − 1) steps to
    /// scale its partial, one addition each.
    pub fn min_segments(&self, buckets: u32, window_bits: u32) -> Option<u32> {
        let per_step = 1 + self.per_addition;
        let fixed = (2 * window_bits + 1) * per_step;
        let room = self.limit.checked_sub(fixed)? / per_step / 2;
        if room == 0 {
            return None;
        }
        Some(buckets.div_ceil(room).next_power_of_two().min(buckets))
    }

    /// Whether one combine invocation fits: at most F head slots, each found by a walk over the
    /// windows and the levels, and F additions.
    pub fn combine_fits(&self, windows: u32, levels: u32) -> bool {
        FAN_IN * (windows + 2 * levels + 3 + self.per_addition) < self.limit
    }
}
