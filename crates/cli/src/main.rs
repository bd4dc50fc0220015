//! `msm`: multi-scalar multiplication of files in the Fast MSM interchange format.
//!
//! ```text
//! msm --curve {bn254|bls12-377|bls12-381|ed-on-bls12-377} --points FILE --scalars FILE
//!     [--backend cpu|gpu] [--json]
//! ```
//!
//! The file formats are described in `fastmsm_msm::format`. The last line of stdout is the
//! result; bad input exits with status 1 and a message on stderr naming the offending item; usage
//! errors exit with 2, GPU failures (no adapter, device lost, limits) with 3.

mod gpu;

use std::process::ExitCode;
use std::time::Instant;

use fastmsm_msm::format::{FormatCurve, read_points, read_scalars, result_line};
use fastmsm_msm::{Bls12_377G1, Bls12_381G1, Bn254G1, CpuGroup, EdBls12_377G, MsmConfig, msm};

const USAGE: &str = "\
usage: msm --curve {bn254|bls12-377|bls12-381|ed-on-bls12-377} --points FILE --scalars FILE
           [--backend cpu|gpu] [--profile NAME] [--json]

Computes Σ scalars[i]·points[i] and prints it as the last line of stdout:
`x=0x… y=0x…` (affine, lowercase big-endian hex, no leading zeros) or `identity`.

  --curve C      bn254, bls12-377, bls12-381 (G1, short Weierstrass) or ed-on-bls12-377
                 (twisted Edwards, the ZPrize 2023 curve)
  --points F     per point x ‖ y, each a little-endian integer of 32 bytes (bn254,
                 ed-on-bls12-377) or 48 bytes (bls12-377, bls12-381), not in Montgomery form;
                 the identity is all zero bytes (short Weierstrass) or (0, 1) (twisted Edwards).
                 Coordinates must be below p and the point on the curve.
  --scalars F    32 bytes little-endian per scalar, each below the group order r.
                 For ed-on-bls12-377, r is the order of the prime-order subgroup (as in
                 ark-ed-on-bls12-377), 0x4aad957a68b2955982d1347970dec005293a3afc43c8afeb95aee9ac33fd9ff;
                 the ZPrize 2023 harness bounded scalars by the base-field modulus instead, so some of
                 its scalars are rejected here.
  --backend B    cpu (default) or gpu (wgpu: Vulkan, Metal or DX12; the result is the same)
  --profile P    with --backend gpu: the device profile that plans the MSM. Default: this GPU's
                 cached calibration ($FASTMSM_PROFILE_CACHE or ~/.cache/fastmsm/device-profiles.json),
                 else the named profile that matches the adapter; never a calibration.
                 `calibrate`: measure this GPU now (about ten seconds) and cache the result;
                 or one of h200, h100, swiftshader, lavapipe, portable (reproducible runs)
  --json         also print one JSON line before the result: curve, backend, n, milliseconds
                 and the result

Exit status: 0 on success, 1 on bad input (the message names the item index), 2 on usage errors,\n3 when the GPU backend cannot run (no adapter, device lost, a limit exceeded).";

/// Parsed command line.
struct Args {
    curve: String,
    points: String,
    scalars: String,
    backend: String,
    /// `--profile`: `calibrate` or a named device profile for the GPU backend (None: the cached
    /// calibration, else the adapter's named profile).
    profile: Option<String>,
    json: bool,
}

/// Why the command stopped: a usage error (status 2, with the usage text), bad input (status 1),
/// or a GPU that cannot run the work (status 3).
enum Failure {
    Usage(String),
    Input(String),
    Gpu(String),
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Option<Args>, Failure> {
    let (mut curve, mut points, mut scalars) = (None, None, None);
    let mut backend = "cpu".to_string();
    let mut profile = None;
    let mut json = false;
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| Failure::Usage(format!("{name} needs a value")))
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--curve" => curve = Some(value("--curve")?),
            "--points" => points = Some(value("--points")?),
            "--scalars" => scalars = Some(value("--scalars")?),
            "--backend" => backend = value("--backend")?,
            "--profile" => profile = Some(value("--profile")?),
            "--json" => json = true,
            other => return Err(Failure::Usage(format!("unknown argument {other:?}"))),
        }
    }
    let need = |v: Option<String>, name: &str| {
        v.ok_or_else(|| Failure::Usage(format!("{name} is required")))
    };
    Ok(Some(Args {
        curve: need(curve, "--curve")?,
        points: need(points, "--points")?,
        scalars: need(scalars, "--scalars")?,
        backend,
        profile,
        json,
    }))
}

