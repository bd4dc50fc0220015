// Bucket reduction, step by step: the worker builds buckets B_j = b_j·G and reduces them with
// fastmsm-msm's reduce module (compiled to WebAssembly): the running sum, one row per bucket, and
// cuZK's split into T segments with their corrections. Every point is named by its multiple of G
// after the WebAssembly side has compared it with arkworks' m·G; this file checks the multiples
// once more with its own arithmetic: R = Σ_{i≥j} b_i, S = Σ_{i≥j} (i − j + 1)·b_i, and so on.

export const title = 'Bucket reduction: running sums and segments';

export const CURVES = ['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377'];

export const controls = [
  { name: 'curve', label: 'Curve', type: 'select', default: 'bn254', options: CURVES },
  { name: 'multiples', label: 'Buckets B_j = b_j·G, b_1, b_2, … (or random)', type: 'text', default: '3, 1, 4, 1, 5, 9, 2, 6', size: 32 },
  { name: 'segments', label: 'Segments T', type: 'number', default: 3, min: 1, max: 64 },
];
export const quick = [
  { curve: 'bn254', multiples: '3, 1, 4, 1, 5, 9, 2, 6', segments: 3 },
  { curve: 'ed-on-bls12-377', multiples: 'random', segments: 4 },
  { curve: 'bls12-381', multiples: '0, 0, 7, 0, 1', segments: 5 },
];
export const autorun = true;

/** Sixteen small random multiples (0 to 20), from the browser's generator. */
function randomMultiples() {
  const v = new Uint8Array(16);
  crypto.getRandomValues(v);
  return [...v].map((x) => x % 21).join(', ');
}

/** Independent check of the multiples: the list of problems (empty when it holds). */
export function check(s) {
  const b = s.multiples;
  const m = b.length;
  const weighted = (from, to) => b.slice(from, to).reduce((a, x, i) => a + (i + 1) * x, 0);
  const plain = (from, to) => b.slice(from, to).reduce((a, x) => a + x, 0);
  const problems = [];
  s.steps.forEach((st, k) => {
    const j = m - k;
    if (st.bucket !== j) problems.push(`step ${k}: bucket ${st.bucket}, expected ${j}`);
    if (st.running.multiple !== plain(j - 1, m)) problems.push(`step ${j}: R`);
    if (st.total.multiple !== weighted(j - 1, m)) problems.push(`step ${j}: S`);
  });
  let total = 0;
  s.segments.forEach((seg) => {
    const [lo, hi] = [seg.first - 1, seg.last];
    if (seg.offset !== lo) problems.push(`segment ${seg.first}: offset`);
    if (seg.local.multiple !== weighted(lo, hi) || seg.plain.multiple !== plain(lo, hi)) problems.push(`segment ${seg.first}: S_t or R_t`);
    if (seg.corrected.multiple !== weighted(lo, hi) + lo * plain(lo, hi)) problems.push(`segment ${seg.first}: correction`);
    total += seg.corrected.multiple;
  });
  const direct = weighted(0, m);
  if (total !== direct) problems.push(`segments add to ${total}, Σ j·b_j = ${direct}`);
  for (const key of ['serial', 'split_combined', 'split', 'direct']) {
    if (s[key].multiple !== direct) problems.push(`${key}: ${s[key].multiple}`);
  }
  const points = [...s.steps.flatMap((x) => [x.running, x.total]), ...s.segments.flatMap((x) => [x.local, x.plain, x.corrected]),
    s.serial, s.split_combined, s.split, s.direct];
  if (!points.every((p) => p.ok)) problems.push('a point is not the multiple of G it is named by (arkworks)');
  return problems;
}

/** @param {import('../core/types.js').Wasm} wasm */
export async function task(wasm, params) {
  const runs = [params].flat().map((p) => {
    const multiples = String(p.multiples).trim() === 'random' ? randomMultiples() : String(p.multiples);
    const s = wasm.reduction_steps(p.curve, multiples, Number(p.segments));
    return { ...s, problems: check(s) };
  });
  return {
    suite: 'reduction-steps',
    device: { name: 'browser', backend: 'wasm32' },
    runs,
    results: runs.map((s) => ({
      name: `${s.curve}/m=${s.multiples.length}/T=${s.segments.length}`,
      params: { curve: s.curve, multiples: s.multiples, segments: s.segments.length },
      unit: 'Σ j·b_j',
      median: s.direct.multiple,
      min: s.direct.multiple,
      max: s.direct.multiple,
      samples: 1,
      verified: s.problems.length === 0,
    })),
    verified: runs.length > 0 && runs.every((s) => s.problems.length === 0),
  };
}

const g = (p) => `${p.multiple}·G${p.ok ? '' : ' ✘'}`;

export function view(result) {
  const tables = [];
  for (const s of result.runs) {
    tables.push({
      caption: `${s.curve}: running sum over ${s.multiples.length} buckets, from the top (R += B_j, then S += R)`,
      columns: ['Bucket j', 'B_j', 'R = B_j + … + B_m', 'S = Σ (i − j + 1)·B_i'],
      rows: s.steps.map((st) => [st.bucket, `${s.multiples[st.bucket - 1]}·G`, g(st.running), g(st.total)]),
    });
    tables.push({
      caption: `${s.curve}: split into ${s.segments.length} segments; each runs its own running sum, then adds (t·s)·R_t`,
      columns: ['Buckets', 'S_t (local weights)', 'R_t', 't·s', 'S_t + (t·s)·R_t'],
      rows: [
        ...s.segments.map((x) => [`${x.first}…${x.last}`, g(x.local), g(x.plain), x.offset, g(x.corrected)]),
        ['total', '', '', '', g(s.split_combined)],
      ],
    });
  }
  const messages = result.runs.map((s) => (s.problems.length === 0
    ? `${s.curve}: ✔ running sum ${g(s.serial)} = split ${g(s.split)} = direct Σ j·B_j ${g(s.direct)}; every point checked against arkworks.`
    : `${s.curve}: ✘ ${s.problems.join('; ')}`));
  return { message: messages.join(' '), tables };
}
