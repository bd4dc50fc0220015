// The CPU MSM on every core: a pool of Web Workers (pool-worker.js), started from the widget
// worker, which plans each run, hands out the shares and adds the shares' points.
//
// Two modes:
//  - 'shared': one WebAssembly memory for all (the threads package, built with atomics): the
//    points and scalars are written there once and a request names a share. Needs a
//    cross-origin-isolated page (COOP/COEP headers, or the site's service worker) and relaxed
//    SIMD (the package runs the 51-bit FMA product).
//  - 'message': each worker its own instance of the relaxed-SIMD package (or the main one, where
//    the browser lacks relaxed SIMD) and its own copy of the points; a request carries the
//    scalars its share reads. Works in any page.
// Every result is the same point as one thread's (the split is exact); a worker that stops is
// reported and the pool is closed, never waited on.
import { wasmFeatures } from './capabilities.js';

// Where the three packages lie (one folder each, as `make wasm*` writes them): the book's generated
// folder by default; the npm package (wasm-demo/npm) passes its own to `start`.
const BOOK_PACKAGES = new URL('../generated/', import.meta.url);
const PACKAGES = {
  threads: { glue: 'pkg-threads/fastmsm_threads.js', wasm: 'pkg-threads/fastmsm_threads_bg.wasm' },
  relaxed: { glue: 'pkg-relaxed/fastmsm_relaxed.js', wasm: 'pkg-relaxed/fastmsm_relaxed_bg.wasm' },
  main: { glue: 'pkg/fastmsm.js', wasm: 'pkg/fastmsm_bg.wasm' },
};

/** What this page can run, and why not: `{cores, modes: {shared: {ok, why}, message: {ok, why}}}`. */
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
    modes: {
      shared: { ok: !shared, why: shared ?? `cross-origin isolated: ${cores} workers share one WebAssembly memory` },
      message: { ok: true, why: `${cores} workers, each with its own memory and copy of the points` },
    },
  };
}

let nextId = 1;

export class CpuPool {
  /**
   * Starts `size` workers in `mode` ('shared' or 'message'); rejects with the reason if they cannot
   * start. `packages`: the URL of the folder holding pkg/, pkg-relaxed/ and pkg-threads/.
   */
  static async start(mode, size, progress = () => {}, packages = BOOK_PACKAGES) {
    let which = mode === 'shared' ? 'threads' : wasmFeatures().relaxed_simd ? 'relaxed' : 'main';
    for (;;) {
      const pool = new CpuPool(mode, size, which, packages);
      try {
        const fused = await pool.#init(progress);
        if (fused) return pool;
      } catch (e) {
        pool.terminate();
        throw e;
      }
      // relaxed SIMD validates but its multiply-add is not fused: the 30-bit package instead
      pool.terminate();
      which = 'main';
    }
  }

  constructor(mode, size, which, packages = BOOK_PACKAGES) {
    if (!['shared', 'message'].includes(mode)) throw new Error(`unknown thread mode ${mode}: 'shared' or 'message'`);
    if (!(size >= 1)) throw new Error(`a pool of ${size} workers: at least 1`);
    this.mode = mode;
    this.size = size;
    this.package = which;
    this.packages = packages;
    this.workers = [];
    this.pending = new Map();
    this.failure = null;
  }

