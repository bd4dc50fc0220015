// The worker of the same-page WebAssembly comparison (book/bench/peer-wasm.html, peer-wasm.js):
// it draws the seeded input with the main package's CpuMsm (the widgets' input), computes
// arkworks' MSM of it once as the reference, and runs the threads widget's pool
// (pool/cpu-pool.js, shared memory) on it, timed as the threads widget times it: the points are
// loaded once per n (not timed), each `msm` call is timed around `pool.msm` alone.
import { loadPackage } from '../widgets/core/packages.js';
import { Transfer, serve } from '../widgets/core/rpc.js';
import { SEED } from '../widgets/core/seeded.js';
import { CpuPool, pointHex } from '../widgets/pool/cpu-pool.js';

/** @type {CpuPool | null} */
let pool = null;
/** @type {Uint8Array | null} the scalars of the loaded input */
let scalars = null;

serve({
  /** The seeded input of `curve`, n = 2^logn, in the msm tool's layout, and arkworks' MSM of it. */
  async input({ curve, logn }, progress) {
    const wasm = await loadPackage('main');
    const n = 2 ** logn;
    const input = new wasm.CpuMsm(curve, n, SEED, (/** @type {number} */ f, /** @type {string} */ t) => progress(0.5 * f, t));
    try {
      progress(0.5, `arkworks' MSM of 2^${logn} points, one thread (the reference)`);
      const reference = input.run('arkworks', n, 0, 0, false);
      const points = input.points_bytes(n);
      const s = input.scalars_bytes(n);
      return new Transfer({ points, scalars: s, reference: { x: reference.x, y: reference.y }, seed: SEED }, [points.buffer, s.buffer]);
    } finally {
      input.free();
    }
  },

  /** A shared-memory pool of `threads` workers, the widget's, with the points of `curve` loaded. */
  async pool({ curve, threads, points, scalars: s }) {
    pool?.terminate();
    pool = null;
    pool = await CpuPool.start('shared', threads, new URL('../generated/', import.meta.url));
    await pool.load(curve, points);
    scalars = s;
    return { package: pool.package };
  },

  /** One MSM on the pool: `{ms, x, y, window}`, timed around pool.msm as the threads widget does. */
  async msm({ threads, glv = false }) {
    if (!pool || !scalars) throw new Error('no pool: ask for one first');
    const wasm = await loadPackage('main');
    const t0 = performance.now();
    const out = await pool.msm(wasm, scalars, threads, glv);
    const ms = performance.now() - t0;
    return { ms, ...pointHex(out.point), window: out.plan.window_bits };
  },

  close() {
    pool?.terminate();
    pool = null;
    scalars = null;
    return null;
  },
});
