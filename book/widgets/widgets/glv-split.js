// GLV decomposition of one scalar: the worker splits k as k1 + k2·λ with fastmsm-msm's glv module
// (compiled to WebAssembly) and checks it with num-bigint and arkworks (k·G = k1·G + k2·φ(G)).
// This file checks the congruence and the bounds once more with JavaScript BigInt.

export const title = 'GLV: split a scalar into two half-length ones';

export const CURVES = ['bn254', 'bls12-377', 'bls12-381'];

export const controls = [
  { name: 'curve', label: 'Curve', type: 'select', default: 'bls12-377', options: CURVES },
  { name: 'k', label: 'Scalar k (decimal, 0x-hex, or random)', type: 'text', default: 'random', size: 48 },
];
// Every curve: a random scalar, 0, 1, λ itself (k2 should absorb it) and r − 1.
export const quick = { curve: CURVES, k: ['random', '0', '1', 'lambda', 'r-1'] };
export const autorun = true;

function randomBelow(r) {
  const bytes = new Uint8Array(48);
  crypto.getRandomValues(bytes);
  return BigInt(`0x${[...bytes].map((x) => x.toString(16).padStart(2, '0')).join('')}`) % r;
}

const big = (s) => (s.startsWith('-') ? -BigInt(s.slice(1)) : BigInt(s));
const abs = (x) => (x < 0n ? -x : x);
/** @type {(x: bigint, r: bigint) => bigint} */
const mod = (x, r) => ((x % r) + r) % r;

/** Independent BigInt check of one split: the list of problems (empty when it holds). */
export function check(s) {
  const [r, lambda, k, k1, k2] = [BigInt(s.r), BigInt(s.lambda), BigInt(s.k), big(s.k1), big(s.k2)];
  const problems = [];
  if (mod(k1 + lambda * k2 - k, r) !== 0n) problems.push('k1 + λ·k2 ≢ k (mod r)');
  if (mod(lambda * lambda + lambda + 1n, r) !== 0n) problems.push('λ is not a primitive cube root of unity mod r');
  if (abs(k1) > BigInt(s.bounds[0]) || abs(k2) > BigInt(s.bounds[1])) problems.push('|k1| or |k2| above its bound');
  if (BigInt(s.bounds[0]) >= 1n << BigInt(s.half_bits) || BigInt(s.bounds[1]) >= 1n << BigInt(s.half_bits)) problems.push('bounds above 2^half_bits');
  if (!s.congruent) problems.push('num-bigint: not congruent');
  if (!s.endomorphism_ok) problems.push('φ(G) ≠ λ·G (arkworks)');
  if (!s.points_equal) problems.push('k1·G + k2·φ(G) ≠ k·G (arkworks)');
  return problems;
}

/** @param {import('../core/types.js').Wasm} wasm */
export async function task(wasm, params) {
  const splits = [];
  for (const curve of [params.curve].flat()) {
    const data = wasm.glv_split(curve, '0');
    const [r, lambda] = [BigInt(data.r), BigInt(data.lambda)];
    for (const text of [params.k].flat().map(String)) {
      const t = text.trim();
      const k = t === 'random' ? `0x${randomBelow(r).toString(16)}`
        : t === 'lambda' ? `0x${lambda.toString(16)}`
        : t === 'r-1' ? `0x${(r - 1n).toString(16)}` : t;
      const s = wasm.glv_split(curve, k);
      splits.push({ ...s, input: t, problems: check(s) });
    }
  }
  return {
    suite: 'glv-split',
    device: { name: 'browser', backend: 'wasm32' },
    splits,
    results: splits.map((s) => ({
      name: `${s.curve}/${s.k}`,
      params: { curve: s.curve, k: s.k, k1: s.k1, k2: s.k2 },
      unit: 'bits of max(|k1|, |k2|)',
      median: Math.max(abs(big(s.k1)).toString(2).length, abs(big(s.k2)).toString(2).length),
      min: 0,
      max: s.half_bits,
      samples: 1,
      verified: s.problems.length === 0,
    })),
    verified: splits.length > 0 && splits.every((s) => s.problems.length === 0),
  };
}

const bits = (x) => (x === 0n ? 0 : abs(x).toString(2).length);
/** A signed hex string in decimal, cut in the middle past 40 digits (the JSON export keeps it whole). */
const dec = (s) => {
  const t = big(s).toString();
  const digits = t.replace('-', '').length;
  return digits <= 40 ? t : `${t.slice(0, 14)}…${t.slice(-10)} (${digits} digits)`;
};

export function view(result) {
  const tables = result.splits.map((s) => ({
    caption: `${s.curve}: k = ${dec(s.k)} (${bits(BigInt(s.k))} bits of r's ${s.r_bits})`,
    columns: ['Quantity', 'Value', 'Bits'],
    rows: [
      ['λ (cube root of 1 mod r; φ(P) = λ·P)', dec(s.lambda), bits(BigInt(s.lambda))],
      ['β (cube root of 1 mod p; φ(x, y) = (β·x, y))', dec(s.beta), bits(BigInt(s.beta))],
      ['short basis (a1, b1)', `(${dec(s.basis[0][0])}, ${dec(s.basis[0][1])})`, ''],
      ['short basis (a2, b2)', `(${dec(s.basis[1][0])}, ${dec(s.basis[1][1])})`, ''],
      ['k1', dec(s.k1), bits(big(s.k1))],
      ['k2', dec(s.k2), bits(big(s.k2))],
      ['bound on |k1|', dec(s.bounds[0]), bits(BigInt(s.bounds[0]))],
      ['bound on |k2|', dec(s.bounds[1]), bits(BigInt(s.bounds[1]))],
      ['k1 + λ·k2 − k', `${dec(s.r_multiple)}·r`, ''],
      ['k·G = k1·G + k2·φ(G)', s.points_equal ? '✔ (arkworks computes k·G)' : '✘', ''],
    ],
  }));
  const messages = result.splits.map((s) => (s.problems.length === 0
    ? `${s.curve}: ✔ k1 + λ·k2 ≡ k (mod r), both halves within ${s.half_bits} bits, and the points agree with arkworks.`
    : `${s.curve}: ✘ ${s.problems.join('; ')}`));
  return { message: messages.join(' '), tables };
}
