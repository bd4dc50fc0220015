//! cuZK's bucket accumulation as sparse linear algebra, on the CPU: the reference the GPU stages
//! are checked against.
//!
//! Lu et al. (cuZK, IACR ePrint 2022/1321) see one window of the MSM as a sparse matrix: row i is
//! point i, and it has one nonzero, in column |d_i| (its digit in this window). Bucket
//! accumulation reads that matrix by *columns*: bucket b sums the points whose row has its
//! nonzero in column b. Transposing the matrix into compressed sparse row (CSR) form turns each
//! bucket into one contiguous row, so a GPU thread per bucket can walk its row with no atomics
//! and no search. The bucket sums are then a sparse matrix–vector product (SMVP) of the
//! transposed matrix with the vector of points, in the group instead of a field. Derei and Koh's
//! ZPrize 2023 WebGPU MSM builds the CSR form directly from the digits, without cuZK's
//! intermediate ELL format; so does this module.
//!
//! **Layout, shared with the GPU stages** (`shaders/msm.wgsl`): for B = 2^(c−1) buckets,
//! * [`bucket_counts`]: B + 1 counts per window, index = bucket, index 0 (digit 0) always 0;
//! * [`CsrWindow::row_ptr`]: B + 2 offsets, the exclusive prefix sum of the counts followed by the
//!   total, so bucket b's entries are `entries[row_ptr[b]..row_ptr[b + 1]]`;
//! * [`CsrWindow::entries`]: the column indices, point index | [`NEGATIVE`] when the digit is
//!   negative (the point is subtracted).
//!
//! A digit of zero puts its point in no bucket. The order of the entries inside a bucket is
//! unspecified (on the GPU it depends on which thread wins an atomic), so outputs are compared as
//! multisets per bucket: [`CsrWindow::matches`]. Any digits with |d| ≤ B fit, both the CPU's
//! [−2^(c−1), 2^(c−1)) ([`crate::digits`]) and the GPU's (−2^(c−1), 2^(c−1)].

use core::fmt;

use crate::MsmGroup;

/// The sign bit of a CSR entry or of a GPU digit word: set for a negative digit.
pub const NEGATIVE: u32 = 0x8000_0000;

/// A CSR entry: point index, with [`NEGATIVE`] when the point is subtracted.
pub fn encode_entry(point: usize, negative: bool) -> u32 {
    assert!(
        point < NEGATIVE as usize,
        "point index {point} needs the sign bit"
    );
    point as u32 | if negative { NEGATIVE } else { 0 }
}

/// (point index, negative?) of a CSR entry.
pub fn decode_entry(entry: u32) -> (usize, bool) {
    ((entry & !NEGATIVE) as usize, entry & NEGATIVE != 0)
}

/// A digit as the GPU stores it: |d| | [`NEGATIVE`] for d < 0.
pub fn encode_digit(d: i32) -> u32 {
    d.unsigned_abs() | if d < 0 { NEGATIVE } else { 0 }
}

/// Inverse of [`encode_digit`].
pub fn decode_digit(word: u32) -> i32 {
    let magnitude = (word & !NEGATIVE) as i32;
    if word & NEGATIVE != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// One window's transposed scalar-chunk matrix in CSR form: one row per bucket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsrWindow {
    /// B + 2 row pointers: bucket b (0..=B) is `entries[row_ptr[b]..row_ptr[b + 1]]`; row 0, the
    /// bucket of digit 0, is always empty.
    pub row_ptr: Vec<u32>,
    /// Point index | [`NEGATIVE`] for each nonzero digit, grouped by bucket.
    pub entries: Vec<u32>,
}

// ANCHOR: transpose
/// How many points fall in each bucket: `counts[|d|] += 1` for every nonzero digit; B + 1 counts.
pub fn bucket_counts(digits: &[i32], buckets: usize) -> Vec<u32> {
    let mut counts = vec![0u32; buckets + 1];
    for &d in digits {
        if d != 0 {
            counts[d.unsigned_abs() as usize] += 1;
        }
    }
    counts
}

