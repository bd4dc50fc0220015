//! Entry points of the widgets that step through one algorithm on a small example: each runs the
//! crates' own code, returns every intermediate value the chapter talks about, and checks the
//! result against a reference computed another way (num-bigint or arkworks, in this module).
//!
//! | widget (book/widgets/) | module | chapter |
//! |---|---|---|
//! | `barrett-steps` | [`barrett`] | Barrett reduction |
//! | `curve-ops` | [`curve_ops`] | Elliptic-curve arithmetic |
//! | `cuzk-steps` | [`cuzk_steps`] | cuZK: transposition and SMVP |
//! | `reduction-steps` | [`reduction_steps`] | Bucket reduction |
//! | `glv-split` | [`glv_split`] | GLV |
//!
//! Big numbers travel to JavaScript as `0x` hex strings, which `BigInt()` reads, so that the
//! widget can check them once more with its own arithmetic.

mod barrett;
mod curve_ops;
mod cuzk_steps;
mod glv_split;
mod reduction_steps;

use fastmsm_msm::glv::words_to_big;
use num_bigint::BigUint;
use wasm_bindgen::JsValue;

use crate::cpu_msm::err;

/// `0x` hex of a big number.
pub(crate) fn hex_big(x: &BigUint) -> String {
    format!("{x:#x}")
}

/// `0x` hex of little-endian 64-bit words.
pub(crate) fn hex_words(words: &[u64]) -> String {
    hex_big(&words_to_big(words))
}

/// A non-negative integer the reader typed, decimal or `0x` hex (underscores allowed); the error
/// names the input (`what`) and says what is expected.
pub(crate) fn parse_number(what: &str, text: &str) -> Result<BigUint, JsValue> {
    let t = text.trim().replace('_', "");
    let (digits, radix) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (t.as_str(), 10),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(err(format_args!(
            "{what} = {text:?} is not a number: type a non-negative integer in decimal (e.g. 12345) or hex with 0x (e.g. 0x3039)"
        )));
    }
    Ok(BigUint::parse_bytes(digits.as_bytes(), radix).expect("digits checked"))
}
