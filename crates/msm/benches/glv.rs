//! GLV against the plain bucket method, native, single thread: every configuration checked against
//! arkworks' `VariableBaseMSM` first, then timed. A bench target without a harness, so that
//! `cargo test` does not build it:
//!
//! ```text
//! cargo bench -p fastmsm-msm --bench glv -- [log2 n …] [--samples S] [--json FILE] [--device NAME]
//! ```
//!
//! Defaults: n = 2^16, 5 samples. Prints a table to stderr; with `--json`, writes the results in
//! the `benches/results` format (milliseconds; `verified` is the arkworks check).

use std::time::Instant;

use ark_ec::scalar_mul::ScalarMul;
use ark_ec::{CurveGroup, PrimeGroup, VariableBaseMSM};
use ark_ff::{BigInt, UniformRand};
use fastmsm_curves::ark::{ArkSw, scalar_from_ark};
use fastmsm_curves::sw;
use fastmsm_msm::{
    Algorithm, Bls12_377G1, Bls12_381G1, Bn254G1, CpuGroup, MsmConfig, Points, Scalar, msm,
};
use rand::SeedableRng;
use rand::rngs::StdRng;

type ArkG<P> = ark_ec::short_weierstrass::Projective<P>;

struct Row {
    name: String,
    curve: &'static str,
    log_n: u32,
    config: &'static str,
    ms: Vec<f64>,
    verified: bool,
}

fn configs() -> Vec<(&'static str, MsmConfig)> {
    // the points are multiples of the generator: in the subgroup, as GLV needs
    let plain = MsmConfig {
        algorithm: Algorithm::pippenger(),
        points: Points::InSubgroupUnchecked,
        ..MsmConfig::default()
    };
    let ba = MsmConfig {
        algorithm: Algorithm::batch_affine(),
        ..plain
    };
    vec![
        ("projective", plain),
        ("projective+glv", MsmConfig { glv: true, ..plain }),
        ("batch-affine", ba),
        ("batch-affine+glv", MsmConfig { glv: true, ..ba }),
    ]
}

/// One curve: `G` is our group over the curve the bridge (`fastmsm_curves::ark`) pairs with the
/// arkworks config `P`.
fn bench_curve<G, P>(log_n: u32, samples: usize, rows: &mut Vec<Row>)
where
    P: ArkSw<ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>>,
    G: CpuGroup<Affine = sw::Affine<P::Curve>>,
{
    let n = 1usize << log_n;
    let mut rng = StdRng::seed_from_u64(log_n as u64);
    let ark_scalars: Vec<P::ScalarField> = (0..n).map(|_| UniformRand::rand(&mut rng)).collect();
    let bases: Vec<_> = ArkG::<P>::generator().batch_mul(
        &(0..n)
            .map(|_| P::ScalarField::rand(&mut rng))
            .collect::<Vec<_>>(),
    );
    let points: Vec<sw::Affine<P::Curve>> = bases.iter().map(|&a| a.into()).collect();
    let scalars: Vec<Scalar> = ark_scalars.iter().map(scalar_from_ark).collect();

    let want: sw::Affine<P::Curve> = ArkG::<P>::msm(&bases, &ark_scalars)
        .unwrap()
        .into_affine()
        .into();
    // Check every configuration once (this also derives the GLV data, once per process).
    let configs = configs();
    let verified: Vec<bool> = configs
        .iter()
        .map(|(_, cfg)| msm(&points, &scalars, cfg).unwrap().sum.to_affine() == want)
        .collect();
    // Samples are taken round-robin over arkworks and the configurations, so that load from
    // other processes on a shared machine falls on all of them alike.
    let mut ms = vec![Vec::new(); configs.len() + 1];
    for _ in 0..samples {
        let t = Instant::now();
        let _ = std::hint::black_box(ArkG::<P>::msm(&bases, &ark_scalars).unwrap());
        ms[0].push(t.elapsed().as_secs_f64() * 1e3);
        for (j, (_, cfg)) in configs.iter().enumerate() {
            let t = Instant::now();
            std::hint::black_box(msm(&points, &scalars, cfg).unwrap());
            ms[j + 1].push(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    let names = std::iter::once("arkworks").chain(configs.iter().map(|(name, _)| *name));
    let checks = std::iter::once(true).chain(verified);
    for ((config, ms), verified) in names.zip(ms).zip(checks) {
        rows.push(Row {
            name: format!("{}/2^{log_n}/{config}", G::NAME),
            curve: G::NAME,
            log_n,
            config,
            ms,
            verified,
        });
    }
}

fn stats(ms: &[f64]) -> (f64, f64, f64) {
    let mut v = ms.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

fn main() {
    let mut logs = Vec::new();
    let mut samples = 5;
    let mut json = None;
    let mut device = String::from("native cpu");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--samples" => samples = args.next().unwrap().parse().unwrap(),
            "--json" => json = args.next(),
            "--device" => device = args.next().unwrap(),
            // what `cargo bench` passes to every bench target
            "--bench" => {}
            x => logs.push(x.parse::<u32>().expect("log2 n")),
        }
    }
    if logs.is_empty() {
        logs.push(16);
    }
    let mut rows = Vec::new();
    for &l in &logs {
        bench_curve::<Bls12_377G1, ark_bls12_377::g1::Config>(l, samples, &mut rows);
        bench_curve::<Bn254G1, ark_bn254::g1::Config>(l, samples, &mut rows);
        bench_curve::<Bls12_381G1, ark_bls12_381::g1::Config>(l, samples, &mut rows);
    }
    eprintln!("| curve | n | configuration | median ms | min | max | verified |");
    eprintln!("|---|---|---|---|---|---|---|");
    for r in &rows {
        let (med, min, max) = stats(&r.ms);
        eprintln!(
            "| {} | 2^{} | {} | {med:.1} | {min:.1} | {max:.1} | {} |",
            r.curve, r.log_n, r.config, r.verified
        );
    }
    assert!(
        rows.iter().all(|r| r.verified),
        "a configuration disagreed with arkworks"
    );
    if let Some(path) = json {
        let results: Vec<String> = rows
            .iter()
            .map(|r| {
                let (med, min, max) = stats(&r.ms);
                format!(
                    "    {{\"name\": \"{}\", \"params\": {{\"curve\": \"{}\", \"log_n\": {}, \"config\": \"{}\", \"threads\": 1}}, \"unit\": \"ms\", \"median\": {med:.3}, \"min\": {min:.3}, \"max\": {max:.3}, \"samples\": {}, \"verified\": {}}}",
                    r.name, r.curve, r.log_n, r.config, r.ms.len(), r.verified
                )
            })
            .collect();
        let commit = std::process::Command::new("git")
            .args(["rev-parse", "--short", "HEAD"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
        let date = std::process::Command::new("date")
            .args(["-u", "+%Y-%m-%dT%H:%M:%SZ"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
        let out = format!(
            "{{\n  \"suite\": \"glv-native\",\n  \"device\": {{\"name\": \"{device}\", \"backend\": \"native x86_64, single thread\"}},\n  \"commit\": \"{commit}\",\n  \"date\": \"{date}\",\n  \"results\": [\n{}\n  ]\n}}\n",
            results.join(",\n")
        );
        std::fs::write(&path, out).unwrap();
        eprintln!("wrote {path}");
    }
}
