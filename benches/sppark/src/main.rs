//! sppark's GPU MSM (supranational, the `sppark` crate's CUDA sources) timed on the inputs of our
//! GPU benchmark, every run checked against arkworks, from ordinary (pageable) and from pinned host
//! memory. Writes results JSON in the schema of benches/README.md. Built by benches/sppark/build.sh.
//!
//! usage: sppark-bench --out FILE|DIR [--curves bls12-377,bls12-381,bn254] [--log-n 16,18,20,22]
//!        [--memory pageable,pinned[,resident]] [--patterns uniform] [--reps 7] [--commit C] [--date D]
//!        sppark-bench --self-check   (no GPU needed: sppark's host arithmetic against arkworks)
//! With a directory, the file is DIR/gpu-msm-sppark-<device>.json.

mod args;
mod bench;
mod inputs;
mod selfcheck;
mod sppark;

use std::process::ExitCode;

// sppark's host arithmetic calls blst's assembly (mul_mont_384, ...): nothing in Rust names the
// crate, so it is linked in by name.
extern crate blst;

fn main() -> ExitCode {
    let args = match args::parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("sppark-bench: {e}\n{}", args::USAGE);
            return ExitCode::from(2);
        }
    };
    if let Err(e) = selfcheck::run() {
        eprintln!("sppark-bench: self-check failed: {e}");
        return ExitCode::FAILURE;
    }
    if args.self_check_only {
        println!(
            "sppark-bench: self-check passed (BLS12-377, BLS12-381, BN254: sppark's host arithmetic on the benchmark's arrays equals arkworks)"
        );
        return ExitCode::SUCCESS;
    }
    let device = match sppark::device() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("sppark-bench: no CUDA device: {e}");
            return ExitCode::FAILURE;
        }
    };
    match bench::run(&args, &device) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("sppark-bench: some results did not match arkworks");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("sppark-bench: {e}");
            ExitCode::FAILURE
        }
    }
}
