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
//! [`plan`] picks the window width from all the scalars, exactly as [`crate::all_affine`] does,
//! so every share uses the same c; [`run_share`] computes one share from the points it reads;
//! [`msm_split`] runs every share in turn and `msm_parallel` (feature `rayon`) at once.

use core::ops::Range;

use fastmsm_curves::field::PrimeField;

use crate::MsmGroup;
use crate::all_affine::{AllAffineConfig, AllAffineStats, Scratch, accumulate_sorted, reduce_all_affine, segments};
use crate::digits::{decompose_all, num_windows};
use crate::pippenger::MsmError;
use fastmsm_curves::horner;
use crate::scalar::{Scalar, first_out_of_range};
use crate::window::{WINDOW_RANGE, WINDOW_SAMPLE, window_size_sampled_from};

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

/// Checks `scalars` against r; the error names the index in the whole input.
fn check_scalars<G: MsmGroup>(scalars: &[Scalar], offset: usize) -> Result<(), MsmError> {
    match first_out_of_range(scalars, &G::SCALAR_MODULUS) {
        Some(i) => Err(MsmError::ScalarOutOfRange { index: offset + i }),
        None => Ok(()),
    }
}

/// The plan for `scalars` in `shares` shares: c as [`crate::all_affine::msm_all_affine`] picks it
/// for these scalars (or `window`), the same for every share. Errors as the single-threaded MSM's.
pub fn plan<G: MsmGroup>(
    scalars: &[Scalar],
    window: Option<u32>,
    glv: bool,
    shares: usize,
) -> Result<SplitPlan, MsmError> {
    check_scalars::<G>(scalars, 0)?;
    if let Some(c) = window
        && !WINDOW_RANGE.contains(&c)
    {
        return Err(MsmError::BadConfig(format!("window width {c} outside 2..=16")));
    }
    let bound = scalar_bound::<G>(glv)?;
    let n = scalars.len();
    let c = match window {
        Some(c) => c,
        None if glv => {
            // the single-threaded MSM samples every step-th of the 2n split scalars (all |k1|,
            // then all |k2|): split just those
            let step = (2 * n).div_ceil(WINDOW_SAMPLE).max(1);
            let one = [G::affine_identity()];
            let sample: Vec<Scalar> = (0..2 * n)
                .step_by(step)
                .map(|i| G::glv_expand(&one, &scalars[i % n..i % n + 1]).expect("checked").scalars[i / n])
                .collect();
            window_size_sampled_from(2 * n, sample.iter(), &bound)
        }
        None => window_size_sampled_from(n, scalars.iter().step_by(n.div_ceil(WINDOW_SAMPLE).max(1)), &bound),
    };
    let windows = num_windows(c, &bound);
    Ok(SplitPlan {
        n,
        window_bits: c,
        windows: windows as u32,
        glv,
        shares: if n == 0 { vec![Vec::new(); shares.max(1)] } else { cut(n, windows, shares) },
    })
}

// ANCHOR: run_share
/// One share of `plan`: Σ over its pieces of 2^(c·w)·(window w of those points). `points` and
/// `scalars` are the input's items `offset..offset + len`, which must cover the share's span.
pub fn run_share<G: MsmGroup>(
    plan: &SplitPlan,
    share: usize,
    points: &[G::Affine],
    scalars: &[Scalar],
    offset: usize,
    cfg: &AllAffineConfig,
    stats: &mut AllAffineStats,
) -> Result<G, MsmError> {
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch { points: points.len(), scalars: scalars.len() });
    }
    let pieces = plan
        .shares
        .get(share)
        .ok_or_else(|| MsmError::BadConfig(format!("share {share} of a plan of {}", plan.shares.len())))?;
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
    check_scalars::<G>(scalars, offset)?;
    scalar_bound::<G>(plan.glv)?;
    let (c, windows) = (plan.window_bits, plan.windows as usize);
    if pieces.is_empty() {
        return Ok(G::identity());
    }
    stats.window = c;
    let m = 1usize << (c - 1);
    let mut scratch = Scratch::new();
    let mut sums = Vec::with_capacity(pieces.len() * m);
    // pieces over the same points (whole windows) share one split and one digit table
    let mut table: Option<(Range<usize>, Vec<G::Affine>, Vec<i32>)> = None;
    for piece in pieces {
        let range = piece.start - offset..piece.end - offset;
        if table.as_ref().is_none_or(|t| t.0 != range) {
            let (p, k) = (&points[range.clone()], &scalars[range.clone()]);
            let (pts, digits) = if plan.glv {
                let split = G::glv_expand(p, k).expect("scalar_bound checked the endomorphism");
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
    Ok(q)
}
// ANCHOR_END: run_share

/// The MSM by [`plan`] and [`run_share`] for every share in turn: the same result as
/// [`crate::all_affine::msm_all_affine`], whatever `shares` is (what the tests hold the threaded
/// runs to).
pub fn msm_split<G: MsmGroup>(
    points: &[G::Affine],
    scalars: &[Scalar],
    cfg: &AllAffineConfig,
    shares: usize,
) -> Result<G, MsmError> {
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch { points: points.len(), scalars: scalars.len() });
    }
    let plan = plan::<G>(scalars, cfg.window, cfg.glv, shares)?;
    let mut q = G::identity();
    for t in 0..plan.shares.len() {
        let mut stats = AllAffineStats::default();
        q = q.add(&run_share::<G>(&plan, t, points, scalars, 0, cfg, &mut stats)?);
    }
    Ok(q)
}

/// [`msm_split`] with the shares run at once on rayon's thread pool (in WebAssembly, a pool of
/// Web Workers over shared memory: wasm-bindgen-rayon).
#[cfg(feature = "rayon")]
pub fn msm_parallel<G: MsmGroup + Send + Sync>(
    points: &[G::Affine],
    scalars: &[Scalar],
    cfg: &AllAffineConfig,
    threads: usize,
) -> Result<G, MsmError>
where
    G::Affine: Send + Sync,
{
    use rayon::prelude::*;
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch { points: points.len(), scalars: scalars.len() });
    }
    let plan = plan::<G>(scalars, cfg.window, cfg.glv, threads)?;
    (0..plan.shares.len())
        .into_par_iter()
        .map(|t| run_share::<G>(&plan, t, points, scalars, 0, cfg, &mut AllAffineStats::default()))
        .try_reduce(G::identity, |a, b| Ok(a.add(&b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_covers_the_grid_once_in_nearly_equal_shares() {
        for (n, w, t) in [(10, 3, 4), (7, 20, 8), (1000, 10, 8), (3, 2, 16), (1, 1, 1), (64, 13, 7)] {
            let shares = cut(n, w, t);
            assert_eq!(shares.len(), t);
            let mut seen = vec![0u32; n * w];
            for pieces in &shares {
                for p in pieces {
                    assert!(p.start < p.end && p.end <= n && (p.window as usize) < w, "{p:?}");
                    for i in p.start..p.end {
                        seen[p.window as usize * n + i] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s == 1), "n={n} w={w} t={t}: every cell exactly once");
            let sizes: Vec<usize> = shares.iter().map(|s| s.iter().map(|p| p.end - p.start).sum()).collect();
            let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(hi - lo <= 1, "n={n} w={w} t={t}: sizes {sizes:?}");
        }
    }
}
