// The two backends of an MSM in a worker, on input in the `msm` tool's file layout: the CPU pool
// on every core (pool/cpu-pool.js) and a GPU session (core/gpu.js). The npm package's worker runs
// its sessions' MSMs here, and the crossover measurement (core/crossover.js) times both here, in
// the package and in the book's CPU-or-GPU widget alike.
import { CpuPool, UnfusedFma, bestMode, threadSupport } from '../pool/cpu-pool.js';
import { keepCalibration } from './gpu.js';

/** @typedef {(fraction: number, text: string) => void} Progress */

export class MsmBackends {
  /**
   * @param {import('./types.js').Wasm} wasm the main package (plans and combines the CPU shares)
   * @param {{ packages: URL | string, threads?: number, gpuSession: () => Promise<any>, sharedSession?: boolean,
   *   pool?: import('../pool/cpu-pool.js').PoolOptions }} options
   *   `packages`: the folder of the wasm packages (the pool loads them); `threads`: CPU workers
   *   (default: every core); `gpuSession`: gives the GPU session on the first GPU run, which
   *   `dispose` frees unless it is `sharedSession` (the widget worker's, core/gpu.js); `pool`: the
   *   CPU pool's options (the tests' `pretendUnfusedFma`).
   */
  constructor(wasm, { packages, threads, gpuSession, sharedSession = false, pool = {} }) {
    this.wasm = wasm;
    this.packages = packages;
    this.threads = threads;
    this.gpuSession = gpuSession;
    this.sharedSession = sharedSession;
    this.poolOptions = pool;
    /** @type {CpuPool | null} */
    this.pool = null;
    /** @type {{ mode: string, size: number, why: string } | null} what the pool was started for, and why its mode */
    this.poolFor = null;
    /** @type {Promise<any> | null} */
    this.session = null;
    /**
     * The points the pool holds: the session's kept ones (`keepPoints`) or a call's own.
     * @type {{ curve: string, points: Uint8Array } | null}
     */
    this.kept = null;
    this.poolHoldsKept = false;
  }

  /**
   * The CPU pool for `size` workers in the best mode this page can run, started once and kept.
   * Where shared memory cannot run its product (an unfused multiply-add), message passing with
   * the exact 30-bit product instead, and the reason says so.
   * @param {number} size
   * @param {Progress} progress
   */
  async #cpuPool(size, progress) {
    const support = threadSupport();
    const mode = bestMode();
    if (this.pool && !this.pool.failure && this.poolFor?.mode === mode && this.poolFor.size === size) {
      return { pool: this.pool, why: this.poolFor.why };
    }
    this.pool?.terminate();
    this.pool = null;
    this.poolHoldsKept = false;
    const say = (/** @type {number} */ f, /** @type {string} */ text) => progress(0.3 * f, text);
    let why = support.modes[mode].why;
    let pool;
    try {
      pool = await CpuPool.start(mode, size, this.packages, say, this.poolOptions);
    } catch (e) {
      if (!(e instanceof UnfusedFma)) throw e;
      why = `${e.message}: message passing between the workers instead, on exact 30-bit products`;
      pool = await CpuPool.start('message', size, this.packages, say, this.poolOptions);
    }
    this.pool = pool;
    this.poolFor = { mode, size, why };
    return { pool, why };
  }

  /**
   * Keeps `points` (the file layout of `curve`) as the session's points, checked and loaded into
   * the CPU pool now: later calls without points use them (the GPU gets the kept bytes).
   * @param {string} curve
   * @param {Uint8Array} points
   * @param {Progress} progress
   */
  async keepPoints(curve, points, progress) {
    this.kept = null;
    const size = this.threads ?? threadSupport().cores;
    const { pool } = await this.#cpuPool(size, progress);
    this.poolHoldsKept = false;
    progress(0.3, `loading ${curve} points into ${size} workers`);
    await pool.load(curve, points);
    this.kept = { curve, points };
    this.poolHoldsKept = true;
    return { n: pool.n };
  }

  /**
   * Σ kᵢ·Pᵢ on every core: `{bytes, mode, threads, modeReason}`. `points` null: the kept ones.
   * @param {string} curve
   * @param {Uint8Array | null} points
   * @param {Uint8Array} scalars
   * @param {Progress} progress
   */
  async cpu(curve, points, scalars, progress) {
    const size = this.threads ?? threadSupport().cores;
    const { pool, why } = await this.#cpuPool(size, progress);
    try {
      if (points) {
        progress(0.3, `loading ${curve} points into ${size} workers`);
        this.poolHoldsKept = false;
        await pool.load(curve, points);
      } else if (!this.poolHoldsKept) {
        const kept = this.keptPoints(curve);
        progress(0.3, `loading the session's ${curve} points into ${size} workers`);
        await pool.load(curve, kept);
        this.poolHoldsKept = true;
      }
      progress(0.5, `running on ${size} CPU workers (${pool.mode === 'shared' ? 'shared memory' : 'message passing'})`);
      const { point } = await pool.msm(this.wasm, scalars, size);
      return { bytes: point, mode: pool.mode, threads: size, modeReason: why };
    } catch (e) {
      if (this.pool?.failure) { this.pool.terminate(); this.pool = null; } // the next run starts a new pool
      throw e;
    }
  }

  /**
   * The kept points of `curve`, or an error saying how to give some.
   * @param {string} curve
   */
  keptPoints(curve) {
    if (!this.kept || this.kept.curve !== curve) throw new Error('no points: give points to this call, or keep some first (session.loadPoints)');
    return this.kept.points;
  }

  /**
   * Σ kᵢ·Pᵢ on the GPU session (made on the first call; the input checked, then on the curve's
   * first call the profile set and the curve compiled): `{bytes, profile}`.
   * @param {string} curve
   * @param {Uint8Array | null} points null: the kept ones
   * @param {Uint8Array} scalars
   * @param {Progress} progress
   */
  async gpu(curve, points, scalars, progress) {
    points ??= this.keptPoints(curve);
    if (!(/** @type {any} */ (navigator).gpu)) throw new Error('backend \'gpu\': this browser has no WebGPU (navigator.gpu is missing in the worker)');
    this.session ??= this.gpuSession();
    const session = await this.session;
    progress(0, 'checking the input, then (once per curve) the device profile and pipelines');
    const { bytes, profile } = await session.msm(curve, points, scalars, (f, text) => progress(0.9 * f, text));
    await keepCalibration(profile);
    return { bytes, profile: { origin: profile.origin, summary: profile.summary } };
  }

  /** Ends the CPU workers and frees the GPU session (unless shared). */
  async dispose() {
    this.pool?.terminate();
    this.pool = null;
    this.kept = null;
    const session = await this.session?.catch(() => null);
    if (!this.sharedSession) session?.free();
    this.session = null;
  }
}