fn read(path: &str, what: &str) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure::Input(format!("cannot read {what} file {path}: {e}")))
}

/// Reads, checks, computes; returns the lines to print.
fn run<G: FormatCurve + CpuGroup>(args: &Args) -> Result<Vec<String>, Failure> {
    let points = read_points::<G>(&read(&args.points, "points")?).map_err(Failure::Input)?;
    let scalars = read_scalars::<G>(&read(&args.scalars, "scalars")?).map_err(Failure::Input)?;
    if points.len() != scalars.len() {
        let n = points.len().min(scalars.len());
        let which = if points.len() > n {
            format!("point {n} has no scalar")
        } else {
            format!("scalar {n} has no point")
        };
        return Err(Failure::Input(format!(
            "{} points but {} scalars: {which}",
            points.len(),
            scalars.len()
        )));
    }
    let start = Instant::now();
    let line = if args.backend == "gpu" {
        gpu::msm::<G>(&points, &scalars, args.profile.as_deref())?
    } else {
        let q: G = msm(&points, &scalars, &MsmConfig::default())
            .map_err(|e| Failure::Input(e.to_string()))?
            .sum;
        result_line(&q)
    };
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let mut out = Vec::new();
    if args.json {
        out.push(format!(
            "{{\"curve\":\"{}\",\"backend\":\"{}\",\"n\":{},\"ms\":{ms:.3},\"result\":\"{line}\"}}",
            G::NAME,
            args.backend,
            points.len()
        ));
    }
    out.push(line);
    Ok(out)
}

fn main_inner() -> Result<(), Failure> {
    let Some(args) = parse_args(std::env::args().skip(1))? else {
        println!("{USAGE}");
        return Ok(());
    };
    let runner: fn(&Args) -> Result<Vec<String>, Failure> = match args.curve.as_str() {
        "bn254" => run::<Bn254G1>,
        "bls12-377" => run::<Bls12_377G1>,
        "bls12-381" => run::<Bls12_381G1>,
        "ed-on-bls12-377" => run::<EdBls12_377G>,
        other => {
            return Err(Failure::Usage(format!(
                "unknown curve {other:?} (bn254, bls12-377, bls12-381, ed-on-bls12-377)"
            )));
        }
    };
    match args.backend.as_str() {
        "cpu" | "gpu" => {}
        other => {
            return Err(Failure::Usage(format!(
                "unknown backend {other:?} (cpu, gpu)"
            )));
        }
    }
    for line in runner(&args)? {
        println!("{line}");
    }
    Ok(())
}

fn main() -> ExitCode {
    match main_inner() {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(m)) => {
            eprintln!("msm: {m}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Gpu(m)) => {
            eprintln!("msm: GPU backend: {m}");
            ExitCode::from(3)
        }
        Err(Failure::Input(m)) => {
            eprintln!("msm: {m}");
            ExitCode::from(1)
        }
    }
}

/// The names the CLI accepts are the curves' own names.
#[cfg(test)]
mod tests {
    use super::*;
    use fastmsm_msm::MsmGroup;

    #[test]
    fn curve_names() {
        assert_eq!(Bn254G1::NAME, "bn254");
        assert_eq!(Bls12_377G1::NAME, "bls12-377");
        assert_eq!(Bls12_381G1::NAME, "bls12-381");
        assert_eq!(EdBls12_377G::NAME, "ed-on-bls12-377");
    }

    #[test]
    fn help_states_the_ed_scalar_bound() {
        let r = EdBls12_377G::SCALAR_MODULUS;
        let r = [r[0], r[1], r[2], r[3], 0, 0];
        assert!(
            USAGE.contains(&fastmsm_msm::format::hex(&r)),
            "--help names r of Ed-on-BLS12-377"
        );
    }
}
