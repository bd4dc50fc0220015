// CPU or GPU: on this device, from which n does the GPU MSM beat the MSM on every CPU core? The
// widget runs the npm package's own measurement (core/crossover.js: both backends over a range of
// n on the widgets' seeded input, whole MSMs as the package's msm() runs them, every result
// checked) and keeps the crossover it finds (localStorage, per curve), which `backend: 'auto'`
// then follows, in the book and in the npm package alike; the widget's second action runs one
// MSM that way, with the crossover the page kept (or the stated estimate where none is kept).
import { MsmBackends } from '../core/backends.js';
import { chooseBackend, loadCrossover, measureCrossover, saveCrossover } from '../core/crossover.js';
import { softwareAdapter, webgpuAdapter, widgetGpuSession } from '../core/gpu.js';
import { BOOK_PACKAGES } from '../core/packages.js';
import { CURVES, SEED } from '../core/seeded.js';
import { summary } from '../core/stats.js';
import { pointHex } from '../pool/cpu-pool.js';

export const title = 'CPU or GPU: where this device runs the MSM faster';
export const controls = [
  { name: 'action', label: 'Do', type: 'select', default: 'measure', options: [
    { value: 'measure', label: 'measure both and keep the crossover' },
    { value: 'auto', label: "run one MSM with backend 'auto'" }] },
  { name: 'curve', label: 'Curve', type: 'select', default: 'bn254', options: CURVES },
  { name: 'from', label: 'From n = 2^', type: 'number', default: 8, min: 4, max: 18 },
  { name: 'to', label: 'to n = 2^', type: 'number', default: 16, min: 4, max: 18 },
  { name: 'at', label: "auto's n = 2^", type: 'number', default: 12, min: 1, max: 20 },
  { name: 'repetitions', label: 'Repetitions', type: 'number', default: 3, min: 1, max: 10 },
  { name: 'profile', label: 'GPU profile', type: 'select', default: 'auto',
    options: [{ value: 'auto', label: 'calibrated (cached)' }, 'h200', 'h100', 'swiftshader', 'lavapipe', 'portable'] },
];
// The E2E run, on SwiftShader: small n, one repetition, its named profile (no calibration).
export const quick = { action: 'measure', curve: 'ed-on-bls12-377', from: 5, to: 7, repetitions: 1, profile: 'swiftshader' };
export const autorun = false;

/** Runs in the page before the task goes to the worker (which has no localStorage): the kept crossover. */
export function fromPage(params) {
  return params.action === 'auto' ? { ...params, crossover: loadCrossover(params.curve) } : params;
}

/** What the worker sees of WebGPU: `{webgpu, software}` for chooseBackend. */
async function gpuHere() {
  const adapter = await webgpuAdapter();
  return { webgpu: !!adapter, software: softwareAdapter(adapter?.info) };
}

/** This worker's backends: a CPU pool of its own, the worker's GPU session for `profile`. */
function backendsFor(wasm, profile) {
  return new MsmBackends(wasm, { packages: BOOK_PACKAGES, gpuSession: () => widgetGpuSession(wasm, { profile }), sharedSession: true });
}

const device = (cores, here) => ({ name: `browser (${cores} logical cores${here.webgpu ? ', WebGPU' : ', no WebGPU'})`, cores });

/** @param {import('../core/types.js').Wasm} wasm */
export async function task(wasm, params, progress) {
  const curve = params.curve;
  if (!CURVES.includes(curve)) throw new Error(`unknown curve ${curve}`);
  const repetitions = Math.max(1, Math.round(params.repetitions ?? 3));
  const action = params.action ?? 'measure';
  if (action !== 'measure' && action !== 'auto') throw new Error(`unknown action ${action}: 'measure' or 'auto'`);
  const here = await gpuHere();
  const backends = backendsFor(wasm, params.profile ?? 'auto');
  try {
    if (action === 'auto') return await runAuto(wasm, backends, here, curve, Math.round(params.at), params.crossover ?? null, repetitions, progress);
    const from = Math.round(params.from);
    const to = Math.round(params.to);
    // the reader chose the range: no time budget
    const m = await measureCrossover(wasm, backends, { curve, webgpu: here.webgpu, from, to, step: 1, repetitions, seconds: Infinity, progress });
    const results = m.measured.flatMap((r) => [
      { name: `${curve}/n=2^${r.log2_n}/cpu`, params: { curve, n: 2 ** r.log2_n, log2_n: r.log2_n, backend: 'cpu', ...m.cpu, check: r.check },
        unit: 'ms', ...summary(r.cpu_samples), verified: r.verified },
      ...(r.gpu === null ? [] : [{ name: `${curve}/n=2^${r.log2_n}/gpu`, params: { curve, n: 2 ** r.log2_n, log2_n: r.log2_n, backend: 'gpu', check: r.check },
        unit: 'ms', ...summary(r.gpu_samples), verified: r.verified }]),
    ]);
    const cores = m.cpu.threads ?? navigator.hardwareConcurrency ?? 1;
    return {
      suite: 'msm-auto',
      action,
      device: device(cores, here),
      params: { curve, from, to, repetitions, mode: m.cpu.mode, seed: SEED, profile: params.profile ?? 'auto' },
      crossover: { ...m.crossover, measured: m.measured.map((r) => ({ log2_n: r.log2_n, cpu: r.cpu, gpu: r.gpu })) },
      gpu_first_ms: m.gpu_first_ms,
      // what backend 'auto' now does at each measured n, and why
      auto: m.measured.map((r) => ({ log2_n: r.log2_n, ...chooseBackend(2 ** r.log2_n, m.crossover, here) })),
      results,
      verified: m.verified,
    };
  } finally {
    await backends.dispose();
  }
}

