// Live microbenchmark of every Montgomery/Barrett variant of crates/mont against ark-ff, both
// compiled into this page's WebAssembly. The worker times the chained loop x ← x·y (each product
// depends on the last, so this is latency) with performance.now(): warm-up calls first, then
// `repetitions` rounds that time every row once (interleaved, so background noise hits all rows
// alike). A row is verified when every value it returned equals x·y^count mod p computed here
// with BigInt, using the modulus as ark-ff defines it.
import { wasmFeatures } from './capabilities.js';
import { median, round } from './stats.js';

export const title = 'Montgomery multiplication: every variant vs ark-ff, in your browser';

// The controls are built on the page, before any WebAssembly loads, so the names are listed here;
// the task checks them against the wasm module's own lists (mont_fields, mont_variants).
export const FIELDS = ['bn254-fq', 'bn254-fr', 'bls12-377-fq', 'bls12-377-fr', 'bls12-381-fq', 'bls12-381-fr'];
export const VARIANTS = [
  'cios', 'fios', 'sos', 'cios-no-carry', 'cios-no-carry-lazy', 'fips-wide', 'bos-portable', 'bos-simd', 'emmart-fma',
  'reduced-radix-26', 'reduced-radix-27', 'reduced-radix-28', 'reduced-radix-29', 'reduced-radix-30',
  'reduced-radix-30-lazy', 'reduced-radix-30-lanes',
  'u32-12bit', 'u32-13bit', 'u32-14bit', 'u32-15bit', 'u32-16bit', 'barrett', 'barrett-domb',
];
// Emmart's method again, from the second package built with +relaxed-simd (f64x2.relaxed_madd).
export const RELAXED = 'emmart-fma-relaxed';
export const BASELINE = 'ark-ff';
// From the third package, built with +wide-arithmetic (i64.mul_wide_u, i64.add128): ark-ff (the
// second baseline), the product written for the 128-bit multiply, and the CIOS forms rebuilt.
export const WIDE_SUFFIX = '+wide';
export const WIDE_ROWS = ['ark-ff', 'fips-wide', 'cios', 'cios-no-carry', 'cios-no-carry-lazy'].map((v) => `${v}${WIDE_SUFFIX}`);
export const WIDE_BASELINE = `${BASELINE}${WIDE_SUFFIX}`;
const EXTRA_ROWS = [RELAXED, ...WIDE_ROWS];

// A module with one i64.mul_wide_u (0xfc 0x16) and one i64.add128 (0xfc 0x13), () -> (i64, i64):
// WebAssembly.validate() accepts it only where the engine has wide arithmetic.
const WIDE_ARITHMETIC_PROBE = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x06, 0x01, 0x60, 0x00, 0x02, 0x7e, 0x7e, // type: () -> (i64, i64)
  0x03, 0x02, 0x01, 0x00, // one function of that type
  0x0a, 0x10, 0x01, 0x0e, 0x00, // code: one body of 14 bytes, no locals
  0x42, 0x00, 0x42, 0x00, 0xfc, 0x16, // i64.const 0; i64.const 0; i64.mul_wide_u
  0x42, 0x00, 0x42, 0x00, 0xfc, 0x13, 0x0b]; // i64.const 0; i64.const 0; i64.add128; end
export function wideArithmetic() {
  try { return WebAssembly.validate(new Uint8Array(WIDE_ARITHMETIC_PROBE)); } catch { return false; }
}
export const WIDE_MISSING = 'this browser lacks WebAssembly wide arithmetic (in Chromium 156 it is behind --js-flags=--wasm-wide-arithmetic, in Firefox ESR 153 behind the preference javascript.options.wasm_wide_arithmetic)';

export const controls = [
  { name: 'field', label: 'Field', type: 'select', default: 'bn254-fr',
    options: [...FIELDS, { value: 'all', label: 'all six' }] },
  { name: 'variants', label: 'Variants', type: 'select', multiple: true, default: [...VARIANTS, ...EXTRA_ROWS],
    options: [...VARIANTS, { value: RELAXED, label: `${RELAXED} (relaxed SIMD)` },
      ...WIDE_ROWS.map((v) => ({ value: v, label: `${v} (wide arithmetic)` }))] },
  { name: 'count', label: 'Multiplications per call', type: 'number', default: 50000, min: 1000, max: 10000000, step: 1000 },
  { name: 'repetitions', label: 'Repetitions', type: 'number', default: 5, min: 1, max: 50 },
];
// The E2E run: two fields of different sizes, every variant, small counts.
export const quick = { field: ['bn254-fr', 'bls12-381-fq'], variants: 'all', count: 5000, repetitions: 3 };
export const autorun = false;

