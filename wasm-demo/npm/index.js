// fastmsm: `await msm({ curve, points, scalars, backend, onProgress })`. The MSM runs in a Web
// Worker (worker.js), started on the first call and kept, with its CPU workers and GPU pipelines,
// for the calls that follow; calls run one after another. Inputs and the result are in the layout
// of the `msm` command-line tool (README.md, index.d.ts).
import { loadCrossover } from './lib/auto-backend.js';

export { loadCrossover, saveCrossover } from './lib/auto-backend.js';

const BACKENDS = ['auto', 'gpu', 'cpu'];

let worker = null;
let nextId = 1;
const pending = new Map();

function failAll(message) {
  for (const job of pending.values()) job.reject(new Error(message));
  pending.clear();
  worker?.terminate();
  worker = null; // the next call starts a new worker
}

function start() {
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  w.onerror = (e) => {
    e.preventDefault?.();
    failAll(`the fastmsm worker stopped: ${e.message || 'it could not load or crashed'}`);
  };
  w.onmessageerror = () => failAll('the fastmsm worker sent a message that could not be read');
  w.onmessage = ({ data }) => {
    const job = pending.get(data.id);
    if (!job) return;
    if (data.type === 'progress') {
      try { job.onProgress?.(data.fraction, data.text); } catch { /* a caller's callback never stops the run */ }
      return;
    }
    pending.delete(data.id);
    if (data.type === 'result') job.resolve(data.result);
    else job.reject(new Error(data.message));
  };
  return w;
}

/** The bytes of `value` (a Uint8Array, another typed array or an ArrayBuffer), or an error naming `name`. */
function bytes(name, value) {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  const got = value === null ? 'null' : Array.isArray(value) ? 'an Array' : typeof value;
  throw new TypeError(`${name}: expected a Uint8Array in the msm tool's file layout, got ${got}`);
}

/**
 * Σ scalars[i]·points[i] on `curve`. See index.d.ts for the options and the result.
 * @param {import('./index.d.ts').MsmOptions} options
 * @returns {Promise<import('./index.d.ts').MsmResult>}
 */
export async function msm(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('msm: expected an options object { curve, points, scalars, backend? }');
  const { curve, backend = 'auto', onProgress, threads, gpuProfile = 'auto' } = options;
  if (typeof curve !== 'string') throw new TypeError(`curve: expected a curve name (bn254, bls12-377, bls12-381, ed-on-bls12-377), got ${typeof curve}`);
  if (!BACKENDS.includes(backend)) throw new TypeError(`backend: ${JSON.stringify(backend)} is not one of ${BACKENDS.map((b) => `'${b}'`).join(', ')}`);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1)) throw new TypeError(`threads: ${threads} is not a whole number ≥ 1`);
  if (typeof gpuProfile !== 'string') throw new TypeError('gpuProfile: expected \'auto\' or a profile name');
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError('onProgress: expected a function (fraction, text) => void');
  const request = {
    curve,
    points: bytes('points', options.points),
    scalars: bytes('scalars', options.scalars),
    backend,
    threads,
    gpuProfile,
    // localStorage is the page's (a worker has none): the crossover the msm-auto widget measured
    crossover: backend === 'auto' ? loadCrossover(curve) : null,
  };
  worker ??= start();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, onProgress });
    worker.postMessage({ id, ...request });
  });
}

/** Ends the worker (and its CPU workers and GPU device); a later `msm()` starts a new one. */
export function dispose() {
  failAll('the fastmsm worker was disposed');
}
