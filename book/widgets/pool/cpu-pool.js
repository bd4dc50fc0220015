// The CPU MSM on every core: a pool of Web Workers (pool-worker.js), started from a worker (the
// book's widget worker or the npm package's), which plans each run, hands out the shares and adds
// the shares' points. One implementation for the book and the npm package (which bundles it).
//
// Two modes:
//  - 'shared': one WebAssembly memory for all (the threads package, built with atomics): the
//    points and scalars are written there once and a request names a share; the workers load
//    the points together, each a span of them, straight into the 51-bit limbs. Needs a
//    cross-origin-isolated page (COOP/COEP headers, or the site's service worker), relaxed SIMD
//    and a fused multiply-add (the package runs the 51-bit FMA product; where the probe finds
//    the multiply-add unfused, `start` rejects with UnfusedFma and the caller runs 'message').
//  - 'message': each worker its own instance of the relaxed-SIMD package (or the main one, where
//    the browser lacks relaxed SIMD) and its own copy of the points; a request carries the
//    scalars (all of them: a share owns some buckets of every point). Works in any page.
// Every result is the same point as one thread's (the split is exact); a worker that stops is
// reported and the pool is closed, never waited on.
import { wasmFeatures } from '../core/features.js';
import { packageUrls } from '../core/packages.js';
import { WorkerClient } from '../core/rpc.js';

/** @typedef {'shared' | 'message'} Mode */
/** @typedef {{ ok: boolean, why: string }} ModeSupport */
/**
 * A package that plans and combines (`msm_plan`, `msm_combine`): the main package, or the
 * threads package in shared mode.
 * @typedef {{ msm_plan: (curve: string, scalars: Uint8Array, shares: number, glv: boolean) => any,
 *   msm_combine: (curve: string, partials: Uint8Array) => Uint8Array }} Planner
 */

/** What this page can run, and why not: `{cores, isolated, modes: {shared, message}}`. */
export function threadSupport() {
  const f = wasmFeatures();
  const cores = Math.max(1, navigator.hardwareConcurrency || 1);
  const shared = !f.cross_origin_isolated
    ? 'the page is not cross-origin isolated (the server sends no COOP/COEP headers and the site\'s service worker has not taken over), so it has no shared memory'
    : !f.shared_memory ? 'this browser has no shared WebAssembly memory'
      : !f.relaxed_simd ? 'the shared-memory package needs WebAssembly relaxed SIMD, which this browser lacks' : null;
  return {
    cores,
    isolated: f.cross_origin_isolated,
    /** @type {{ shared: ModeSupport, message: ModeSupport }} */
    modes: {
      shared: { ok: !shared, why: shared ?? `cross-origin isolated: ${cores} workers share one WebAssembly memory` },
      message: { ok: true, why: `${cores} workers, each with its own memory and copy of the points` },
    },
  };
}

/** The mode this page runs best: shared memory where it can, message passing anywhere. */
export function bestMode() {
  return threadSupport().modes.shared.ok ? 'shared' : 'message';
}

// A worker instantiates a module it was sent, already compiled, in milliseconds; half a minute allows
// for a slow phone under load. Past it the worker is taken to be stuck, not slow: Firefox ESR now
// and then never starts a worker created from a worker, which wasm-demo/tests/firefox-workers/
// reproduces without any of our code — within a few dozen starts while a WebDriver BiDi session
// is open (so the E2E suite drives Firefox over Marionette), and once in more than 10 000 starts
// without one, which a reader can meet.
const START_SECONDS = 30;
// Pools started before giving up: a stuck start is rare, so a second pool succeeds.
const START_ATTEMPTS = 3;

/** Pools started in this worker: each shared-memory pool imports its own copy of the glue. */
let poolsStarted = 0;

/** A worker that did not answer its start in time. */
class StartTimeout extends Error {}

/** The shared-memory package's product needs a fused multiply-add, and this machine's is not. */
export class UnfusedFma extends Error {}

/**
 * Options of a pool.
 * @typedef {{ pretendUnfusedFma?: boolean }} PoolOptions `pretendUnfusedFma` (for the tests):
 *   act as if the multiply-add probe had failed, so that the exact fallbacks run here
 */

/**
 * `promise`, or a StartTimeout with `message` after START_SECONDS.
 * @template T
 * @param {Promise<T>} promise
 * @param {string} message
 * @returns {Promise<T>}
 */
function withTimeout(promise, message) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new StartTimeout(message)), START_SECONDS * 1000); });
  return /** @type {Promise<T>} */ (Promise.race([promise, late]).finally(() => clearTimeout(timer)));
}

