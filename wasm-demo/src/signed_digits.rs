//! Entry point of the `signed-digits` widget (book/widgets/widgets/signed-digits.js): a scalar cut into
//! c-bit windows and signed digits by `fastmsm_msm::digits`, with the carry between windows; the
//! widget checks the digits against the scalar with its own `BigInt` arithmetic.

use fastmsm_msm::MsmGroup;
use fastmsm_msm::digits::{chunk, decompose_into, num_windows, to_shifted};
use fastmsm_msm::format::hex;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::ark_pair::{Pair, with_pair};
use crate::explain::parse_scalar;
use crate::js::{err, to_js};

#[derive(Serialize)]
struct Window {
    /// Window index j: bits [c·j, c·j + c).
    index: usize,
    /// The unsigned c-bit chunk.
    chunk: u32,
    /// The carry coming in from window j − 1 (0 or 1).
    carry_in: u32,
    /// The signed digit d_j in [−2^(c−1), 2^(c−1) − 1].
    digit: i32,
    /// The carry going out to window j + 1.
    carry_out: u32,
    /// Bucket |d_j| (1-based, as the chapter writes B_j), or null for digit 0.
    bucket: Option<u32>,
    /// "+", "−" or "" (digit 0: the point goes nowhere in this window).
    sign: &'static str,
    /// d_j + 2^(c−1): Derei and Koh's shifted form (what the GPU stages store).
    shifted: u32,
}

#[derive(Serialize)]
struct Digits {
    curve: String,
    scalar: String,
    c: u32,
    r: String,
    /// Windows for every scalar below r at this c (the final-carry window included when needed).
    windows: usize,
    /// Buckets per window: 2^(c−1).
    buckets: u32,
    rows: Vec<Window>,
}

// ANCHOR: signed_digits_export
/// The windows of `scalar` (decimal or `0x` hex) for `curve` at width c, with the signed digits of
/// `fastmsm_msm::digits::decompose_into`, the carries between windows, and each window's bucket
/// and sign. Errors name what is wrong with the input.
#[wasm_bindgen]
pub fn signed_digits(curve: &str, scalar_text: &str, c: u32) -> Result<JsValue, JsValue> {
    let (r, k) = with_pair!(curve, P => {
        type G = <P as Pair>::Ours;
        Ok((G::SCALAR_MODULUS, parse_scalar::<G>("scalar", scalar_text)?))
    })?;
    if !(2..=16).contains(&c) {
        return Err(err(format_args!("window width c = {c}: choose 2 to 16")));
    }
    let windows = num_windows(c, &r);
    let mut digits = vec![0i32; windows];
    let left = decompose_into(&k, c, &mut digits);
    assert_eq!(left, 0, "num_windows covers every scalar below r");
    let mut carry = 0u32;
    let rows = digits
        .iter()
        .enumerate()
        .map(|(j, &d)| {
            let ch = chunk(&k, j, c);
            // chunk + carry_in = d + carry_out·2^c
            let carry_out = ((i64::from(ch) + i64::from(carry) - i64::from(d)) >> c) as u32;
            let row = Window {
                index: j,
                chunk: ch,
                carry_in: carry,
                digit: d,
                carry_out,
                bucket: (d != 0).then_some(d.unsigned_abs()),
                sign: if d > 0 {
                    "+"
                } else if d < 0 {
                    "−"
                } else {
                    ""
                },
                shifted: to_shifted(d, c),
            };
            carry = carry_out;
            row
        })
        .collect();
    to_js(&Digits {
        curve: curve.into(),
        scalar: hex(&k),
        c,
        r: hex(&r),
        windows,
        buckets: 1 << (c - 1),
        rows,
    })
}
// ANCHOR_END: signed_digits_export
