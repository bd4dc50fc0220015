// cuZK on a small MSM: the worker draws n points and small scalars, and fastmsm-msm's cuzk module
// (compiled to WebAssembly) transposes each window's digit matrix into CSR form, sums each bucket
// row (SMVP), and sums the same rows again in chunks of K entries, as the GPU balances the work.
// The windows are reduced and combined, and the MSM is compared there with arkworks' Σ kᵢ·Pᵢ.
// This file checks the CSR arrays once more against the digits: counts, prefix sums, rows.

export const title = 'cuZK: the CSR arrays of a small MSM, window by window';

export const CURVES = ['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377'];

export const controls = [
  { name: 'curve', label: 'Curve', type: 'select', default: 'bn254', options: CURVES },
  { name: 'n', label: 'Points n', type: 'number', default: 8, min: 1, max: 32 },
  { name: 'c', label: 'Window c (bits)', type: 'number', default: 3, min: 2, max: 8 },
  { name: 'bits', label: 'Scalar bits', type: 'number', default: 6, min: 1, max: 255 },
  { name: 'chunk', label: 'SMVP chunk K (entries)', type: 'number', default: 3, min: 1, max: 32 },
  { name: 'seed', label: 'Seed', type: 'number', default: 1, min: 0, max: 4294967295 },
];
// Two curves, a few windows each; K = 2 cuts buckets, and full-size scalars on one run.
export const quick = [
  { curve: 'bn254', n: 12, c: 3, bits: 8, chunk: 2, seed: 7 },
  { curve: 'ed-on-bls12-377', n: 16, c: 4, bits: 12, chunk: 5, seed: 3 },
  { curve: 'bls12-377', n: 8, c: 8, bits: 253, chunk: 3, seed: 11 },
];
export const autorun = true;

const NEGATIVE = 0x8000_0000;

/** Independent check of one window's arrays against its digits: the list of problems. */
export function checkWindow(win, buckets) {
  const problems = [];
  const counts = Array(buckets + 1).fill(0);
  win.digits.forEach((d) => { if (d !== 0) counts[Math.abs(d)] += 1; });
  if (counts.join() !== win.counts.join()) problems.push(`window ${win.index}: counts`);
  const ptr = [0];
  counts.forEach((c) => ptr.push(ptr[ptr.length - 1] + c));
  if (ptr.join() !== win.row_ptr.join()) problems.push(`window ${win.index}: row_ptr is not the prefix sum of the counts`);
  for (let b = 0; b <= buckets; b++) {
    const row = win.entries.slice(win.row_ptr[b], win.row_ptr[b + 1]);
    const want = win.digits.flatMap((d, i) => (Math.abs(d) === b && d !== 0 ? [(i | (d < 0 ? NEGATIVE : 0)) >>> 0] : []));
    if (row.map((e) => e >>> 0).sort().join() !== want.sort().join()) problems.push(`window ${win.index}: row ${b}`);
  }
  const terms = win.chunks.flatMap((c) => c.pieces.flatMap((p) => p.terms.map((t) => `${p.bucket}${t}`)));
  const rows = win.buckets.flatMap((ts, b) => ts.map((t) => `${b + 1}${t}`));
  if (terms.join() !== rows.join()) problems.push(`window ${win.index}: the chunks do not cover the rows in order`);
  if (!win.chunks_match) problems.push(`window ${win.index}: chunk pieces do not add up to the bucket sums`);
  return problems;
}

/** @param {import('../core/types.js').Wasm} wasm */
export async function task(wasm, params) {
  const runs = [params].flat().map((p) => {
    const s = wasm.cuzk_steps(p.curve, Number(p.n), Number(p.c), Number(p.bits), Number(p.seed), Number(p.chunk));
    const problems = s.shown.flatMap((w) => checkWindow(w, s.buckets));
    if (s.x !== s.ark_x || s.y !== s.ark_y) problems.push('the MSM differs from arkworks');
    if (!s.verified) problems.push('the WebAssembly checks failed');
    return { ...s, problems };
  });
  return {
    suite: 'cuzk-steps',
    device: { name: 'browser', backend: 'wasm32' },
    runs,
    results: runs.map((s) => ({
      name: `${s.curve}/n=${s.n}/c=${s.c}/K=${s.chunk}`,
      params: { curve: s.curve, n: s.n, c: s.c, bits: s.bits, chunk: s.chunk },
      unit: 'nonzero digits',
      median: s.shown.reduce((a, w) => a + w.entries.length, 0),
      min: 0,
      max: s.n * s.windows,
      samples: 1,
      verified: s.problems.length === 0,
    })),
    verified: runs.length > 0 && runs.every((s) => s.problems.length === 0),
  };
}

const hex = (e) => `0x${(e >>> 0).toString(16).padStart(8, '0')}`;
/** ['+P2', '−P6'] as 'P2 − P6'; the empty sum is the identity O. */
const sum = (terms) => (terms.length
  ? terms.map((t, i) => (i === 0 ? t.replace(/^\+/, '') : ` ${t[0]} ${t.slice(1)}`)).join('') : 'O');

export function view(result) {
  const tables = [];
  for (const s of result.runs) {
    tables.push({
      caption: `${s.curve}: n = ${s.n} points, ${s.bits}-bit scalars, c = ${s.c} (${s.buckets} buckets), digits per window`,
      columns: ['Point', 'Scalar k', ...s.shown.map((w) => `d in window ${w.index}`)],
      rows: s.scalars.map((k, i) => [`P${i}`, BigInt(k).toString(), ...s.shown.map((w) => w.digits[i])]),
    });
    for (const w of s.shown) {
      tables.push({
        caption: `Window ${w.index}: M (rows = points) in CSR: row_ptr = [${w.matrix.row_ptr.join(', ')}], `
          + `columns = [${w.matrix.columns.join(', ')}], values = [${w.matrix.values.join(', ')}]. `
          + `Its transpose (rows = buckets): row_ptr = [${w.row_ptr.join(', ')}]`,
        columns: ['Bucket b', 'Count', 'row_ptr[b]', 'Entries (hex)', 'Bucket sum B_b (SMVP row)'],
        rows: [
          [0, w.counts[0], w.row_ptr[0], '—', '(digit 0: not summed)'],
          ...w.buckets.map((terms, j) => {
            const b = j + 1;
            const row = w.entries.slice(w.row_ptr[b], w.row_ptr[b + 1]);
            return [b, w.counts[b], w.row_ptr[b], row.map(hex).join(' ') || '—', sum(terms)];
          }),
          ['end', '', w.row_ptr[w.row_ptr.length - 1], '', ''],
        ],
      });
      tables.push({
        caption: `Window ${w.index}: SMVP in chunks of K = ${s.chunk} entries (pieces of one bucket from two chunks are added afterwards)`,
        columns: ['Chunk', 'Entries', 'Pieces: bucket ← partial sum'],
        rows: w.chunks.map((c, t) => [t, `${c.first}…${c.end - 1}`, c.pieces.map((p) => `B${p.bucket} ← ${sum(p.terms)}`).join(';  ')]),
      });
    }
  }
  const messages = result.runs.map((s) => (s.problems.length === 0
    ? `${s.curve}, n = ${s.n}: ✔ CSR arrays match the digits, the chunked SMVP gives the same buckets, and Σ_w 2^(c·w)·W_w equals arkworks' Σ kᵢ·Pᵢ (x = ${s.x ? `${s.x.slice(0, 14)}…` : 'identity'}).`
    : `${s.curve}, n = ${s.n}: ✘ ${s.problems.join('; ')}`));
  return { message: messages.join(' '), tables };
}
