// backend: 'auto' — where an MSM of n points runs on this device: on the CPU's cores below the
// crossover, on the GPU from it. The crossover is a property of the device, measured here by
// `measureCrossover` (both backends over a few n, on the widgets' seeded input), kept per curve
// in the origin's localStorage and read by the npm package and the book's CPU-or-GPU widget
// alike. Where none is kept, `chooseBackend` falls back to a stated estimate and says so.
import { pointHex } from '../pool/cpu-pool.js';
import { SEED } from './seeded.js';
import { median } from './stats.js';

/**
 * A measured crossover: the GPU from n = 2^log2_n (null: the CPU won at every measured n).
 * @typedef {{ curve: string, log2_n: number | null, gpu: boolean, date?: string, measured_to?: number }} Crossover
 * @typedef {{ log2_n: number, cpu: number, gpu: number | null, cpu_samples: number[], gpu_samples: number[],
 *   check: string, verified: boolean }} CrossoverRow
 * @typedef {{ backend: 'cpu' | 'gpu', why: string, source: 'asked' | 'measured' | 'estimate' }} Choice
 * @typedef {(fraction: number, text: string) => void} Progress
 */

const KEY = (/** @type {string} */ curve) => `fastmsm:crossover:${curve}`;

/**
 * Keeps a measured crossover for `backend: 'auto'` (a page only: workers have no localStorage).
 * @param {Crossover} c
 */
export function saveCrossover(c) {
  try {
    globalThis.localStorage?.setItem(KEY(c.curve), JSON.stringify({
      log2_n: c.log2_n, gpu: c.gpu, measured_to: c.measured_to, date: c.date ?? new Date().toISOString(),
    }));
  } catch { /* storage disabled: auto keeps to its estimate */ }
}

/**
 * The crossover kept for `curve` in this origin, or null.
 * @param {string} curve
 * @returns {Crossover | null}
 */
export function loadCrossover(curve) {
  try {
    const kept = JSON.parse(globalThis.localStorage?.getItem(KEY(curve)) ?? 'null');
    return kept && { curve, ...kept };
  } catch {
    return null;
  }
}

/**
 * Where `auto` runs without a measured crossover on a hardware adapter: from n = 2^16 on the GPU.
 * A rule of thumb, not a measurement: at 2^16 the page's GPU MSM on the H100 took 15-28 ms
 * (benches/results/gpu-msm-browser-chromium-153-nvidia-h100-80gb-hbm3.json) and the threaded
 * WebAssembly MSM on 16 cores of that host 121 ms (BN254) and 199 ms (BLS12-377)
 * (msm-wasm-threads-chromium-153.0.8010.0-intel-xeon-16-cores.json): a margin wide enough that a
 * much smaller GPU still wins there; below it the CPU's cores are the safer bet.
 */
export const ESTIMATED_LOG2_N = 16;

/**
 * `{backend, why, source}` for an MSM of n points on `curve`: from the kept `crossover` where
 * there is one, else the estimate, which `here` informs (`webgpu`: an adapter is offered;
 * `software`: it is a software one).
 * @param {number} n
 * @param {Crossover | null} crossover
 * @param {{ webgpu: boolean, software: boolean }} here
 * @returns {Choice}
 */
export function chooseBackend(n, crossover, here) {
  if (!here.webgpu) return { backend: 'cpu', why: 'no WebGPU adapter here', source: crossover ? 'measured' : 'estimate' };
  if (crossover) {
    const to = crossover.measured_to ? ` (measured up to 2^${crossover.measured_to})` : '';
    if (!crossover.gpu) return { backend: 'cpu', why: 'no WebGPU when the crossover was measured here', source: 'measured' };
    if (crossover.log2_n === null) return { backend: 'cpu', why: `the CPU was faster at every n measured here${to}`, source: 'measured' };
    return n >= 2 ** crossover.log2_n
      ? { backend: 'gpu', why: `n ≥ 2^${crossover.log2_n}, where the GPU was faster here`, source: 'measured' }
      : { backend: 'cpu', why: `n < 2^${crossover.log2_n}, where the CPU was faster here`, source: 'measured' };
  }
  const measure = 'estimated, not measured on this device (measureCrossover() measures it)';
  if (here.software) return { backend: 'cpu', why: `${measure}: a software WebGPU adapter is slower than the CPU's cores`, source: 'estimate' };
  return n >= 2 ** ESTIMATED_LOG2_N
    ? { backend: 'gpu', why: `${measure}: n ≥ 2^${ESTIMATED_LOG2_N} on a hardware GPU`, source: 'estimate' }
    : { backend: 'cpu', why: `${measure}: n < 2^${ESTIMATED_LOG2_N} on a hardware GPU`, source: 'estimate' };
}

/**
 * The smallest log₂ n from which the GPU is faster at every larger measured n; null if never.
 * @param {{ log2_n: number, cpu: number, gpu: number | null }[]} rows
 */
export function crossoverOf(rows) {
  let at = null;
  for (const r of [...rows].reverse()) {
    if (r.gpu !== null && r.gpu < r.cpu) at = r.log2_n;
    else break;
  }
  return at;
}

/** arkworks checks the measured MSMs up to this n (its one-thread MSM costs seconds beyond). */
const ARKWORKS_UP_TO = 2 ** 12;

