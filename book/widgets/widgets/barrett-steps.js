// Barrett reduction, step by step: the worker reduces a·b modulo p with fastmsm-mont's
// barrett_steps (compiled to WebAssembly), which returns every value of the derivation, and with
// Barrett–Domb; the WebAssembly side checks both against num-bigint, and this file checks them
// once more with JavaScript BigInt: the estimate is at most 2 below the true quotient, the
// uncorrected remainder is z − q̂·p, and the result is z mod p.

export const title = 'Barrett reduction of one product, step by step';

export const FIELDS = ['bn254-fq', 'bn254-fr', 'bls12-377-fq', 'bls12-377-fr', 'bls12-381-fq', 'bls12-381-fr'];

export const controls = [
  { name: 'field', label: 'Field', type: 'select', default: 'bls12-377-fq', options: FIELDS },
  { name: 'a', label: 'a (decimal, 0x-hex, or random)', type: 'text', default: 'random', size: 30 },
  { name: 'b', label: 'b', type: 'text', default: 'random', size: 30 },
];
// Every field; random inputs, the largest product (p − 1)², and 0.
export const quick = { field: FIELDS, a: ['random', 'p-1', '0'], b: ['random', 'p-1', '12345'] };
export const autorun = true;

/** A uniform BigInt below p, from the browser's cryptographic generator. */
function randomBelow(p) {
  const bytes = new Uint8Array(Math.ceil(p.toString(16).length / 2) + 8);
  crypto.getRandomValues(bytes);
  return BigInt(`0x${[...bytes].map((x) => x.toString(16).padStart(2, '0')).join('')}`) % p;
}

/** 'random' and 'p-1' stand for inputs drawn here; anything else goes to the WebAssembly as typed. */
function resolve(text, p) {
  const t = String(text).trim();
  if (t === 'random') return `0x${randomBelow(p).toString(16)}`;
  if (t === 'p-1') return `0x${(p - 1n).toString(16)}`;
  return t;
}

/** Independent BigInt check of one run: the list of problems (empty when it holds). */
export function check(s) {
  const [p, a, b] = [BigInt(s.p), BigInt(s.a), BigInt(s.b)];
  const z = a * b;
  const q = z / p;
  const qHat = BigInt(s.q_hat);
  const problems = [];
  if (BigInt(s.z) !== z) problems.push('z ≠ a·b');
  if (BigInt(s.m) !== (1n << BigInt(2 * s.n)) / p) problems.push('m ≠ ⌊4ⁿ/p⌋');
  if (BigInt(s.z1) !== z >> BigInt(s.n - 1)) problems.push('z₁ ≠ ⌊z/2ⁿ⁻¹⌋');
  if (qHat !== (BigInt(s.z1) * BigInt(s.m)) >> BigInt(s.n + 1)) problems.push('q̂ ≠ ⌊z₁·m/2ⁿ⁺¹⌋');
  if (qHat > q || q - qHat > 2n) problems.push(`q̂ is ${q - qHat} below ⌊z/p⌋, not 0 to 2`);
  if (BigInt(s.uncorrected) !== z - qHat * p) problems.push('z − q̂·p wrong');
  if (BigInt(s.corrections) !== q - qHat) problems.push(`${s.corrections} corrections for q − q̂ = ${q - qHat}`);
  if (BigInt(s.remainder) !== z % p) problems.push('Barrett: remainder ≠ z mod p');
  if (BigInt(s.domb.remainder) !== z % p) problems.push('Barrett–Domb: remainder ≠ z mod p');
  if (s.domb.corrections > s.domb.max_corrections) problems.push('Barrett–Domb needed more corrections than its bound');
  if (!s.verified) problems.push('the WebAssembly check against num-bigint failed');
  return problems;
}

/** @param {import('../core/types.js').Wasm} wasm */
export async function task(wasm, params) {
  const runs = [];
  const fields = [params.field].flat();
  const as = [params.a].flat();
  const bs = [params.b].flat();
  for (const field of fields) {
    const p = BigInt(wasm.barrett_explain(field, '0', '0').p);
    for (let i = 0; i < Math.max(as.length, bs.length); i++) {
      const s = wasm.barrett_explain(field, resolve(as[i % as.length], p), resolve(bs[i % bs.length], p));
      runs.push({ ...s, problems: check(s) });
    }
  }
  return {
    suite: 'barrett-steps',
    device: { name: 'browser', backend: 'wasm32' },
    runs,
    results: runs.map((s) => ({
      name: `${s.field}/${s.a}·${s.b}`,
      params: { field: s.field, a: s.a, b: s.b },
      unit: 'corrections',
      median: s.corrections,
      min: s.corrections,
      max: s.corrections,
      samples: 1,
      verified: s.problems.length === 0,
    })),
    verified: runs.length > 0 && runs.every((s) => s.problems.length === 0),
  };
}

/** A long hex number, cut in the middle for the page (the JSON export keeps it whole). */
export function short(x) {
  const h = BigInt(x).toString(16);
  const bits = BigInt(x) === 0n ? 0 : BigInt(x).toString(2).length;
  return h.length <= 24 ? `0x${h}` : `0x${h.slice(0, 10)}…${h.slice(-10)} (${bits} bits)`;
}

export function view(result) {
  const tables = result.runs.map((s) => ({
    caption: `${s.field}: a·b mod p, n = ${s.n} bits`,
    columns: ['Step', 'Value'],
    rows: [
      ['p', short(s.p)],
      ['m = ⌊4ⁿ/p⌋ (precomputed)', short(s.m)],
      ['a, b', `${short(s.a)}, ${short(s.b)}`],
      ['z = a·b', short(s.z)],
      ['z₁ = ⌊z / 2ⁿ⁻¹⌋', short(s.z1)],
      ['z₁·m', short(s.z1_m)],
      ['estimate q̂ = ⌊z₁·m / 2ⁿ⁺¹⌋', short(s.q_hat)],
      ['true quotient ⌊z/p⌋ (num-bigint)', `${short(s.q)}  (q̂ is ${BigInt(s.q) - BigInt(s.q_hat)} below)`],
      ...s.correction_steps.map((r, i) => [i === 0 ? 'r = z − q̂·p' : `r − ${i}·p`, short(r)]),
      ['result after ' + s.corrections + ' correction(s)', short(s.remainder)],
      ['z mod p by num-bigint', short(s.reference)],
      ['Barrett–Domb result', `${short(s.domb.remainder)} after ${s.domb.corrections} correction(s) (bound ${s.domb.max_corrections})`],
    ],
  }));
  const messages = result.runs.map((s) => (s.problems.length === 0
    ? `${s.field}: ✔ q̂ within 2 of ⌊z/p⌋, result = z mod p (num-bigint in the WebAssembly, BigInt here).`
    : `${s.field}: ✘ ${s.problems.join('; ')}`));
  return { message: messages.join(' '), tables };
}