  /** Starts the workers; false when the package's product cannot run here (an unfused FMA). */
  async #init(progress) {
    const pkg = PACKAGES[this.package];
    const pkgUrl = (path) => new URL(path, this.packages);
    const glue = pkgUrl(pkg.glue).href;
    let module;
    let memory;
    progress(0, `Loading the ${this.package} package`);
    if (this.mode === 'shared') {
      // the coordinator's own instance creates the shared memory; the workers join it
      this.pkg = await import(glue);
      await this.pkg.default({ module_or_path: pkgUrl(pkg.wasm) });
      if (!this.pkg.shares_limbs_ok()) throw new Error('f64x2.relaxed_madd is not fused here; the shared-memory package needs a fused multiply-add');
      [module, memory] = this.pkg.shared_module_and_memory();
    } else {
      module = await WebAssembly.compileStreaming(fetch(pkgUrl(pkg.wasm)));
    }
    for (let i = 0; i < this.size; i++) {
      const w = new Worker(new URL('./pool-worker.js', import.meta.url), { type: 'module' });
      w.onerror = (e) => { e.preventDefault?.(); this.#fail(`CPU worker ${i} stopped: ${e.message ?? 'unknown error'}`); };
      w.onmessageerror = () => this.#fail(`CPU worker ${i} sent a message that could not be read`);
      w.onmessage = ({ data }) => {
        const job = this.pending.get(data.id);
        if (!job) return;
        this.pending.delete(data.id);
        if (data.ok) job.resolve(data);
        else job.reject(new Error(data.message));
      };
      this.workers.push(w);
    }
    const inits = await Promise.all(this.workers.map((_, i) => this.#call(i, { op: 'init', glue, module, memory })));
    if (!inits[0].limbsOk) return false;
    progress(1, `${this.size} workers ready (${this.package} package)`);
    return true;
  }

  #fail(message) {
    this.failure ??= message;
    for (const { reject } of this.pending.values()) reject(new Error(message));
    this.pending.clear();
    for (const w of this.workers) w.terminate();
  }

  #call(i, message, transfer = []) {
    if (this.failure) return Promise.reject(new Error(this.failure));
    return new Promise((resolve, reject) => {
      const id = nextId++;
      this.pending.set(id, { resolve, reject });
      this.workers[i].postMessage({ id, ...message }, transfer);
    });
  }

  /** Loads the points (the file layout of `curve`) for the MSMs that follow. */
  async load(curve, points) {
    if (!points.length) throw new Error('n = 0: an MSM needs at least one point');
    this.curve = curve;
    if (this.mode === 'shared') {
      this.bases?.free();
      this.bases = null; // freed: a load that fails below must not leave it to be freed again
      this.bases = new this.pkg.MsmBases(curve, points);
      this.n = this.bases.n;
    } else {
      const replies = await Promise.all(this.workers.map((_, i) => this.#call(i, { op: 'load', curve, points })));
      this.n = replies[0].n;
    }
  }

  /**
   * The MSM of the loaded points with `scalars` (32 bytes each), cut into `threads` shares:
   * `{ point (file layout), plan }`. `planner` is a package with `msm_plan` and `msm_combine`.
   */
  async msm(planner, scalars, threads, glv = false) {
    if (this.failure) throw new Error(this.failure);
    if (scalars.length !== this.n * 32) {
      throw new Error(`${this.n} points but ${scalars.length / 32} scalars (${scalars.length} bytes)`);
    }
    let partials;
    let plan;
    if (this.mode === 'shared') {
      this.bases.keep_scalars(scalars);
      plan = this.pkg.msm_plan(this.curve, scalars, threads, glv);
      const address = this.bases.address;
      partials = await Promise.all(plan.shares.map((_, t) => this.#call(t % this.size, { op: 'sharedShare', address, plan, share: t })));
    } else {
      plan = planner.msm_plan(this.curve, scalars, threads, glv);
      partials = await Promise.all(plan.spans.map(([a, b], t) => {
        const mine = scalars.slice(32 * a, 32 * b);
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
    this.workers[i].postMessage({ id: 0, op: 'crash' });
  }

  terminate() {
    this.bases?.free?.();
    this.bases = null;
    for (const w of this.workers) w.terminate();
    this.failure ??= 'the pool was closed';
  }
}

/** Little-endian coordinates of one point (file layout) as hex, `{x: null, y: null}` for the SW identity. */
export function pointHex(bytes) {
  const half = bytes.length / 2;
  const hex = (b) => {
    let v = 0n;
    for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
    return `0x${v.toString(16)}`;
  };
  if (bytes.every((b) => b === 0)) return { x: null, y: null };
  return { x: hex(bytes.subarray(0, half)), y: hex(bytes.subarray(half)) };
}
