//! Command-line arguments; every bad value is an error naming the flag and the value.

use crate::inputs::PATTERNS;

pub const USAGE: &str = "usage: sppark-bench --out FILE|DIR [--curves bls12-377,bls12-381,bn254] [--log-n 16,18,20,22] \
[--memory pageable,pinned[,resident]] [--patterns uniform] [--reps 7] [--warm-up-seconds 1] [--commit C] [--date D]\n       \
sppark-bench --self-check";

pub const CURVES: [&str; 3] = ["bls12-377", "bls12-381", "bn254"];
/// pageable, pinned: host arrays in ordinary or page-locked memory; resident: points uploaded once,
/// only the scalars sent per MSM (not in the default list).
pub const MEMORY: [&str; 3] = ["pageable", "pinned", "resident"];

#[derive(Debug)]
pub struct Args {
    pub out: String,
    pub curves: Vec<String>,
    pub log_ns: Vec<u32>,
    pub memory: Vec<String>,
    pub patterns: Vec<String>,
    pub reps: usize,
    pub warm_up_seconds: f64,
    pub commit: Option<String>,
    pub date: Option<String>,
    pub self_check_only: bool,
}

fn names(flag: &str, value: &str, known: &[&str]) -> Result<Vec<String>, String> {
    value
        .split(',')
        .map(|v| {
            if known.contains(&v) {
                Ok(v.to_string())
            } else {
                Err(format!(
                    "{flag}: unknown value {v:?} (known: {})",
                    known.join(", ")
                ))
            }
        })
        .collect()
}

pub fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut args = Args {
        out: String::new(),
        curves: CURVES.iter().map(|c| c.to_string()).collect(),
        log_ns: vec![16, 18, 20, 22],
        memory: vec!["pageable".into(), "pinned".into()],
        patterns: vec!["uniform".into()],
        reps: 7,
        warm_up_seconds: 1.0,
        commit: None,
        date: None,
        self_check_only: false,
    };
    while let Some(flag) = it.next() {
        if flag == "--self-check" {
            args.self_check_only = true;
            continue;
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--out" => args.out = value,
            "--curves" => args.curves = names(&flag, &value, &CURVES)?,
            "--memory" => args.memory = names(&flag, &value, &MEMORY)?,
            "--patterns" => args.patterns = names(&flag, &value, &PATTERNS)?,
            "--log-n" => {
                args.log_ns = value
                    .split(',')
                    .map(|v| match v.parse::<u32>() {
                        Ok(l) if (1..=26).contains(&l) => Ok(l),
                        _ => Err(format!("--log-n: {v:?} is not a whole number from 1 to 26")),
                    })
                    .collect::<Result<_, _>>()?
            }
            "--reps" => {
                args.reps = match value.parse() {
                    Ok(r) if r >= 1 => r,
                    _ => return Err(format!("--reps: {value:?} is not a positive whole number")),
                }
            }
            "--warm-up-seconds" => {
                args.warm_up_seconds = match value.parse::<f64>() {
                    Ok(s) if s >= 0.0 => s,
                    _ => {
                        return Err(format!(
                            "--warm-up-seconds: {value:?} is not a number of seconds"
                        ));
                    }
                }
            }
            "--commit" => args.commit = Some(value),
            "--date" => args.date = Some(value),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if args.out.is_empty() && !args.self_check_only {
        return Err("--out FILE|DIR is required".into());
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn run(a: &[&str]) -> Result<super::Args, String> {
        parse(a.iter().map(|s| s.to_string()))
    }

    #[test]
    fn bad_values_are_named() {
        assert!(
            run(&["--out", "x", "--curves", "bls12-381,bw6-761"])
                .unwrap_err()
                .contains("bw6-761")
        );
        assert!(
            run(&["--out", "x", "--log-n", "20,abc"])
                .unwrap_err()
                .contains("abc")
        );
        assert!(
            run(&["--out", "x", "--memory", "managed"])
                .unwrap_err()
                .contains("managed")
        );
        assert!(
            run(&["--out", "x", "--reps", "0"])
                .unwrap_err()
                .contains("--reps")
        );
        assert!(run(&["--reps", "3"]).unwrap_err().contains("--out"));
        assert!(run(&["--out"]).unwrap_err().contains("needs a value"));
        let a = run(&["--out", "d", "--log-n", "16", "--curves", "bn254"]).unwrap();
        assert_eq!(
            (a.log_ns, a.curves, a.reps),
            (vec![16], vec!["bn254".to_string()], 7)
        );
    }
}
