// CPU or GPU: on this device, from which n does the GPU MSM beat the MSM on every CPU core? Runs
// both on the same seeded input (the cpu-msm and gpu-msm widgets' seed) over a range of n, checks
// every result against arkworks, and finds the crossover: the smallest measured n from which the
// GPU is faster at every larger measured n. The page keeps it (localStorage, per curve) and
// `backend: 'auto'` (auto-backend.js) runs each MSM where it is faster here; the widget's second
// action runs one MSM that way, with the crossover the page kept.
import { CpuPool, pointHex, threadSupport } from './cpu-pool.js';
import { SEED } from './cpu-msm.js';
import { chooseBackend, loadCrossover, saveCrossover } from './auto-backend.js';
import { summary } from './stats.js';

export const title = 'CPU or GPU: where this device runs the MSM faster';
const CURVES = ['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377'];
export const controls = [
  { name: 'action', label: 'Do', type: 'select', default: 'measure', options: [
    { value: 'measure', label: 'measure both and keep the crossover' },
    { value: 'auto', label: "run one MSM with backend 'auto'" }] },
  { name: 'curve', label: 'Curve', type: 'select', default: 'bn254', options: CURVES },
  { name: 'from', label: 'From n = 2^', type: 'number', default: 8, min: 4, max: 18 },
  { name: 'to', label: 'to n = 2^', type: 'number', default: 16, min: 4, max: 18 },
  { name: 'at', label: "auto's n = 2^", type: 'number', default: 12, min: 1, max: 20 },
  { name: 'repetitions', label: 'Repetitions', type: 'number', default: 3, min: 1, max: 10 },
];
export const quick = { action: 'measure', curve: 'ed-on-bls12-377', from: 5, to: 7, repetitions: 1 };
export const autorun = false;

/** Runs in the page before the task goes to the worker (which has no localStorage): the kept crossover. */
export function fromPage(params) {
  return params.action === 'auto' ? { ...params, crossover: loadCrossover(params.curve) } : params;
}

/** The smallest log₂ n from which the GPU is faster at every larger measured n; null if never. */
export function crossover(rows) {
  let at = null;
  for (const r of [...rows].reverse()) {
    if (r.gpu !== null && r.gpu < r.cpu) at = r.log2_n;
    else break;
  }
  return at;
}

/** The seeded input of n points and arkworks' MSM of it. */
function drawInput(wasm, curve, n) {
  const input = new wasm.CpuMsm(curve, n, SEED, () => {});
  try {
    return { ref: input.run('arkworks', n, 0, 0, false), points: input.points_bytes(n), scalars: input.scalars_bytes(n) };
  } finally {
    input.free();
  }
}

/** `repetitions` timed MSMs on the pool's threads after one warm-up, each compared with `ref`. */
async function timeCpu(wasm, pool, { scalars, ref }, threads, repetitions) {
  const run = { samples: [], verified: true };
  for (let r = 0; r <= repetitions; r++) {
    const t0 = performance.now();
    const out = await pool.msm(wasm, scalars, threads);
    if (r > 0) run.samples.push(performance.now() - t0); // the first run warms up
    const p = pointHex(out.point);
    run.verified &&= p.x === ref.x && p.y === ref.y;
  }
  return run;
}

/** The same on the GPU (the gpu-msm widget's path, its default width), after compiling once. */
async function timeGpu(wasm, curve, n, ref, repetitions) {
  const run = { samples: [], verified: true };
  const g = new wasm.GpuMsmInput(curve, n, SEED, () => {});
  try {
    await wasm.gpu_msm_compile(curve, 0);
    for (let r = 0; r <= repetitions; r++) {
      const out = await g.gpu(0, 0);
      if (r > 0) run.samples.push(out.seconds * 1e3);
      run.verified &&= out.x === ref.x && out.y === ref.y;
    }
  } finally {
    g.free();
  }
  return run;
}

function resultRow(name, params, run) {
  return { name, params, unit: 'ms', ...summary(run.samples), verified: run.verified };
}

async function webgpuHere() {
  return !!navigator.gpu && !!(await navigator.gpu.requestAdapter().catch(() => null));
}

const modeLabel = (mode) => (mode === 'shared' ? 'shared memory' : 'message passing');

