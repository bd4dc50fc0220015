//! The `curve-ops` widget (book/widgets/widgets/curve-ops.js): what each formula of `fastmsm-curves` costs,
//! counted by running it over `fastmsm_msm::count::Counted` (a field that counts its own
//! operations), not read from a table; and the point each formula returns, compared with
//! arkworks' result for the same operation.
//!
//! P = a·G and Q = b·G are taken in projective form with Z ≠ 1 (as a bucket is in an MSM), so the
//! general formulas run their general case; Q's affine form feeds the mixed ones.

use ark_ec::{CurveGroup, PrimeGroup};
use fastmsm_curves::sw::{self, SwCurve};
use fastmsm_curves::te::{self, TeCurve};
use fastmsm_curves::{EdBls12_377, Group};
use fastmsm_msm::Scalar;
use fastmsm_msm::count::{CountedSw, CountedTe, OpCounts, count_ops};
use fastmsm_msm::format::FormatCurve;
use fastmsm_msm::group::affine_add;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{hex_words, parse_scalar};
use crate::ark_pair::{Bls377Pair, Bls381Pair, Bn254Pair, Pair, TePair, Xy, with_pair, xy_hex};
use crate::js::to_js;

/// One formula, run once.
#[derive(Serialize)]
struct Formula {
    /// Coordinate system.
    system: &'static str,
    /// The operation, e.g. "P + Q".
    operation: &'static str,
    /// Its name on the Explicit-Formulas Database, or what it is.
    formula: &'static str,
    mul: u64,
    square: u64,
    add: u64,
    inverse: u64,
    x: Option<String>,
    y: Option<String>,
    /// arkworks' affine result of the same operation.
    ark_x: Option<String>,
    ark_y: Option<String>,
    equal: bool,
}

#[derive(Serialize)]
struct CurveOps {
    curve: String,
    a: String,
    b: String,
    formulas: Vec<Formula>,
    verified: bool,
}

fn formula(
    system: &'static str,
    operation: &'static str,
    name: &'static str,
    (ours, counts): (Xy, OpCounts),
    ark: Xy,
) -> Formula {
    let (x, y) = xy_hex(ours);
    let (ark_x, ark_y) = xy_hex(ark);
    Formula {
        system,
        operation,
        formula: name,
        mul: counts.mul,
        square: counts.square,
        add: counts.add,
        inverse: counts.inverse,
        x,
        y,
        ark_x,
        ark_y,
        equal: ours == ark,
    }
}

fn sw_xy<C: SwCurve>(p: &sw::Affine<C>) -> Xy {
    sw::Xyzz::<C>::coords(p)
}

fn te_xy<C: TeCurve>(p: &te::Affine<C>) -> Xy {
    te::Extended::<C>::coords(p)
}

/// arkworks' a·G, b·G, a·G + b·G and 2·a·G, affine.
fn ark_reference<P: Pair>(a: &Scalar, b: &Scalar) -> [Xy; 4] {
    let g = <P::Ark as PrimeGroup>::generator();
    let (p, q) = (g.mul_bigint(a), g.mul_bigint(b));
    [p, q, p + q, p + p].map(|x| P::ark_xy(&x.into_affine()))
}

fn sw_formulas<C: SwCurve, P: Pair>(a: &Scalar, b: &Scalar) -> Vec<Formula> {
    let [ark_p, _, ark_sum, ark_dbl] = ark_reference::<P>(a, b);
    let mut out = Vec::new();
    // Jacobian
    let g = sw::Jacobian::<CountedSw<C>>::generator();
    let (p, q) = (g.mul_scalar(a), g.mul_scalar(b));
    let (pa, qa) = (p.to_affine(), q.to_affine());
    let affine = |r: sw::Jacobian<CountedSw<C>>| sw_xy(&r.to_affine());
    let run = |f: &dyn Fn() -> sw::Jacobian<CountedSw<C>>| {
        let (r, n) = count_ops(f);
        (affine(r), n)
    };
    out.push(formula(
        "Jacobian",
        "P + Q",
        "add-2007-bl",
        run(&|| p.add_2007_bl(&q)),
        ark_sum,
    ));
    out.push(formula(
        "Jacobian",
        "P + Q, Q affine",
        "madd-2007-bl",
        run(&|| p.madd_2007_bl(&qa)),
        ark_sum,
    ));
    out.push(formula(
        "Jacobian",
        "2P",
        "dbl-2009-l",
        run(&|| p.dbl_2009_l()),
        ark_dbl,
    ));
    let (r, n) = count_ops(|| p.to_affine());
    out.push(formula(
        "Jacobian",
        "to affine",
        "(X/Z², Y/Z³), one inversion",
        (sw_xy(&r), n),
        ark_p,
    ));
    // XYZZ
    let g = sw::Xyzz::<CountedSw<C>>::generator();
    let (p, q) = (g.mul_scalar(a), g.mul_scalar(b));
    let qa2 = q.to_affine();
    let run = |f: &dyn Fn() -> sw::Xyzz<CountedSw<C>>| {
        let (r, n) = count_ops(f);
        (sw_xy(&r.to_affine()), n)
    };
    out.push(formula(
        "XYZZ",
        "P + Q",
        "add-2008-s",
        run(&|| p.add_2008_s(&q)),
        ark_sum,
    ));
    out.push(formula(
        "XYZZ",
        "P + Q, Q affine",
        "madd-2008-s",
        run(&|| p.madd_2008_s(&qa2)),
        ark_sum,
    ));
    out.push(formula(
        "XYZZ",
        "2P",
        "dbl-2008-s-1",
        run(&|| p.dbl_2008_s_1()),
        ark_dbl,
    ));
    out.push(formula(
        "XYZZ",
        "2P, P affine",
        "mdbl-2008-s-1",
        run(&|| sw::Xyzz::mdbl_2008_s_1(&pa)),
        ark_dbl,
    ));
    let (r, n) = count_ops(|| p.to_affine());
    out.push(formula(
        "XYZZ",
        "to affine",
        "(X/ZZ, Y/ZZZ), one inversion",
        (sw_xy(&r), n),
        ark_p,
    ));
    // Affine, as batch-affine accumulation adds (here with its own inversion)
    let run = |f: &dyn Fn() -> sw::Affine<CountedSw<C>>| {
        let (r, n) = count_ops(f);
        (sw_xy(&r), n)
    };
    type X<C> = sw::Xyzz<CountedSw<C>>;
    out.push(formula(
        "affine",
        "P + Q",
        "chord, λ = (y₂ − y₁)/(x₂ − x₁)",
        run(&|| affine_add::<X<C>>(&pa, &qa)),
        ark_sum,
    ));
    out.push(formula(
        "affine",
        "2P",
        "tangent, λ = 3x₁²/(2y₁)",
        run(&|| affine_add::<X<C>>(&pa, &pa)),
        ark_dbl,
    ));
    out
}

