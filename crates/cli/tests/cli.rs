//! The built `msm` binary on files written from arkworks: results against arkworks' MSM, and every
//! kind of bad input rejected with a message naming the item.

use std::path::PathBuf;
use std::process::{Command, Output};

use ark_ec::short_weierstrass::SWCurveConfig;
use ark_ec::{AffineRepr, CurveGroup, PrimeGroup, VariableBaseMSM};
use ark_ff::{BigInteger, PrimeField, UniformRand, Zero};
use num_bigint::BigUint;
use rand::SeedableRng;
use rand::rngs::StdRng;

/// A fresh directory for one test's files.
fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("msm-cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn msm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_msm"))
        .args(args)
        .output()
        .expect("run msm")
}

/// Runs `msm --curve curve` on the two byte strings.
fn run(curve: &str, points: &[u8], scalars: &[u8], extra: &[&str], name: &str) -> Output {
    let d = dir(name);
    let (p, s) = (d.join("points.bin"), d.join("scalars.bin"));
    std::fs::write(&p, points).unwrap();
    std::fs::write(&s, scalars).unwrap();
    let mut args = vec![
        "--curve",
        curve,
        "--points",
        p.to_str().unwrap(),
        "--scalars",
        s.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    msm(&args)
}

fn stdout_last(o: &Output) -> String {
    String::from_utf8(o.stdout.clone())
        .unwrap()
        .lines()
        .last()
        .unwrap_or("")
        .to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Little-endian bytes of a field element, padded to `len`.
fn le<F: PrimeField>(x: &F, len: usize) -> Vec<u8> {
    let mut b = x.into_bigint().to_bytes_le();
    b.resize(len, 0);
    assert_eq!(b.len(), len);
    b
}

/// `0x…` lowercase, no leading zeros, through num-bigint (independent of the CLI's formatter).
fn hex<F: PrimeField>(x: &F) -> String {
    format!(
        "0x{:x}",
        BigUint::from_bytes_le(&x.into_bigint().to_bytes_le())
    )
}

/// One curve, as the tests need it.
trait Curve {
    const NAME: &'static str;
    const COORD: usize;
    type Base: PrimeField;
    type G: CurveGroup + VariableBaseMSM<MulBase = <Self::G as CurveGroup>::Affine>;
    /// x ‖ y bytes of an affine point (the identity as the format says).
    fn bytes(p: &<Self::G as CurveGroup>::Affine) -> Vec<u8>;
    /// The expected result line.
    fn line(p: &<Self::G as CurveGroup>::Affine) -> String;
}

type Scalar<C> = <<C as Curve>::G as PrimeGroup>::ScalarField;
type Aff<C> = <<C as Curve>::G as CurveGroup>::Affine;

fn sw_bytes<P: SWCurveConfig>(p: &ark_ec::short_weierstrass::Affine<P>, len: usize) -> Vec<u8>
where
    P::BaseField: PrimeField,
{
    match p.xy() {
        None => vec![0; 2 * len],
        Some((x, y)) => [le(&x, len), le(&y, len)].concat(),
    }
}

fn sw_line<P: SWCurveConfig>(p: &ark_ec::short_weierstrass::Affine<P>) -> String
where
    P::BaseField: PrimeField,
{
    match p.xy() {
        None => "identity".into(),
        Some((x, y)) => format!("x={} y={}", hex(&x), hex(&y)),
    }
}

macro_rules! sw_curve {
    ($t:ident, $name:literal, $coord:literal, $cfg:ty) => {
        struct $t;
        impl Curve for $t {
            const NAME: &'static str = $name;
            const COORD: usize = $coord;
            type Base = <$cfg as ark_ec::CurveConfig>::BaseField;
            type G = ark_ec::short_weierstrass::Projective<$cfg>;
            fn bytes(p: &Aff<Self>) -> Vec<u8> {
                sw_bytes(p, $coord)
            }
            fn line(p: &Aff<Self>) -> String {
                sw_line(p)
            }
        }
    };
}
sw_curve!(Bn254, "bn254", 32, ark_bn254::g1::Config);
sw_curve!(Bls377, "bls12-377", 48, ark_bls12_377::g1::Config);
sw_curve!(Bls381, "bls12-381", 48, ark_bls12_381::g1::Config);

struct Ed;
impl Curve for Ed {
    const NAME: &'static str = "ed-on-bls12-377";
    const COORD: usize = 32;
    type Base = ark_ed_on_bls12_377::Fq;
    type G = ark_ec::twisted_edwards::Projective<ark_ed_on_bls12_377::EdwardsConfig>;
    fn bytes(p: &Aff<Self>) -> Vec<u8> {
        [le(&p.x, 32), le(&p.y, 32)].concat()
    }
    fn line(p: &Aff<Self>) -> String {
        if p.is_zero() {
            "identity".into()
        } else {
            format!("x={} y={}", hex(&p.x), hex(&p.y))
        }
    }
}

/// Points and scalars as arkworks values, then as file bytes.
type Inputs<C> = (Vec<Aff<C>>, Vec<Scalar<C>>, Vec<u8>, Vec<u8>);

/// n random points (every 7th the identity) and scalars.
fn inputs<C: Curve>(n: usize, seed: u64) -> Inputs<C> {
    let mut r = StdRng::seed_from_u64(seed);
    let g = C::G::generator();
    let proj: Vec<C::G> = (0..n)
        .map(|i| {
            if i % 7 == 6 {
                C::G::zero()
            } else {
                g * Scalar::<C>::rand(&mut r)
            }
        })
        .collect();
    let pts = C::G::normalize_batch(&proj);
    let mut scalars: Vec<Scalar<C>> = (0..n).map(|_| Scalar::<C>::rand(&mut r)).collect();
    if n > 2 {
        scalars[1] = -Scalar::<C>::from(1u64); // r − 1
        scalars[2] = Scalar::<C>::from(0u64);
    }
    let pb: Vec<u8> = pts.iter().flat_map(C::bytes).collect();
    let sb: Vec<u8> = scalars.iter().flat_map(|s| le(s, 32)).collect();
    (pts, scalars, pb, sb)
}

fn against_arkworks<C: Curve>(seed: u64) {
    for n in [0usize, 1, 2, 9, 300] {
        let (pts, scalars, pb, sb) = inputs::<C>(n, seed + n as u64);
        let want = C::line(&C::G::msm(&pts, &scalars).unwrap().into_affine());
        let o = run(C::NAME, &pb, &sb, &[], &format!("{}-{n}", C::NAME));
        assert!(o.status.success(), "{}: n = {n}: {}", C::NAME, stderr(&o));
        assert_eq!(stdout_last(&o), want, "{}: n = {n}", C::NAME);
        if n == 0 {
            assert_eq!(want, "identity");
        }
    }
}

#[test]
fn bn254_matches_arkworks() {
    against_arkworks::<Bn254>(1);
}

#[test]
fn bls12_377_matches_arkworks() {
    against_arkworks::<Bls377>(2);
}

#[test]
fn bls12_381_matches_arkworks() {
    against_arkworks::<Bls381>(3);
}

#[test]
fn ed_on_bls12_377_matches_arkworks() {
    against_arkworks::<Ed>(4);
}

#[test]
fn json_adds_a_line_and_keeps_the_result_last() {
    let (pts, scalars, pb, sb) = inputs::<Bls377>(20, 5);
    let want = Bls377::line(
        &<Bls377 as Curve>::G::msm(&pts, &scalars)
            .unwrap()
            .into_affine(),
    );
    let o = run(
        "bls12-377",
        &pb,
        &sb,
        &["--json", "--backend", "cpu"],
        "json",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with("{\"curve\":\"bls12-377\",\"backend\":\"cpu\",\"n\":20,"),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].ends_with(&format!("\"result\":\"{want}\"}}")),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], want);
}