const WARMUPS = 2; // calls per row before timing: V8 tiers hot wasm functions up from Liftoff

// ---- reference: x·y^n mod p in BigInt -------------------------------------------------------------
function modpow(base, exp, p) {
  let r = 1n;
  let b = base % p;
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) r = (r * b) % p;
    b = (b * b) % p;
  }
  return r;
}

function randomBelow(p) {
  const bytes = new Uint8Array(Math.ceil(p.toString(16).length / 2) + 8);
  crypto.getRandomValues(bytes);
  const x = BigInt(`0x${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`) % p;
  return x === 0n ? 1n : x;
}

const hex = (x) => `0x${x.toString(16)}`;

// The wide-arithmetic package, loaded once per worker. Call only after wideArithmetic().
let widePackage = null;
export function loadWide() {
  widePackage ??= (async () => {
    const url = (f) => new URL(`../generated/pkg-wide/${f}`, import.meta.url);
    const m = await import(url('fastmsm_wide.js'));
    await m.default({ module_or_path: url('fastmsm_wide_bg.wasm') });
    return m;
  })();
  return widePackage;
}

// The relaxed-SIMD package, loaded once per worker (also by the cpu-msm widget). Call only after
// wasmFeatures().relaxed_simd: the module does not compile without the feature.
let relaxedPackage = null;
export function loadRelaxed() {
  relaxedPackage ??= (async () => {
    const url = (f) => new URL(`../generated/pkg-relaxed/${f}`, import.meta.url);
    const m = await import(url('fastmsm_relaxed.js'));
    await m.default({ module_or_path: url('fastmsm_relaxed_bg.wasm') });
    return m;
  })();
  return relaxedPackage;
}

const asList = (v, all) => (v === 'all' || v === undefined || (Array.isArray(v) && (v.length === 0 || v.includes('all')))
  ? all : [v].flat());

