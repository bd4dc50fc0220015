//! The `glv-split` widget (book/widgets/widgets/glv-split.js): a scalar k split by `fastmsm_msm::glv` into
//! k1 + k2·λ, with the curve's derived β, λ, short basis and bounds; checked with num-bigint
//! (k1 + λ·k2 ≡ k mod r, |k1| and |k2| within the bounds) and with arkworks (k·G equals
//! k1·G + k2·φ(G), and φ(G) = λ·G).

use ark_ec::{CurveGroup, PrimeGroup};
use fastmsm_curves::Group;
use fastmsm_curves::field::PrimeField;
use fastmsm_curves::sw::{self, SwCurve};
use fastmsm_msm::glv::{SignedScalar, glv_of, words_to_big};
use fastmsm_msm::{MsmGroup, Scalar};
use num_bigint::{BigInt, Sign};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{hex_big, hex_words, parse_scalar};
use crate::ark_pair::{Bls377Pair, Bls381Pair, Bn254Pair, Pair, unknown_curve, xy_hex};
use crate::js::{err, to_js};

#[derive(Serialize)]
struct Split {
    curve: String,
    r: String,
    /// Bit length of r.
    r_bits: u64,
    lambda: String,
    beta: String,
    /// The short basis (a1, b1), (a2, b2), signed hex.
    basis: [[String; 2]; 2],
    /// Inclusive bounds on |k1| and |k2|, and the bits the windows must cover.
    bounds: [String; 2],
    half_bits: u32,
    k: String,
    k1: String,
    k2: String,
    /// (k1 + λ·k2 − k) / r, exact: the multiple of r the split is off by.
    r_multiple: String,
    congruent: bool,
    within_bounds: bool,
    /// φ(G) = λ·G, compared with arkworks.
    endomorphism_ok: bool,
    /// k·G by arkworks, and k1·G + k2·φ(G) by ours.
    x: Option<String>,
    y: Option<String>,
    ark_x: Option<String>,
    ark_y: Option<String>,
    points_equal: bool,
    verified: bool,
}

fn signed_hex(x: &BigInt) -> String {
    let m = hex_big(x.magnitude());
    if x.sign() == Sign::Minus {
        format!("-{m}")
    } else {
        m
    }
}

fn split<C: SwCurve, P: Pair>(k_text: &str) -> Result<JsValue, JsValue> {
    let glv = glv_of::<C>().ok_or_else(|| err("this curve has no GLV endomorphism"))?;
    let r = words_to_big(&<P::Ours as MsmGroup>::SCALAR_MODULUS);
    let k: Scalar = parse_scalar::<P::Ours>("k", k_text)?;
    let k_big = words_to_big(&k);
    let s = glv.decompose(&k);
    let lambda = words_to_big(&glv.lambda());
    let (k1, k2) = (s.k1.to_bigint(), s.k2.to_bigint());
    let diff = &k1 + BigInt::from(lambda.clone()) * &k2 - BigInt::from(k_big.clone());
    let r_signed = BigInt::from(r.clone());
    let congruent = (&diff % &r_signed) == BigInt::from(0);
    let [b1, b2] = glv.decomposer().bounds();
    let within_bounds = words_to_big(&s.k1.magnitude) <= words_to_big(&b1)
        && words_to_big(&s.k2.magnitude) <= words_to_big(&b2);
    // ours: k1·G + k2·φ(G), signs applied to the points
    let g = sw::Affine::<C>::GENERATOR;
    let phi_g = glv.endomorphism(&g);
    let signed = |p: sw::Affine<C>, x: &SignedScalar| {
        let q = sw::Jacobian::<C>::from_affine(&p).mul_scalar(&x.magnitude);
        if x.negative { q.neg() } else { q }
    };
    let ours = signed(g, &s.k1).add(&signed(phi_g, &s.k2)).to_affine();
    let ours_xy = (!ours.infinity).then(|| (ours.x.to_canonical(), ours.y.to_canonical()));
    let ark_g = <P::Ark as PrimeGroup>::generator();
    let ark_xy = P::ark_xy(&ark_g.mul_bigint(k).into_affine());
    let ark_lambda_g = P::ark_xy(&ark_g.mul_bigint(glv.lambda()).into_affine());
    let endomorphism_ok = Some((phi_g.x.to_canonical(), phi_g.y.to_canonical())) == ark_lambda_g;
    let (x, y) = xy_hex(ours_xy);
    let (ark_x, ark_y) = xy_hex(ark_xy);
    let basis = glv
        .decomposer()
        .basis()
        .map(|v| v.map(|x| signed_hex(&x.to_bigint())));
    let points_equal = ours_xy == ark_xy;
    to_js(&Split {
        curve: <P::Ours as MsmGroup>::NAME.into(),
        r: hex_big(&r),
        r_bits: r.bits(),
        lambda: hex_big(&lambda),
        beta: hex_words(&glv.beta().to_canonical()),
        basis,
        bounds: [hex_words(&b1), hex_words(&b2)],
        half_bits: glv.decomposer().half_bits(),
        k: hex_big(&k_big),
        k1: signed_hex(&k1),
        k2: signed_hex(&k2),
        r_multiple: signed_hex(&(&diff / &r_signed)),
        congruent,
        within_bounds,
        endomorphism_ok,
        x,
        y,
        ark_x,
        ark_y,
        points_equal,
        verified: congruent && within_bounds && endomorphism_ok && points_equal,
    })
}

/// k (decimal or `0x` hex, below r) split as k ≡ k1 + k2·λ (mod r) on `curve` (`bn254`,
/// `bls12-377`, `bls12-381`), with the curve's GLV data and the checks of the module docs.
#[wasm_bindgen]
pub fn glv_split(curve: &str, k: &str) -> Result<JsValue, JsValue> {
    match curve {
        "bn254" => split::<fastmsm_curves::Bn254, Bn254Pair>(k),
        "bls12-377" => split::<fastmsm_curves::Bls12_377, Bls377Pair>(k),
        "bls12-381" => split::<fastmsm_curves::Bls12_381, Bls381Pair>(k),
        "ed-on-bls12-377" => Err(err(
            "ed-on-bls12-377 has no cheap endomorphism of this kind, so GLV does not apply; choose bn254, bls12-377 or bls12-381",
        )),
        other => Err(unknown_curve(other)),
    }
}