/// `--backend gpu` on the test adapter (lavapipe in CI): the same line as arkworks, identity points
/// and the scalars r − 1 and 0 included. One curve: each run compiles the GPU pipelines, which costs
/// minutes on lavapipe; the library's own tests cover every curve (crates/msm-gpu/tests/msm.rs).
/// The named lavapipe profile spares each run a calibration (examples/prover.rs runs one).
#[test]
fn gpu_backend_matches_arkworks() {
    for n in [300usize, 0] {
        let (pts, scalars, pb, sb) = inputs::<Bls381>(n, 6);
        let want = Bls381::line(
            &<Bls381 as Curve>::G::msm(&pts, &scalars)
                .unwrap()
                .into_affine(),
        );
        let o = run(
            "bls12-381",
            &pb,
            &sb,
            &["--backend", "gpu", "--profile", "lavapipe", "--json"],
            &format!("gpu-{n}"),
        );
        assert!(o.status.success(), "n = {n}: {}", stderr(&o));
        assert_eq!(stdout_last(&o), want, "n = {n}");
        let out = String::from_utf8(o.stdout).unwrap();
        assert!(
            out.starts_with("{\"curve\":\"bls12-381\",\"backend\":\"gpu\""),
            "{out}"
        );
    }
}

/// A device profile that does not exist is named in the error, with the ones that do.
#[test]
fn gpu_backend_rejects_an_unknown_profile() {
    let (_, _, pb, sb) = inputs::<Bls381>(4, 7);
    let o = run(
        "bls12-381",
        &pb,
        &sb,
        &["--backend", "gpu", "--profile", "h9000"],
        "gpu-bad-profile",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("h9000") && err.contains("h200"), "{err}");
}

