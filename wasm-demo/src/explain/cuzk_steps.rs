//! The `cuzk-steps` widget (book/widgets/widgets/cuzk-steps.js): a small MSM taken apart the cuZK way by
//! `fastmsm_msm::cuzk`. For every window: the digit matrix M in CSR form (one row per point), its
//! transpose (one row per bucket: `transpose`), the bucket sums (`smvp`) and the same sums from
//! chunks of equal numbers of entries (`smvp_chunked`, the GPU's load balance); then the windows'
//! running sums and Horner's rule give the MSM, compared with arkworks' Σ kᵢ·Pᵢ.

use ark_ec::{AffineRepr, CurveGroup};
use fastmsm_curves::horner;
use fastmsm_msm::cuzk::{self, decode_entry};
use fastmsm_msm::digits::{decompose_all, num_windows};
use fastmsm_msm::reduce::running_sum;
use fastmsm_msm::{MsmGroup, Scalar};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::hex_words;
use crate::ark_pair::{Pair, with_pair, xy_hex};
use crate::js::{err, to_js};
use crate::seeded_input::draw_ark;

/// Most points: the tables stay readable.
const MAX_POINTS: u32 = 32;
/// Widest window: 2^(c−1) buckets still fit one table.
const MAX_WINDOW_BITS: u32 = 8;

/// The digit matrix M (row i = point i, one nonzero in column |dᵢ| with value sign dᵢ) in CSR form.
#[derive(Serialize)]
struct MatrixCsr {
    row_ptr: Vec<u32>,
    columns: Vec<u32>,
    values: Vec<i32>,
}

#[derive(Serialize)]
struct Piece {
    bucket: usize,
    /// "+P3", "−P0", …: the entries of this chunk in this bucket.
    terms: Vec<String>,
}

#[derive(Serialize)]
struct Chunk {
    first: usize,
    end: usize,
    pieces: Vec<Piece>,
}

#[derive(Serialize)]
struct Window {
    index: usize,
    digits: Vec<i32>,
    matrix: MatrixCsr,
    counts: Vec<u32>,
    /// The transpose Mᵀ in CSR form: `row_ptr` (B + 2 words) and `entries` (point | sign bit).
    row_ptr: Vec<u32>,
    entries: Vec<u32>,
    /// Per bucket b = 1..=B, the terms its SMVP row adds.
    buckets: Vec<Vec<String>>,
    chunks: Vec<Chunk>,
    /// Do the chunks' pieces, added per bucket, give `smvp`'s bucket sums?
    chunks_match: bool,
}

#[derive(Serialize)]
struct Steps {
    curve: String,
    n: usize,
    c: u32,
    bits: u32,
    chunk: usize,
    buckets: usize,
    windows: usize,
    scalars: Vec<String>,
    /// The windows up to the last one with a nonzero digit (the others are empty).
    shown: Vec<Window>,
    x: Option<String>,
    y: Option<String>,
    ark_x: Option<String>,
    ark_y: Option<String>,
    verified: bool,
}

fn term(entry: u32) -> String {
    let (i, negative) = decode_entry(entry);
    format!("{}P{i}", if negative { '−' } else { '+' })
}

