//! The interchange format (the ZPrize harness layout) of the `msm` command-line tool, the npm
//! package and the page's workers: reading and writing points and scalars, and the result line.
//!
//! - points: per point `x ‖ y`, each coordinate a little-endian integer (not Montgomery form) of
//!   as many bytes as the base field needs in whole 64-bit words (32 for BN254 and
//!   Ed-on-BLS12-377, 48 for BLS12-377 and BLS12-381). Short-Weierstrass identity: all zero bytes;
//!   twisted-Edwards identity: (0, 1).
//! - scalars: 32 bytes little-endian each, below the curve's group order r.
//! - result: `x=0x… y=0x…` (affine, lowercase big-endian hex, no leading zeros, `0x0` for zero) or
//!   `identity`.

use crate::{MsmGroup, Scalar};
use fastmsm_curves::Canonical;
use fastmsm_curves::field::PrimeField;
use fastmsm_curves::sw::{self, SwCurve};
use fastmsm_curves::te::{self, TeCurve};

/// Bytes of one scalar.
pub const SCALAR_BYTES: usize = 32;

/// A curve as the CLI reads and writes it.
pub trait FormatCurve: MsmGroup {
    /// Bytes of one coordinate: the base-field modulus in whole 64-bit words.
    fn coord_bytes() -> usize {
        let bits = <Self::Base as PrimeField>::params().bits;
        bits.div_ceil(64) as usize * 8
    }
    /// The identity's y in the layout (its x is 0): 0 in short Weierstrass (no affine point has
    /// x = y = 0 on these curves), 1 in twisted Edwards, where (0, 1) is the identity point.
    const IDENTITY_Y: u64 = 0;
    /// The affine point with these canonical coordinates, or why not (the caller adds the index).
    fn point(x: &Canonical, y: &Canonical) -> Result<Self::Affine, String>;
    /// The canonical coordinates of an affine point, `None` for the identity.
    fn coords(p: &Self::Affine) -> Option<(Canonical, Canonical)>;
}

/// A coordinate as a field element, or why not.
fn coordinate<F: PrimeField>(v: &Canonical, name: &str) -> Result<F, String> {
    F::from_canonical(v).ok_or_else(|| {
        format!(
            "{name} coordinate {} is not below the base-field modulus {}",
            hex(v),
            hex(&F::params().modulus)
        )
    })
}

impl<C: SwCurve> FormatCurve for sw::Xyzz<C> {
    fn point(x: &Canonical, y: &Canonical) -> Result<sw::Affine<C>, String> {
        if x.iter().chain(y).all(|&w| w == 0) {
            return Ok(sw::Affine::IDENTITY);
        }
        let p = sw::Affine::new_unchecked(coordinate(x, "x")?, coordinate(y, "y")?);
        if p.is_on_curve() {
            Ok(p)
        } else {
            Err(format!("(x={}, y={}) is not on the curve", hex(x), hex(y)))
        }
    }
    fn coords(p: &sw::Affine<C>) -> Option<(Canonical, Canonical)> {
        (!p.infinity).then(|| (p.x.to_canonical(), p.y.to_canonical()))
    }
}

impl<C: TeCurve> FormatCurve for te::Extended<C> {
    const IDENTITY_Y: u64 = 1;
    fn point(x: &Canonical, y: &Canonical) -> Result<te::Affine<C>, String> {
        let p = te::Affine::new_unchecked(coordinate(x, "x")?, coordinate(y, "y")?);
        if p.is_on_curve() {
            Ok(p)
        } else {
            Err(format!("(x={}, y={}) is not on the curve", hex(x), hex(y)))
        }
    }
    fn coords(p: &te::Affine<C>) -> Option<(Canonical, Canonical)> {
        (!p.is_identity()).then(|| (p.x.to_canonical(), p.y.to_canonical()))
    }
}

/// Little-endian bytes (at most 48) as canonical words.
fn words_le(bytes: &[u8]) -> Canonical {
    let mut out = [0u64; 6];
    for (i, chunk) in bytes.chunks(8).enumerate() {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        out[i] = u64::from_le_bytes(w);
    }
    out
}

/// Checks that `len` bytes are whole items of `size` bytes; the error names the truncated item.
fn whole_items(len: usize, size: usize, what: &str) -> Result<usize, String> {
    if len.is_multiple_of(size) {
        Ok(len / size)
    } else {
        Err(format!(
            "{what}s file: {len} bytes is not a multiple of {size}: {what} {} is truncated ({} of {size} bytes)",
            len / size,
            len % size
        ))
    }
}

/// Parses a points file.
pub fn read_points<G: FormatCurve>(bytes: &[u8]) -> Result<Vec<G::Affine>, String> {
    let n = point_count::<G>(bytes.len())?;
    (0..n).map(|i| read_point::<G>(bytes, i)).collect()
}

/// How many points a points file of `len` bytes holds; an error names a truncated last point.
pub fn point_count<G: FormatCurve>(len: usize) -> Result<usize, String> {
    whole_items(len, 2 * G::coord_bytes(), "point")
}

/// Point `i` of a points file (whose length [`point_count`] accepted): parsed, its coordinates
/// checked against p and the point against the curve equation, in `G`'s own field arithmetic.
/// The error names the index. Workers that share one memory each read a span of the points this
/// way, in parallel, straight into the representation their MSM runs on.
pub fn read_point<G: FormatCurve>(bytes: &[u8], i: usize) -> Result<G::Affine, String> {
    let cb = G::coord_bytes();
    let item = &bytes[2 * cb * i..2 * cb * (i + 1)];
    G::point(&words_le(&item[..cb]), &words_le(&item[cb..])).map_err(|e| format!("point {i}: {e}"))
}

