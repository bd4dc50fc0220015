//! The front door, `fastmsm_msm::msm`, against `ark_ec::VariableBaseMSM::msm`: all four curves,
//! n from 0 to 2500, the random, adversarial and structured inputs of `common`, every algorithm,
//! window rule and threading, with GLV where the curve has it, in every field representation
//! (tests named `door::curve::representation::check`), and through the operation-counting field.

use crate::common::{
    Bls377O, Bls381O, Bn254O, Case, EdO, Oracle, ark_msm, for_each_case, r_minus_one,
    random_points, random_scalars,
};
use fastmsm_curves::Group;
use fastmsm_msm::{
    Accumulation, Algorithm, AllAffineConfig, BatchAffineConfig, CpuGroup, Limbs, MsmConfig,
    MsmGroup, Points, Reduction, Threads, Window, msm,
};

const SIZES: [usize; 7] = [0, 1, 2, 3, 17, 300, LARGE];
/// The largest size: windows of many points per bucket, batches of thousands.
const LARGE: usize = 2500;

/// Every configuration the book compares. GLV ones on curves that have it; the points of
/// `common` are multiples of the generator, so in the subgroup GLV needs.
fn configs(glv: bool) -> Vec<(&'static str, MsmConfig)> {
    let base = MsmConfig::default();
    let pippenger = MsmConfig {
        algorithm: Algorithm::pippenger(),
        ..base
    };
    let all_affine = base;
    let mut out = vec![
        ("pippenger", pippenger),
        (
            "batch-affine",
            MsmConfig {
                algorithm: Algorithm::batch_affine(),
                ..base
            },
        ),
        (
            "batch-affine, small batches, split reduction",
            MsmConfig {
                algorithm: Algorithm::Pippenger {
                    accumulation: Accumulation::BatchAffine(BatchAffineConfig {
                        batch_size: 8,
                        max_deferred: 8,
                        min_batch: 2,
                    }),
                    reduction: Reduction::Split(3),
                },
                ..base
            },
        ),
        (
            "csr, split reduction, c = 7",
            MsmConfig {
                algorithm: Algorithm::Pippenger {
                    accumulation: Accumulation::Csr,
                    reduction: Reduction::Split(4),
                },
                window: Window::Fixed(7),
                ..base
            },
        ),
        ("all-affine", all_affine),
        (
            "all-affine, tiny batches, c = 5",
            MsmConfig {
                algorithm: Algorithm::AllAffine(AllAffineConfig {
                    accumulation_batch: 2,
                    reduction_batch: Some(3),
                }),
                window: Window::Fixed(5),
                ..base
            },
        ),
        (
            "all-affine, window from n",
            MsmConfig {
                window: Window::FromSize,
                ..base
            },
        ),
        (
            "all-affine, 3 shares",
            MsmConfig {
                threads: Threads::Shares(3),
                ..base
            },
        ),
        (
            "all-affine, rayon",
            MsmConfig {
                threads: Threads::Pool,
                ..base
            },
        ),
    ];
    if glv {
        let glv = |c: MsmConfig| MsmConfig {
            glv: true,
            points: Points::InSubgroupUnchecked,
            ..c
        };
        out.push(("pippenger, GLV", glv(pippenger)));
        out.push(("all-affine, GLV", glv(all_affine)));
        out.push((
            "all-affine, GLV, window from n, 4 shares",
            glv(MsmConfig {
                window: Window::FromSize,
                threads: Threads::Shares(4),
                ..all_affine
            }),
        ));
    }
    out
}

/// The door in `limbs` against arkworks, for every size, input and configuration.
fn door_matches_arkworks<O: Oracle>(limbs: Limbs, seed: u64, glv: bool)
where
    O::G: CpuGroup,
{
    for_each_case::<O>(&SIZES, seed, |n, case| {
        let Case {
            what,
            ours,
            scalars,
            want,
            ..
        } = case;
        for (how, cfg) in configs(glv) {
            // The 51-bit twin natively runs a scalar FMA per limb product, and the largest
            // size takes the longest: there, only the main algorithms and GLV (the others'
            // logic is the same code, covered on the other fields and sizes).
            let main = ["pippenger", "batch-affine", "all-affine"].contains(&how) || cfg.glv;
            if (limbs == Limbs::Radix51 || n == LARGE) && !main {
                continue;
            }
            let cfg = MsmConfig { limbs, ..cfg };
            let got: O::G = msm(&ours, &scalars, &cfg).unwrap().sum;
            assert!(got.is_on_curve());
            assert_eq!(
                got.to_affine(),
                want,
                "{}: n = {n}, {what}, {how}, {limbs:?}",
                O::G::NAME
            );
        }
    });
}

every_curve_and_representation!(door_matches_arkworks);

/// Through the operation-counting field: the same sum, and field operations counted, for every
/// algorithm (GLV included where the curve has it).
#[test]
fn counted_runs_match_arkworks() {
    fn check<O: Oracle>(seed: u64, glv: bool)
    where
        O::G: CpuGroup,
    {
        let base = random_points::<O>(300, seed);
        for n in [0, 1, 300] {
            let scalars = random_scalars::<O>(n, seed + n as u64);
            let want = ark_msm::<O>(&base[..n], &scalars);
            let ours: Vec<_> = base[..n].iter().map(O::ours).collect();
            for (how, cfg) in configs(glv) {
                if cfg.threads == Threads::Pool {
                    continue;
                }
                let out = msm(
                    &ours,
                    &scalars,
                    &MsmConfig {
                        count_ops: true,
                        ..cfg
                    },
                )
                .unwrap();
                let ops = out.stats.ops.expect("counted");
                let ctx = format!("{}: n = {n}, {how}, counted", O::G::NAME);
                assert_eq!(out.sum.to_affine(), want, "{ctx}");
                assert_eq!(ops.mul == 0, n == 0, "{ctx}: {ops:?}");
                // uncounted runs report no counts
                assert_eq!(msm(&ours, &scalars, &cfg).unwrap().stats.ops, None);
            }
        }
    }
    check::<Bn254O>(110, true);
    check::<Bls377O>(210, true);
    check::<Bls381O>(310, true);
    check::<EdO>(410, false);
}

