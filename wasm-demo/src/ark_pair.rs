//! Each curve as a pair: arkworks' group, the widgets' reference, beside ours, which computes
//! the MSM. Points cross between them through the one bridge, `fastmsm_curves::ark` (the `From`
//! impls, and `fastmsm_msm::MsmPoint` which names our group for arkworks' points); nothing here
//! converts a coordinate itself.

use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::BigInt;
use fastmsm_curves::{Canonical, Group};
use fastmsm_msm::format::{FormatCurve, hex};
use fastmsm_msm::{
    Bls12_377G1, Bls12_381G1, Bn254G1, CpuGroup, EdBls12_377G, MsmGroup, MsmPoint, Scalar,
};
use wasm_bindgen::JsValue;

use crate::js::err;

/// The curves, as the `msm` CLI names them (each group's `MsmGroup::NAME`).
pub const CURVES: [&str; 4] = [
    Bn254G1::NAME,
    Bls12_377G1::NAME,
    Bls12_381G1::NAME,
    EdBls12_377G::NAME,
];

/// Canonical `(x, y)` of an affine point, `None` for the identity.
pub(crate) type Xy = Option<(Canonical, Canonical)>;

/// `(x, y)` as lowercase `0x` hex, `(None, None)` (null in JS) for the identity.
pub(crate) fn xy_hex(xy: Xy) -> (Option<String>, Option<String>) {
    match xy {
        None => (None, None),
        Some((x, y)) => (Some(hex(&x)), Some(hex(&y))),
    }
}

/// One curve in both libraries. Implemented for arkworks' projective group of each curve whose
/// MSM fastmsm-msm computes, so `P` below is `ark_bn254::G1Projective` and so on.
pub(crate) trait Pair: 'static {
    /// Our group (XYZZ or extended twisted Edwards), in every form the widgets run.
    type Ours: CpuGroup + FormatCurve;
    /// arkworks' projective group, with its MSM and scalars of four 64-bit words.
    type Ark: CurveGroup<
            ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>,
            Affine: Into<OurAffine<Self>>,
        > + VariableBaseMSM<MulBase = ArkAffine<Self>>;

    /// arkworks' affine point as ours.
    fn ours(a: &ArkAffine<Self>) -> OurAffine<Self> {
        (*a).into()
    }

    /// Canonical `(x, y)` of arkworks' affine point, `None` for the identity.
    fn ark_xy(a: &ArkAffine<Self>) -> Xy {
        <Self::Ours as FormatCurve>::coords(&Self::ours(a))
    }

    /// The same for our result.
    fn ours_xy(p: &Self::Ours) -> Xy {
        <Self::Ours as FormatCurve>::coords(&p.to_affine())
    }

    /// arkworks' affine point as the `msm` tool's file layout stores it: the identity as
    /// (0, 0) in short Weierstrass and (0, 1) in twisted Edwards (what the GPU is given).
    #[cfg(feature = "gpu")]
    fn layout_xy(a: &ArkAffine<Self>) -> (Canonical, Canonical) {
        Self::ark_xy(a).unwrap_or_else(|| {
            let mut y = [0; 6];
            y[0] = <Self::Ours as FormatCurve>::IDENTITY_Y;
            ([0; 6], y)
        })
    }

    /// A scalar below r as an element of arkworks' scalar field.
    fn ark_scalar(k: &Scalar) -> ArkScalar<Self> {
        fastmsm_curves::ark::scalar_to_ark(k).expect("a scalar below r")
    }
}

/// Our group for arkworks' points `A`.
type OursOf<A> = <<A as CurveGroup>::Affine as MsmPoint>::Group;

impl<A> Pair for A
where
    A: CurveGroup<ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>>
        + VariableBaseMSM<MulBase = <A as CurveGroup>::Affine>
        + 'static,
    <A as CurveGroup>::Affine: MsmPoint + Into<<OursOf<A> as Group>::Affine>,
    OursOf<A>: FormatCurve,
{
    type Ours = OursOf<A>;
    type Ark = A;
}

pub(crate) type Bn254Pair = ark_bn254::G1Projective;
pub(crate) type Bls377Pair = ark_bls12_377::G1Projective;
pub(crate) type Bls381Pair = ark_bls12_381::G1Projective;
pub(crate) type TePair = ark_ed_on_bls12_377::EdwardsProjective;

pub(crate) type ArkScalar<P> = <<P as Pair>::Ark as ark_ec::PrimeGroup>::ScalarField;
pub(crate) type ArkAffine<P> = <<P as Pair>::Ark as CurveGroup>::Affine;
pub(crate) type OurAffine<P> = <<P as Pair>::Ours as Group>::Affine;

/// The error for a curve name that is not one of [`CURVES`].
pub(crate) fn unknown_curve(name: &str) -> JsValue {
    err(format_args!("unknown curve {name:?}; one of {CURVES:?}"))
}

/// `$body` with `$P` the [`Pair`] of the curve named `$curve` (one of [`CURVES`]), or the
/// unknown-curve error; `$body` is a `Result<_, JsValue>`. Match patterns must be literals: a
/// test checks that these names are [`CURVES`].
macro_rules! with_pair {
    ($curve:expr, $P:ident => $body:expr) => {
        $crate::ark_pair::with_pair!(@arms $curve, $P, $body, "bn254" => Bn254Pair,
            "bls12-377" => Bls377Pair, "bls12-381" => Bls381Pair, "ed-on-bls12-377" => TePair)
    };
    (@arms $curve:expr, $P:ident, $body:expr, $($name:literal => $pair:ident),*) => {
        match $curve {
            $($name => {
                type $P = $crate::ark_pair::$pair;
                $body
            })*
            other => Err($crate::ark_pair::unknown_curve(other)),
        }
    };
}
pub(crate) use with_pair;

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ec::PrimeGroup;
    use ark_ff::{PrimeField, Zero};

    /// k·G computed by arkworks crosses the bridge as k·G computed by us; the identity has no
    /// coordinates, and its file-layout form is the one `read_points` reads as the identity.
    fn crosses<P: Pair>() {
        let k = 0x1234_5678_9abc_def0u64;
        let a = <P::Ark as PrimeGroup>::generator()
            .mul_bigint([k])
            .into_affine();
        let ours = P::Ours::generator().mul_scalar(&[k]);
        assert!(P::ark_xy(&a).is_some());
        assert_eq!(P::ark_xy(&a), P::ours_xy(&ours));
        assert_eq!(
            P::ours_xy(&P::Ours::from_affine(&P::ours(&a))),
            P::ours_xy(&ours)
        );
        let zero = <P::Ark as Zero>::zero().into_affine();
        assert_eq!(P::ark_xy(&zero), None);
        let (x0, y0) = P::layout_xy(&zero);
        let read = <P::Ours as FormatCurve>::point(&x0, &y0).expect("the layout's identity");
        assert_eq!(<P::Ours as FormatCurve>::coords(&read), None);
        let s: Scalar = [5, 0, 0, 1];
        assert_eq!(P::ark_scalar(&s).into_bigint().0, s);
    }

    #[test]
    fn every_curve_name_has_its_pair() {
        for curve in CURVES {
            let name = with_pair!(curve, P => Ok::<_, JsValue>(<P as Pair>::Ours::NAME)).unwrap();
            assert_eq!(name, curve);
        }
    }

    #[test]
    fn every_curve_crosses_the_bridge() {
        crosses::<Bn254Pair>();
        crosses::<Bls377Pair>();
        crosses::<Bls381Pair>();
        crosses::<TePair>();
    }
}
