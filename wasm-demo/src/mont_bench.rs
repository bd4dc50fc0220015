//! Entry points of the `mont-bench` widget (book/widgets/widgets/mont-bench.js): the chained
//! dependent-multiplication loop of `fastmsm_mont::chain` for any (field, variant), and the same
//! loop with ark-ff's `Fp` multiplication as the baseline, compiled into the same WebAssembly.
//!
//! The widget times each call with `performance.now()` and checks every returned value against
//! `x·y^iters mod p` computed with JavaScript `BigInt`, using the modulus as ark-ff has it
//! ([`mont_ark_modulus`]), so neither fastmsm-mont's nor ark-ff's code is its own reference.
//!
//! In the main package (`+simd128`), the relaxed-SIMD one (Emmart's product on
//! `f64x2.relaxed_madd`) and the wide-arithmetic one (`i64.mul_wide_u`), which the widget loads
//! only where the browser validates their instructions (feature `mont-bench`). It uses nothing
//! from the crate but [`crate::js`], which every package holds.

use fastmsm_mont::baseline::ark_chained_mul;
use fastmsm_mont::words::{Canonical, WORDS};
use fastmsm_mont::{Field, Variant, chained_mul};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::js::{err, to_js};

/// Parses big-endian hex (optional `0x`) into canonical words, rejecting what
/// `fastmsm_mont::words::parse_hex` would panic on.
fn parse_hex(s: &str) -> Result<Canonical, JsValue> {
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    let digits = digits.trim_start_matches('0');
    if digits.len() > 16 * WORDS || !digits.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(err(format_args!(
            "not a hex number of at most {} bits: {s:?}",
            64 * WORDS
        )));
    }
    let mut out = [0u64; WORDS];
    for (i, c) in digits.bytes().rev().enumerate() {
        let d = (c as char).to_digit(16).expect("checked above") as u64;
        out[i / 16] |= d << (4 * (i % 16));
    }
    Ok(out)
}

/// Lowercase big-endian hex, `0x` prefix, no leading zeros (`0x0` for zero).
fn to_hex(x: &Canonical) -> String {
    let mut s = String::from("0x");
    let mut started = false;
    for w in x.iter().rev() {
        if started {
            s.push_str(&format!("{w:016x}"));
        } else if *w != 0 {
            s.push_str(&format!("{w:x}"));
            started = true;
        }
    }
    if !started {
        s.push('0');
    }
    s
}

fn field(name: &str) -> Result<Field, JsValue> {
    Field::from_name(name).ok_or_else(|| err(format_args!("unknown field {name:?}")))
}

fn variant(name: &str) -> Result<Variant, JsValue> {
    Variant::from_name(name).ok_or_else(|| err(format_args!("unknown variant {name:?}")))
}

#[derive(Serialize)]
struct FieldInfo {
    name: &'static str,
    bits: u32,
    /// The modulus as fastmsm-mont types it.
    modulus: String,
}

/// The fields, in fastmsm-mont's order: `[{name, bits, modulus}]`.
#[wasm_bindgen]
pub fn mont_fields() -> Result<JsValue, JsValue> {
    let fields: Vec<FieldInfo> = Field::ALL
        .iter()
        .map(|f| FieldInfo {
            name: f.name(),
            bits: f.bits(),
            modulus: to_hex(&f.params().modulus),
        })
        .collect();
    to_js(&fields)
}

#[derive(Serialize)]
struct VariantInfo {
    name: &'static str,
    summary: &'static str,
    limb_bits: u32,
    montgomery: bool,
    /// Compiled into this build (only `bos-simd` can be missing: it needs simd128).
    available: bool,
    /// The fields it cannot run over, and why (the lazy no-carry product needs R ≥ 4p).
    not_for: Vec<NotFor>,
}

#[derive(Serialize)]
struct NotFor {
    field: &'static str,
    reason: String,
}

