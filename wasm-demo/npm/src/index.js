// fastmsm: multi-scalar multiplication in the browser. A session (`createSession`) is one Web
// Worker (worker.js) with its CPU workers and its GPU session — device, profile, compiled
// pipelines — kept for the session's calls, which run one after another, until `dispose()`.
// Sessions share nothing: what one is set to never changes another. `msm()` and
// `measureCrossover()` are one call in a session of their own. Inputs and the result are in the
// layout of the `msm` command-line tool (README.md, index.d.ts).
import { loadCrossover, saveCrossover } from '../../../book/widgets/core/crossover.js';
import { WorkerClient } from '../../../book/widgets/core/rpc.js';

export { loadCrossover, saveCrossover };

const CURVES = ['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377'];
const BACKENDS = ['auto', 'gpu', 'cpu'];

/** @typedef {import('../index.d.ts').SessionOptions} SessionOptions */
/** @typedef {import('../index.d.ts').MsmOptions} MsmOptions */
/** @typedef {import('../index.d.ts').MsmResult} MsmResult */
/** @typedef {import('../index.d.ts').CrossoverOptions} CrossoverOptions */
/** @typedef {import('../index.d.ts').CrossoverMeasurement} CrossoverMeasurement */

/**
 * The bytes of `value` (a Uint8Array, another typed array or an ArrayBuffer), or an error naming `name`.
 * @param {string} name
 * @param {unknown} value
 */
function bytes(name, value) {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  const got = value === null ? 'null' : Array.isArray(value) ? 'an Array' : typeof value;
  throw new TypeError(`${name}: expected a Uint8Array in the msm tool's file layout, got ${got}`);
}

/** @param {unknown} backend */
function checkBackend(backend) {
  if (!BACKENDS.includes(/** @type {string} */ (backend))) {
    throw new TypeError(`backend: ${JSON.stringify(backend)} is not one of ${BACKENDS.map((b) => `'${b}'`).join(', ')}`);
  }
}

/** @param {unknown} transfer */
function checkTransfer(transfer) {
  if (typeof transfer !== 'boolean') throw new TypeError('transfer: expected true or false');
}

/**
 * The buffers of `views` that can move to the worker instead of being copied: each one the whole
 * of its own ArrayBuffer (a part of a larger buffer, or a shared one, is copied as usual).
 * @param {(Uint8Array | null)[]} views
 */
function movable(...views) {
  /** @type {ArrayBuffer[]} */
  const out = [];
  for (const v of views) {
    if (v && v.buffer instanceof ArrayBuffer && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && !out.includes(v.buffer)) out.push(v.buffer);
  }
  return out;
}

/** @param {unknown} onProgress */
function checkProgress(onProgress) {
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError('onProgress: expected a function (fraction, text) => void');
}

/**
 * The session's settings, checked; unknown curves and backends are named.
 * @param {SessionOptions} options
 */
function settings(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('expected an options object { curve, … }');
  const { curve, backend = 'auto', threads, gpuProfile = 'auto', measureCrossover = false, onProgress } = options;
  if (typeof curve !== 'string') throw new TypeError(`curve: expected a curve name (${CURVES.join(', ')}), got ${typeof curve}`);
  if (!CURVES.includes(curve)) throw new TypeError(`unknown curve ${JSON.stringify(curve)}; one of ${CURVES.join(', ')}`);
  checkBackend(backend);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1)) throw new TypeError(`threads: ${threads} is not a whole number ≥ 1`);
  if (typeof gpuProfile !== 'string') throw new TypeError('gpuProfile: expected \'auto\' or a profile name');
  if (typeof measureCrossover !== 'boolean' && (measureCrossover === null || typeof measureCrossover !== 'object')) {
    throw new TypeError('measureCrossover: expected true, false or the options of session.measureCrossover()');
  }
  checkProgress(onProgress);
  const measure = measureCrossover === true ? {} : measureCrossover ? measurement(measureCrossover) : null;
  return { backend, worker: { curve, threads, gpuProfile, measure } };
}

/**
 * The settings of a crossover measurement, as they travel to the worker.
 * @param {CrossoverOptions} options
 */
function measurement({ from, to, step, repetitions, seconds }) {
  return { from, to, step, repetitions, seconds };
}

/** One MSM session: see index.d.ts. */
class Session {
  #client;
  #settings;
  #backend;
  #onProgress;

