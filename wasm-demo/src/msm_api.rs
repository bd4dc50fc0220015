//! Entry points of the npm package `fastmsm` (wasm-demo/npm): one MSM of points and scalars in the
//! `msm` tool's file layout ([`fastmsm_msm::format`]), and its result as the tool prints it.
//!
//! The package's worker checks the input's shape first ([`msm_input_size`]: a known curve, whole
//! points and scalars, as many of each, at least one), then runs one backend: the CPU pool of
//! [`crate::shares`] (book/widgets/pool/) or [`GpuSession::msm`] here. Both parse every point and
//! scalar with the format's readers, so a point off the curve or a scalar ≥ r is rejected with
//! its index, as the CLI rejects it.

use fastmsm_gpu::msm::GpuCurve;
use fastmsm_msm::format::{FormatCurve, SCALAR_BYTES, hex, read_points, read_scalars, write_point};
use fastmsm_msm::{Bls12_377G1, Bls12_381G1, Bn254G1, EdBls12_377G};
use wasm_bindgen::prelude::*;

use crate::gpu_session::GpuSession;
use crate::js::{self, err};

fn unknown_curve(name: &str) -> String {
    format!(
        "unknown curve {name:?}; one of {}",
        GpuCurve::ALL.map(GpuCurve::name).join(", ")
    )
}

/// Bytes of one point (x ‖ y) of `curve` in the file layout.
fn point_bytes(curve: &str) -> Result<usize, String> {
    match curve {
        "bn254" => Ok(2 * Bn254G1::coord_bytes()),
        "bls12-377" => Ok(2 * Bls12_377G1::coord_bytes()),
        "bls12-381" => Ok(2 * Bls12_381G1::coord_bytes()),
        "ed-on-bls12-377" => Ok(2 * EdBls12_377G::coord_bytes()),
        other => Err(unknown_curve(other)),
    }
}

/// `len` bytes as whole items of `size` bytes, or which item is truncated.
fn items(len: usize, size: usize, what: &str) -> Result<usize, String> {
    if len.is_multiple_of(size) {
        Ok(len / size)
    } else {
        Err(format!(
            "{what}s: {len} bytes is not a multiple of {size}: {what} {} is truncated ({} of {size} bytes)",
            len / size,
            len % size
        ))
    }
}

/// The shape check, without the curve's arithmetic: n, or what is wrong.
fn input_size(curve: &str, points_len: usize, scalars_len: usize) -> Result<usize, String> {
    let points = items(points_len, point_bytes(curve)?, "point")?;
    let scalars = items(scalars_len, SCALAR_BYTES, "scalar")?;
    if points == 0 && scalars == 0 {
        return Err(
            "n = 0: an MSM needs at least one point and one scalar (both are empty)".into(),
        );
    }
    if points != scalars {
        let n = points.min(scalars);
        let which = if points > n {
            format!("point {n} has no scalar")
        } else {
            format!("scalar {n} has no point")
        };
        return Err(format!("{points} points but {scalars} scalars: {which}"));
    }
    Ok(points)
}

/// n of an MSM of `points_len` bytes of points and `scalars_len` bytes of scalars on `curve` (the
/// file layout), or an error naming what is wrong: an unknown curve, a truncated point or scalar
/// (with its index), n = 0, or counts that differ (naming the first item without a partner).
#[wasm_bindgen]
pub fn msm_input_size(curve: &str, points_len: usize, scalars_len: usize) -> Result<u32, JsValue> {
    let n = input_size(curve, points_len, scalars_len).map_err(err)?;
    u32::try_from(n).map_err(|_| err(format_args!("n = {n}: at most 2^32 - 1 points")))
}

fn line<G: FormatCurve>(point: &[u8]) -> Result<String, String> {
    let p = read_points::<G>(point)?;
    let [p] = p.as_slice() else {
        return Err(format!("one point expected, {} given", p.len()));
    };
    Ok(match G::coords(p) {
        None => "identity".into(),
        Some((x, y)) => format!("x={} y={}", hex(&x), hex(&y)),
    })
}

