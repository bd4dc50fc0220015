//! The all-affine MSM ([`crate::all_affine`]) cut into shares for threads or workers.
//!
//! The bucket method's work is a grid of buckets: W windows of 2^(c−1) buckets each, every bucket
//! filled with the points whose digit in that window names it and then reduced (two affine
//! additions per bucket in the running sums). [`cut`] reads the grid window by window and cuts
//! it into T contiguous runs of buckets of (nearly) the same expected work, so share t owns the
//! top of one window's buckets, some whole windows and the bottom of another's. A share reads
//! the digits of its windows for *all* points and keeps those that fall in its buckets; it fills
//! them (sorted accumulation), reduces them (one lock-step affine reduction over all its pieces)
//! and returns Σ_w 2^(c·w)·S_w over its pieces. The MSM is the sum of the shares' results,
//! whatever T is.
//!
//! Against the single-threaded MSM nothing is done twice: every bucket is filled and reduced by
//! one share (a piece that starts at bucket b₀ adds b₀ times its total, one small scalar
//! multiplication). What each share repeats is cheap: the digits of its windows for every point
//! (a few chunk reads each), and with GLV the split of every scalar. An earlier cut by points —
//! share t the cells (window w, points a..b) — filled each bucket from several shares and reduced
//! a window cut in two twice, at 2·2^(c−1) additions a piece, and sized a share's memory by n.
//!
//! The expected work of a bucket comes from a sample of the digits ([`plan`]): a window's points
//! spread over its buckets, plus two additions per bucket to reduce them. Uniform scalars make
//! the shares even; structured ones (every scalar equal, all small) may not be, and the result is
//! the same either way.
//!
//! [`plan`] picks the window width from all the scalars, exactly as the single-threaded MSM does,
//! so every share uses the same c; [`run_share`] computes one share. Those two are the protocol of
//! web workers that each hold the points (the wasm package's pool); [`crate::msm`] runs the shares
//! itself with [`crate::Threads::Shares`] (in turn) and [`crate::Threads::Pool`] (on rayon's
//! pool, feature `rayon`).

use core::ops::Range;

use fastmsm_curves::field::PrimeField;

use fastmsm_curves::horner;

use crate::all_affine::{
    AllAffineStats, Scratch, accumulate_sorted, reduce_ranges, segment_length,
};
use crate::config::{AllAffineConfig, MsmError, MsmStats, Window};
use crate::digits::{chunk, decompose_into, digit_at, num_windows};
use crate::scalar::{self, Scalar};
use crate::window::{WINDOW_SAMPLE, window_size, window_size_sampled_from};
use crate::{MsmGroup, check};

/// One run of buckets of one window: buckets `start..end` (bucket j holds the points whose digit
/// is ±(j + 1)) of window `window`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The window, 0 for the lowest digits.
    pub window: u32,
    /// First bucket.
    pub start: usize,
    /// One past the last bucket.
    pub end: usize,
}

/// How an MSM of n points is shared out: the window width every share uses and each share's
/// pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitPlan {
    /// Points in the MSM.
    pub n: usize,
    /// Window width c.
    pub window_bits: u32,
    /// Windows W, from c and the bound on the (GLV-split) scalars.
    pub windows: u32,
    /// Whether the scalars are split with the curve's endomorphism first.
    pub glv: bool,
    /// The pieces of each share; a share may be empty when there are more shares than buckets.
    pub shares: Vec<Vec<Piece>>,
}

impl SplitPlan {
    /// The points (and scalars) share `t` reads: all n, since a share owns buckets, not points;
    /// none for an empty share.
    pub fn span(&self, t: usize) -> Range<usize> {
        if self.shares[t].is_empty() {
            0..0
        } else {
            0..self.n
        }
    }
}

/// One window's expected work, for [`cut`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowWork {
    /// Its buckets (fewer than 2^(c−1) in a top window whose digits stay small).
    pub buckets: usize,
    /// The points expected to land in them (nonzero digits).
    pub points: f64,
}

impl WindowWork {
    /// Expected additions of one bucket: its share of the points, and two to reduce it (none in
    /// a window no point reaches).
    fn per_bucket(&self) -> f64 {
        if self.points > 0.0 {
            self.points / self.buckets as f64 + 2.0
        } else {
            0.0
        }
    }
}