/// Row pointers from counts: the exclusive prefix sum, then the total (B + 2 words).
pub fn row_pointers(counts: &[u32]) -> Vec<u32> {
    let mut row_ptr = Vec::with_capacity(counts.len() + 1);
    let mut running = 0u32;
    for &c in counts {
        row_ptr.push(running);
        running += c;
    }
    row_ptr.push(running);
    row_ptr
}

/// The CSR form of one window (digits of points 0..n, each |d| ≤ `buckets`): count, prefix sum,
/// then scatter every point into the next free slot of its bucket. This serial scatter keeps the
/// points of a bucket in index order; the GPU's atomic scatter need not.
pub fn transpose(digits: &[i32], buckets: usize) -> CsrWindow {
    let counts = bucket_counts(digits, buckets);
    let row_ptr = row_pointers(&counts);
    let mut next = row_ptr.clone(); // per bucket: the next free slot
    let mut entries = vec![0u32; *row_ptr.last().expect("B + 2 pointers") as usize];
    for (i, &d) in digits.iter().enumerate() {
        if d != 0 {
            let slot = &mut next[d.unsigned_abs() as usize];
            entries[*slot as usize] = encode_entry(i, d < 0);
            *slot += 1;
        }
    }
    CsrWindow { row_ptr, entries }
}
// ANCHOR_END: transpose

/// [`transpose`] for every window of window-major digits (`digits[w·n + i]`, as
/// [`crate::digits::decompose_all`] lays them out).
pub fn transpose_all(digits: &[i32], n: usize, buckets: usize) -> Vec<CsrWindow> {
    if n == 0 {
        return Vec::new();
    }
    digits.chunks(n).map(|d| transpose(d, buckets)).collect()
}

// ANCHOR: smvp
/// The SMVP: every bucket's sum, walking its row of the CSR form. `sums[b − 1]` is bucket b
/// (b = 1..=B), the layout [`crate::bucket::accumulate_window`] returns. Each row is independent
/// of the others: one GPU thread per bucket.
pub fn smvp<G: MsmGroup>(points: &[G::Affine], csr: &CsrWindow) -> Vec<G> {
    (1..=csr.buckets())
        .map(|b| {
            csr.bucket(b).iter().fold(G::identity(), |acc, &e| {
                let (i, negative) = decode_entry(e);
                if negative {
                    acc.add_affine(&G::affine_neg(&points[i]))
                } else {
                    acc.add_affine(&points[i])
                }
            })
        })
        .collect()
}
// ANCHOR_END: smvp

// ANCHOR: smvp_chunks
/// One chunk of [`smvp_chunked`]: a run of consecutive CSR entries, and what it adds to each
/// bucket it touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmvpChunk<G> {
    /// The entries `entries[first..end]` of the window's CSR form.
    pub first: usize,
    /// One past the last entry.
    pub end: usize,
    /// (bucket b, the sum of this chunk's entries in row b), buckets in increasing order; the first
    /// and last bucket may be cut by the chunk's boundaries and get the rest from a neighbour.
    pub pieces: Vec<(usize, G)>,
}

