// CPU MSM in your browser: fastmsm-msm (projective buckets, batch-affine buckets, or all affine —
// sorted buckets and affine reduction —, each over 64-bit or 30-bit limbs, optionally with GLV;
// where the browser has relaxed SIMD also over 51-bit limbs with Emmart's FMA product, from the
// second package built with +relaxed-simd, on the same seeded input drawn there again)
// against arkworks' VariableBaseMSM (ark-ec 0.5, one thread), all compiled into this page's
// WebAssembly and run in the widget worker on the same seeded input. Every run's result is compared
// with arkworks' result on that input; a run is verified when they are the same point. The
// operation counts come from running our code over a field that counts its own operations.

import { wasmFeatures } from './capabilities.js';
import { WIDE_MISSING, loadRelaxed, wideArithmetic } from './mont-bench.js';
import { median, round, summary } from './stats.js';

export const title = 'Multi-scalar multiplication on your CPU: ours vs arkworks, in WebAssembly';

// Listed here because the controls are built before any WebAssembly loads; the task checks them
// against the module's own lists (cpu_msm_info).
export const CURVES = ['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377'];
export const VARIANTS = ['projective', 'batch-affine', 'all-affine', 'projective-r30', 'batch-affine-r30', 'all-affine-r30',
  'arkworks'];
// The MSM over the 51-bit FMA twins: only in the relaxed-SIMD package (cpu_msm_info there).
export const RELAXED_VARIANTS = ['projective-r51', 'batch-affine-r51', 'all-affine-r51'];
export const ALL = [...VARIANTS.slice(0, -1), ...RELAXED_VARIANTS, 'arkworks'];
// The MSM over 64-bit limbs again, with WebAssembly's 128-bit multiply (i64.mul_wide_u): from the
// benchmark package pkg-wide-msm (Makefile wasm-wide-msm), which the book does not ship. Never in
// the defaults: they run only when asked for by name (the bench runner's --wide-arithmetic) and
// the browser validates wide arithmetic.
export const WIDE_VARIANTS = ['projective-wide', 'batch-affine-wide', 'all-affine-wide'];
const wideBase = (variant) => variant.replace(/-wide$/, '');
export const BASELINE = 'arkworks';
const LABELS = {
  projective: 'ours: projective buckets, 64-bit limbs',
  'batch-affine': 'ours: batch-affine buckets, 64-bit limbs',
  'all-affine': 'ours: all affine (sorted buckets, affine reduction), 64-bit limbs',
  'projective-r30': 'ours: projective buckets, 30-bit limbs',
  'batch-affine-r30': 'ours: batch-affine buckets, 30-bit limbs',
  'all-affine-r30': 'ours: all affine (sorted buckets, affine reduction), 30-bit limbs',
  'projective-r51': 'ours: projective buckets, 51-bit limbs (FMA, relaxed SIMD)',
  'batch-affine-r51': 'ours: batch-affine buckets, 51-bit limbs (FMA, relaxed SIMD)',
  'all-affine-r51': 'ours: all affine (sorted buckets, affine reduction), 51-bit limbs (FMA, relaxed SIMD)',
  'projective-wide': 'ours: projective buckets, 64-bit limbs (128-bit multiply, wide arithmetic)',
  'batch-affine-wide': 'ours: batch-affine buckets, 64-bit limbs (128-bit multiply, wide arithmetic)',
  'all-affine-wide': 'ours: all affine (sorted buckets, affine reduction), 64-bit limbs (128-bit multiply, wide arithmetic)',
  arkworks: 'arkworks VariableBaseMSM (baseline)',
};
export const COUNTED = ['projective', 'batch-affine', 'all-affine'];

export const controls = [
  { name: 'curve', label: 'Curve', type: 'select', default: 'bls12-377', options: [...CURVES, { value: 'all', label: 'all four' }] },
  { name: 'logn', label: 'n = 2^', type: 'number', default: 14, min: 4, max: 18 },
  { name: 'variants', label: 'Runs', type: 'select', multiple: true, default: ALL,
    options: ALL.map((v) => ({ value: v, label: LABELS[v] })) },
  { name: 'repetitions', label: 'Repetitions', type: 'number', default: 3, min: 1, max: 20 },
  { name: 'count', label: 'Count field operations', type: 'select', default: 'yes', options: ['yes', 'no'] },
  { name: 'window', label: 'Window c (0 = automatic)', type: 'number', default: 0, min: 0, max: 16 },
  { name: 'glv', label: 'GLV (ours; not on Ed-on-BLS12-377)', type: 'select', default: 'no',
    options: ['no', 'yes', { value: 'both', label: 'both, side by side' }] },
];
// The E2E run: small, two curves of different field sizes, every variant once, counts included.
export const quick = { curve: ['bn254', 'bls12-377'], logn: 10, variants: 'all', repetitions: 1, count: 'yes', window: 0, glv: 'no' };
export const autorun = false;