export async function task(wasm, params, progress) {
  const wasmFields = wasm.mont_fields();
  const wasmVariants = wasm.mont_variants();
  const names = (xs) => xs.map((x) => x.name).join(',');
  if (names(wasmFields) !== FIELDS.join(',') || names(wasmVariants) !== VARIANTS.join(',')) {
    throw new Error(`mont-bench.js lists are out of date: wasm has fields ${names(wasmFields)} and variants ${names(wasmVariants)}`);
  }
  const fields = asList(params.field ?? params.fields, FIELDS);
  const variants = asList(params.variants, [...VARIANTS, ...EXTRA_ROWS]);
  for (const f of fields) if (!FIELDS.includes(f)) throw new Error(`unknown field ${f}`);
  for (const v of variants) if (!EXTRA_ROWS.includes(v) && !VARIANTS.includes(v)) throw new Error(`unknown variant ${v}`);
  const count = Math.max(1, Math.round(params.count ?? 50000));
  const repetitions = Math.max(1, Math.round(params.repetitions ?? 5));

  const features = wasmFeatures();
  const build = wasm.mont_build_info();
  let relaxed = null;
  let relaxedBuild = null;
  let relaxedProblem = null;
  if (variants.includes(RELAXED)) {
    if (!features.relaxed_simd) relaxedProblem = 'this browser lacks WebAssembly relaxed SIMD';
    else {
      progress(0, 'Loading the relaxed-SIMD package…');
      relaxed = await loadRelaxed();
      relaxedBuild = relaxed.mont_build_info();
      if (!relaxedBuild.emmart_fma_fused) {
        relaxedProblem = 'f64x2.relaxed_madd is not fused on this CPU/engine; Emmart\'s method needs a fused multiply-add';
      }
    }
  }
  const wideWanted = variants.some((v) => WIDE_ROWS.includes(v));
  const hasWide = wideArithmetic();
  let wide = null;
  if (wideWanted && hasWide) {
    progress(0, 'Loading the wide-arithmetic package…');
    wide = await loadWide();
    if (names(wide.mont_variants()) !== VARIANTS.join(',')) throw new Error('the wide-arithmetic package is out of date');
  }
  const info = Object.fromEntries(wasmVariants.map((v) => [v.name, v]));

  const results = [];
  const unavailable = [];
  const inputs = {};
  for (const [fi, field] of fields.entries()) {
    const pArk = BigInt(wasm.mont_ark_modulus(field));
    const pOurs = BigInt(wasmFields.find((f) => f.name === field).modulus);
    const x = randomBelow(pArk);
    const y = randomBelow(pArk);
    inputs[field] = { x: hex(x), y: hex(y) };
    const warmCount = Math.max(1, Math.ceil(count / 4));
    const expected = { [count]: (x * modpow(y, BigInt(count), pArk)) % pArk,
      [warmCount]: (x * modpow(y, BigInt(warmCount), pArk)) % pArk };
    const [xs, ys] = [hex(x), hex(y)];

    // rows: the baseline first, then the requested variants in the crate's order
    const rows = [{ variant: BASELINE, limb_bits: 64, backend: 'ark-ff 0.5 Fp (u128 products)',
      call: (n) => wasm.mont_ark_chain(field, xs, ys, n) }];
    for (const v of [...VARIANTS, ...EXTRA_ROWS].filter((n) => variants.includes(n))) {
      // a product whose condition on p this field fails (the lazy no-carry CIOS needs R ≥ 4p)
      const notFor = info[v.endsWith(WIDE_SUFFIX) ? v.slice(0, -WIDE_SUFFIX.length) : v]?.not_for.find((n) => n.field === field);
      if (notFor) { unavailable.push({ field, variant: v, reason: notFor.reason }); continue; }
      if (WIDE_ROWS.includes(v)) {
        if (!wide) { unavailable.push({ field, variant: v, reason: WIDE_MISSING }); continue; }
        const base = v.slice(0, -WIDE_SUFFIX.length);
        rows.push({ variant: v, limb_bits: 64, backend: 'i64.mul_wide_u + i64.add128 (wide arithmetic)',
          call: base === BASELINE ? (n) => wide.mont_ark_chain(field, xs, ys, n) : (n) => wide.mont_chain(field, base, xs, ys, n) });
        continue;
      }
      if (v === RELAXED) {
        if (relaxedProblem) { unavailable.push({ field, variant: v, reason: relaxedProblem }); continue; }
        rows.push({ variant: v, limb_bits: info['emmart-fma'].limb_bits, backend: relaxedBuild.emmart_fma_backend,
          call: (n) => relaxed.mont_chain(field, 'emmart-fma', xs, ys, n) });
        continue;
      }
      if (!info[v].available) {
        unavailable.push({ field, variant: v, reason: 'not compiled into this build (needs WASM SIMD128)' });
        continue;
      }
      const backend = v === 'emmart-fma' ? `${build.emmart_fma_backend} (scalar: software fma on wasm)`
        : v === 'bos-simd' ? build.bos_simd_backend : v === 'bos-portable' ? 'portable lanes'
          : v === 'fips-wide' ? 'u64×u64→u128 without wide arithmetic: four 32×32 products' : '';
      rows.push({ variant: v, limb_bits: info[v].limb_bits, backend,
        call: (n) => wasm.mont_chain(field, v, xs, ys, n) });
    }

    const steps = rows.length * (WARMUPS + repetitions);
    let done = 0;
    const tick = (what) => progress((fi + done++ / steps) / fields.length, `${field}: ${what}`);
    for (const row of rows) {
      row.samples = [];
      row.verified = pOurs === pArk || row.variant === BASELINE;
      for (let w = 0; w < WARMUPS; w++) {
        tick(`warming up ${row.variant}`);
        row.verified &&= BigInt(row.call(warmCount)) === expected[warmCount];
      }
    }
    for (let r = 0; r < repetitions; r++) {
      for (const row of rows) {
        tick(`round ${r + 1}/${repetitions}, ${row.variant}`);
        const t0 = performance.now();
        const out = row.call(count);
        const ms = performance.now() - t0;
        row.samples.push((ms * 1e6) / count);
        row.verified &&= BigInt(out) === expected[count];
      }
    }
    const arkMedian = median(rows[0].samples);
    const arkWide = rows.find((r) => r.variant === WIDE_BASELINE);
    const arkWideMedian = arkWide ? median(arkWide.samples) : null;
    for (const row of rows) {
      const m = median(row.samples);
      const wideRatio = arkWideMedian && row.variant.endsWith(WIDE_SUFFIX) && m > 0 ? round(arkWideMedian / m, 3) : null;
      results.push({
        name: `${field}/${row.variant}`,
        params: { field, variant: row.variant, limb_bits: row.limb_bits, backend: row.backend, iterations: count,
          warmup_calls: WARMUPS, speedup_vs_ark_ff: m > 0 ? round(arkMedian / m, 3) : null,
          ...(wideRatio === null ? {} : { speedup_vs_ark_ff_wide: wideRatio }) },
        unit: 'ns/mul',
        median: round(m, 2),
        min: round(Math.min(...row.samples), 2),
        max: round(Math.max(...row.samples), 2),
        samples: row.samples.length,
        verified: row.verified,
      });
    }
  }
  progress(1, 'Done');
  const cores = navigator.hardwareConcurrency;
  return {
    suite: 'mont-wasm',
    device: { name: `browser CPU${cores ? ` (${cores} logical cores)` : ''}`, backend: `wasm32${build.simd128 ? ' simd128' : ''}` },
    features: { simd128: features.simd128, relaxed_simd: features.relaxed_simd, wide_arithmetic: hasWide },
    build: { main: build, relaxed: relaxedBuild, wide: wide ? 'pkg-wide (+wide-arithmetic)' : null },
    wide_product: wide ? 'fips-wide on i64.mul_wide_u (wide-arithmetic package)'
      : `fips-wide without the 128-bit multiply: ${hasWide ? 'wide rows not requested' : WIDE_MISSING}`,
    inputs,
    unavailable,
    results,
    // unavailable rows are reported, not counted: every row that ran must match the reference
    verified: results.length > 0 && results.every((r) => r.verified),
  };
}

