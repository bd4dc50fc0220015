//! # fastmsm-mont: multiprecision modular multiplication, every variant of the book
//!
//! The code behind the chapters *Montgomery multiplication* and *Barrett reduction*. Each
//! variant is one function over fixed-size limb arrays, generic over the limb count, with a doc
//! comment naming its source:
//!
//! | module | variant | limbs |
//! |---|---|---|
//! | [`cios`] | CIOS (Koç, Acar, Kaliski 1996) | 64-bit |
//! | [`fios`] | FIOS (same paper) | 64-bit |
//! | [`sos`] | SOS and its squaring shortcut (same paper) | 64-bit |
//! | [`no_carry`] | gnark's no-carry CIOS, with its condition on p checked; its lazy form | 64-bit |
//! | [`fips_wide`] | FIPS with `u128` column sums, for WebAssembly's 64×64→128 multiply | 64-bit |
//! | [`bos`] over [`two_lane`] | Bos–Montgomery two-way SIMD: portable, SSE2, wasm simd128 | 32-bit |
//! | [`emmart`] | Emmart's f64 FMA method (native FMA, wasm relaxed SIMD) | 51-bit in f64 |
//! | [`reduced_radix`] | Mitscha-Baude's reduced radix, carries every nSafe steps; lazy form | 26–30-bit in u64 |
//! | [`reduced_radix_lanes`] | the same with x·y and q·p in two SIMD lanes, lazy | 30-bit in u64 |
//! | [`gpu_twin`] | u32-only twins of the WGSL shaders | 12–16-bit in u32 |
//! | [`barrett`] | vanilla Barrett and Barrett–Domb | 64-bit |
//!
//! Only the moduli are typed ([`fields`]); μ, R mod p, R² mod p, Barrett's m and the carry
//! budget are derived ([`params`], [`mod@carry_budget`], [`mod@limb_constants`]). [`chain::chained_mul`]
//! runs the dependent-multiplication loop that the benches and the widget time.
//!
//! No `unsafe` outside the SIMD lane implementations; no allocation outside [`mod@limb_constants`].
#![deny(missing_docs)]
// The loops are written in the index notation of the papers they come from (t[i + j], p[j], …)
// so that each listing reads against its source; iterator rewrites would hide that.
#![allow(clippy::needless_range_loop, clippy::manual_is_multiple_of)]

pub mod barrett;
#[cfg(feature = "ark")]
pub mod baseline;
pub mod bos;
pub mod carry_budget;
pub mod chain;
pub mod cios;
pub mod emmart;
pub mod emmart_lanes;
pub mod error;
pub mod fields;
pub mod fios;
pub mod fips_wide;
pub mod gpu_twin;
pub mod limb_constants;
pub mod no_carry;
pub mod params;
pub mod primitives;
pub mod reduced_radix;
pub mod reduced_radix_lanes;
pub mod sos;
pub mod two_lane;
pub mod variant;
pub mod words;

pub use carry_budget::{CarryBudget, CarryBudgetRow, carry_budget, carry_budget_table};
pub use chain::{applies, chained_mul, mul, radix_bits, raw_product};
pub use error::MontError;
pub use fields::Field;
pub use limb_constants::{LimbConstants, limb_constants};
pub use params::{FieldParams, MontParams};
pub use variant::Variant;
pub use words::{Canonical, WORDS};