// Also the gpu-msm widget's seed: the same seed draws the same input in both.
export const SEED = 20260521;
const WARMUP_POINTS = 1 << 10; // V8 compiles wasm functions again, optimised, once they run hot

const asList = (v, all) => (v === 'all' || v === undefined || (Array.isArray(v) && (v.length === 0 || v.includes('all')))
  ? all : [v].flat());
const samePoint = (a, b) => a.x === b.x && a.y === b.y;
const pointText = (p) => (p.x === null ? 'identity' : `(${p.x}, ${p.y})`);
const limbBits = (variant) => (variant === BASELINE ? 64 : variant.endsWith('-r30') ? 30 : variant.endsWith('-r51') ? 51 : 64);

// The relaxed-SIMD package where this browser can use it, or why not.
async function relaxedPackage(progress) {
  if (!wasmFeatures().relaxed_simd) return { problem: 'this browser lacks WebAssembly relaxed SIMD' };
  progress(0, 'Loading the relaxed-SIMD package…');
  const pkg = await loadRelaxed();
  if (!pkg.mont_build_info().emmart_fma_fused) {
    return { problem: 'f64x2.relaxed_madd is not fused on this CPU/engine; the 51-bit product needs a fused multiply-add' };
  }
  const listed = pkg.cpu_msm_info().variants;
  const missing = RELAXED_VARIANTS.filter((v) => !listed.includes(v));
  if (missing.length) throw new Error(`cpu-msm.js lists are out of date: the relaxed package lacks ${missing}`);
  return { pkg };
}

// The wide-arithmetic MSM package where this browser can run it and this site has it, or why not.
let wideMsmPackage = null;
async function wideMsm(progress) {
  if (!wideArithmetic()) return { problem: WIDE_MISSING };
  progress(0, 'Loading the wide-arithmetic MSM package…');
  wideMsmPackage ??= (async () => {
    const url = (f) => new URL(`../generated/pkg-wide-msm/${f}`, import.meta.url);
    const m = await import(url('fastmsm_wide_msm.js'));
    await m.default({ module_or_path: url('fastmsm_wide_msm_bg.wasm') });
    return m;
  })().catch(() => null);
  const pkg = await wideMsmPackage;
  if (!pkg) return { problem: 'this site has no wide-arithmetic MSM package (a benchmark build: make wasm-wide-msm)' };
  const listed = pkg.cpu_msm_info().variants;
  const missing = WIDE_VARIANTS.map(wideBase).filter((v) => !listed.includes(v));
  if (missing.length) throw new Error(`cpu-msm.js lists are out of date: the wide package lacks ${missing}`);
  return { pkg };
}

