//! The all-affine MSM ([`crate::all_affine`]) cut into shares for threads or workers.
//!
//! The bucket method's work is a grid of W windows × n points: every cell is one point's digit of
//! one window going into a bucket. [`cut`] reads the grid window by window and cuts it into T
//! contiguous shares of (nearly) the same number of cells, so share t holds the tail of one
//! window, some whole windows and the head of another. Each piece of a share, (window w, points
//! a..b), fills its own 2^(c−1) buckets from its points; the share reduces all its pieces together
//! (one lock-step affine reduction, as the single-threaded MSM does with its windows) and returns
//! Σ 2^(c·w)·S_piece. The MSM is the sum of the shares' results, whatever T is.
//!
//! Against the single-threaded MSM the extra work is the reduction of at most T − 1 more
//! pieces (a window cut in two is reduced twice), about 2·2^(c−1) affine additions each, and with
//! GLV the endomorphism split of the points a share reads. Cutting by points instead — every
//! share all windows of n/T points — would reduce T·W bucket sets, or pick a smaller c for the
//! smaller input; cutting by whole windows leaves threads idle when T does not divide W.
//!
//! [`plan`] picks the window width from all the scalars, exactly as the single-threaded MSM does,
//! so every share uses the same c; [`run_share`] computes one share from the points it reads.
//! Those two are the protocol of web workers that each hold a span of the points (the wasm
//! package's pool); [`crate::msm`] runs the shares itself with [`crate::Threads::Shares`] (in
//! turn) and [`crate::Threads::Pool`] (on rayon's pool, feature `rayon`).

use core::ops::Range;

use fastmsm_curves::field::PrimeField;

use fastmsm_curves::horner;

use crate::all_affine::{AllAffineStats, Scratch, accumulate_sorted, reduce_all_affine, segments};
use crate::config::{AllAffineConfig, MsmError, MsmStats, Window};
use crate::digits::{decompose_all, num_windows};
use crate::scalar::Scalar;
use crate::window::{WINDOW_SAMPLE, window_size, window_size_sampled_from};
use crate::{MsmGroup, check};

/// One cell range of the grid: window `window` of points `start..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The window, 0 for the lowest digits.
    pub window: u32,
    /// First point.
    pub start: usize,
    /// One past the last point.
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
    /// The pieces of each share; a share may be empty when there are more shares than cells.
    pub shares: Vec<Vec<Piece>>,
}

impl SplitPlan {
    /// The points share `t` reads, `start..end` (empty for an empty share).
    pub fn span(&self, t: usize) -> Range<usize> {
        let pieces = &self.shares[t];
        let start = pieces.iter().map(|p| p.start).min().unwrap_or(0);
        let end = pieces.iter().map(|p| p.end).max().unwrap_or(0);
        start..end.max(start)
    }
}