/// Every window width against arkworks (n = 50, uniform), including the widths that need the
/// carry window, for the three accumulations and the all-affine algorithm; the reported window
/// is the one asked for.
#[test]
fn every_window_width() {
    fn check<O: Oracle>(seed: u64)
    where
        O::G: CpuGroup,
    {
        let base = random_points::<O>(50, seed);
        let mut scalars = random_scalars::<O>(50, seed);
        scalars[0] = r_minus_one::<O>();
        let want = ark_msm::<O>(&base, &scalars);
        let ours: Vec<_> = base.iter().map(O::ours).collect();
        let algorithms = [
            Algorithm::pippenger(),
            Algorithm::batch_affine(),
            Algorithm::Pippenger {
                accumulation: Accumulation::Csr,
                reduction: Reduction::Split(5),
            },
            Algorithm::AllAffine(AllAffineConfig::default()),
        ];
        for c in 2..=16u32 {
            // above 12 bits each window's reduction walks thousands of buckets: one algorithm
            // per width there, rotating
            let chosen: Vec<_> = if c <= 12 {
                algorithms.to_vec()
            } else {
                vec![algorithms[(c as usize + seed as usize) % algorithms.len()]]
            };
            for algorithm in chosen {
                let cfg = MsmConfig {
                    algorithm,
                    window: Window::Fixed(c),
                    ..MsmConfig::default()
                };
                let out = msm(&ours, &scalars, &cfg).unwrap();
                assert_eq!(
                    out.sum.to_affine(),
                    want,
                    "{}: c = {c}, {algorithm:?}",
                    O::G::NAME
                );
                assert_eq!(out.stats.window, c);
            }
        }
    }
    check::<Bn254O>(500);
    check::<Bls377O>(501);
    check::<Bls381O>(502);
    check::<EdO>(503);
}

/// `Threads::Pool` cuts the MSM into one share per thread of the current rayon pool: pools of
/// 1, 3 and 8 threads (more shares than cores too) give arkworks' sum, with and without GLV.
#[test]
fn rayon_pools_of_every_size() {
    let base = random_points::<Bls381O>(300, 61);
    let ours: Vec<_> = base.iter().map(Bls381O::ours).collect();
    let scalars = random_scalars::<Bls381O>(300, 61);
    let want = ark_msm::<Bls381O>(&base, &scalars);
    for threads in [1, 3, 8] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for glv in [false, true] {
            let cfg = MsmConfig {
                threads: Threads::Pool,
                glv,
                points: Points::InSubgroupUnchecked,
                ..MsmConfig::default()
            };
            let got = pool.install(|| msm(&ours, &scalars, &cfg)).unwrap();
            assert_eq!(got.sum.to_affine(), want, "{threads} threads, GLV {glv}");
        }
    }
}

/// What the accumulations report: most additions share an inversion, collisions are mostly
/// deferred, and an adversarial input (one bucket for all points) takes log₂ n rounds, not n
/// inversions.
#[test]
fn accumulations_report_their_work() {
    let n = 2500;
    let base = random_points::<Bls377O>(n, 9);
    let ours: Vec<_> = base.iter().map(Bls377O::ours).collect();
    let scalars = random_scalars::<Bls377O>(n, 9);
    let cfg = MsmConfig {
        algorithm: Algorithm::batch_affine(),
        ..MsmConfig::default()
    };
    let out = msm(&ours, &scalars, &cfg).unwrap();
    assert_eq!(out.sum.to_affine(), ark_msm::<Bls377O>(&base, &scalars));
    let stats = out.stats.batch_affine;
    assert!(stats.batched_additions > n * 20, "{stats:?}");
    assert!(stats.inversions * 50 < stats.batched_additions, "{stats:?}");
    assert!(
        stats.deferred > 0 && stats.spilled * 20 < stats.batched_additions,
        "{stats:?}"
    );
    assert_eq!(out.stats.all_affine, Default::default());

    let out = msm(&ours, &scalars, &MsmConfig::default()).unwrap();
    let stats = out.stats.all_affine;
    assert!(
        stats.inversions * 100 < stats.batched_additions,
        "{stats:?}"
    );
    let same = vec![scalars[0]; n];
    let out = msm(&ours, &same, &MsmConfig::default()).unwrap();
    assert_eq!(out.sum.to_affine(), ark_msm::<Bls377O>(&base, &same));
    // every window: ⌈log₂ 2500⌉ = 12 rounds at most
    assert!(
        out.stats.all_affine.accumulation_rounds <= 12 * 30,
        "{:?}",
        out.stats
    );
    // shares add their counts up: the same additions, a few more for the cut windows
    let shared = msm(
        &ours,
        &scalars,
        &MsmConfig {
            threads: Threads::Pool,
            ..MsmConfig::default()
        },
    )
    .unwrap();
    let one = msm(&ours, &scalars, &MsmConfig::default()).unwrap();
    // shares report the sum of their counts, under the one window of the plan
    assert_eq!(shared.sum, one.sum);
    assert_eq!(shared.stats.window, one.stats.window);
    let st = shared.stats.all_affine;
    assert!(st.inversions > 0 && st.batched_additions > n, "{st:?}");
}