/// The SMVP cut by entries instead of by buckets, as the GPU stage balances it: every chunk adds
/// `chunk` consecutive entries (the last one fewer) whatever the bucket sizes, so one full bucket
/// cannot keep one thread busy while the others idle. A bucket cut by a chunk boundary gets one
/// piece from each chunk it spans; adding the pieces per bucket gives [`smvp`]'s sums, returned
/// second (`sums[b − 1]` is bucket b).
pub fn smvp_chunked<G: MsmGroup>(
    points: &[G::Affine],
    csr: &CsrWindow,
    chunk: usize,
) -> (Vec<SmvpChunk<G>>, Vec<G>) {
    assert!(chunk >= 1, "a chunk holds at least one entry");
    let mut chunks = Vec::new();
    let mut bucket = 0; // the row of the entry being added: row_ptr[bucket] ≤ e < row_ptr[bucket + 1]
    for first in (0..csr.entries.len()).step_by(chunk) {
        let end = (first + chunk).min(csr.entries.len());
        let mut pieces: Vec<(usize, G)> = Vec::new();
        for e in first..end {
            while csr.row_ptr[bucket + 1] as usize <= e {
                bucket += 1;
            }
            let (i, negative) = decode_entry(csr.entries[e]);
            let p = if negative {
                G::affine_neg(&points[i])
            } else {
                points[i]
            };
            match pieces.last_mut() {
                Some((b, sum)) if *b == bucket => *sum = sum.add_affine(&p),
                _ => pieces.push((bucket, G::identity().add_affine(&p))),
            }
        }
        chunks.push(SmvpChunk { first, end, pieces });
    }
    let mut sums = vec![G::identity(); csr.buckets()];
    for (b, piece) in chunks.iter().flat_map(|c| &c.pieces) {
        sums[b - 1] = sums[b - 1].add(piece);
    }
    (chunks, sums)
}
// ANCHOR_END: smvp_chunks

/// Why two CSR forms of one window differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CsrMismatch {
    /// Different numbers of row pointers or entries.
    Shape {
        /// (row pointers, entries) expected.
        expected: (usize, usize),
        /// (row pointers, entries) found.
        found: (usize, usize),
    },
    /// Row pointer `index` differs.
    RowPointer {
        /// Its position.
        index: usize,
        /// Expected value.
        expected: u32,
        /// Value found.
        found: u32,
    },
    /// Bucket `bucket` holds different entries (sorted lists shown).
    Bucket {
        /// The bucket.
        bucket: usize,
        /// Its entries, sorted, expected.
        expected: Vec<u32>,
        /// Its entries, sorted, found.
        found: Vec<u32>,
    },
}

impl fmt::Display for CsrMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CsrMismatch::Shape { expected, found } => write!(
                f,
                "shape: expected {} row pointers and {} entries, found {} and {}",
                expected.0, expected.1, found.0, found.1
            ),
            CsrMismatch::RowPointer {
                index,
                expected,
                found,
            } => write!(f, "row_ptr[{index}]: expected {expected}, found {found}"),
            CsrMismatch::Bucket {
                bucket,
                expected,
                found,
            } => write!(
                f,
                "bucket {bucket}: expected entries {expected:x?}, found {found:x?}"
            ),
        }
    }
}

impl CsrWindow {
    /// B, the number of buckets (rows 1..=B).
    pub fn buckets(&self) -> usize {
        self.row_ptr.len() - 2
    }

    /// The entries of bucket b (0..=B).
    pub fn bucket(&self, b: usize) -> &[u32] {
        &self.entries[self.row_ptr[b] as usize..self.row_ptr[b + 1] as usize]
    }

    /// Back to the dense digit column of n points: the transposition undone.
    pub fn to_digits(&self, n: usize) -> Vec<i32> {
        let mut digits = vec![0; n];
        for b in 1..=self.buckets() {
            for &e in self.bucket(b) {
                let (i, negative) = decode_entry(e);
                digits[i] = if negative { -(b as i32) } else { b as i32 };
            }
        }
        digits
    }

    /// The same form with every bucket's entries sorted: a canonical representative of the
    /// order-free CSR form.
    pub fn sorted(&self) -> CsrWindow {
        let mut out = self.clone();
        for b in 0..self.row_ptr.len() - 1 {
            let (lo, hi) = (self.row_ptr[b] as usize, self.row_ptr[b + 1] as usize);
            out.entries[lo..hi].sort_unstable();
        }
        out
    }