// ANCHOR: cut
/// The bucket grid, window by window, cut into `shares` runs of nearly equal expected work: the
/// boundary of share t is the bucket where the work done so far reaches t/T of the total.
pub fn cut(work: &[WindowWork], shares: usize) -> Vec<Vec<Piece>> {
    let shares = shares.max(1);
    let total: f64 = work.iter().map(|w| w.per_bucket() * w.buckets as f64).sum();
    // boundary t as (window, bucket), from (0, 0) to (W, 0)
    let mut bounds = vec![(0usize, 0usize)];
    let (mut window, mut before) = (0usize, 0.0f64);
    for t in 1..shares {
        let target = total * t as f64 / shares as f64;
        while window < work.len()
            && before + work[window].per_bucket() * work[window].buckets as f64 <= target
        {
            before += work[window].per_bucket() * work[window].buckets as f64;
            window += 1;
        }
        let bound = if window == work.len() {
            (window, 0)
        } else {
            let w = &work[window];
            let j = ((target - before) / w.per_bucket()).round() as usize;
            (window, j.min(w.buckets))
        };
        bounds.push(bound.max(*bounds.last().expect("non-empty")));
    }
    bounds.push((work.len(), 0));
    bounds
        .windows(2)
        .map(|b| {
            let ((w0, j0), (w1, j1)) = (b[0], b[1]);
            (w0..=w1.min(work.len().saturating_sub(1)))
                .filter_map(|w| {
                    let start = if w == w0 { j0 } else { 0 };
                    let end = if w == w1 { j1 } else { work[w].buckets };
                    (start < end).then_some(Piece {
                        window: w as u32,
                        start,
                        end,
                    })
                })
                .collect()
        })
        .collect()
}
// ANCHOR_END: cut

/// The bound on the scalars the windows must cover: r, or the GLV halves' bound.
fn scalar_bound<G: MsmGroup>(glv: bool) -> Result<Scalar, MsmError> {
    if !glv {
        return Ok(G::SCALAR_MODULUS);
    }
    G::glv_expand(&[], &[])
        .map(|e| e.bound)
        .ok_or(MsmError::NoEndomorphism { curve: G::NAME })
}

/// The plan for `scalars` in `shares` shares: c as the single-threaded all-affine MSM picks it
/// for these scalars under `window`, the same for every share. The scalars are checked against r
/// (the error names the index); GLV on a curve without the endomorphism is refused.
pub fn plan<G: MsmGroup>(
    scalars: &[Scalar],
    window: Window,
    glv: bool,
    shares: usize,
) -> Result<SplitPlan, MsmError> {
    check::scalars::<G>(scalars, 0)?;
    if let Window::Fixed(c) = window {
        check::window(c)?;
    }
    let bound = scalar_bound::<G>(glv)?;
    Ok(plan_checked::<G>(scalars, window, glv, &bound, shares))
}

/// An evenly spaced sample of the scalars the MSM adds with (the GLV halves with `glv`: all
/// |k₁| first, then all |k₂|), as the single-threaded MSM samples them to pick its window, and
/// how many scalars it stands for.
fn sample<G: MsmGroup>(scalars: &[Scalar], glv: bool) -> (Vec<Scalar>, usize) {
    let n = scalars.len();
    if glv {
        let step = (2 * n).div_ceil(WINDOW_SAMPLE).max(1);
        let one = [G::affine_identity()];
        let s = (0..2 * n)
            .step_by(step)
            .map(|i| {
                G::glv_expand(&one, &scalars[i % n..i % n + 1])
                    .expect("checked")
                    .scalars[i / n]
            })
            .collect();
        (s, 2 * n)
    } else {
        (
            scalars
                .iter()
                .step_by(n.div_ceil(WINDOW_SAMPLE).max(1))
                .copied()
                .collect(),
            n,
        )
    }
}

/// Each window's buckets and expected points at width c, from the sample of `total` scalars.
fn window_work(
    sample: &[Scalar],
    total: usize,
    c: u32,
    windows: usize,
    bound: &Scalar,
) -> Vec<WindowWork> {
    let m = 1usize << (c - 1);
    let mut nonzero = vec![0usize; windows];
    let mut d = vec![0; windows];
    for k in sample {
        decompose_into(k, c, &mut d);
        for (count, &x) in nonzero.iter_mut().zip(&d) {
            *count += (x != 0) as usize;
        }
    }
    // the top window's digit is at most its chunk of the largest scalar, plus a carry
    let top = chunk(&scalar::minus_one(bound), windows - 1, c) as usize + 1;
    (0..windows)
        .map(|w| WindowWork {
            buckets: if w + 1 == windows { top.clamp(1, m) } else { m },
            points: nonzero[w] as f64 * total as f64 / sample.len().max(1) as f64,
        })
        .collect()
}