/**
 * Measures where the GPU overtakes the CPU on `curve`: for n = 2^from, 2^(from+step), … up to
 * 2^to, both backends time whole MSMs (input in the file layout, as the package's msm() takes it)
 * on the widgets' seeded input, `repetitions` times after a warm-up; sizes stop once `seconds`
 * of measuring have passed (the GPU's first run, which compiles its pipelines, is not counted but
 * reported). Each result is checked: the CPU's equals the GPU's at every n, and arkworks' up to
 * 2^12. Without WebGPU only the CPU is timed, up to 2^12.
 * @param {import('./types.js').Wasm} wasm the main package
 * @param {import('./backends.js').MsmBackends} backends
 * @param {{ curve: string, webgpu: boolean, from?: number, to?: number, step?: number,
 *   repetitions?: number, seconds?: number, progress?: Progress }} options
 */
export async function measureCrossover(wasm, backends, {
  curve, webgpu, from = 8, to = 16, step = 2, repetitions = 2, seconds = 3, progress = () => {},
}) {
  if (!(Number.isInteger(from) && Number.isInteger(to) && from >= 1 && to <= 20 && from <= to)) {
    throw new Error(`n from 2^${from} to 2^${to}: choose whole 1 ≤ from ≤ to ≤ 20`);
  }
  if (!(Number.isInteger(step) && step >= 1)) throw new Error(`step ${step}: a whole number ≥ 1`);
  if (!(Number.isInteger(repetitions) && repetitions >= 1)) throw new Error(`repetitions ${repetitions}: a whole number ≥ 1`);
  const last = webgpu ? to : Math.min(to, Math.log2(ARKWORKS_UP_TO));
  /** @type {CrossoverRow[]} */
  const rows = [];
  let spent = 0;
  let gpuFirstMs = null;
  /** @type {{ mode?: string, threads?: number }} */
  let cpuInfo = {};
  const sizes = [];
  for (let logn = from; logn <= last; logn += step) sizes.push(logn);
  for (const [i, logn] of sizes.entries()) {
    if (i > 0 && spent > seconds * 1e3) break;
    const n = 2 ** logn;
    const say = (/** @type {number} */ f, /** @type {string} */ text) => progress((i + f) / sizes.length, `n = 2^${logn}: ${text}`);
    say(0, 'drawing the input');
    const input = new wasm.CpuMsm(curve, n, SEED, () => {});
    let points;
    let scalars;
    let reference = null;
    try {
      points = input.points_bytes(n);
      scalars = input.scalars_bytes(n);
      if (n <= ARKWORKS_UP_TO) reference = input.run('arkworks', n, 0, 0, false);
    } finally {
      input.free();
    }
    /**
     * @param {(p: Progress) => Promise<{ bytes: Uint8Array }>} run
     * @param {number} at
     */
    const time = async (run, at) => {
      const samples = [];
      let out = null;
      for (let r = 0; r <= repetitions; r++) {
        const t0 = performance.now();
        out = await run((f, text) => say(at + 0.4 * f / (repetitions + 1), text));
        const ms = performance.now() - t0;
        if (r > 0) { samples.push(ms); spent += ms; } // the first run warms up
      }
      return { samples, point: pointHex(/** @type {{ bytes: Uint8Array }} */ (out).bytes) };
    };
    say(0.1, 'CPU');
    const cpu = await time(async (p) => {
      const out = await backends.cpu(curve, points, scalars, p);
      cpuInfo = { mode: out.mode, threads: out.threads };
      return out;
    }, 0.1);
    let gpu = null;
    if (webgpu) {
      say(0.5, 'GPU');
      if (gpuFirstMs === null) {
        const t0 = performance.now();
        await backends.gpu(curve, points, scalars, (f, text) => say(0.5 + 0.1 * f, text));
        gpuFirstMs = performance.now() - t0;
      }
      gpu = await time((p) => backends.gpu(curve, points, scalars, p), 0.6);
    }
    const same = (/** @type {{ x: string | null, y: string | null }} */ a, /** @type {{ x: string | null, y: string | null }} */ b) => a.x === b.x && a.y === b.y;
    const checks = [];
    let verified = true;
    if (reference) { checks.push('arkworks'); verified &&= same(cpu.point, reference) && (!gpu || same(gpu.point, reference)); }
    if (gpu) { checks.push('CPU = GPU'); verified &&= same(cpu.point, gpu.point); }
    rows.push({
      log2_n: logn,
      cpu: median(cpu.samples),
      gpu: gpu && median(gpu.samples),
      cpu_samples: cpu.samples,
      gpu_samples: gpu?.samples ?? [],
      check: checks.join(', ') || 'none',
      verified,
    });
  }
  progress(1, 'measured');
  const measuredTo = rows.at(-1)?.log2_n;
  return {
    crossover: { curve, log2_n: webgpu ? crossoverOf(rows) : null, gpu: webgpu, measured_to: measuredTo, date: new Date().toISOString() },
    measured: rows,
    verified: rows.length > 0 && rows.every((r) => r.verified),
    seconds_measuring: spent / 1e3,
    gpu_first_ms: gpuFirstMs,
    cpu: cpuInfo,
  };
}