export async function task(wasm, params, progress) {
  const info = wasm.cpu_msm_info();
  if (info.curves.join(',') !== CURVES.join(',') || info.variants.join(',') !== VARIANTS.join(',')) {
    throw new Error(`cpu-msm.js lists are out of date: wasm has curves ${info.curves} and variants ${info.variants}`);
  }
  const curves = asList(params.curve ?? params.curves, CURVES);
  let variants = asList(params.variants, ALL);
  for (const c of curves) if (!CURVES.includes(c)) throw new Error(`unknown curve ${c}`);
  for (const v of variants) if (!ALL.includes(v) && !WIDE_VARIANTS.includes(v)) throw new Error(`unknown variant ${v}`);
  const unavailable = [];
  let relaxed = null;
  if (variants.some((v) => RELAXED_VARIANTS.includes(v))) {
    const { pkg, problem } = await relaxedPackage(progress);
    relaxed = pkg ?? null;
    if (problem) {
      for (const v of variants.filter((x) => RELAXED_VARIANTS.includes(x))) unavailable.push({ variant: v, reason: problem });
      variants = variants.filter((v) => !RELAXED_VARIANTS.includes(v));
    }
  }
  let wide = null;
  if (variants.some((v) => WIDE_VARIANTS.includes(v))) {
    const { pkg, problem } = await wideMsm(progress);
    wide = pkg ?? null;
    if (problem) {
      for (const v of variants.filter((x) => WIDE_VARIANTS.includes(x))) unavailable.push({ variant: v, reason: problem });
      variants = variants.filter((v) => !WIDE_VARIANTS.includes(v));
    }
  }
  if (!variants.includes(BASELINE)) variants.push(BASELINE); // every result is checked against it
  const logns = [params.logn].flat().map(Number);
  for (const l of logns) if (!(l >= 1 && l <= 20)) throw new Error(`n = 2^${l}: choose 2^1 to 2^20`);
  const repetitions = Math.max(1, Math.round(params.repetitions ?? 3));
  const window = Math.max(0, Math.round(params.window ?? 0));
  const batch = Math.max(0, Math.round(params.batch ?? 0));
  const count = params.count === undefined || params.count === 'yes' || params.count === true;
  // GLV: 'no', 'yes', or 'both' (every one of our runs with and without it)
  const glvModes = params.glv === 'both' ? [false, true] : [params.glv === 'yes' || params.glv === true];
  const seed = Number(params.seed ?? SEED) >>> 0;

  const results = [];
  const counts = [];
  const plan = curves.flatMap((curve) => logns.map((logn) => ({ curve, logn })));
  for (const [pi, { curve, logn }] of plan.entries()) {
    const n = 2 ** logn;
    const base = pi / plan.length;
    const span = 1 / plan.length;
    const say = (f, text) => progress(base + span * f, `${curve}, n = 2^${logn}: ${text}`);
    say(0, 'drawing the input');
    const input = new wasm.CpuMsm(curve, n, seed, (f, text) => say(0.1 * f, text));
    // the relaxed package draws the same seeded input into its own memory
    let relaxedInput = null;
    let wideInput = null;
    try {
      relaxedInput = relaxed && new relaxed.CpuMsm(curve, n, seed, (f, text) => say(0.1 * f, `relaxed package: ${text}`));
      wideInput = wide && new wide.CpuMsm(curve, n, seed, (f, text) => say(0.1 * f, `wide-arithmetic package: ${text}`));
      const inputOf = (variant) => (RELAXED_VARIANTS.includes(variant) ? relaxedInput
        : WIDE_VARIANTS.includes(variant) ? wideInput : input);
      // the wide package runs the 64-bit variants under their own names
      const runOf = (variant, ...args) => inputOf(variant).run(wideBase(variant), ...args);
      // warm-up on a prefix: every variant once, checked against arkworks on the same prefix
      const warm = Math.min(n, WARMUP_POINTS);
      const warmRef = input.run(BASELINE, warm, 0, 0, false);
      const rows = variants.flatMap((variant) => (variant === BASELINE ? [false] : glvModes)
        .map((glv) => ({ variant, glv, samples: [], verified: true, out: null })));
      const rowName = (row) => `${row.variant}${row.glv ? '+glv' : ''}`;
      for (const row of rows) {
        say(0.1, `warming up ${rowName(row)}`);
        row.verified &&= samePoint(runOf(row.variant, warm, window, batch, row.glv), warmRef);
      }
      const timedSteps = repetitions * rows.length;
      let done = 0;
      let reference = null;
      for (let r = 0; r < repetitions; r++) {
        // the baseline first in every round, then ours: background noise hits every row alike
        for (const row of [...rows].sort((a, b) => (b.variant === BASELINE) - (a.variant === BASELINE))) {
          say(0.12 + 0.7 * (done++ / timedSteps), `round ${r + 1}/${repetitions}, ${rowName(row)}`);
          const t0 = performance.now();
          const out = runOf(row.variant, n, window, batch, row.glv);
          row.samples.push(performance.now() - t0);
          if (row.variant === BASELINE) reference ??= out;
          row.out = out;
        }
      }
      for (const row of rows) row.verified &&= samePoint(row.out, reference);
      const arkMedian = median(rows.find((r) => r.variant === BASELINE).samples);
      for (const row of rows) {
        const m = median(row.samples);
        results.push({
          name: `${curve}/n=2^${logn}/${rowName(row)}`,
          params: {
            curve, n, log2_n: logn, variant: row.variant, label: LABELS[row.variant],
            limb_bits: limbBits(row.variant),
            accumulation: row.variant === BASELINE ? 'projective (Jacobian), arkworks' : row.variant.replace(/-(r30|r51|wide)$/, ''),
            window: row.out.window, glv: row.out.glv, stats: row.out.stats, seed,
            speedup_vs_arkworks: round(arkMedian / m, 3),
            result: pointText(row.out),
          },
          unit: 'ms',
          ...summary(row.samples),
          verified: row.verified,
        });
      }
      if (count) {
        const todo = COUNTED.flatMap((variant) => glvModes.map((glv) => ({ variant, glv })));
        for (const [ci, { variant, glv }] of todo.entries()) {
          say(0.85 + 0.15 * (ci / todo.length), `counting the field operations of ${variant}${glv ? '+glv' : ''}`);
          const c = input.count(variant, n, window, batch, glv);
          counts.push({ curve, n, log2_n: logn, ...c, verified: samePoint(c, reference) });
        }
      }
    } finally {
      input.free();
      relaxedInput?.free();
      wideInput?.free();
    }
  }
  progress(1, 'Done');
  const cores = navigator.hardwareConcurrency;
  return {
    suite: 'msm-wasm',
    device: { name: `browser CPU${cores ? ` (${cores} logical cores)` : ''}`, backend: 'wasm32 simd128, one thread' },
    params: { repetitions, warmup_points: WARMUP_POINTS, window: window || 'automatic', glv: params.glv ?? 'no', seed },
    features: { relaxed_simd: wasmFeatures().relaxed_simd, relaxed_package: !!relaxed,
      wide_arithmetic: wideArithmetic(), wide_package: !!wide },
    unavailable,
    results,
    counts,
    verified: results.length > 0 && results.every((r) => r.verified) && counts.every((c) => c.verified),
  };
}

