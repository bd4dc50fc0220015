//! The last step, on the CPU: Σ_j 2^(c·j)·W_j over the window sums the GPU returns, by the CPU
//! MSM's own Horner step (`fastmsm_curves::horner`).

use fastmsm_curves::sw::{self, SwCurve};
use fastmsm_curves::te::{self, TeCurve};
use fastmsm_curves::{
    Bls12_377, Bls12_381, Bn254, Canonical, EdBls12_377, Group, PrimeField, horner,
};

use super::curve::GpuCurve;
use crate::GpuError;

/// An affine result: `None` is the short-Weierstrass point at infinity.
pub type AffineOut = Option<(Canonical, Canonical)>;

/// `coords` holds four canonical coordinates per window, in the curve's projective form.
pub fn combine(
    curve: GpuCurve,
    coords: &[Canonical],
    window_bits: u32,
) -> Result<AffineOut, GpuError> {
    // Every coordinate the GPU returns must be a field element; anything else is a device fault.
    let p = curve.base_field().params().modulus;
    if coords.iter().any(|v| !lt(v, &p)) {
        return Err(GpuError::Validation(
            "the GPU returned a coordinate that is not below p".into(),
        ));
    }
    Ok(match curve {
        GpuCurve::Bn254 => combine_sw::<Bn254>(coords, window_bits),
        GpuCurve::Bls12_377 => combine_sw::<Bls12_377>(coords, window_bits),
        GpuCurve::Bls12_381 => combine_sw::<Bls12_381>(coords, window_bits),
        GpuCurve::EdBls12_377 => Some(combine_te::<EdBls12_377>(coords, window_bits)?),
    })
}

pub(crate) fn lt(a: &Canonical, b: &Canonical) -> bool {
    for i in (0..a.len()).rev() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

fn combine_sw<C: SwCurve>(coords: &[Canonical], c: u32) -> AffineOut {
    let f = |v: &Canonical| C::Base::from_canonical(v).expect("checked below p");
    let sums: Vec<_> = coords
        .chunks(4)
        .map(|q| sw::Xyzz::<C> {
            x: f(&q[0]),
            y: f(&q[1]),
            zz: f(&q[2]),
            zzz: f(&q[3]),
        })
        .collect();
    let a = horner(&sums, c).to_affine();
    (!a.infinity).then(|| (a.x.to_canonical(), a.y.to_canonical()))
}

fn combine_te<C: TeCurve>(
    coords: &[Canonical],
    c: u32,
) -> Result<(Canonical, Canonical), GpuError> {
    let f = |v: &Canonical| C::Base::from_canonical(v).expect("checked below p");
    if coords.chunks(4).any(|q| q[2] == [0; fastmsm_mont::WORDS]) {
        // Extended points never have Z = 0; only corrupted GPU output gets here.
        return Err(GpuError::Validation(
            "the GPU returned an Edwards point with Z = 0".into(),
        ));
    }
    let sums: Vec<_> = coords
        .chunks(4)
        .map(|q| te::Extended::<C> {
            x: f(&q[0]),
            y: f(&q[1]),
            z: f(&q[2]),
            t: f(&q[3]),
        })
        .collect();
    let a = horner(&sums, c).to_affine();
    Ok((a.x.to_canonical(), a.y.to_canonical()))
}