fn steps<P: Pair>(
    n: usize,
    c: u32,
    bits: u32,
    seed: u64,
    chunk: usize,
) -> Result<JsValue, JsValue> {
    let r = <P::Ours as MsmGroup>::SCALAR_MODULUS;
    let r_bits = fastmsm_msm::glv::words_to_big(&r).bits() as u32;
    if !(1..=r_bits).contains(&bits) {
        return Err(err(format_args!(
            "scalar size {bits} bits: choose 1 to {r_bits}"
        )));
    }
    let inputs = draw_ark::<P>(n, seed, false, &|_, _| {});
    // Scalars cut to `bits` bits (still below r), so that a few windows hold them.
    let scalars: Vec<Scalar> = inputs
        .scalars
        .iter()
        .map(|k| {
            core::array::from_fn(|w| {
                let lo = 64 * w as u32;
                if bits <= lo {
                    0
                } else if bits - lo >= 64 {
                    k[w]
                } else {
                    k[w] & ((1u64 << (bits - lo)) - 1)
                }
            })
        })
        .collect();
    let points: Vec<_> = inputs.ark_points.iter().map(P::ours).collect();
    let buckets = 1usize << (c - 1);
    let windows = num_windows(c, &r);
    let digits = decompose_all(&scalars, c, windows);
    let mut sums = Vec::with_capacity(windows);
    let mut shown = Vec::new();
    let last = (0..windows)
        .rev()
        .find(|&w| digits[w * n..(w + 1) * n].iter().any(|&d| d != 0));
    for w in 0..windows {
        let column = &digits[w * n..(w + 1) * n];
        let csr = cuzk::transpose(column, buckets);
        let bucket_sums = cuzk::smvp::<P::Ours>(&points, &csr);
        let (chunks, chunk_sums) = cuzk::smvp_chunked::<P::Ours>(&points, &csr, chunk);
        let chunks_match = chunk_sums == bucket_sums;
        sums.push((running_sum(&bucket_sums), chunks_match));
        if last.is_some_and(|l| w <= l) {
            let mut matrix = MatrixCsr {
                row_ptr: vec![0],
                columns: Vec::new(),
                values: Vec::new(),
            };
            for &d in column {
                if d != 0 {
                    matrix.columns.push(d.unsigned_abs());
                    matrix.values.push(d.signum());
                }
                matrix.row_ptr.push(matrix.columns.len() as u32);
            }
            shown.push(Window {
                index: w,
                digits: column.to_vec(),
                matrix,
                counts: cuzk::bucket_counts(column, buckets),
                buckets: (1..=buckets)
                    .map(|b| csr.bucket(b).iter().map(|&e| term(e)).collect())
                    .collect(),
                chunks: chunks
                    .iter()
                    .map(|ch| {
                        let mut e = ch.first;
                        let pieces = ch
                            .pieces
                            .iter()
                            .map(|(b, _)| {
                                // this piece's entries: from e to the end of its row or of the chunk
                                let stop = (csr.row_ptr[b + 1] as usize).min(ch.end);
                                let terms = csr.entries[e..stop].iter().map(|&x| term(x)).collect();
                                e = stop;
                                Piece { bucket: *b, terms }
                            })
                            .collect();
                        Chunk {
                            first: ch.first,
                            end: ch.end,
                            pieces,
                        }
                    })
                    .collect(),
                row_ptr: csr.row_ptr,
                entries: csr.entries,
                chunks_match,
            });
        }
    }
    let window_sums: Vec<P::Ours> = sums.iter().map(|s| s.0).collect();
    let result = horner(&window_sums, c);
    let ark: P::Ark = inputs
        .ark_points
        .iter()
        .zip(&scalars)
        .map(|(p, k)| p.mul_bigint(k))
        .sum();
    let (ours, theirs) = (P::ours_xy(&result), P::ark_xy(&ark.into_affine()));
    let (x, y) = xy_hex(ours);
    let (ark_x, ark_y) = xy_hex(theirs);
    to_js(&Steps {
        curve: <P::Ours as MsmGroup>::NAME.into(),
        n,
        c,
        bits,
        chunk,
        buckets,
        windows,
        scalars: scalars.iter().map(|k| hex_words(k)).collect(),
        shown,
        x,
        y,
        ark_x,
        ark_y,
        verified: ours == theirs && sums.iter().all(|s| s.1),
    })
}

/// A seeded MSM of `n` points with `bits`-bit scalars on `curve`, taken apart with window width c
/// and SMVP chunks of `chunk` entries (see the module docs). Errors name the parameter at fault.
#[wasm_bindgen]
pub fn cuzk_steps(
    curve: &str,
    n: u32,
    c: u32,
    bits: u32,
    seed: u32,
    chunk: u32,
) -> Result<JsValue, JsValue> {
    if !(1..=MAX_POINTS).contains(&n) {
        return Err(err(format_args!(
            "n = {n} points: choose 1 to {MAX_POINTS}"
        )));
    }
    if !(2..=MAX_WINDOW_BITS).contains(&c) {
        return Err(err(format_args!(
            "window width c = {c}: choose 2 to {MAX_WINDOW_BITS}"
        )));
    }
    if chunk == 0 {
        return Err(err("SMVP chunk of 0 entries: choose at least 1"));
    }
    let (n, seed, chunk) = (n as usize, u64::from(seed), chunk as usize);
    with_pair!(curve, P => steps::<P>(n, c, bits, seed, chunk))
}