/// One point of `curve` in the file layout as the `msm` tool prints a result: `x=0x… y=0x…`
/// (affine, lowercase big-endian hex, no leading zeros) or `identity`.
#[wasm_bindgen]
pub fn msm_result_line(curve: &str, point: &[u8]) -> Result<String, JsValue> {
    match curve {
        "bn254" => line::<Bn254G1>(point),
        "bls12-377" => line::<Bls12_377G1>(point),
        "bls12-381" => line::<Bls12_381G1>(point),
        "ed-on-bls12-377" => line::<EdBls12_377G>(point),
        other => Err(unknown_curve(other)),
    }
    .map_err(err)
}

/// The checked input of one curve, as the GPU takes it: canonical coordinates (the identity as
/// the format writes it) and scalars.
type Checked = (Vec<([u64; 6], [u64; 6])>, Vec<fastmsm_msm::Scalar>);

fn check<G: FormatCurve>(points: &[u8], scalars: &[u8]) -> Result<Checked, String> {
    let p = read_points::<G>(points)?;
    let k = read_scalars::<G>(scalars)?;
    let identity = ([0; 6], [G::IDENTITY_Y, 0, 0, 0, 0, 0]);
    Ok((
        p.iter().map(|a| G::coords(a).unwrap_or(identity)).collect(),
        k,
    ))
}

/// The GPU's affine answer in the file layout of `G` (checked on the curve on the way).
fn answer<G: FormatCurve>(result: Option<([u64; 6], [u64; 6])>) -> Result<Vec<u8>, String> {
    let p = match result {
        None => G::affine_identity(),
        Some((x, y)) => G::point(&x, &y).map_err(|e| format!("the GPU's result: {e}"))?,
    };
    let mut out = Vec::new();
    write_point::<G>(&p, &mut out);
    Ok(out)
}