/// [`plan`] on checked input.
fn plan_checked<G: MsmGroup>(
    scalars: &[Scalar],
    window: Window,
    glv: bool,
    bound: &Scalar,
    shares: usize,
) -> SplitPlan {
    let n = scalars.len();
    let (sample, total) = sample::<G>(scalars, glv);
    let c = match window {
        Window::Fixed(c) => c,
        Window::FromSize => window_size(total, bound),
        Window::Auto => window_size_sampled_from(total, sample.iter(), bound),
    };
    let windows = num_windows(c, bound);
    SplitPlan {
        n,
        window_bits: c,
        windows: windows as u32,
        glv,
        shares: if n == 0 {
            vec![Vec::new(); shares.max(1)]
        } else {
            cut(&window_work(&sample, total, c, windows, bound), shares)
        },
    }
}

// ANCHOR: run_share
/// One share of `plan`: Σ over its pieces of 2^(c·w)·(those buckets of window w, reduced). Every
/// share reads all n `points` and `scalars`. The scalars are checked (an error names the index);
/// the points are not: a worker checks them once, when it loads them ([`crate::check_points`]).
pub fn run_share<G: MsmGroup>(
    plan: &SplitPlan,
    share: usize,
    points: &[G::Affine],
    scalars: &[Scalar],
    cfg: &AllAffineConfig,
    stats: &mut AllAffineStats,
) -> Result<G, MsmError> {
    check::lengths(points.len(), scalars.len())?;
    let pieces = plan.shares.get(share).ok_or_else(|| {
        MsmError::BadConfig(format!("share {share} of a plan of {}", plan.shares.len()))
    })?;
    if points.len() != plan.n {
        return Err(MsmError::BadConfig(format!(
            "a plan for {} points, given {}",
            plan.n,
            points.len()
        )));
    }
    check::scalars::<G>(scalars, 0)?;
    scalar_bound::<G>(plan.glv)?;
    Ok(share_sum(plan, pieces, points, scalars, cfg, stats))
}

/// One share's sum on checked input.
fn share_sum<G: MsmGroup>(
    plan: &SplitPlan,
    pieces: &[Piece],
    points: &[G::Affine],
    scalars: &[Scalar],
    cfg: &AllAffineConfig,
    stats: &mut AllAffineStats,
) -> G {
    if pieces.is_empty() {
        return G::identity();
    }
    let c = plan.window_bits;
    let split;
    let (points, scalars) = if plan.glv {
        split = G::glv_expand(points, scalars).expect("the plan checked the endomorphism");
        (&split.points[..], &split.scalars[..])
    } else {
        (points, scalars)
    };
    let mut scratch = Scratch::new();
    let mut digits = vec![0i32; points.len()];
    let mut sums = Vec::with_capacity(pieces.iter().map(|p| p.end - p.start).sum());
    for piece in pieces {
        // this window's digits, kept where they name one of the piece's buckets and renumbered
        // from its first
        let (lo, hi) = (piece.start as i32, piece.end as i32);
        for (d, k) in digits.iter_mut().zip(scalars) {
            let x = digit_at(k, piece.window as usize, c);
            let a = x.abs();
            *d = if a > lo && a <= hi {
                x.signum() * (a - lo)
            } else {
                0
            };
        }
        sums.extend(accumulate_sorted::<G>(
            points,
            &digits,
            piece.end - piece.start,
            cfg.accumulation_batch.max(1),
            &mut scratch,
            stats,
        ));
    }
    drop(scratch);
    drop(digits);
    let ranges: Vec<(usize, usize)> = pieces.iter().map(|p| (p.start, p.end - p.start)).collect();
    let total: usize = ranges.iter().map(|r| r.1).sum();
    let l = match cfg.reduction_batch {
        Some(batch) => total.div_ceil(batch.max(1)).max(1),
        None => segment_length(total, G::Base::params().bits),
    };
    let piece_sums = reduce_ranges::<G>(&sums, &ranges, l, stats);
    // pieces of one window add; then Horner from the lowest window present, shifted up to it
    let low = pieces.iter().map(|p| p.window).min().expect("non-empty") as usize;
    let high = pieces.iter().map(|p| p.window).max().expect("non-empty") as usize;
    let mut by_window = vec![G::identity(); high - low + 1];
    for (piece, s) in pieces.iter().zip(&piece_sums) {
        let slot = &mut by_window[piece.window as usize - low];
        *slot = slot.add(s);
    }
    let mut q = horner(&by_window, c);
    for _ in 0..c as usize * low {
        q = q.double();
    }
    q
}
// ANCHOR_END: run_share

