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
//! | window combination | [`reduce::horner`] | Σ 2^(c·w)·W_w by Horner's rule |
//! | GLV (optional) | [`glv`] | k ≡ k1 + k2·λ (mod r): 2n points with half-length scalars, on the curves with the endomorphism |
//!
//! [`all_affine::msm_all_affine`] keeps every bucket addition affine (sorted accumulation in
//! pairwise rounds, reduction batched across windows: Mitscha-Baude's ZPrize 2022 design).
//! [`twin::via_twin`] runs any of them over a curve's twin in another field representation (the
//! 30- and 51-bit limbs of [`radix30`] and [`radix51`], the fast ones in WebAssembly);
//! [`count::msm_counted`] runs them over a field that counts its
//! operations.
//!
//! [`msm`] runs them with defaults; [`msm_with`] takes an [`MsmConfig`] that picks the window, the
//! accumulation path and the reduction. The group types are [`MsmGroup`]: XYZZ ([`Bn254G1`],
//! [`Bls12_377G1`], [`Bls12_381G1`]), Jacobian for the same curves, and extended twisted Edwards
//! ([`EdBls12_377G`]). Everything is portable (it runs in WebAssembly). [`split`] cuts the
//! all-affine MSM into shares of equal work for threads or workers; with the `rayon` feature
//! `split::msm_parallel` runs them on rayon's pool (native threads, or Web Workers over shared
//! memory through wasm-bindgen-rayon). [`format`](mod@format) reads and writes the interchange layout of the
//! `msm` tool and the npm package. With the `ark` feature (on by default), [`ark::msm`] takes and
//! returns arkworks types.
#![deny(missing_docs)]

pub mod all_affine;
#[cfg(feature = "ark")]
pub mod ark;
pub mod batch_affine;
pub mod batch_inv;
pub mod bucket;
pub mod count;
pub mod cuzk;
pub mod digits;
pub mod format;
pub mod glv;
pub mod group;
pub mod pippenger;
pub mod radix30;
pub mod radix51;
pub mod reduce;
pub mod scalar;
pub mod split;
pub mod twin;
pub mod window;

pub use batch_affine::{BatchAffineConfig, BatchAffineStats};
pub use group::{AffineAdd, MsmGroup};
pub use pippenger::{Accumulation, MsmConfig, MsmError, Reduction, msm, msm_with, msm_with_stats};
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
