// "Montgomery in WGSL": Montgomery products per second on your GPU for each limb width, through
// the project's WGSL shaders driven by wgpu in WebAssembly; every run is checked against the CPU
// twin (same module) on a sample of outputs.
import { webgpuAdapter, widgetGpuSession } from '../core/gpu.js';

export const title = 'WGSL Montgomery products on your GPU';

const FIELDS = ['bn254-fq', 'bn254-fr', 'bls12-377-fq', 'bls12-377-fr', 'bls12-381-fq', 'bls12-381-fr'];
const WIDTHS = ['12', '13', '14', '15', '16'];

export const controls = [
  { name: 'field', label: 'Field', type: 'select', options: FIELDS, default: 'bls12-377-fq' },
  { name: 'widths', label: 'Limb widths (bits)', type: 'select', multiple: true, options: WIDTHS, default: WIDTHS },
  { name: 'threads', label: 'Threads', type: 'number', min: 64, max: 1 << 20, step: 64, default: 1 << 16 },
  { name: 'iterations', label: 'Products per thread', type: 'number', min: 1, max: 4096, default: 64 },
];
export const quick = { field: 'bn254-fq', widths: ['13', '16'], threads: 256, iterations: 4 };

// The benchmark on the widget worker's GPU session, with the kernels it has compiled (once per
// field and width, kept for later runs).
let bench = null;

/** @param {import('../core/types.js').Wasm} wasm */
export async function task(wasm, params, progress) {
  const noGpu = !(/** @type {any} */ (navigator).gpu) ? 'navigator.gpu is missing in the widget worker'
    : !(await webgpuAdapter()) ? 'the browser offers no adapter' : null;
  if (noGpu) {
    // `unavailable`: the page says "Not run" and why, not "NOT verified" (core/loader.js)
    return {
      suite: 'wgsl-mont', device: { name: 'no WebGPU adapter', backend: 'none' }, results: [], verified: false,
      unavailable: `no WebGPU (${noGpu})`,
      message: 'This browser exposes no WebGPU adapter, so the WGSL kernels cannot run here. The CPU (WebAssembly) benchmark in the chapter “Montgomery multiplication” runs everywhere.',
    };
  }
  bench ??= widgetGpuSession(wasm).then((session) => new wasm.WgslMont(session));
  const kernels = await bench;
  const results = [];
  let adapter = '';
  for (const [i, w] of params.widths.entries()) {
    progress(i / params.widths.length, `${params.field}, ${w}-bit limbs: compiling and running…`);
    const run = await kernels.run(params.field, Number(w), params.threads, params.iterations, 5);
    adapter = run.adapter;
    const rates = run.rates;
    results.push({
      name: `${run.field}/w${w}`,
      params: { field: run.field, limb_bits: run.limb_bits, limbs: run.limbs, n_safe: run.n_safe, threads: run.threads, iterations: run.iterations },
      unit: 'products/s',
      median: rates[Math.floor(rates.length / 2)], min: rates[0], max: rates[rates.length - 1],
      samples: rates.length, verified: run.verified,
    });
  }
  progress(1, 'Done');
  return { suite: 'wgsl-mont', device: { name: adapter || 'WebGPU adapter', backend: 'WebGPU' }, results };
}

const fmt = (x) => x.toExponential(2);

export function view(result) {
  return {
    message: result.message ?? null,
    tables: result.results.length ? [{
      caption: `Montgomery products per second — ${result.device.name}`,
      columns: ['Field', 'Limb bits', 'Limbs', 'nSafe', 'Median', 'Min – max', 'Verified'],
      rows: result.results.map((r) => [r.params.field, r.params.limb_bits, r.params.limbs,
        r.params.n_safe === 0 ? '0 (CIOS)' : r.params.n_safe, fmt(r.median), `${fmt(r.min)} – ${fmt(r.max)}`,
        r.verified ? '✔' : '✘']),
    }] : [],
    chart: {
      title: 'Products per second by limb width (median)',
      labels: result.results.map((r) => `${r.params.limb_bits}-bit`),
      series: [{ label: result.results[0]?.params.field ?? '', data: result.results.map((r) => r.median) }],
      yLabel: 'products / s',
    },
  };
}
