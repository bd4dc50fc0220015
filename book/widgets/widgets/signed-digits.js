// Signed bucket indices, for a scalar the reader types. The worker cuts the scalar into c-bit
// windows and signed digits with fastmsm-msm's digits module (compiled to WebAssembly); this file
// then checks every row with its own BigInt arithmetic — the chunk is really bits [c·j, c·j + c) of
// the scalar, chunk + carry in = digit + carry out·2^c, the digit lies in [−2^(c−1), 2^(c−1) − 1],
// the bucket is |digit| — and that Σ d_j·2^(c·j) is the scalar again.

export const title = 'Signed digits: cut a scalar into windows and buckets';

export const CURVES = ['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377'];

export const controls = [
  { name: 'scalar', label: 'Scalar k (decimal or 0x-hex)', type: 'text', default: '1234567890123456789012345678901234567890', size: 48 },
  { name: 'curve', label: 'Curve', type: 'select', default: 'bls12-377', options: CURVES },
  { name: 'c', label: 'Window c (bits)', type: 'number', default: 8, min: 2, max: 16 },
];
// The E2E run, on two curves and three widths: 0, the chapter's example 301, the largest scalar
// r − 1 (its digits decide whether the carry window is needed), and a patterned 248-bit value
// (0x1010…10) whose chunks straddle the signed-digit threshold at several widths.
export const quick = {
  curve: ['bls12-377', 'bn254'],
  c: [5, 13, 16],
  scalar: ['0', '301', 'r-1', '0x' + '10'.repeat(31)],
};
export const autorun = true;

const WORD = /^\s*(0[xX][0-9a-fA-F_]+|[0-9_]+)\s*$/;

/** The reader's text as a BigInt, by the rules the page states (decimal or 0x-hex), or null. */
export function parseScalar(text) {
  const m = WORD.exec(text);
  if (!m) return null;
  const t = m[1].replaceAll('_', '');
  if (t === '' || t.toLowerCase() === '0x') return null;
  return BigInt(t);
}

const hex = (x) => `0x${x.toString(16)}`;

/** Independent check of one decomposition: returns the list of problems (empty when it holds). */
export function check(k, out) {
  const problems = [];
  const c = BigInt(out.c);
  const half = 1n << (c - 1n);
  const mask = (1n << c) - 1n;
  if (BigInt(out.scalar) !== k) problems.push(`wasm read the scalar as ${out.scalar}`);
  if (k >= BigInt(out.r)) problems.push('k is not below r');
  let sum = 0n;
  let carry = 0n;
  out.rows.forEach((row, j) => {
    const d = BigInt(row.digit);
    const chunk = (k >> (c * BigInt(j))) & mask;
    if (BigInt(row.chunk) !== chunk) problems.push(`window ${j}: chunk ${row.chunk}, bits say ${chunk}`);
    if (BigInt(row.carry_in) !== carry) problems.push(`window ${j}: carry in ${row.carry_in}, expected ${carry}`);
    if (d < -half || d >= half) problems.push(`window ${j}: digit ${d} outside [−2^(c−1), 2^(c−1))`);
    if (chunk + carry !== d + BigInt(row.carry_out) * (1n << c)) problems.push(`window ${j}: chunk + carry ≠ digit + carry·2^c`);
    const bucket = d < 0n ? -d : d;
    if ((row.bucket ?? 0) !== Number(bucket)) problems.push(`window ${j}: bucket ${row.bucket} for digit ${d}`);
    if (row.sign !== (d > 0n ? '+' : d < 0n ? '−' : '')) problems.push(`window ${j}: sign ${row.sign} for digit ${d}`);
    if (BigInt(row.shifted) !== d + half) problems.push(`window ${j}: shifted form ${row.shifted}`);
    carry = BigInt(row.carry_out);
    sum += d << (c * BigInt(j));
  });
  if (carry !== 0n) problems.push('a carry is left after the last window');
  if (sum !== k) problems.push(`Σ d_j·2^(c·j) = ${sum}, not k`);
  return problems;
}