const ms = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const big = (v) => v.toLocaleString('en');

export function view(result) {
  const groups = [...new Set(result.results.map((r) => `${r.params.curve}|${r.params.log2_n}`))];
  const tables = groups.map((g) => {
    const [curve, logn] = g.split('|');
    const rows = result.results.filter((r) => r.params.curve === curve && String(r.params.log2_n) === logn);
    return {
      caption: `${curve}, n = 2^${logn}: milliseconds per MSM (median of ${rows[0].samples}; same input for every row)`,
      columns: ['Run', 'Window c', 'ms (median)', 'min–max', 'Speed-up vs arkworks', 'Verified'],
      rows: rows.map((r) => [`${r.params.label}${r.params.glv ? ', GLV' : ''}`, r.params.window ?? 'ln n + 2', ms(r.median),
        `${ms(r.min)}–${ms(r.max)}`,
        `${r.params.speedup_vs_arkworks.toFixed(2)}×`, r.verified ? '✔' : '✘']),
    };
  });
  if (result.counts.length) {
    tables.push({
      caption: 'Field operations of one MSM (counted while our code runs; the 30-bit runs do the same operations)',
      columns: ['Curve', 'n', 'Buckets', 'Window c', 'Multiplications', 'Squarings', 'Additions/subtractions',
        'Inversions', '(M + S) per point', 'Batched additions', 'Deferred', 'Spilled', 'Verified'],
      rows: result.counts.map((c) => [c.curve, `2^${c.log2_n}`, `${c.variant}${c.glv ? ', GLV' : ''}`, c.window, big(c.mul),
        big(c.square), big(c.add), big(c.inverse), ((c.mul + c.square) / c.n).toFixed(1),
        c.stats ? big(c.stats.batched_additions) : '—',
        c.variant === 'batch-affine' ? big(c.stats.deferred) : '—',
        c.variant === 'batch-affine' ? big(c.stats.spilled) : '—', c.verified ? '✔' : '✘']),
    });
  }
  const key = (r) => `${r.params.variant}${r.params.glv ? '+glv' : ''}`;
  const variants = [...new Set(result.results.map(key))];
  const medians = result.results.map((r) => r.median).filter((m) => m > 0);
  const best = groups.map((g) => {
    const [curve, logn] = g.split('|');
    const rows = result.results.filter((r) => r.params.curve === curve && String(r.params.log2_n) === logn
      && r.params.variant !== BASELINE);
    const top = rows.reduce((a, b) => (b.median < a.median ? b : a), rows[0]);
    return top ? `${curve} 2^${logn}: fastest ${key(top)}, ${top.params.speedup_vs_arkworks.toFixed(2)}× arkworks` : '';
  }).filter(Boolean);
  const missing = (result.unavailable ?? []).map((u) => `${u.variant}: ${u.reason}`);
  return {
    message: `Lower is better. ${best.join('; ')}.${missing.length ? ` Not run: ${missing.join('; ')}.` : ''}`,
    tables,
    chart: {
      title: 'Milliseconds per MSM (median)',
      labels: variants.map((v) => (v.endsWith('+glv') ? `${LABELS[v.replace('+glv', '')]}, GLV` : LABELS[v])),
      series: groups.map((g) => {
        const [curve, logn] = g.split('|');
        return {
          label: `${curve}, 2^${logn}`,
          data: variants.map((v) => result.results.find((r) => r.params.curve === curve
            && String(r.params.log2_n) === logn && key(r) === v)?.median ?? null),
        };
      }),
      logScale: medians.length > 1 && Math.max(...medians) / Math.min(...medians) > 20,
      yLabel: 'ms',
    },
  };
}