/// The variants, in fastmsm-mont's order:
/// `[{name, summary, limb_bits, montgomery, available, not_for: [{field, reason}]}]`.
#[wasm_bindgen]
pub fn mont_variants() -> Result<JsValue, JsValue> {
    let variants: Vec<VariantInfo> = Variant::ALL
        .iter()
        .map(|v| VariantInfo {
            name: v.name(),
            summary: v.summary(),
            limb_bits: v.limb_bits(),
            montgomery: v.is_montgomery(),
            available: v.is_available(),
            not_for: Field::ALL
                .iter()
                .filter_map(|&f| match fastmsm_mont::applies(*v, f) {
                    Err(e @ fastmsm_mont::MontError::NoCarry(..)) => Some(NotFor {
                        field: f.name(),
                        reason: e.to_string(),
                    }),
                    _ => None,
                })
                .collect(),
        })
        .collect();
    to_js(&variants)
}

#[derive(Serialize)]
struct BuildInfo {
    /// Compiled with `+simd128`.
    simd128: bool,
    /// Compiled with `+relaxed-simd` (the second package).
    relaxed_simd: bool,
    /// Lanes of `bos-simd`: `"simd128"`, or null without SIMD.
    bos_simd_backend: Option<&'static str>,
    /// The multiply-add of `emmart-fma`: `"f64x2.relaxed_madd"` or `"f64::mul_add"` (software on wasm).
    emmart_fma_backend: &'static str,
    /// Whether that multiply-add is fused here (it may not be, with relaxed SIMD, on some CPUs).
    emmart_fma_fused: bool,
}

/// What this build compiled in: `{simd128, relaxed_simd, bos_simd_backend, emmart_fma_backend,
/// emmart_fma_fused}`. `emmart_fma_fused` runs the engine's multiply-add on test products.
#[wasm_bindgen]
pub fn mont_build_info() -> Result<JsValue, JsValue> {
    to_js(&BuildInfo {
        simd128: cfg!(target_feature = "simd128"),
        relaxed_simd: cfg!(target_feature = "relaxed-simd"),
        bos_simd_backend: fastmsm_mont::two_lane::simd_backend(),
        emmart_fma_backend: fastmsm_mont::emmart::fma_backend(),
        emmart_fma_fused: fastmsm_mont::emmart::fma_self_test(),
    })
}

// ANCHOR: mont_chain
/// `x·y^iters mod p` by `iters` dependent multiplications with `variant` over `field`
/// (fastmsm-mont's [`chained_mul`]); inputs and result are hex. This is the call the widget times.
#[wasm_bindgen]
pub fn mont_chain(
    field_name: &str,
    variant_name: &str,
    x: &str,
    y: &str,
    iters: u32,
) -> Result<String, JsValue> {
    let (f, v) = (field(field_name)?, variant(variant_name)?);
    let out = chained_mul(v, f, &parse_hex(x)?, &parse_hex(y)?, u64::from(iters)).map_err(err)?;
    Ok(to_hex(&out))
}

/// The same loop with ark-ff 0.5's `Fp` multiplication: the baseline.
#[wasm_bindgen]
pub fn mont_ark_chain(field_name: &str, x: &str, y: &str, iters: u32) -> Result<String, JsValue> {
    let out = ark_chained_mul(
        field(field_name)?,
        &parse_hex(x)?,
        &parse_hex(y)?,
        u64::from(iters),
    )
    .map_err(err)?;
    Ok(to_hex(&out))
}
// ANCHOR_END: mont_chain

/// The modulus of `field` as ark-ff defines it (`PrimeField::MODULUS`), for the widget's
/// independent `BigInt` reference.
#[wasm_bindgen]
pub fn mont_ark_modulus(field_name: &str) -> Result<String, JsValue> {
    use ark_ff::PrimeField;
    fn words<F: PrimeField>() -> Canonical {
        let mut out = [0u64; WORDS];
        for (o, w) in out.iter_mut().zip(F::MODULUS.as_ref()) {
            *o = *w;
        }
        out
    }
    Ok(to_hex(&match field(field_name)? {
        Field::Bn254Fq => words::<ark_bn254::Fq>(),
        Field::Bn254Fr => words::<ark_bn254::Fr>(),
        Field::Bls12_377Fq => words::<ark_bls12_377::Fq>(),
        Field::Bls12_377Fr => words::<ark_bls12_377::Fr>(),
        Field::Bls12_381Fq => words::<ark_bls12_381::Fq>(),
        Field::Bls12_381Fr => words::<ark_bls12_381::Fr>(),
    }))
}