/// The plan of a checked input for [`crate::msm`], its window in `stats`.
fn door_plan<G: MsmGroup>(
    scalars: &[Scalar],
    window: Window,
    glv: bool,
    shares: usize,
    stats: &mut MsmStats,
) -> SplitPlan {
    let bound = scalar_bound::<G>(glv).expect("check::config saw the endomorphism");
    let plan = plan_checked::<G>(scalars, window, glv, &bound, shares);
    stats.window = plan.window_bits;
    plan
}

/// Checked input by [`plan`] and every share in turn: the same sum as the single-threaded MSM,
/// whatever `shares` is (what the tests hold the threaded runs to).
pub(crate) fn in_turn<G: MsmGroup>(
    points: &[G::Affine],
    scalars: &[Scalar],
    window: Window,
    glv: bool,
    cfg: &AllAffineConfig,
    shares: usize,
    stats: &mut MsmStats,
) -> G {
    let plan = door_plan::<G>(scalars, window, glv, shares, stats);
    plan.shares.iter().fold(G::identity(), |q, pieces| {
        q.add(&share_sum::<G>(
            &plan,
            pieces,
            points,
            scalars,
            cfg,
            &mut stats.all_affine,
        ))
    })
}

/// [`in_turn`] with the shares run at once on rayon's thread pool (native threads; in a browser
/// the book's pool of Web Workers, book/widgets/pool/, runs the same shares).
#[cfg(feature = "rayon")]
pub(crate) fn parallel<G: MsmGroup>(
    points: &[G::Affine],
    scalars: &[Scalar],
    window: Window,
    glv: bool,
    cfg: &AllAffineConfig,
    threads: usize,
    stats: &mut MsmStats,
) -> G {
    use rayon::prelude::*;
    let plan = door_plan::<G>(scalars, window, glv, threads, stats);
    let (q, share_stats) = plan
        .shares
        .par_iter()
        .map(|pieces| {
            let mut st = AllAffineStats::default();
            (
                share_sum::<G>(&plan, pieces, points, scalars, cfg, &mut st),
                st,
            )
        })
        .reduce(
            || (G::identity(), AllAffineStats::default()),
            |(a, mut sa), (b, sb)| {
                sa.merge(&sb);
                (a.add(&b), sa)
            },
        );
    stats.all_affine.merge(&share_stats);
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uniform(windows: usize, m: usize, points: f64) -> Vec<WindowWork> {
        vec![WindowWork { buckets: m, points }; windows]
    }

    #[test]
    fn cut_covers_the_grid_once_in_nearly_equal_shares() {
        for (w, m, t) in [
            (3, 4, 4),
            (20, 4096, 8),
            (10, 512, 7),
            (2, 1, 16),
            (1, 1, 1),
            (13, 64, 16),
            (20, 4096, 2),
        ] {
            let mut work = uniform(w, m, 1000.0);
            work[w - 1].buckets = m.div_ceil(3); // a smaller top window
            let shares = cut(&work, t);
            assert_eq!(shares.len(), t);
            let mut seen: Vec<Vec<u32>> = work.iter().map(|x| vec![0; x.buckets]).collect();
            let mut cost = vec![0.0; t];
            for (k, pieces) in shares.iter().enumerate() {
                let mut last = None;
                for p in pieces {
                    assert!(
                        p.start < p.end && p.end <= work[p.window as usize].buckets,
                        "{p:?}"
                    );
                    assert!(
                        last.is_none_or(|l| l < p.window),
                        "one piece per window, in order"
                    );
                    last = Some(p.window);
                    for s in &mut seen[p.window as usize][p.start..p.end] {
                        *s += 1;
                    }
                    cost[k] += work[p.window as usize].per_bucket() * (p.end - p.start) as f64;
                }
            }
            assert!(
                seen.iter().flatten().all(|&s| s == 1),
                "w={w} m={m} t={t}: every bucket exactly once"
            );
            let total: f64 = cost.iter().sum();
            let biggest = work.iter().map(|x| x.per_bucket()).fold(0.0, f64::max);
            for c in &cost {
                assert!(
                    (c - total / t as f64).abs() <= biggest + 1e-9,
                    "w={w} m={m} t={t}: {cost:?}"
                );
            }
        }
    }

    #[test]
    fn windows_nothing_reaches_cost_nothing() {
        // small scalars: only window 0 has points; every share's work lies there
        let mut work = uniform(20, 4096, 0.0);
        work[0].points = 65536.0;
        let shares = cut(&work, 4);
        for s in &shares[..3] {
            assert!(s.iter().all(|p| p.window == 0), "{shares:?}");
        }
    }
}