fn te_formulas(a: &Scalar, b: &Scalar) -> Vec<Formula> {
    let [ark_p, _, ark_sum, ark_dbl] = ark_reference::<TePair>(a, b);
    type E = te::Extended<CountedTe<EdBls12_377>>;
    let g = E::generator();
    let (p, q) = (g.mul_scalar(a), g.mul_scalar(b));
    let (pa, qa) = (p.to_affine(), q.to_affine());
    let run = |f: &dyn Fn() -> E| {
        let (r, n) = count_ops(f);
        (te_xy(&r.to_affine()), n)
    };
    let mut out = vec![
        formula(
            "extended",
            "P + Q",
            "add-2008-hwcd-3",
            run(&|| p.add_2008_hwcd_3(&q)),
            ark_sum,
        ),
        formula(
            "extended",
            "P + Q, Q affine",
            "madd-2008-hwcd-3",
            run(&|| p.madd_2008_hwcd_3(&qa)),
            ark_sum,
        ),
        formula(
            "extended",
            "2P",
            "dbl-2008-hwcd",
            run(&|| p.dbl_2008_hwcd()),
            ark_dbl,
        ),
    ];
    let (r, n) = count_ops(|| p.to_affine());
    out.push(formula(
        "extended",
        "to affine",
        "(X/Z, Y/Z), one inversion",
        (te_xy(&r), n),
        ark_p,
    ));
    let run = |f: &dyn Fn() -> te::Affine<CountedTe<EdBls12_377>>| {
        let (r, n) = count_ops(f);
        (te_xy(&r), n)
    };
    out.push(formula(
        "affine",
        "P + Q",
        "Edwards addition law, two inversions shared as one",
        run(&|| affine_add::<E>(&pa, &qa)),
        ark_sum,
    ));
    out.push(formula(
        "affine",
        "2P",
        "the same law with Q = P",
        run(&|| affine_add::<E>(&pa, &pa)),
        ark_dbl,
    ));
    out
}

/// The formulas of `curve` (`bn254`, `bls12-377`, `bls12-381`, `ed-on-bls12-377`) on P = a·G and
/// Q = b·G, each with its counted field operations and its result next to arkworks'. `a` and `b`
/// are decimal or `0x` hex, below the group order r.
#[wasm_bindgen]
pub fn curve_ops(curve: &str, a: &str, b: &str) -> Result<JsValue, JsValue> {
    let (ka, kb): (Scalar, Scalar) = with_pair!(curve, P => {
        type G = <P as Pair>::Ours;
        Ok((parse_scalar::<G>("a", a)?, parse_scalar::<G>("b", b)?))
    })?;
    let formulas = match curve {
        "bn254" => sw_formulas::<fastmsm_curves::Bn254, Bn254Pair>(&ka, &kb),
        "bls12-377" => sw_formulas::<fastmsm_curves::Bls12_377, Bls377Pair>(&ka, &kb),
        "bls12-381" => sw_formulas::<fastmsm_curves::Bls12_381, Bls381Pair>(&ka, &kb),
        _ => te_formulas(&ka, &kb),
    };
    let verified = formulas.iter().all(|f| f.equal);
    to_js(&CurveOps {
        curve: curve.into(),
        a: hex_words(&ka),
        b: hex_words(&kb),
        formulas,
        verified,
    })
}