// ANCHOR: cut
/// The W × n grid, window by window, cut into `shares` runs of nearly equal length.
pub fn cut(n: usize, windows: usize, shares: usize) -> Vec<Vec<Piece>> {
    let total = n as u64 * windows as u64;
    let shares = shares.max(1) as u64;
    (0..shares)
        .map(|t| {
            let (from, to) = (total * t / shares, total * (t + 1) / shares);
            let mut pieces = Vec::new();
            let mut cell = from;
            while cell < to {
                let window = cell / n as u64;
                let start = (cell % n as u64) as usize;
                let end = (start as u64 + (to - cell)).min(n as u64) as usize;
                pieces.push(Piece {
                    window: window as u32,
                    start,
                    end,
                });
                cell += (end - start) as u64;
            }
            pieces
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

/// [`plan`] on checked input.
fn plan_checked<G: MsmGroup>(
    scalars: &[Scalar],
    window: Window,
    glv: bool,
    bound: &Scalar,
    shares: usize,
) -> SplitPlan {
    let n = scalars.len();
    // the single-threaded MSM runs on the 2n split scalars with GLV
    let split_n = if glv { 2 * n } else { n };
    let c = match window {
        Window::Fixed(c) => c,
        Window::FromSize => window_size(split_n, bound),
        Window::Auto if glv => {
            // the single-threaded MSM samples every step-th of the 2n split scalars (all |k1|,
            // then all |k2|): split just those
            let step = (2 * n).div_ceil(WINDOW_SAMPLE).max(1);
            let one = [G::affine_identity()];
            let sample: Vec<Scalar> = (0..2 * n)
                .step_by(step)
                .map(|i| {
                    G::glv_expand(&one, &scalars[i % n..i % n + 1])
                        .expect("checked")
                        .scalars[i / n]
                })
                .collect();
            window_size_sampled_from(2 * n, sample.iter(), bound)
        }
        Window::Auto => window_size_sampled_from(
            n,
            scalars.iter().step_by(n.div_ceil(WINDOW_SAMPLE).max(1)),
            bound,
        ),
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
            cut(n, windows, shares)
        },
    }
}

// ANCHOR: run_share
/// One share of `plan`: Σ over its pieces of 2^(c·w)·(window w of those points). `points` and
/// `scalars` are the input's items `offset..offset + len`, which must cover the share's span.
/// The scalars are checked (an error names the index in the whole input); the points are not:
/// a worker checks them once, when it loads them ([`crate::check_points`]).
pub fn run_share<G: MsmGroup>(
    plan: &SplitPlan,
    share: usize,
    points: &[G::Affine],
    scalars: &[Scalar],
    offset: usize,
    cfg: &AllAffineConfig,
    stats: &mut AllAffineStats,
) -> Result<G, MsmError> {
    check::lengths(points.len(), scalars.len())?;
    let pieces = plan.shares.get(share).ok_or_else(|| {
        MsmError::BadConfig(format!("share {share} of a plan of {}", plan.shares.len()))
    })?;
    let span = plan.span(share);
    if !pieces.is_empty() && (span.start < offset || span.end > offset + points.len()) {
        return Err(MsmError::BadConfig(format!(
            "share {share} reads points {}..{}, given {}..{}",
            span.start,
            span.end,
            offset,
            offset + points.len()
        )));
    }
    check::scalars::<G>(scalars, offset)?;
    scalar_bound::<G>(plan.glv)?;
    Ok(share_sum(plan, pieces, points, scalars, offset, cfg, stats))
}

/// The points of a range of pieces (split by GLV where the plan says so) and their signed digits.
type DigitTable<A> = (Range<usize>, Vec<A>, Vec<i32>);

/// One share's sum on checked input.
fn share_sum<G: MsmGroup>(
    plan: &SplitPlan,
    pieces: &[Piece],
    points: &[G::Affine],
    scalars: &[Scalar],
    offset: usize,
    cfg: &AllAffineConfig,
    stats: &mut AllAffineStats,
) -> G {
    let (c, windows) = (plan.window_bits, plan.windows as usize);
    if pieces.is_empty() {
        return G::identity();
    }
    let m = 1usize << (c - 1);
    let mut scratch = Scratch::new();
    let mut sums = Vec::with_capacity(pieces.len() * m);
    // pieces over the same points (whole windows) share one split and one digit table
    let mut table: Option<DigitTable<G::Affine>> = None;
    for piece in pieces {
        let range = piece.start - offset..piece.end - offset;
        if table.as_ref().is_none_or(|t| t.0 != range) {
            let (p, k) = (&points[range.clone()], &scalars[range.clone()]);
            let (pts, digits) = if plan.glv {
                let split = G::glv_expand(p, k).expect("the plan checked the endomorphism");
                let digits = decompose_all(&split.scalars, c, windows);
                (split.points, digits)
            } else {
                (p.to_vec(), decompose_all(k, c, windows))
            };
            table = Some((range, pts, digits));
        }
        let (_, pts, digits) = table.as_ref().expect("filled above");
        let len = pts.len();
        let w = piece.window as usize;
        sums.extend(accumulate_sorted::<G>(
            pts,
            &digits[w * len..(w + 1) * len],
            m,
            cfg.accumulation_batch.max(1),
            &mut scratch,
            stats,
        ));
    }
    drop(scratch);
    let segments = match cfg.reduction_batch {
        Some(batch) => batch.div_ceil(pieces.len()).max(1),
        None => segments(m, pieces.len(), G::Base::params().bits),
    };
    let piece_sums = reduce_all_affine::<G>(&sums, m, segments, stats);
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
            0,
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
                share_sum::<G>(&plan, pieces, points, scalars, 0, cfg, &mut st),
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

    #[test]
    fn cut_covers_the_grid_once_in_nearly_equal_shares() {
        for (n, w, t) in [
            (10, 3, 4),
            (7, 20, 8),
            (1000, 10, 8),
            (3, 2, 16),
            (1, 1, 1),
            (64, 13, 7),
        ] {
            let shares = cut(n, w, t);
            assert_eq!(shares.len(), t);
            let mut seen = vec![0u32; n * w];
            for pieces in &shares {
                for p in pieces {
                    assert!(
                        p.start < p.end && p.end <= n && (p.window as usize) < w,
                        "{p:?}"
                    );
                    for i in p.start..p.end {
                        seen[p.window as usize * n + i] += 1;
                    }
                }
            }
            assert!(
                seen.iter().all(|&s| s == 1),
                "n={n} w={w} t={t}: every cell exactly once"
            );
            let sizes: Vec<usize> = shares
                .iter()
                .map(|s| s.iter().map(|p| p.end - p.start).sum())
                .collect();
            let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(hi - lo <= 1, "n={n} w={w} t={t}: sizes {sizes:?}");
        }
    }
}