/** One MSM of 2^logn points where backend 'auto' sends it, given the crossover the page kept. */
async function runAuto(wasm, backends, here, curve, logn, kept, repetitions, progress) {
  if (!(logn >= 1 && logn <= 20)) throw new Error(`n = 2^${logn}: choose 2^1 to 2^20`);
  const n = 2 ** logn;
  const choice = chooseBackend(n, kept, here);
  progress(0, 'drawing the input');
  const input = new wasm.CpuMsm(curve, n, SEED, () => {});
  let points;
  let scalars;
  let reference;
  try {
    points = input.points_bytes(n);
    scalars = input.scalars_bytes(n);
    progress(0.1, 'arkworks, one thread (the reference)');
    reference = input.run('arkworks', n, 0, 0, false);
  } finally {
    input.free();
  }
  const params = { curve, n, log2_n: logn, backend: choice.backend, chosen_by: 'auto' };
  const run = { samples: [], verified: true };
  for (let r = 0; r <= repetitions; r++) {
    const say = (f, text) => progress(0.2 + 0.8 * (r + f) / (repetitions + 1), `${choice.backend.toUpperCase()}: ${text}`);
    const t0 = performance.now();
    const out = await backends[choice.backend](curve, points, scalars, say);
    if (r > 0) run.samples.push(performance.now() - t0); // the first run warms up
    const p = pointHex(out.bytes);
    run.verified &&= p.x === reference.x && p.y === reference.y;
    if (out.mode) Object.assign(params, { mode: out.mode, threads: out.threads });
  }
  progress(1, 'Done');
  const row = { name: `${curve}/n=2^${logn}/auto`, params, unit: 'ms', ...summary(run.samples), verified: run.verified };
  return {
    suite: 'msm-auto',
    action: 'auto',
    device: device(params.threads ?? navigator.hardwareConcurrency ?? 1, here),
    params: { curve, log2_n: logn, repetitions, seed: SEED },
    choice,
    crossover_used: kept,
    results: [row],
    verified: row.verified,
  };
}

function viewAuto(result) {
  const r = result.results[0];
  const kept = result.crossover_used;
  const from = !kept ? 'No crossover is kept in this browser for this curve yet.'
    : `Kept crossover: ${kept.gpu ? (kept.log2_n === null ? 'the CPU won at every n' : `the GPU from 2^${kept.log2_n}`) : 'no WebGPU'}${kept.date ? ` (measured ${kept.date.slice(0, 10)})` : ''}.`;
  return {
    message: `Backend 'auto' ran this MSM of 2^${r.params.log2_n} points on the ${r.params.backend.toUpperCase()}: ${result.choice.why}. ${from}`,
    tables: [{
      caption: `${r.params.curve}, n = 2^${r.params.log2_n}: backend 'auto'`,
      columns: ['Backend', 'Why', 'ms (median)', 'Runs', 'Equals arkworks'],
      rows: [[r.params.backend.toUpperCase(), result.choice.why, r.median.toFixed(1), r.samples, r.verified ? '✔' : '✘']],
    }],
  };
}

export function view(result) {
  if (result.action === 'auto') return viewAuto(result);
  const c = result.crossover;
  // kept for `backend: 'auto'` (the view runs in the page, which has localStorage)
  if (result.verified) saveCrossover(c);
  const say = !c.gpu ? 'No WebGPU here: every MSM runs on the CPU.'
    : c.log2_n === null ? `The CPU was faster at every measured n up to 2^${c.measured_to}: auto runs on the CPU.`
      : `The GPU is faster from n = 2^${c.log2_n}: auto runs smaller MSMs on the CPU and from 2^${c.log2_n} on the GPU.`;
  return {
    message: `${say} Kept in this browser for backend 'auto'.`,
    tables: [{
      caption: `${c.curve}: milliseconds per MSM (median), CPU on ${result.device.cores} threads vs GPU`,
      columns: ['n', 'CPU ms', 'GPU ms', 'Faster'],
      rows: c.measured.map((r) => [`2^${r.log2_n}`, r.cpu.toFixed(1), r.gpu === null ? '—' : r.gpu.toFixed(1),
        r.gpu !== null && r.gpu < r.cpu ? 'GPU' : 'CPU']),
    }],
    chart: {
      title: 'Milliseconds per MSM against n (lower is better)',
      labels: c.measured.map((r) => `2^${r.log2_n}`),
      series: [{ label: 'CPU, all cores', data: c.measured.map((r) => r.cpu) },
        ...(c.gpu ? [{ label: 'GPU', data: c.measured.map((r) => r.gpu) }] : [])],
      logScale: true,
      yLabel: 'ms',
    },
  };
}
