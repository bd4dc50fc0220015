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

use fastmsm_msm::glv::{big_to_words, words_to_big};
use fastmsm_msm::{MsmGroup, Scalar};
use num_bigint::BigUint;
use wasm_bindgen::JsValue;

use crate::js::err;

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

/// A scalar of group `G` the reader typed (`what` = `text`, read as [`parse_number`] reads it),
/// below the group order r; the error names the input, r and the curve.
pub(crate) fn parse_scalar<G: MsmGroup>(what: &str, text: &str) -> Result<Scalar, JsValue> {
    let k = parse_number(what, text)?;
    if k >= words_to_big(&G::SCALAR_MODULUS) {
        return Err(err(format_args!(
            "{what} = {text} is not below the group order r = {} of {}: an MSM scalar lives in [0, r)",
            hex_words(&G::SCALAR_MODULUS),
            G::NAME
        )));
    }
    Ok(big_to_words(&k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fastmsm_msm::Bn254G1;

    #[test]
    fn scalars_read_in_decimal_and_hex() {
        assert_eq!(
            parse_scalar::<Bn254G1>("k", "12345").unwrap(),
            [12345, 0, 0, 0]
        );
        assert_eq!(
            parse_scalar::<Bn254G1>("k", " 0x30_39 ").unwrap(),
            [12345, 0, 0, 0]
        );
        assert_eq!(
            parse_scalar::<Bn254G1>("k", "18446744073709551616").unwrap(),
            [0, 1, 0, 0],
            "2^64"
        );
        let mut r_minus_1 = Bn254G1::SCALAR_MODULUS;
        r_minus_1[0] -= 1;
        assert_eq!(
            parse_scalar::<Bn254G1>("k", &hex_words(&r_minus_1)).unwrap(),
            r_minus_1
        );
    }
}