#[wasm_bindgen]
impl GpuSession {
    /// Σ kᵢ·Pᵢ on the session's device, from `points` and `scalars` in the file layout of `curve`:
    /// a promise of `{bytes, profile}`, the result point in the same layout (read it with
    /// [`msm_result_line`]) and the profile as [`GpuSession::prepare`] reports it. Every point and
    /// scalar is checked first, as the CLI checks them; then the first call of a curve sets the
    /// session's profile for it and compiles its stages, reporting `progress(fraction, text)`.
    pub fn msm(
        &self,
        curve: String,
        points: Vec<u8>,
        scalars: Vec<u8>,
        progress: js_sys::Function,
    ) -> js_sys::Promise {
        let session = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            input_size(&curve, points.len(), scalars.len()).map_err(err)?;
            let (input, k) = match curve.as_str() {
                "bn254" => check::<Bn254G1>(&points, &scalars),
                "bls12-377" => check::<Bls12_377G1>(&points, &scalars),
                "bls12-381" => check::<Bls12_381G1>(&points, &scalars),
                "ed-on-bls12-377" => check::<EdBls12_377G>(&points, &scalars),
                other => Err(unknown_curve(other)),
            }
            .map_err(err)?;
            drop((points, scalars));
            let gpu_curve =
                GpuCurve::from_name(&curve).ok_or_else(|| err(unknown_curve(&curve)))?;
            let (result, prepared) = session
                .run_checked(gpu_curve, &input, &k, &js::progress(&progress))
                .await?;
            let bytes = match gpu_curve {
                GpuCurve::Bn254 => answer::<Bn254G1>(result),
                GpuCurve::Bls12_377 => answer::<Bls12_377G1>(result),
                GpuCurve::Bls12_381 => answer::<Bls12_381G1>(result),
                GpuCurve::EdBls12_377 => answer::<EdBls12_377G>(result),
            }
            .map_err(err)?;
            let out = js_sys::Object::new();
            js_sys::Reflect::set(
                &out,
                &"bytes".into(),
                &js_sys::Uint8Array::from(bytes.as_slice()),
            )?;
            js_sys::Reflect::set(&out, &"profile".into(), &js::to_js(&prepared)?)?;
            Ok(out.into())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fastmsm_curves::Group;
    use fastmsm_msm::MsmGroup;
    use fastmsm_msm::format::{write_points, write_scalars};

    #[test]
    fn input_size_names_what_is_wrong() {
        assert_eq!(input_size("bn254", 64 * 3, 32 * 3), Ok(3));
        assert_eq!(input_size("bls12-377", 96 * 2, 64), Ok(2));
        assert!(input_size("bn254", 0, 0).unwrap_err().starts_with("n = 0"));
        assert_eq!(
            input_size("bn254", 64 * 8, 32 * 7).unwrap_err(),
            "8 points but 7 scalars: point 7 has no scalar"
        );
        assert_eq!(
            input_size("bn254", 64 * 2, 32 * 5).unwrap_err(),
            "2 points but 5 scalars: scalar 2 has no point"
        );
        assert!(
            input_size("bn254", 64 * 2 + 10, 64)
                .unwrap_err()
                .contains("point 2 is truncated (10 of 64 bytes)")
        );
        assert!(
            input_size("bn254", 64, 33)
                .unwrap_err()
                .contains("scalar 1 is truncated (1 of 32 bytes)")
        );
        assert!(
            input_size("secp256k1", 64, 32)
                .unwrap_err()
                .contains("unknown curve \"secp256k1\"")
        );
    }

    /// The identity goes to the GPU as the format writes it, and the GPU's answer comes back in
    /// the file layout and the CLI's line.
    fn round_trip<G: FormatCurve>() {
        let g = G::generator().to_affine();
        let points = write_points::<G>(&[g, G::affine_identity()]);
        let (input, k) =
            check::<G>(&points, &write_scalars(&[[1, 0, 0, 0], [2, 0, 0, 0]])).unwrap();
        assert_eq!(
            input[1],
            ([0; 6], [G::IDENTITY_Y, 0, 0, 0, 0, 0]),
            "{}",
            G::NAME
        );
        assert_eq!(k[1], [2, 0, 0, 0]);
        let bytes = answer::<G>(Some(input[0])).unwrap();
        assert_eq!(bytes, write_points::<G>(&[g]), "{}", G::NAME);
        let (x, y) = G::coords(&G::generator().to_affine()).unwrap();
        assert_eq!(
            line::<G>(&bytes).unwrap(),
            format!("x={} y={}", hex(&x), hex(&y))
        );
        let none = answer::<G>(Some(input[1])).unwrap();
        assert_eq!(line::<G>(&none).unwrap(), "identity", "{}", G::NAME);
        assert_eq!(answer::<G>(None).unwrap(), none, "{}", G::NAME);
        assert!(
            answer::<G>(Some(([1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0])))
                .unwrap_err()
                .contains("not on the curve")
        );
    }

    #[test]
    fn gpu_input_and_answer_in_the_file_layout() {
        round_trip::<Bn254G1>();
        round_trip::<Bls12_377G1>();
        round_trip::<Bls12_381G1>();
        round_trip::<EdBls12_377G>();
    }

    #[test]
    fn check_names_the_bad_item() {
        let g = Bn254G1::generator().to_affine();
        let mut points = write_points::<Bn254G1>(&[g, g, g]);
        points[2 * 64 + 40] ^= 1;
        let e = check::<Bn254G1>(&points, &[0; 96]).unwrap_err();
        assert!(
            e.starts_with("point 2:") && e.contains("not on the curve"),
            "{e}"
        );
        let r = Bn254G1::SCALAR_MODULUS;
        let e = check::<Bn254G1>(
            &write_points::<Bn254G1>(&[g, g]),
            &write_scalars(&[[0; 4], r]),
        )
        .unwrap_err();
        assert!(
            e.starts_with("scalar 1:") && e.contains("not below the group order r"),
            "{e}"
        );
    }
}
