// CPU or GPU: on this device, from which n does the GPU MSM beat the MSM on every CPU core? Runs
// both on the same seeded input (the cpu-msm and gpu-msm widgets' seed) over a range of n, checks
// every result against arkworks, and finds the crossover: the smallest measured n from which the
// GPU is faster at every larger measured n. The page keeps it (localStorage, per curve) and
// `backend: 'auto'` (auto-backend.js) runs each MSM where it is faster here.
import { CpuPool, pointHex, threadSupport } from './cpu-pool.js';
import { SEED } from './cpu-msm.js';
import { chooseBackend, saveCrossover } from './auto-backend.js';

export const title = 'CPU or GPU: where this device runs the MSM faster';
const CURVES = ['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377'];
export const controls = [
  { name: 'curve', label: 'Curve', type: 'select', default: 'bn254', options: CURVES },
  { name: 'from', label: 'From n = 2^', type: 'number', default: 8, min: 4, max: 18 },
  { name: 'to', label: 'to n = 2^', type: 'number', default: 16, min: 4, max: 18 },
  { name: 'repetitions', label: 'Repetitions', type: 'number', default: 3, min: 1, max: 10 },
];
export const quick = { curve: 'ed-on-bls12-377', from: 5, to: 7, repetitions: 1 };
export const autorun = false;

const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

/** The smallest log₂ n from which the GPU is faster at every larger measured n; null if never. */
export function crossover(rows) {
  let at = null;
  for (const r of [...rows].reverse()) {
    if (r.gpu !== null && r.gpu < r.cpu) at = r.log2_n;
    else break;
  }
  return at;
}

export async function task(wasm, params, progress) {
  const curve = params.curve;
  if (!CURVES.includes(curve)) throw new Error(`unknown curve ${curve}`);
  const from = Math.round(params.from);
  const to = Math.round(params.to);
  if (!(from >= 1 && to <= 20 && from <= to)) throw new Error(`n from 2^${from} to 2^${to}: choose 2^1 ≤ from ≤ to ≤ 2^20`);
  const repetitions = Math.max(1, Math.round(params.repetitions ?? 3));
  const support = threadSupport();
  const mode = support.modes.shared.ok ? 'shared' : 'message';
  const gpu = !!navigator.gpu && !!(await navigator.gpu.requestAdapter().catch(() => null));
  const pool = await CpuPool.start(mode, support.cores);
  const rows = [];
  const results = [];
  try {
    for (let logn = from; logn <= to; logn++) {
      const n = 2 ** logn;
      const say = (f, text) => progress((logn - from + f) / (to - from + 1), `n = 2^${logn}: ${text}`);
      say(0, 'drawing the input');
      const input = new wasm.CpuMsm(curve, n, SEED, () => {});
      const ref = input.run('arkworks', n, 0, 0, false);
      const points = input.points_bytes(n);
      const scalars = input.scalars_bytes(n);
      input.free();
      await pool.load(curve, points);
      const cpu = { samples: [], verified: true };
      for (let r = 0; r <= repetitions; r++) {
        say(0.2, `CPU, ${support.cores} threads (${mode === 'shared' ? 'shared memory' : 'message passing'})`);
        const t0 = performance.now();
        const out = await pool.msm(wasm, scalars, support.cores);
        if (r > 0) cpu.samples.push(performance.now() - t0); // the first run warms up
        const p = pointHex(out.point);
        cpu.verified &&= p.x === ref.x && p.y === ref.y;
      }
      const gpuRun = { samples: [], verified: true };
      if (gpu) {
        say(0.5, 'GPU');
        const g = new wasm.GpuMsmInput(curve, n, SEED, () => {});
        try {
          await wasm.gpu_msm_compile(curve, 0);
          for (let r = 0; r <= repetitions; r++) {
            const out = await g.gpu(0, 0);
            if (r > 0) gpuRun.samples.push(out.seconds * 1e3);
            gpuRun.verified &&= out.x === ref.x && out.y === ref.y;
          }
        } finally {
          g.free();
        }
      }
      const row = { log2_n: logn, cpu: median(cpu.samples), gpu: gpu ? median(gpuRun.samples) : null };
      rows.push(row);
      results.push({ name: `${curve}/n=2^${logn}/cpu`, params: { curve, n, log2_n: logn, backend: 'cpu', mode, threads: support.cores },
        unit: 'ms', median: row.cpu, min: Math.min(...cpu.samples), max: Math.max(...cpu.samples), samples: cpu.samples.length, verified: cpu.verified });
      if (gpu) {
        results.push({ name: `${curve}/n=2^${logn}/gpu`, params: { curve, n, log2_n: logn, backend: 'gpu' },
          unit: 'ms', median: row.gpu, min: Math.min(...gpuRun.samples), max: Math.max(...gpuRun.samples), samples: gpuRun.samples.length, verified: gpuRun.verified });
      }
    }
  } finally {
    pool.terminate();
  }
  progress(1, 'Done');
  const found = { curve, log2_n: gpu ? crossover(rows) : null, gpu };
  return {
    suite: 'msm-auto',
    device: { name: `browser (${support.cores} logical cores${gpu ? ', WebGPU' : ', no WebGPU'})`, cores: support.cores },
    params: { curve, from, to, repetitions, mode, seed: SEED },
    crossover: { ...found, measured: rows },
    // what backend 'auto' now does at each measured n, and why
    auto: rows.map((r) => ({ log2_n: r.log2_n, ...chooseBackend(curve, 2 ** r.log2_n, found) })),
    results,
    verified: results.length > 0 && results.every((r) => r.verified),
  };
}

export function view(result) {
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