const ns = (v) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

export function view(result) {
  const fields = [...new Set(result.results.map((r) => r.params.field))];
  const tables = fields.map((field) => {
    const rows = result.results.filter((r) => r.params.field === field).map((r) => [
      r.params.variant === BASELINE ? `${BASELINE} (baseline)`
        : r.params.variant === WIDE_BASELINE ? `${WIDE_BASELINE} (second baseline)` : r.params.variant,
      r.params.limb_bits,
      ns(r.median),
      `${ns(r.min)}–${ns(r.max)}`,
      r.params.speedup_vs_ark_ff == null ? '—' : `${r.params.speedup_vs_ark_ff.toFixed(2)}×`,
      r.params.speedup_vs_ark_ff_wide == null ? '—' : `${r.params.speedup_vs_ark_ff_wide.toFixed(2)}×`,
      r.verified ? '✔' : '✘',
      r.params.backend,
    ]);
    for (const u of result.unavailable.filter((u) => u.field === field)) {
      rows.push([u.variant, '', 'unavailable', '', '', '', '—', u.reason]);
    }
    return {
      caption: `${field}: ${result.results[0].params.iterations.toLocaleString('en')} chained multiplications per call, `
        + `${result.results[0].samples} timed calls per row`,
      columns: ['Variant', 'Limb bits', 'ns/mul (median)', 'min–max', 'Speed-up vs ark-ff', 'vs ark-ff+wide', 'Verified', 'Note'],
      rows,
    };
  });
  const labels = [...new Set(result.results.map((r) => r.params.variant))];
  const medians = result.results.map((r) => r.median).filter((m) => m > 0);
  const best = Object.fromEntries(fields.map((field) => {
    const rows = result.results.filter((r) => r.params.field === field && r.params.variant !== BASELINE
      && r.params.variant !== WIDE_BASELINE);
    const top = rows.reduce((a, b) => (b.median < a.median ? b : a), rows[0]);
    return [field, top];
  }));
  const summary = fields.filter((f) => best[f]).map((f) => `${f}: fastest ${best[f].params.variant}, `
    + `${best[f].params.speedup_vs_ark_ff?.toFixed(2) ?? '—'}× ark-ff`).join('; ');
  return {
    message: `Lower is better. Wide arithmetic: ${result.wide_product ?? 'not probed'}.${summary ? ` ${summary}.` : ''}`,
    tables,
    chart: {
      title: 'ns per multiplication (median; ark-ff is the baseline bar)',
      labels,
      series: fields.map((field) => ({
        label: field,
        data: labels.map((v) => result.results.find((r) => r.params.field === field && r.params.variant === v)?.median ?? null),
      })),
      logScale: medians.length > 1 && Math.max(...medians) / Math.min(...medians) > 20,
      yLabel: 'ns/mul',
    },
  };
}