/** @param {import('../core/types.js').Wasm} wasm */
export async function task(wasm, params, progress) {
  const curves = [params.curve].flat();
  const widths = [params.c].flat().map(Number);
  const texts = [params.scalar].flat().map(String);
  const results = [];
  const decompositions = [];
  let step = 0;
  const total = curves.length * widths.length * texts.length;
  for (const curve of curves) {
    for (const c of widths) {
      for (const text of texts) {
        progress(step++ / total, `${curve}, c = ${c}`);
        // 'r-1' (quick mode only) stands for the largest scalar of the curve.
        let input = text.trim();
        if (input === 'r-1') {
          const r = BigInt(wasm.signed_digits(curve, '0', c).r);
          input = hex(r - 1n);
        }
        const k = parseScalar(input);
        // Bad input: the wasm side's message names the problem; the JS parser must agree it is bad.
        let out;
        try {
          out = wasm.signed_digits(curve, input, c);
        } catch (e) {
          const message = String(e?.message ?? e);
          if (k !== null && !/not below the group order/.test(message)) {
            throw new Error(`wasm rejected ${input} but it is a number: ${message}`);
          }
          throw new Error(message);
        }
        if (k === null) throw new Error(`wasm accepted ${JSON.stringify(input)}, which is not a number`);
        const problems = check(k, out);
        decompositions.push({ ...out, input: text, problems });
        out.rows.forEach((row) => {
          results.push({
            name: `${curve}/c=${c}/${out.scalar}/window ${row.index}`,
            params: { curve, c, scalar: out.scalar, ...row },
            unit: 'digit',
            median: row.digit,
            min: row.digit,
            max: row.digit,
            samples: 1,
            verified: problems.length === 0,
          });
        });
      }
    }
  }
  progress(1, 'Done');
  return {
    suite: 'signed-digits',
    device: { name: 'browser', backend: 'wasm32' },
    decompositions,
    results,
    verified: decompositions.length > 0 && decompositions.every((d) => d.problems.length === 0),
  };
}

export function view(result) {
  const tables = [];
  const messages = [];
  for (const d of result.decompositions) {
    // Rows up to the highest nonzero digit; the zero windows above it are summarised.
    const last = d.rows.reduce((a, r, j) => (r.digit !== 0 ? j : a), -1);
    const shown = d.rows.slice(0, Math.max(last + 1, 1));
    const rows = shown.map((r) => [
      r.index,
      `${d.c * r.index}–${d.c * r.index + d.c - 1}`,
      r.chunk,
      r.carry_in,
      r.digit,
      r.carry_out,
      r.bucket === null ? '— (no bucket)' : `B${r.bucket}`,
      r.sign === '' ? '' : `${r.sign}P`,
      r.shifted,
    ]);
    if (shown.length < d.rows.length) {
      rows.push([`${shown.length}–${d.rows.length - 1}`, '', 0, 0, 0, 0, '— (no bucket)', '', 1 << (d.c - 1)]);
    }
    const ok = d.problems.length === 0;
    tables.push({
      caption: `${d.curve}, c = ${d.c}: k = ${d.scalar} → ${d.windows} windows of ${d.buckets} buckets each`
        + ` (${d.rows.filter((r) => r.digit !== 0).length} nonzero digits)`,
      columns: ['Window j', 'Bits', 'Unsigned chunk', '+ carry in', 'Signed digit d_j', 'Carry out', 'Bucket', 'Adds', 'Shifted d_j + 2^(c−1)'],
      rows,
    });
    messages.push(ok
      ? `${d.curve}, c = ${d.c}: Σ d_j·2^(${d.c}·j) = k ✔ (checked with BigInt in JavaScript, independently of the WebAssembly).`
      : `${d.curve}, c = ${d.c}: ✘ ${d.problems.join('; ')}`);
  }
  const first = result.decompositions[0];
  const last = first ? first.rows.reduce((a, r, j) => (r.digit !== 0 ? j : a), 0) : 0;
  return {
    message: messages.join(' '),
    tables,
    chart: first ? {
      title: `Signed digits d_j of k (${first.curve}, c = ${first.c}); a negative digit adds −P into bucket |d_j|`,
      labels: first.rows.slice(0, last + 1).map((r) => `j=${r.index}`),
      series: [
        { label: 'unsigned chunk', data: first.rows.slice(0, last + 1).map((r) => r.chunk) },
        { label: 'signed digit d_j', data: first.rows.slice(0, last + 1).map((r) => r.digit) },
      ],
      yLabel: 'value',
    } : undefined,
  };
}
