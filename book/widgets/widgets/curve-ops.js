// What each curve formula costs: the worker runs fastmsm-curves' formulas (compiled to
// WebAssembly) over a field that counts its own multiplications, squarings, additions and
// inversions (fastmsm-msm's count module), on P = a·G and Q = b·G; every result is compared there
// with arkworks' answer for the same operation. The counts are measured, not copied from a table.

export const title = 'Curve formulas: counted operations and a checked result';

export const CURVES = ['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377'];

export const controls = [
  { name: 'curve', label: 'Curve', type: 'select', default: 'bls12-377', options: CURVES },
  { name: 'a', label: 'P = a·G, a =', type: 'text', default: '3', size: 12 },
  { name: 'b', label: 'Q = b·G, b =', type: 'text', default: '5', size: 12 },
];
export const quick = { curve: CURVES, a: '3', b: '5' };
export const autorun = true;

/** @param {import('../core/types.js').Wasm} wasm */
export async function task(wasm, params) {
  const runs = [params.curve].flat().map((curve) => wasm.curve_ops(curve, String(params.a), String(params.b)));
  const results = runs.flatMap((run) => run.formulas.map((f) => ({
    name: `${run.curve}/${f.system}/${f.formula}`,
    params: { curve: run.curve, system: f.system, operation: f.operation, formula: f.formula, square: f.square, add: f.add, inverse: f.inverse },
    unit: 'multiplications',
    median: f.mul,
    min: f.mul,
    max: f.mul,
    samples: 1,
    verified: f.equal,
  })));
  return {
    suite: 'curve-ops',
    device: { name: 'browser', backend: 'wasm32' },
    runs,
    results,
    verified: runs.length > 0 && runs.every((r) => r.verified && r.formulas.every((f) => f.equal)),
  };
}

const cost = (f) => [f.mul && `${f.mul}M`, f.square && `${f.square}S`, f.inverse && `${f.inverse}I`].filter(Boolean).join(' + ') || '0';

export function view(result) {
  const tables = result.runs.map((run) => ({
    caption: `${run.curve}: P = ${BigInt(run.a)}·G, Q = ${BigInt(run.b)}·G`,
    columns: ['Coordinates', 'Operation', 'Formula', 'Counted cost', 'Field additions', '= arkworks'],
    rows: run.formulas.map((f) => [f.system, f.operation, f.formula, cost(f), f.add, f.equal ? '✔' : '✘']),
  }));
  const bad = result.runs.flatMap((r) => r.formulas.filter((f) => !f.equal).map((f) => `${r.curve} ${f.formula}`));
  return {
    message: bad.length === 0
      ? 'Every formula returned the point arkworks computes for the same operation ✔. M: multiplications, S: squarings, I: inversions, as the code ran them; field additions count additions, subtractions, doublings and negations.'
      : `✘ Differs from arkworks: ${bad.join(', ')}`,
    tables,
  };
}
