//! The `barrett-steps` widget (book/widgets/widgets/barrett-steps.js): one product a·b reduced modulo p by
//! `fastmsm_mont::barrett::barrett_steps`, every value of the derivation returned, and the same
//! product by Barrett–Domb; both checked against num-bigint's `a·b mod p` and the exact quotient.

use fastmsm_mont::barrett::{BarrettParams, barrett_domb_mul_counted, barrett_steps};
use fastmsm_mont::words::WORDS;
use fastmsm_mont::{Field, FieldParams, fields};
use fastmsm_msm::glv::{big_to_words, words_to_big};
use num_bigint::BigUint;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{hex_big, hex_words, parse_number};
use crate::js::{err, to_js};

#[derive(Serialize)]
struct Domb {
    remainder: String,
    corrections: u32,
    max_corrections: u32,
}

#[derive(Serialize)]
struct Steps {
    field: String,
    p: String,
    /// Bit length of p.
    n: u32,
    /// ⌊4ⁿ/p⌋.
    m: String,
    a: String,
    b: String,
    z: String,
    z1: String,
    z1_m: String,
    q_hat: String,
    /// ⌊z/p⌋ by num-bigint: what q̂ estimates.
    q: String,
    uncorrected: String,
    /// z − q̂p, then after each subtraction of p.
    correction_steps: Vec<String>,
    corrections: u32,
    remainder: String,
    /// num-bigint's z mod p.
    reference: String,
    domb: Domb,
    verified: bool,
}

fn explain<const N: usize>(
    k: &BarrettParams<N>,
    field: &FieldParams,
    a_text: &str,
    b_text: &str,
) -> Result<JsValue, JsValue> {
    let p = words_to_big(&k.p);
    let below_p = |what: &str, text: &str| {
        let x = parse_number(what, text)?;
        if x >= p {
            return Err(err(format_args!(
                "{what} = {text} is not below the modulus p = {} of {}: reduce it first, Barrett multiplies residues",
                hex_big(&p),
                field.name
            )));
        }
        Ok(x)
    };
    let (a, b) = (below_p("a", a_text)?, below_p("b", b_text)?);
    let z = &a * &b;
    let z_words: [u64; 2 * WORDS] = big_to_words(&z);
    let steps = barrett_steps(&z_words[..2 * N], k);
    let uncorrected = words_to_big(&steps.uncorrected);
    let correction_steps = (0..=steps.corrections)
        .map(|i| hex_big(&(&uncorrected - &p * i)))
        .collect();
    let (domb_remainder, domb_corrections) =
        barrett_domb_mul_counted(&big_to_words(&a), &big_to_words(&b), k);
    let reference = &z % &p;
    let q = &z / &p;
    let q_hat = words_to_big(&steps.q_hat);
    let verified = words_to_big(&steps.remainder) == reference
        && words_to_big(&domb_remainder) == reference
        && q_hat <= q
        && &q - &q_hat == BigUint::from(steps.corrections)
        && domb_corrections <= k.domb_max_corrections();
    to_js(&Steps {
        field: field.name.into(),
        p: hex_big(&p),
        n: k.n,
        m: hex_words(&k.m[..=N]),
        a: hex_big(&a),
        b: hex_big(&b),
        z: hex_big(&z),
        z1: hex_words(&steps.z1),
        z1_m: hex_words(&steps.z1_m),
        q_hat: hex_big(&q_hat),
        q: hex_big(&q),
        uncorrected: hex_big(&uncorrected),
        correction_steps,
        corrections: steps.corrections,
        remainder: hex_words(&steps.remainder),
        reference: hex_big(&reference),
        domb: Domb {
            remainder: hex_words(&domb_remainder),
            corrections: domb_corrections,
            max_corrections: k.domb_max_corrections(),
        },
        verified,
    })
}

/// a·b mod p for the field named `field` (`bn254-fq`, …), with every step of vanilla Barrett
/// reduction and the Barrett–Domb result; `a` and `b` are decimal or `0x` hex, below p.
#[wasm_bindgen]
pub fn barrett_explain(field: &str, a: &str, b: &str) -> Result<JsValue, JsValue> {
    macro_rules! on {
        ($m:ident) => {
            explain(&fields::$m::BARRETT, &fields::$m::FIELD, a, b)
        };
    }
    match Field::from_name(field) {
        Some(Field::Bn254Fq) => on!(bn254_fq),
        Some(Field::Bn254Fr) => on!(bn254_fr),
        Some(Field::Bls12_377Fq) => on!(bls12_377_fq),
        Some(Field::Bls12_377Fr) => on!(bls12_377_fr),
        Some(Field::Bls12_381Fq) => on!(bls12_381_fq),
        Some(Field::Bls12_381Fr) => on!(bls12_381_fr),
        None => Err(err(format_args!(
            "unknown field {field:?}; one of {:?}",
            Field::ALL.map(Field::name)
        ))),
    }
}
