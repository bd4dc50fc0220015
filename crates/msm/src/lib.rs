//! # fastmsm-msm: multi-scalar multiplication on the CPU
//!
//! Computes `Q = k₀·P₀ + k₁·P₁ + … + k₍ₙ₋₁₎·P₍ₙ₋₁₎` for affine points `Pᵢ` of one of the four curves
//! of `fastmsm-curves` and scalars `kᵢ < r` given as little-endian `[u64; 4]`.
//!
//! The algorithm is Pippenger's bucket method (N. Pippenger, "On the evaluation of powers and
//! related problems", FOCS 1976), in the shape every fast MSM implementation uses, one module per
//! stage, each the code behind a chapter of the book:
//!
//! | stage | module | what it does |
//! |---|---|---|
//! | window size | [`window`] | picks the window width c from n with a cost model |
//! | scalar decomposition | [`digits`] | each scalar → signed c-bit digits in [−2^(c−1), 2^(c−1)) plus the final carry |
//! | bucket accumulation | [`bucket`] | per window, adds each point into bucket \|digit\| (negated for a negative digit) |
//! | … or batch-affine | [`batch_affine`] | the same buckets in affine coordinates, many additions sharing one inversion ([`batch_inv`]) |
//! | … or transposition + SMVP | [`cuzk`] | cuZK's CSR form of each window, then one sum per bucket row (the GPU stages' reference) |
//! | bucket reduction | [`reduce`] | Σ j·B_j by running sums, serially or split into T independent segments (cuZK) |
//! | window combination | [`fastmsm_curves::horner`] | Σ 2^(c·w)·W_w by Horner's rule |
//! | GLV (optional) | [`glv`] | k ≡ k1 + k2·λ (mod r): 2n points with half-length scalars, on the curves with the endomorphism |
//!
//! **One front door.** [`msm`] takes the points and scalars (ours, or arkworks' with the `ark`
//! feature, on by default: [`MsmPoint`]) and one [`MsmConfig`], checks the input once (lengths,
//! scalars below r, points on the curve, and in the subgroup where asked: [`Points`]) and runs
//! what the config names:
//!
//! - the algorithm ([`Algorithm`]): Pippenger with projective, batch-affine or cuZK-shaped CSR
//!   accumulation ([`Accumulation`]) and a plain or split reduction ([`Reduction`]); or every
//!   bucket addition affine ([`all_affine`]: sorted accumulation in pairwise rounds, reduction
//!   batched across windows, Mitscha-Baude's ZPrize 2022 design), the default;
//! - the window ([`Window`]), and GLV;
//! - the field representation ([`Limbs`]): the 64-bit words, or the curve's twin over 30- or
//!   51-bit limbs ([`twin`], the fast ones in WebAssembly);
//! - the threads ([`Threads`]): this one, rayon's pool (feature `rayon`, native threads), or
//!   shares run in turn ([`split`]; a browser's Web Workers run the same shares, one each);
//! - operation counts ([`count`]: the same code over a field that counts).
//!
//! [`MsmOutput`] carries the sum and what the run did. The whole MSM is **variable-time** in the
//! scalars; [`Window::FromSize`] removes the scalar values from the window choice (the book's
//! security chapter says what remains). [`check_points`] runs the point checks alone, for points
//! loaded once. Web workers that each hold the points use [`split::plan`] (a share per run of
//! buckets) and [`split::run_share`]. The group types are [`MsmGroup`]: XYZZ ([`Bn254G1`], [`Bls12_377G1`],
//! [`Bls12_381G1`]), Jacobian for the same curves, and extended twisted Edwards
//! ([`EdBls12_377G`]). Everything is portable (it runs in WebAssembly).
//! [`format`](mod@format) reads and writes the interchange layout of the `msm` tool and the npm
//! package.
#![deny(missing_docs)]

pub mod all_affine;
pub mod batch_affine;
pub mod batch_inv;
pub mod bucket;
mod check;
mod config;
pub mod count;
pub mod cuzk;
pub mod digits;
mod door;
pub mod format;
pub mod glv;
pub mod group;
mod input;
mod pippenger;
pub mod radix30;
pub mod radix51;
pub mod reduce;
pub mod scalar;
pub mod split;
pub mod twin;
pub mod window;

pub use all_affine::AllAffineStats;
pub use batch_affine::{BatchAffineConfig, BatchAffineStats};
pub use config::{
    Accumulation, Algorithm, AllAffineConfig, Limbs, MsmConfig, MsmError, MsmOutput, MsmStats,
    Points, Reduction, Threads, Window,
};
pub use door::{check_points, msm};
pub use group::{AffineAdd, MsmGroup};
pub use input::{CpuGroup, MsmPoint};
pub use scalar::Scalar;

use fastmsm_curves::{sw, te};

/// BN254 G1 in XYZZ coordinates, the default MSM group for BN254.
pub type Bn254G1 = sw::Xyzz<fastmsm_curves::Bn254>;
/// BLS12-377 G1 in XYZZ coordinates.
pub type Bls12_377G1 = sw::Xyzz<fastmsm_curves::Bls12_377>;
/// BLS12-381 G1 in XYZZ coordinates.
pub type Bls12_381G1 = sw::Xyzz<fastmsm_curves::Bls12_381>;
/// Ed-on-BLS12-377 in extended twisted Edwards coordinates.
pub type EdBls12_377G = te::Extended<fastmsm_curves::EdBls12_377>;