export class CpuPool {
  /**
   * Starts `size` workers in `mode`; rejects with the reason if they cannot start.
   * @param {Mode} mode
   * @param {number} size
   * @param {URL | string} packages the folder holding pkg/, pkg-relaxed/ and pkg-threads/
   * @param {(fraction: number, text: string) => void} [progress]
   * @param {PoolOptions} [options]
   */
  static async start(mode, size, packages, progress = () => {}, options = {}) {
    /** @type {'threads' | 'relaxed' | 'main'} */
    let which = mode === 'shared' ? 'threads' : wasmFeatures().relaxed_simd && !options.pretendUnfusedFma ? 'relaxed' : 'main';
    for (let attempt = 1; ; attempt++) {
      const pool = new CpuPool(mode, size, which, packages, options);
      try {
        if (await pool.#init(progress)) return pool;
      } catch (e) {
        pool.terminate();
        // A worker that never finished starting (see START_SECONDS): a new pool, new workers.
        if (e instanceof StartTimeout && attempt < START_ATTEMPTS) {
          progress(0, `${e.message}; starting the pool again (attempt ${attempt + 1} of ${START_ATTEMPTS})`);
          continue;
        }
        throw e;
      }
      // relaxed SIMD validates but its multiply-add is not fused: the 30-bit package instead
      pool.terminate();
      which = 'main';
    }
  }

  /**
   * @param {Mode} mode
   * @param {number} size
   * @param {'threads' | 'relaxed' | 'main'} which
   * @param {URL | string} packages
   * @param {PoolOptions} [options]
   */
  constructor(mode, size, which, packages, options = {}) {
    if (!['shared', 'message'].includes(mode)) throw new Error(`unknown thread mode ${mode}: 'shared' or 'message'`);
    if (!(size >= 1)) throw new Error(`a pool of ${size} workers: at least 1`);
    this.mode = mode;
    this.size = size;
    this.package = which;
    this.packages = packages;
    this.options = options;
    /** @type {WorkerClient[]} */
    this.workers = [];
    /** @type {string | null} */
    this.failure = null;
    /** @type {any} the threads package's module, in shared mode */
    this.pkg = null;
    /** @type {any} the bases in shared memory, in shared mode */
    this.bases = null;
    this.curve = '';
    this.n = 0;
  }

  /**
   * Starts the workers; false when the package's product cannot run here (an unfused FMA).
   * @param {(fraction: number, text: string) => void} progress
   */
  async #init(progress) {
    const { glue, wasm } = packageUrls(this.package, this.packages);
    let module;
    let memory;
    progress(0, `Loading the ${this.package} package`);
    if (this.mode === 'shared') {
      // The coordinator's own instance creates the shared memory; the workers join it. An
      // import of its own (a URL no other pool uses): the module cache would otherwise hand every
      // pool of this worker the same instance, so two pools would silently share one memory,
      // one heap and the glue's state; each pool owns what it starts.
      this.pkg = await import(`${glue}?pool=${++poolsStarted}`);
      await this.pkg.default({ module_or_path: wasm });
      if (!this.pkg.shares_limbs_ok() || this.options.pretendUnfusedFma) {
        throw new UnfusedFma(`f64x2.relaxed_madd is not fused here${this.options.pretendUnfusedFma ? ' (pretended, for a test)' : ''}; the shared-memory package needs a fused multiply-add`);
      }
      [module, memory] = this.pkg.shared_module_and_memory();
    } else {
      progress(0, `Compiling the ${this.package} package`);
      module = await WebAssembly.compileStreaming(fetch(wasm));
    }
    progress(0, `Starting ${this.size} workers`);
    for (let i = 0; i < this.size; i++) {
      this.workers.push(new WorkerClient(() => new Worker(new URL('./pool-worker.js', import.meta.url), { type: 'module' }),
        { what: `CPU worker ${i}`, onFail: (message) => this.#fail(message) }));
    }
    const init = (/** @type {number} */ i) => withTimeout(this.workers[i].call({ op: 'init', glue, module, memory }),
      `CPU worker ${i} did not finish starting within ${START_SECONDS} s (${this.mode === 'shared' ? 'shared memory' : 'message passing'})`);
    /** @type {{ limbsOk: boolean }[]} */
    const inits = [];
    if (this.mode === 'shared') {
      // One at a time, each after the one before it has joined the shared memory (its stack and
      // thread-local storage are allocated there); a start costs milliseconds. Under WebDriver
      // BiDi, Firefox left pools whose workers all started at once stuck in two runs of five,
      // and none of twelve started this way.
      for (let i = 0; i < this.size; i++) {
        progress(i / this.size, `Starting CPU worker ${i + 1} of ${this.size} (shared memory)`);
        inits.push(await init(i));
      }
    } else {
      inits.push(...await Promise.all(this.workers.map((_, i) => init(i))));
    }
    if (!inits[0].limbsOk) return false;
    progress(1, `${this.size} workers ready (${this.package} package)`);
    return true;
  }

  /** @param {string} message */
  #fail(message) {
    if (this.failure) return;
    this.failure = message;
    for (const w of this.workers) w.fail(message);
  }

  /**
   * @param {number} i
   * @param {Record<string, any>} message
   * @param {Transferable[]} [transfer]
   */
  #call(i, message, transfer = []) {
    if (this.failure) return Promise.reject(new Error(this.failure));
    return this.workers[i].call(message, { transfer });
  }

  /**
   * Loads the points (the file layout of `curve`) for the MSMs that follow: parsed, checked and
   * converted into each package's limbs. In shared mode every worker loads a span of them into
   * the one memory at once; in message mode each worker loads all of them into its own.
   * @param {string} curve
   * @param {Uint8Array} points
   */
  async load(curve, points) {
    if (!points.length) throw new Error('n = 0: an MSM needs at least one point');
    this.curve = curve;
    if (this.mode === 'shared') {
      this.bases?.free();
      this.bases = null; // freed: a load that fails below must not leave it to be freed again
      const bases = this.pkg.MsmBases.reserve(curve, points);
      try {
        const { n, address } = bases;
        const spans = this.workers.map((_, i) => [Math.floor(n * i / this.size), Math.floor(n * (i + 1) / this.size)]);
        const replies = await Promise.allSettled(spans.map(([start, end], i) => this.#call(i, { op: 'sharedLoad', address, start, end })));
        // the first bad point in input order: spans are in order, and each reports its first
        const failed = replies.find((r) => r.status === 'rejected');
        if (failed) throw /** @type {PromiseRejectedResult} */ (failed).reason;
        bases.finish_load();
      } catch (e) {
        bases.free();
        throw e;
      }
      this.bases = bases;
      this.n = bases.n;
    } else {
      const replies = await Promise.all(this.workers.map((_, i) => this.#call(i, { op: 'load', curve, points })));
      this.n = replies[0].n;
    }
  }

  /**
   * The MSM of the loaded points with `scalars` (32 bytes each), cut into `threads` shares:
   * `{ point (file layout), plan }`.
   * @param {Planner} planner the main package (message mode plans and combines there)
   * @param {Uint8Array} scalars
   * @param {number} threads
   * @param {boolean} [glv]
   * @returns {Promise<{ point: Uint8Array, plan: any }>}
   */
  async msm(planner, scalars, threads, glv = false) {
    if (this.failure) throw new Error(this.failure);
    if (scalars.length !== this.n * 32) {
      throw new Error(`${this.n} points but ${scalars.length / 32} scalars (${scalars.length} bytes)`);
    }
    /** @type {{ point: Uint8Array }[]} */
    let partials;
    let plan;
    if (this.mode === 'shared') {
      // parsed and checked once, then planned from what was kept
      this.bases.keep_scalars(scalars);
      plan = this.bases.plan(threads, glv);
      const address = this.bases.address;
      partials = await Promise.all(plan.shares.map((/** @type {any} */ _, /** @type {number} */ t) => this.#call(t % this.size, { op: 'sharedShare', address, plan, share: t })));
    } else {
      plan = planner.msm_plan(this.curve, scalars, threads, glv);
      // a share owns buckets of every point, so each reads all the scalars: a copy each, moved
      partials = await Promise.all(plan.shares.map((/** @type {any} */ _, /** @type {number} */ t) => {
        const mine = scalars.slice();
        return this.#call(t % this.size, { op: 'share', plan, share: t, scalars: mine }, [mine.buffer]);
      }));
    }
    const size = partials[0]?.point.length ?? 0;
    const all = new Uint8Array(size * partials.length);
    partials.forEach((p, i) => all.set(p.point, i * size));
    const combiner = this.mode === 'shared' ? this.pkg : planner;
    return { point: combiner.msm_combine(this.curve, all), plan };
  }

  /** For the tests: makes worker `i` die outside any request. */
  crashWorker(i = 0) {
    this.workers[i].call({ op: 'crash' }).catch(() => {});
  }

  terminate() {
    this.bases?.free?.();
    this.bases = null;
    this.#fail('the pool was closed');
  }
}

/**
 * Little-endian coordinates of one point (file layout) as hex, `{x: null, y: null}` for the
 * short-Weierstrass identity (all zero bytes).
 * @param {Uint8Array} bytes
 * @returns {{ x: string | null, y: string | null }}
 */
export function pointHex(bytes) {
  const half = bytes.length / 2;
  /** @param {Uint8Array} b */
  const hex = (b) => {
    let v = 0n;
    for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
    return `0x${v.toString(16)}`;
  };
  if (bytes.every((b) => b === 0)) return { x: null, y: null };
  return { x: hex(bytes.subarray(0, half)), y: hex(bytes.subarray(half)) };
}
