// The worker behind `msm()` (index.js): checks the input's shape, picks the backend and runs it.
//  - cpu: the pool of the book's CPU MSM (lib/cpu-pool.js, copied from book/widgets by `make npm`)
//    on every core: one shared WebAssembly memory where this page is cross-origin isolated,
//    message passing between the workers anywhere else;
//  - gpu: msm_gpu of the main package (wasm-demo/src/msm_api.rs) on this worker's WebGPU device;
//  - auto: lib/auto-backend.js's choice from the crossover the page has kept, else its stated rule.
// Requests run one at a time; every one is answered with its result or its error.
import init, * as wasm from './wasm/pkg/fastmsm.js';
import { CpuPool, threadSupport } from './lib/cpu-pool.js';
import { chooseBackend } from './lib/auto-backend.js';

const PACKAGES = new URL('./wasm/', import.meta.url);
const ready = init({ module_or_path: new URL('./wasm/pkg/fastmsm_bg.wasm', import.meta.url) });

let pool = null;

async function cpu({ curve, points, scalars, threads }, progress) {
  const support = threadSupport();
  const mode = support.modes.shared.ok ? 'shared' : 'message';
  const size = threads ?? support.cores;
  if (!pool || pool.failure || pool.mode !== mode || pool.size !== size) {
    pool?.terminate();
    pool = null;
    pool = await CpuPool.start(mode, size, (f, text) => progress(0.3 * f, text), PACKAGES);
  }
  progress(0.3, `loading ${curve} points into ${size} workers`);
  await pool.load(curve, points);
  progress(0.5, `running on ${size} CPU workers (${mode === 'shared' ? 'shared memory' : 'message passing'})`);
  const { point } = await pool.msm(wasm, scalars, size);
  return { bytes: point, mode, threads: size, modeReason: support.modes[mode].why };
}

async function gpu({ curve, points, scalars, gpuProfile }, progress) {
  if (!navigator.gpu) throw new Error('backend \'gpu\': this browser has no WebGPU (navigator.gpu is missing in the worker)');
  const bytes = await wasm.msm_gpu(curve, points, scalars, gpuProfile, (f, text) => progress(0.8 * f, text));
  return { bytes };
}

async function run(request, progress) {
  const t0 = performance.now();
  await ready;
  const { curve, points, scalars, backend } = request;
  progress(0, 'checking the input');
  const n = wasm.msm_input_size(curve, points.length, scalars.length);
  let choice;
  if (backend === 'auto') {
    choice = chooseBackend(curve, n, request.crossover);
    if (choice.backend === 'gpu' && !navigator.gpu) {
      choice = { backend: 'cpu', why: `${choice.why}, but this browser has no WebGPU now` };
    }
  } else {
    choice = { backend, why: `backend '${backend}' was asked for` };
  }
  const out = choice.backend === 'gpu' ? await gpu(request, progress) : await cpu(request, progress);
  const point = wasm.msm_result_line(curve, out.bytes);
  progress(1, 'done');
  const { bytes, ...details } = out;
  return { point, bytes, backend: choice.backend, reason: choice.why, ms: performance.now() - t0, n, curve, ...details };
}

let queue = Promise.resolve();
self.onmessage = ({ data }) => {
  const { id, ...request } = data;
  const progress = (fraction, text) => self.postMessage({ id, type: 'progress', fraction, text });
  queue = queue.then(async () => {
    try {
      const result = await run(request, progress);
      self.postMessage({ id, type: 'result', result }, [result.bytes.buffer]);
    } catch (e) {
      if (pool?.failure) { pool.terminate(); pool = null; }
      self.postMessage({ id, type: 'error', message: String(e?.message ?? e) });
    }
  });
};