    /// Does another CSR form of this window (e.g. read back from the GPU's `offsets` and
    /// `entries` buffers) hold the same buckets? Row pointers must be equal; entries equal as a
    /// multiset per bucket. The first difference is returned.
    pub fn matches(&self, row_ptr: &[u32], entries: &[u32]) -> Result<(), CsrMismatch> {
        if row_ptr.len() != self.row_ptr.len() || entries.len() != self.entries.len() {
            return Err(CsrMismatch::Shape {
                expected: (self.row_ptr.len(), self.entries.len()),
                found: (row_ptr.len(), entries.len()),
            });
        }
        if let Some(index) = (0..row_ptr.len()).find(|&i| row_ptr[i] != self.row_ptr[i]) {
            return Err(CsrMismatch::RowPointer {
                index,
                expected: self.row_ptr[index],
                found: row_ptr[index],
            });
        }
        let other = CsrWindow {
            row_ptr: row_ptr.to_vec(),
            entries: entries.to_vec(),
        }
        .sorted();
        let mine = self.sorted();
        match (0..=self.buckets()).find(|&b| mine.bucket(b) != other.bucket(b)) {
            None => Ok(()),
            Some(bucket) => Err(CsrMismatch::Bucket {
                bucket,
                expected: mine.bucket(bucket).to_vec(),
                found: other.bucket(bucket).to_vec(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_and_digit_words() {
        assert_eq!(encode_entry(5, true), 0x8000_0005);
        assert_eq!(decode_entry(0x8000_0005), (5, true));
        assert_eq!(decode_entry(7), (7, false));
        for d in [-32768, -3, -1, 0, 1, 3, 32768] {
            assert_eq!(decode_digit(encode_digit(d)), d);
        }
        assert_eq!(encode_digit(-3), 0x8000_0003);
    }

    #[test]
    fn small_window_by_hand() {
        // c = 3, B = 4: digits of points 0..6
        let csr = transpose(&[2, -3, 0, 2, 4, -2], 4);
        assert_eq!(csr.row_ptr, vec![0, 0, 0, 3, 4, 5]);
        assert_eq!(
            csr.entries,
            vec![0, 3, 0x8000_0005, 0x8000_0001, 4],
            "bucket 2: P0, P3, −P5; bucket 3: −P1; bucket 4: P4"
        );
    }

    #[test]
    fn chunked_smvp_equals_smvp_for_every_chunk_size() {
        use crate::Bn254G1;
        use fastmsm_curves::Group;
        // P_i = (i + 1)·G; the window of small_window_by_hand and one with every point in one bucket
        let g = Bn254G1::generator();
        let mut acc = g;
        let points: Vec<_> = (0..6)
            .map(|_| {
                let p = acc.to_affine();
                acc = acc.add(&g);
                p
            })
            .collect();
        for digits in [[2, -3, 0, 2, 4, -2], [3, 3, -3, 3, 3, -3], [0; 6]] {
            let csr = transpose(&digits, 4);
            let want = smvp::<Bn254G1>(&points, &csr);
            for k in 1..=8 {
                let (chunks, sums) = smvp_chunked::<Bn254G1>(&points, &csr, k);
                assert_eq!(sums, want, "digits {digits:?}, chunk {k}");
                assert_eq!(chunks.len(), csr.entries.len().div_ceil(k));
                for (t, c) in chunks.iter().enumerate() {
                    assert_eq!(
                        (c.first, c.end),
                        (t * k, (t * k + k).min(csr.entries.len()))
                    );
                    assert!(
                        c.pieces.windows(2).all(|w| w[0].0 < w[1].0),
                        "buckets increase"
                    );
                    assert!(c.pieces.iter().all(|(b, _)| (1..=4).contains(b)));
                }
            }
        }
        // chunk 2 over entries [P0, P3, −P5 | −P1 | P4]: bucket 2 is cut after its second entry
        let (chunks, _) = smvp_chunked::<Bn254G1>(&points, &transpose(&[2, -3, 0, 2, 4, -2], 4), 2);
        let buckets: Vec<Vec<usize>> = chunks
            .iter()
            .map(|c| c.pieces.iter().map(|p| p.0).collect())
            .collect();
        assert_eq!(buckets, vec![vec![2], vec![2, 3], vec![4]]);
    }
}