  /**
   * @param {WorkerClient} client
   * @param {ReturnType<typeof settings>} s what the worker is told with every request, and the default backend
   * @param {SessionOptions['onProgress']} onProgress
   */
  constructor(client, { backend, worker }, onProgress) {
    this.#client = client;
    this.#settings = worker;
    this.#backend = backend;
    this.#onProgress = onProgress;
  }

  get curve() {
    return this.#settings.curve;
  }

  /**
   * @param {MsmOptions} options
   * @returns {Promise<MsmResult>}
   */
  async msm(options) {
    if (options === null || typeof options !== 'object') throw new TypeError('msm: expected an options object { points, scalars, backend? }');
    const { backend = this.#backend, onProgress = this.#onProgress, transfer = false } = options;
    checkBackend(backend);
    checkProgress(onProgress);
    checkTransfer(transfer);
    if (options.curve !== undefined && options.curve !== this.curve) {
      throw new TypeError(`curve: this session is for ${this.curve}, not ${options.curve} (create a session per curve)`);
    }
    // no points: the ones session.loadPoints kept (the worker says so if there are none)
    const points = options.points === undefined ? null : bytes('points', options.points);
    const scalars = bytes('scalars', options.scalars);
    const request = {
      op: 'msm',
      settings: this.#settings,
      points,
      scalars,
      backend,
      // localStorage is the page's (a worker has none): the crossover measured on this device
      crossover: backend === 'auto' ? loadCrossover(this.curve) : null,
    };
    const result = await this.#client.call(request, { onProgress, transfer: transfer ? movable(points, scalars) : [] });
    if (result.measured) saveCrossover(result.measured.crossover);
    return result;
  }

  /**
   * @param {MsmOptions['points']} points
   * @param {{ transfer?: boolean, onProgress?: SessionOptions['onProgress'] }} [options]
   * @returns {Promise<{ n: number }>}
   */
  async loadPoints(points, { transfer = false, onProgress = this.#onProgress } = {}) {
    checkProgress(onProgress);
    checkTransfer(transfer);
    const p = bytes('points', points);
    return this.#client.call({ op: 'points', settings: this.#settings, points: p }, { onProgress, transfer: transfer ? movable(p) : [] });
  }

  /**
   * @param {CrossoverOptions} [options]
   * @returns {Promise<CrossoverMeasurement>}
   */
  async measureCrossover({ onProgress = this.#onProgress, ...rest } = {}) {
    checkProgress(onProgress);
    const options = measurement(rest);
    const m = await this.#client.call({ op: 'measure', settings: this.#settings, options }, { onProgress });
    saveCrossover(m.crossover);
    return m;
  }

  /** Ends the session's worker, its CPU workers and its GPU device; later calls reject. */
  dispose() {
    this.#client.restart = false;
    this.#client.fail('this fastmsm session was disposed');
  }
}

/**
 * A session for `options.curve`, its worker started and its WebAssembly loaded.
 * @param {SessionOptions} options
 */
export async function createSession(options) {
  const s = settings(options);
  const base = options.assets === undefined ? import.meta.url : new URL(String(options.assets), globalThis.location?.href);
  const url = new URL('worker.js', base);
  // A worker that stops rejects the calls in flight; the session's next call starts a new one.
  const client = new WorkerClient(() => new Worker(url, { type: 'module' }), { what: 'the fastmsm worker', restart: true });
  const session = new Session(client, s, options.onProgress);
  try {
    await client.call({ op: 'open', settings: s.worker });
  } catch (e) {
    session.dispose();
    throw e;
  }
  return session;
}

/**
 * `call` in a session of its own, started with `options` and ended after the call.
 * @template T
 * @param {SessionOptions} options
 * @param {(session: Session) => Promise<T>} call
 */
async function once(options, call) {
  const session = await createSession(options);
  try {
    return await call(session);
  } finally {
    session.dispose();
  }
}

/**
 * Σ scalars[i]·points[i] on `options.curve` in a session of its own.
 * @param {SessionOptions & MsmOptions} options
 * @returns {Promise<MsmResult>}
 */
export function msm(options) {
  return once(options, (s) => s.msm(options));
}

/**
 * Measures and keeps the crossover of `options.curve` in a session of its own.
 * @param {SessionOptions & CrossoverOptions} options
 * @returns {Promise<CrossoverMeasurement>}
 */
export function measureCrossover(options) {
  return once(options, (s) => s.measureCrossover(options));
}