export async function task(wasm, params, progress) {
  const curve = params.curve;
  if (!CURVES.includes(curve)) throw new Error(`unknown curve ${curve}`);
  const repetitions = Math.max(1, Math.round(params.repetitions ?? 3));
  const action = params.action ?? 'measure';
  if (action === 'auto') return runAuto(wasm, curve, Math.round(params.at), params.crossover ?? null, repetitions, progress);
  if (action !== 'measure') throw new Error(`unknown action ${action}: 'measure' or 'auto'`);
  const from = Math.round(params.from);
  const to = Math.round(params.to);
  if (!(from >= 1 && to <= 20 && from <= to)) throw new Error(`n from 2^${from} to 2^${to}: choose 2^1 ≤ from ≤ to ≤ 2^20`);
  const support = threadSupport();
  const mode = support.modes.shared.ok ? 'shared' : 'message';
  const gpu = await webgpuHere();
  const pool = await CpuPool.start(mode, support.cores);
  const rows = [];
  const results = [];
  try {
    for (let logn = from; logn <= to; logn++) {
      const n = 2 ** logn;
      const say = (f, text) => progress((logn - from + f) / (to - from + 1), `n = 2^${logn}: ${text}`);
      say(0, 'drawing the input');
      const input = drawInput(wasm, curve, n);
      await pool.load(curve, input.points);
      say(0.2, `CPU, ${support.cores} threads (${modeLabel(mode)})`);
      const cpu = await timeCpu(wasm, pool, input, support.cores, repetitions);
      results.push(resultRow(`${curve}/n=2^${logn}/cpu`, { curve, n, log2_n: logn, backend: 'cpu', mode, threads: support.cores }, cpu));
      const row = { log2_n: logn, cpu: results.at(-1).median, gpu: null };
      if (gpu) {
        say(0.5, 'GPU');
        results.push(resultRow(`${curve}/n=2^${logn}/gpu`, { curve, n, log2_n: logn, backend: 'gpu' },
          await timeGpu(wasm, curve, n, input.ref, repetitions)));
        row.gpu = results.at(-1).median;
      }
      rows.push(row);
    }
  } finally {
    pool.terminate();
  }
  progress(1, 'Done');
  const found = { curve, log2_n: gpu ? crossover(rows) : null, gpu };
  return {
    suite: 'msm-auto',
    action,
    device: { name: `browser (${support.cores} logical cores${gpu ? ', WebGPU' : ', no WebGPU'})`, cores: support.cores },
    params: { curve, from, to, repetitions, mode, seed: SEED },
    crossover: { ...found, measured: rows },
    // what backend 'auto' now does at each measured n, and why
    auto: rows.map((r) => ({ log2_n: r.log2_n, ...chooseBackend(curve, 2 ** r.log2_n, found) })),
    results,
    verified: results.length > 0 && results.every((r) => r.verified),
  };
}

/** One MSM of 2^logn points where backend 'auto' sends it, given the crossover the page kept. */
async function runAuto(wasm, curve, logn, kept, repetitions, progress) {
  if (!(logn >= 1 && logn <= 20)) throw new Error(`n = 2^${logn}: choose 2^1 to 2^20`);
  const n = 2 ** logn;
  const support = threadSupport();
  const gpu = await webgpuHere();
  let choice = chooseBackend(curve, n, kept);
  if (choice.backend === 'gpu' && !gpu) choice = { backend: 'cpu', why: 'the kept crossover names the GPU, but no WebGPU adapter opens here now' };
  progress(0, 'drawing the input');
  const input = drawInput(wasm, curve, n);
  const params = { curve, n, log2_n: logn, backend: choice.backend, chosen_by: 'auto' };
  let run;
  if (choice.backend === 'gpu') {
    progress(0.3, 'GPU');
    run = await timeGpu(wasm, curve, n, input.ref, repetitions);
  } else {
    const mode = support.modes.shared.ok ? 'shared' : 'message';
    Object.assign(params, { mode, threads: support.cores });
    progress(0.3, `CPU, ${support.cores} threads (${modeLabel(mode)})`);
    const pool = await CpuPool.start(mode, support.cores);
    try {
      await pool.load(curve, input.points);
      run = await timeCpu(wasm, pool, input, support.cores, repetitions);
    } finally {
      pool.terminate();
    }
  }
  progress(1, 'Done');
  const row = resultRow(`${curve}/n=2^${logn}/auto`, params, run);
  return {
    suite: 'msm-auto',
    action: 'auto',
    device: { name: `browser (${support.cores} logical cores${gpu ? ', WebGPU' : ', no WebGPU'})`, cores: support.cores },
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
    : c.log2_n === null ? `The CPU was faster at every measured n up to 2^${result.params.to}: auto runs on the CPU.`
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
