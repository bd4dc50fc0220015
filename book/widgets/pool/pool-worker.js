// One worker of the CPU MSM's pool (cpu-pool.js). It instantiates the package it is sent:
//  - message passing: the main or relaxed-SIMD package in a memory of its own; the points are
//    loaded into it once, and each request brings the scalars of one share;
//  - shared memory: the threads package over the coordinator's shared memory; a request names
//    the bases' address and a span of points to load, or a share to run, and the points and
//    scalars are read where they lie.
// Every request is answered (core/rpc.js), with the share's point or the error's message.
import { Transfer, serve } from '../core/rpc.js';

/** @type {any} */
let pkg = null;
/** @type {any} */
let bases = null;

serve({
  async init({ glue, module, memory }) {
    pkg = await import(glue);
    await pkg.default(memory ? { module_or_path: module, memory } : { module_or_path: module });
    return { limbsOk: pkg.shares_limbs_ok() };
  },
  load({ curve, points }) {
    bases?.free();
    bases = null;
    bases = new pkg.MsmBases(curve, points);
    return { n: bases.n, limbBits: bases.limb_bits };
  },
  share({ plan, share, scalars }) {
    const point = bases.run_share(plan, share, scalars);
    return new Transfer({ point }, [point.buffer]);
  },
  sharedLoad({ address, start, end }) {
    pkg.load_kept_points(address, start, end);
    return null;
  },
  sharedShare({ address, plan, share }) {
    const point = pkg.run_kept_share(address, plan, share);
    return new Transfer({ point }, [point.buffer]);
  },
  // For the tests: a worker that dies outside any request (an uncaught error, as an engine's
  // out-of-memory would end it) must be reported by the pool, not waited on.
  crash() {
    setTimeout(() => { throw new Error('this CPU worker was told to crash (test hook)'); });
    return new Promise(() => {});
  },
});