#[test]
fn usage_errors() {
    let o = msm(&["--points", "a", "--scalars", "b"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--curve is required"));
    let o = msm(&["--curve", "secp256k1", "--points", "a", "--scalars", "b"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown curve"));
    let o = msm(&["--help"]);
    assert!(o.status.success());
    assert!(
        String::from_utf8(o.stdout)
            .unwrap()
            .contains("prime-order subgroup")
    );
    let o = msm(&[
        "--curve",
        "bn254",
        "--points",
        "/nonexistent/p",
        "--scalars",
        "/nonexistent/s",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot read points file"));
}

/// Runs bad input and checks: failure status 1, and stderr contains every `needle`.
fn rejected(curve: &str, pb: &[u8], sb: &[u8], name: &str, needles: &[&str]) {
    let o = run(curve, pb, sb, &[], name);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{name}: should fail; stderr: {e}");
    assert!(o.stdout.is_empty(), "{name}: no result on bad input");
    for n in needles {
        assert!(e.contains(n), "{name}: stderr {e:?} lacks {n:?}");
    }
}

fn bad_inputs<C: Curve>() {
    let n = 6;
    let (_, _, pb, sb) = inputs::<C>(n, 7);
    let item = 2 * C::COORD;
    let tag = |s: &str| format!("{}-{s}", C::NAME);

    // truncated files: the last item is incomplete
    rejected(
        C::NAME,
        &pb[..pb.len() - 5],
        &sb,
        &tag("short-points"),
        &["point 5 is truncated"],
    );
    rejected(
        C::NAME,
        &pb,
        &sb[..sb.len() - 1],
        &tag("short-scalars"),
        &["scalar 5 is truncated"],
    );
    let mut longer = sb.clone();
    longer.extend_from_slice(&[1, 2, 3]);
    rejected(
        C::NAME,
        &pb,
        &longer,
        &tag("long-scalars"),
        &["scalar 6 is truncated (3 of 32 bytes)"],
    );

    // count mismatch, both ways
    rejected(
        C::NAME,
        &pb[..item * 4],
        &sb,
        &tag("fewer-points"),
        &["4 points but 6 scalars", "scalar 4 has no point"],
    );
    rejected(
        C::NAME,
        &pb,
        &sb[..32 * 5],
        &tag("fewer-scalars"),
        &["6 points but 5 scalars", "point 5 has no scalar"],
    );

    // coordinate ≥ p: all-ones x of point 3, then y of point 4
    let mut bad = pb.clone();
    bad[item * 3..item * 3 + C::COORD].fill(0xff);
    rejected(
        C::NAME,
        &bad,
        &sb,
        &tag("x-above-p"),
        &[
            "point 3",
            "x coordinate",
            "not below the base-field modulus",
        ],
    );
    let mut bad = pb.clone();
    bad[item * 4 + C::COORD..item * 5].fill(0xff);
    rejected(
        C::NAME,
        &bad,
        &sb,
        &tag("y-above-p"),
        &["point 4", "y coordinate"],
    );
    // exactly p: the modulus itself is not a coordinate
    let p_bytes = le_modulus::<C::Base>(C::COORD);
    let mut bad = pb.clone();
    bad[item * 2..item * 2 + C::COORD].copy_from_slice(&p_bytes);
    rejected(
        C::NAME,
        &bad,
        &sb,
        &tag("x-equals-p"),
        &["point 2", "x coordinate"],
    );

    // off the curve: y + 1 of point 1 (point 1 is not the identity)
    let mut bad = pb.clone();
    bad[item + C::COORD] ^= 1;
    rejected(
        C::NAME,
        &bad,
        &sb,
        &tag("off-curve"),
        &["point 1", "not on the curve"],
    );

    // scalar ≥ r: r itself at index 3, and all ones at index 0
    let r_bytes = le_modulus::<Scalar<C>>(32);
    let mut bad = sb.clone();
    bad[32 * 3..32 * 4].copy_from_slice(&r_bytes);
    rejected(
        C::NAME,
        &pb,
        &bad,
        &tag("scalar-r"),
        &["scalar 3", "not below the group order r"],
    );
    let mut bad = sb.clone();
    bad[..32].fill(0xff);
    rejected(C::NAME, &pb, &bad, &tag("scalar-max"), &["scalar 0"]);
}

/// The modulus of a prime field as `len` little-endian bytes.
fn le_modulus<F: PrimeField>(len: usize) -> Vec<u8> {
    let mut b = F::MODULUS.to_bytes_le();
    b.resize(len, 0);
    b
}

#[test]
fn bad_input_bn254() {
    bad_inputs::<Bn254>();
}

#[test]
fn bad_input_bls12_377() {
    bad_inputs::<Bls377>();
}

#[test]
fn bad_input_bls12_381() {
    bad_inputs::<Bls381>();
}

#[test]
fn bad_input_ed_on_bls12_377() {
    bad_inputs::<Ed>();
    // The ZPrize 2023 harness bounded scalars by the base-field modulus; scalars between r and
    // that modulus are rejected here, since r is the subgroup order.
    let (_, _, pb, sb) = inputs::<Ed>(3, 8);
    let mut bad = sb.clone();
    let base_p = ark_ed_on_bls12_377::Fq::MODULUS;
    let mut just_below_p = base_p;
    just_below_p.sub_with_borrow(&1u64.into());
    bad[32..64].copy_from_slice(&just_below_p.to_bytes_le());
    rejected(
        "ed-on-bls12-377",
        &pb,
        &bad,
        "ed-zprize-scalar",
        &["scalar 1", "group order r"],
    );
    // The twisted Edwards identity is (0, 1); all zero bytes is not a point.
    let mut bad = pb.clone();
    bad[64..128].fill(0);
    rejected(
        "ed-on-bls12-377",
        &bad,
        &sb,
        "ed-zeros",
        &["point 1", "not on the curve"],
    );
}

#[test]
fn sw_identity_is_all_zeros() {
    let (pts, scalars, mut pb, sb) = inputs::<Bn254>(4, 9);
    pb[64..128].fill(0);
    let mut pts = pts;
    pts[1] = Aff::<Bn254>::zero();
    let want = Bn254::line(
        &<Bn254 as Curve>::G::msm(&pts, &scalars)
            .unwrap()
            .into_affine(),
    );
    let o = run("bn254", &pb, &sb, &[], "sw-identity");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout_last(&o), want);
    // every point the identity: the result is the identity
    let o = run("bn254", &vec![0; 64 * 4], &sb, &[], "sw-all-identity");
    assert_eq!(stdout_last(&o), "identity");
}