/// Parses a scalars file, checking each scalar against r.
pub fn read_scalars<G: FormatCurve>(bytes: &[u8]) -> Result<Vec<Scalar>, String> {
    let n = whole_items(bytes.len(), SCALAR_BYTES, "scalar")?;
    let r = G::SCALAR_MODULUS;
    (0..n)
        .map(|i| {
            let w = words_le(&bytes[SCALAR_BYTES * i..SCALAR_BYTES * (i + 1)]);
            let k = [w[0], w[1], w[2], w[3]];
            if crate::scalar::less_than(&k, &r) {
                Ok(k)
            } else {
                Err(format!(
                    "scalar {i}: {} is not below the group order r = {}",
                    hex(&w),
                    hex(&wide(&r))
                ))
            }
        })
        .collect()
}

fn wide(k: &Scalar) -> Canonical {
    [k[0], k[1], k[2], k[3], 0, 0]
}

/// Little-endian bytes of canonical words, `len` bytes.
fn le_bytes(words: &[u64], len: usize, out: &mut Vec<u8>) {
    out.extend(words.iter().flat_map(|w| w.to_le_bytes()).take(len));
}

/// One point in the file layout (`x ‖ y`; the identity as the curve's identity encoding).
pub fn write_point<G: FormatCurve>(p: &G::Affine, out: &mut Vec<u8>) {
    let cb = G::coord_bytes();
    match G::coords(p) {
        Some((x, y)) => {
            le_bytes(&x, cb, out);
            le_bytes(&y, cb, out);
        }
        None => {
            le_bytes(&[0; 6], cb, out);
            le_bytes(&[G::IDENTITY_Y, 0, 0, 0, 0, 0], cb, out);
        }
    }
}

/// Points in the file layout.
pub fn write_points<G: FormatCurve>(points: &[G::Affine]) -> Vec<u8> {
    let mut out = Vec::with_capacity(points.len() * 2 * G::coord_bytes());
    for p in points {
        write_point::<G>(p, &mut out);
    }
    out
}

/// Scalars in the file layout, 32 bytes each.
pub fn write_scalars(scalars: &[Scalar]) -> Vec<u8> {
    scalars
        .iter()
        .flat_map(|k| k.iter().flat_map(|w| w.to_le_bytes()))
        .collect()
}

/// Lowercase big-endian hex with `0x`, no leading zeros, `0x0` for zero.
pub fn hex(v: &[u64]) -> String {
    let mut s = String::from("0x");
    let mut started = false;
    for w in v.iter().rev() {
        if started {
            s += &format!("{w:016x}");
        } else if *w != 0 {
            s += &format!("{w:x}");
            started = true;
        }
    }
    if !started {
        s.push('0');
    }
    s
}

/// The result line: `x=0x… y=0x…` or `identity`.
pub fn result_line<G: FormatCurve>(q: &G) -> String {
    match G::coords(&q.to_affine()) {
        None => "identity".into(),
        Some((x, y)) => format!("x={} y={}", hex(&x), hex(&y)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bls12_377G1, Bls12_381G1, Bn254G1, EdBls12_377G};
    use fastmsm_curves::Group;

    #[test]
    fn hex_format() {
        assert_eq!(hex(&[0; 6]), "0x0");
        assert_eq!(hex(&[1, 0, 0, 0, 0, 0]), "0x1");
        assert_eq!(hex(&[0xab, 0x1, 0, 0]), "0x100000000000000ab");
        assert_eq!(
            hex(&[0, 0, 0, 0, 0, 0xdead]),
            format!("0xdead{}", "0".repeat(80))
        );
    }

    #[test]
    fn coordinate_sizes() {
        assert_eq!(Bn254G1::coord_bytes(), 32);
        assert_eq!(Bls12_377G1::coord_bytes(), 48);
        assert_eq!(Bls12_381G1::coord_bytes(), 48);
        assert_eq!(EdBls12_377G::coord_bytes(), 32);
    }

    #[test]
    fn written_points_and_scalars_read_back() {
        fn round_trip<G: FormatCurve>() {
            let points = vec![
                G::generator().to_affine(),
                G::affine_identity(),
                G::generator().double().to_affine(),
            ];
            let bytes = write_points::<G>(&points);
            assert_eq!(bytes.len(), 3 * 2 * G::coord_bytes());
            assert_eq!(read_points::<G>(&bytes).unwrap(), points, "{}", G::NAME);
        }
        round_trip::<Bn254G1>();
        round_trip::<Bls12_377G1>();
        round_trip::<Bls12_381G1>();
        round_trip::<EdBls12_377G>();
        let r = Bn254G1::SCALAR_MODULUS;
        let scalars = vec![[0; 4], [1, 0, 0, 0], [r[0] - 1, r[1], r[2], r[3]]];
        assert_eq!(
            read_scalars::<Bn254G1>(&write_scalars(&scalars)).unwrap(),
            scalars
        );
        assert!(
            read_scalars::<Bn254G1>(&write_scalars(&[r]))
                .unwrap_err()
                .contains("scalar 0")
        );
    }

    #[test]
    fn identities() {
        let zeros = [0u8; 64];
        assert_eq!(
            read_points::<Bn254G1>(&zeros).unwrap(),
            vec![sw::Affine::IDENTITY]
        );
        let mut ed = [0u8; 64];
        ed[32] = 1;
        assert_eq!(
            read_points::<EdBls12_377G>(&ed).unwrap(),
            vec![te::Affine::IDENTITY]
        );
        assert_eq!(result_line(&Bn254G1::identity()), "identity");
        assert_eq!(result_line(&EdBls12_377G::identity()), "identity");
        assert!(
            read_points::<EdBls12_377G>(&zeros)
                .unwrap_err()
                .contains("point 0")
        );
    }
}
