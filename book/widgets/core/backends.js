// The two backends of an MSM in a worker, on input in the `msm` tool's file layout: the CPU pool
// on every core (pool/cpu-pool.js) and a GPU session (core/gpu.js). The npm package's worker runs
// its sessions' MSMs here, and the crossover measurement (core/crossover.js) times both here, in
// the package and in the book's CPU-or-GPU widget alike.
import { CpuPool, bestMode, threadSupport } from '../pool/cpu-pool.js';
import { keepCalibration } from './gpu.js';

/** @typedef {(fraction: number, text: string) => void} Progress */

export class MsmBackends {
  /**
   * @param {import('./types.js').Wasm} wasm the main package (plans and combines the CPU shares)
   * @param {{ packages: URL | string, threads?: number, gpuSession: () => Promise<any>, sharedSession?: boolean }} options
   *   `packages`: the folder of the wasm packages (the pool loads them); `threads`: CPU workers
   *   (default: every core); `gpuSession`: gives the GPU session on the first GPU run, which
   *   `dispose` frees unless it is `sharedSession` (the widget worker's, core/gpu.js).
   */
  constructor(wasm, { packages, threads, gpuSession, sharedSession = false }) {
    this.wasm = wasm;
    this.packages = packages;
    this.threads = threads;
    this.gpuSession = gpuSession;
    this.sharedSession = sharedSession;
    /** @type {CpuPool | null} */
    this.pool = null;
    /** @type {Promise<any> | null} */
    this.session = null;
  }

  /**
   * Σ kᵢ·Pᵢ on every core: `{bytes, mode, threads, modeReason}`.
   * @param {string} curve
   * @param {Uint8Array} points
   * @param {Uint8Array} scalars
   * @param {Progress} progress
   */
  async cpu(curve, points, scalars, progress) {
    const support = threadSupport();
    const mode = bestMode();
    const size = this.threads ?? support.cores;
    if (!this.pool || this.pool.failure || this.pool.mode !== mode || this.pool.size !== size) {
      this.pool?.terminate();
      this.pool = null;
      this.pool = await CpuPool.start(mode, size, this.packages, (f, text) => progress(0.3 * f, text));
    }
    try {
      progress(0.3, `loading ${curve} points into ${size} workers`);
      await this.pool.load(curve, points);
      progress(0.5, `running on ${size} CPU workers (${mode === 'shared' ? 'shared memory' : 'message passing'})`);
      const { point } = await this.pool.msm(this.wasm, scalars, size);
      return { bytes: point, mode, threads: size, modeReason: support.modes[mode].why };
    } catch (e) {
      if (this.pool?.failure) { this.pool.terminate(); this.pool = null; } // the next run starts a new pool
      throw e;
    }
  }

  /**
   * Σ kᵢ·Pᵢ on the GPU session (made on the first call; the input checked, then on the curve's
   * first call the profile set and the curve compiled): `{bytes, profile}`.
   * @param {string} curve
   * @param {Uint8Array} points
   * @param {Uint8Array} scalars
   * @param {Progress} progress
   */
  async gpu(curve, points, scalars, progress) {
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
    const session = await this.session?.catch(() => null);
    if (!this.sharedSession) session?.free();
    this.session = null;
  }
}
