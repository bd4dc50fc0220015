//! The `reduction-steps` widget (book/widgets/widgets/reduction-steps.js): Σ j·B_j for a few buckets by
//! `fastmsm_msm::reduce`, step by step. To keep the example readable every bucket is a known
//! multiple B_j = b_j·G of the generator, so every point the reduction produces is some m·G, and
//! the widget names it by m — after checking it against arkworks' m·G.
//!
//! The state of the running sum after the buckets m, m − 1, …, j is exactly what `segment_sums`
//! returns for the suffix B_j … B_m (local weights 1, 2, …), so the steps are read off the crate's
//! own function; the segments of the parallel split are `segment_sums` of each piece, corrected
//! by (t·s)·R_t, and their total is checked against `running_sum_split` and `running_sum`.

use ark_ec::{CurveGroup, PrimeGroup};
use fastmsm_curves::Group;
use fastmsm_msm::MsmGroup;
use fastmsm_msm::reduce::{running_sum, running_sum_split, segment_sums};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::ark_pair::{Pair, with_pair};
use crate::js::{err, to_js};

/// Most buckets (c = 7) and largest multiple: the sums stay small integers.
const MAX_BUCKETS: usize = 64;
const MAX_MULTIPLE: u64 = 1_000_000;

/// A point the reduction produced, named by the multiple m with point = m·G, and whether it is.
#[derive(Serialize)]
struct Named {
    multiple: u64,
    /// Is the point really m·G (compared with arkworks)?
    ok: bool,
}

#[derive(Serialize)]
struct Step {
    /// The bucket just added, j.
    bucket: usize,
    /// R = B_j + … + B_m.
    running: Named,
    /// S = Σ_{i ≥ j} (i − j + 1)·B_i.
    total: Named,
}

#[derive(Serialize)]
struct Segment {
    /// Buckets first..=last.
    first: usize,
    last: usize,
    /// S_t with local weights, and the plain sum R_t.
    local: Named,
    plain: Named,
    /// t·s, the offset of this segment's weights.
    offset: u64,
    /// S_t + (t·s)·R_t.
    corrected: Named,
}

#[derive(Serialize)]
struct Steps {
    curve: String,
    /// b_1 … b_m.
    multiples: Vec<u64>,
    steps: Vec<Step>,
    segments: Vec<Segment>,
    /// running_sum, Σ of the corrected segments, running_sum_split, and the direct Σ j·B_j.
    serial: Named,
    split_combined: Named,
    split: Named,
    direct: Named,
    verified: bool,
}

fn steps<P: Pair>(multiples: &[u64], segments: usize) -> Result<JsValue, JsValue> {
    let g = <P::Ours as Group>::generator();
    let ark_g = <P::Ark as PrimeGroup>::generator();
    let name = |p: &P::Ours, m: u64| Named {
        multiple: m,
        ok: P::ours_xy(p) == P::ark_xy(&ark_g.mul_bigint([m]).into_affine()),
    };
    let buckets: Vec<P::Ours> = multiples.iter().map(|&b| g.mul_scalar(&[b])).collect();
    let m = buckets.len();
    // weights: Σ_{i ≥ j} (i − j + 1)·b_i and Σ_{i ≥ j} b_i over a slice whose first bucket is j
    let weighted = |bs: &[u64]| {
        bs.iter()
            .enumerate()
            .map(|(i, &b)| (i as u64 + 1) * b)
            .sum::<u64>()
    };
    let plain = |bs: &[u64]| bs.iter().sum::<u64>();
    let steps = (1..=m)
        .rev()
        .map(|j| {
            let (total, running) = segment_sums(&buckets[j - 1..]);
            Step {
                bucket: j,
                running: name(&running, plain(&multiples[j - 1..])),
                total: name(&total, weighted(&multiples[j - 1..])),
            }
        })
        .collect();
    let s = m.div_ceil(segments);
    let mut combined = <P::Ours as Group>::identity();
    let segments_out = buckets
        .chunks(s)
        .zip(multiples.chunks(s))
        .enumerate()
        .map(|(t, (seg, bs))| {
            let (local, sum) = segment_sums(seg);
            let offset = (t * s) as u64;
            let corrected = local.add(&sum.mul_scalar(&[offset]));
            combined = combined.add(&corrected);
            Segment {
                first: t * s + 1,
                last: t * s + seg.len(),
                local: name(&local, weighted(bs)),
                plain: name(&sum, plain(bs)),
                offset,
                corrected: name(&corrected, weighted(bs) + offset * plain(bs)),
            }
        })
        .collect();
    let want = weighted(multiples);
    let direct = buckets
        .iter()
        .enumerate()
        .fold(<P::Ours as Group>::identity(), |acc, (i, b)| {
            acc.add(&b.mul_scalar(&[i as u64 + 1]))
        });
    let out = Steps {
        curve: <P::Ours as MsmGroup>::NAME.into(),
        multiples: multiples.to_vec(),
        steps,
        segments: segments_out,
        serial: name(&running_sum(&buckets), want),
        split_combined: name(&combined, want),
        split: name(&running_sum_split(&buckets, segments), want),
        direct: name(&direct, want),
        verified: false,
    };
    let all_named = out.steps.iter().all(|s| s.running.ok && s.total.ok)
        && out
            .segments
            .iter()
            .all(|s| s.local.ok && s.plain.ok && s.corrected.ok)
        && [&out.serial, &out.split_combined, &out.split, &out.direct]
            .iter()
            .all(|n| n.ok);
    to_js(&Steps {
        verified: all_named,
        ..out
    })
}

/// Σ j·B_j on `curve` for buckets B_j = b_j·G, b_j from `multiples` (comma- or space-separated
/// non-negative integers), serially and split into `segments` segments, every intermediate point
/// named by its multiple of G and checked against arkworks.
#[wasm_bindgen]
pub fn reduction_steps(curve: &str, multiples: &str, segments: u32) -> Result<JsValue, JsValue> {
    let bs = multiples
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| match t.parse::<u64>() {
            Ok(b) if b <= MAX_MULTIPLE => Ok(b),
            _ => Err(err(format_args!(
                "bucket multiple {t:?}: type whole numbers from 0 to {MAX_MULTIPLE}, separated by commas"
            ))),
        })
        .collect::<Result<Vec<u64>, _>>()?;
    if bs.is_empty() || bs.len() > MAX_BUCKETS {
        return Err(err(format_args!(
            "{} bucket multiples: type 1 to {MAX_BUCKETS}",
            bs.len()
        )));
    }
    if segments == 0 || segments as usize > bs.len() {
        return Err(err(format_args!(
            "{segments} segments for {} buckets: choose 1 to {}",
            bs.len(),
            bs.len()
        )));
    }
    let t = segments as usize;
    with_pair!(curve, P => steps::<P>(&bs, t))
}
