// The same-page comparison of WebAssembly MSMs on many threads (book/bench/peer-yrrid.html):
// Yrrid Software and Snarkify's ZPrize 2023 BLS12-377 entry (its prebuilt msm.wasm and worker.js,
// served from a folder given at run time: fetched code, never part of this repository), our npm
// package `fastmsm` (its built dist/ folder) and the threads widget's pool (peer-worker.js), on
// the same seeded input, T threads each, interleaved, every result compared with arkworks'.
//
// Query: ?logn=16,18&threads=1,2&reps=5[&peer=URL][&npm=URL][&npm0=URL][&glv][&curve=bls12-377][&post=1]
//   peer: the folder holding the entry's msm.wasm and worker.js (no peer rows without it);
//   npm: the npm package's dist/ folder (no package rows without it);
//   npm0: another build's dist/, measured beside (before and after a change);
//   glv: the threads widget's pool with GLV as one more row;
//   post: POST progress and the result to ../post?name=… (benches/browser/drive.py), else the
//   result is `window.peerRun` (a promise; wasm-demo/bench/peer-yrrid.js reads it).
// The page must be cross-origin isolated: the entry and the shared-memory pool need it.
import { WorkerClient } from '../widgets/core/rpc.js';
import { round, summary } from '../widgets/core/stats.js';

const q = new URLSearchParams(location.search);
const list = (/** @type {string} */ name, /** @type {string} */ fallback) => (q.get(name) ?? fallback).split(',').filter(Boolean).map(Number);
const params = {
  curve: q.get('curve') ?? 'bls12-377',
  logn: list('logn', '16'),
  threads: list('threads', '1,2'),
  repetitions: Number(q.get('reps') ?? 5),
};
/** What is timed and checked, in words: the results file's `protocol`. */
const PROTOCOL = `${params.curve.toUpperCase()} G1, the widgets' seeded input (uniform scalars below r, points from a random walk `
  + 'over multiples of the generator), drawn once per n by the main package\'s CpuMsm in a worker of the page, with arkworks\' '
  + 'VariableBaseMSM of it (one thread) as the reference. One cross-origin-isolated page runs, per n and thread count T: '
  + (q.get('peer') ? 'the ZPrize 2023 entry of Yrrid Software and Snarkify (its prebuilt msm.wasm and worker.js, driven as its submission.ts '
  + 'does: one shared memory of 2600 pages, the module instantiated once in the page, T classic workers; timed from the '
  + 'copy of the points and scalars (x ‖ y, 48-byte little-endian coordinates; 32-byte scalars: the msm tool\'s layout) '
  + 'into its memory to worker 0\'s "msm done", the result read back and reduced mod p); ' : '(no peer: there is no public WebAssembly entry of this kind for this curve) ')
  + 'our npm package (createSession '
  + '{curve, backend: \'cpu\', threads: T}, one session per T; timed around session.msm({points, scalars}) from the page, '
  + 'so the points and scalars travel to the session\'s worker and are loaded on every call; where the package has '
  + 'session.loadPoints, also a second session whose points are kept once per T, timed around session.msm({scalars})); '
  + 'the threads widget\'s pool '
  + '(CpuPool in shared mode, T workers; the points loaded once per T, not timed; timed around pool.msm in its worker, as '
  + 'the widget does). Each contender once as warm-up, checked; then rounds, each running every contender once, the '
  + 'first contender rotated every round so that drift and other load fall on all alike; every call\'s point compared '
  + 'with arkworks\'. speedup_vs_yrrid = the entry\'s median / this row\'s median (> 1: faster than the entry), from the '
  + 'same run; ratio_vs_widget = the package\'s median / the widget\'s. Windows, GLV and batching: each its own default.';

const peerBase = q.get('peer') ? new URL(q.get('peer'), location.href) : null;
const npmBase = q.get('npm') ? new URL(q.get('npm'), location.href) : null;
// another build of the package (npm0: its dist/), measured beside: before and after a change
const npmBeforeBase = q.get('npm0') ? new URL(q.get('npm0'), location.href) : null;
const posting = q.has('post');

const post = (/** @type {string} */ name, /** @type {any} */ obj) => posting
  ? fetch(`../post?name=${name}`, { method: 'POST', body: JSON.stringify(obj) }).catch(() => {}) : Promise.resolve();
const w = /** @type {any} */ (window);
let lastPost = 0;
function progress(/** @type {number} */ fraction, /** @type {string} */ text) {
  w.fastmsmBenchProgress?.(fraction, text);
  const now = performance.now();
  if (now - lastPost > 3000) { lastPost = now; post('progress', { fraction, text }); }
  document.getElementById('log').textContent = text;
}
/** The machine's 1-minute load average, where the runner exposes it (node's playwright runner). */
const hostLoad = async () => (w.fastmsmHostLoad ? Number(await w.fastmsmHostLoad()) : null);

// BLS12-377's base-field modulus: the entry's result coordinates may be unreduced.
const P377 = 0x01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001n;

/** The entry's engine, as its own submission.ts sets it up: one shared memory of 2600 pages, the
 * module compiled and instantiated once here (for its addresses and counters), classic workers
 * that instantiate it over the same memory on their first message. */
async function yrridEngine(/** @type {URL} */ base) {
  const memory = new WebAssembly.Memory({ initial: 2600, maximum: 2600, shared: true });
  const module = await WebAssembly.compileStreaming(fetch(new URL('msm.wasm', base)));
  const instance = await WebAssembly.instantiate(module, { env: { memory } });
  const e = /** @type {any} */ (instance.exports);
  /** @type {Worker[]} */
  const workers = [];
  /** @type {((v: any) => void) | null} */
  let fail = null;
  const worker = (/** @type {number} */ i) => {
    while (workers.length <= i) {
      const wk = new Worker(new URL('worker.js', base));
      wk.onerror = (ev) => fail?.(new Error(`the entry's worker ${workers.indexOf(wk)} stopped: ${ev.message}`));
      workers.push(wk);
    }
    return workers[i];
  };
  return {
    /** Σ kᵢ·Pᵢ with `threads` workers, the input copied into its memory first (as its harness did). */
    async msm(/** @type {Uint8Array} */ points, /** @type {Uint8Array} */ scalars, /** @type {number} */ threads) {
      const n = scalars.length / 32;
      const bytes = new Uint8Array(memory.buffer);
      bytes.set(points, e.pointsAddress() >>> 0);
      bytes.set(scalars, e.scalarsAddress() >>> 0);
      e.initializeCounters(n);
      const done = new Promise((resolve, reject) => {
        fail = reject;
        worker(0).onmessage = () => resolve(null);
      });
      for (let i = 0; i < threads; i++) worker(i).postMessage({ module, sharedMemory: memory, workerID: i });
      await done;
      const words = new Uint32Array(memory.buffer, e.resultAddress() >>> 0, 24);
      const int = (/** @type {number} */ at) => {
        let v = 0n;
        for (let i = 11; i >= 0; i--) v = (v << 32n) | BigInt(words[at + i]);
        return v % P377;
      };
      const x = int(0);
      const y = int(12);
      return x === 0n && y === 0n ? { x: null, y: null } : { x: `0x${x.toString(16)}`, y: `0x${y.toString(16)}` };
    },
    close() {
      for (const wk of workers) wk.terminate();
    },
  };
}

/** Little-endian coordinates as hex (the widgets' form), null for the identity. */
function pointHex(/** @type {Uint8Array} */ bytes) {
  const half = bytes.length / 2;
  const hex = (/** @type {Uint8Array} */ b) => {
    let v = 0n;
    for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
    return `0x${v.toString(16)}`;
  };
  if (bytes.every((b) => b === 0)) return { x: null, y: null };
  return { x: hex(bytes.subarray(0, half)), y: hex(bytes.subarray(half)) };
}

async function main() {
  if (!self.crossOriginIsolated) throw new Error('the page is not cross-origin isolated: the entry and the shared-memory pool need COOP/COEP');
  const bench = new WorkerClient(() => new Worker(new URL('./peer-worker.js', import.meta.url), { type: 'module' }), { what: 'the bench worker' });
  const npm = npmBase ? await import(new URL('index.js', npmBase).href) : null;
  const npmBefore = npmBeforeBase ? await import(new URL('index.js', npmBeforeBase).href) : null;
  const yrrid = peerBase ? await yrridEngine(peerBase) : null;
  const results = [];
  const env = { ua: navigator.userAgent, cores: navigator.hardwareConcurrency, isolated: self.crossOriginIsolated };
  const jobs = params.logn.flatMap((logn) => params.threads.map((threads) => ({ logn, threads })));
  let seed = null;
  try {
    for (const logn of params.logn) {
      const n = 2 ** logn;
      const at = (/** @type {number} */ j, /** @type {number} */ f) => (j + f) / jobs.length;
      const j0 = jobs.findIndex((j) => j.logn === logn);
      progress(at(j0, 0), `${params.curve}, n = 2^${logn}: drawing the input and arkworks' MSM of it`);
      const input = await bench.call({ op: 'input', curve: params.curve, logn });
      seed = input.seed;
      const ref = input.reference;
      for (const threads of params.threads) {
        const ji = jobs.findIndex((j) => j.logn === logn && j.threads === threads);
        const say = (/** @type {number} */ f, /** @type {string} */ text) => progress(at(ji, f), `2^${logn}, ${threads} thread${threads > 1 ? 's' : ''}: ${text}`);
        say(0, 'starting the pools');
        await bench.call({ op: 'pool', curve: params.curve, threads, points: input.points, scalars: input.scalars });
        const session = npm ? await npm.createSession({ curve: params.curve, backend: 'cpu', threads }) : null;
        const before = npmBefore ? await npmBefore.createSession({ curve: params.curve, backend: 'cpu', threads }) : null;
        /** @typedef {{ key: string, label: string, run: () => Promise<{ ms: number, x: string | null, y: string | null }>, samples: number[], verified: boolean, errors: string[], extra: Record<string, any> }} Row */
        /** @type {Row[]} */
        const rows = [];
        const row = (/** @type {string} */ key, /** @type {string} */ label, /** @type {Row['run']} */ run) => rows.push({ key, label, run, samples: [], verified: true, errors: [], extra: {} });
        if (yrrid) {
          row('yrrid-snarkify-2023', 'Yrrid Software + Snarkify, ZPrize 2023 (its msm.wasm and worker.js; input copied into its memory on every call, inside the timing, as its harness did)', async () => {
            const t0 = performance.now();
            const p = await yrrid.msm(input.points, input.scalars, threads);
            return { ms: performance.now() - t0, ...p };
          });
        }
        if (session) {
          row('npm-package', 'our npm package: session.msm({points, scalars}) from the page, backend cpu (points and scalars given on every call)', async () => {
            const t0 = performance.now();
            const r = await session.msm({ points: input.points, scalars: input.scalars });
            const ms = performance.now() - t0;
            if (r.mode !== 'shared') throw new Error(`the package ran in ${r.mode} mode, not shared memory`);
            return { ms, ...pointHex(r.bytes) };
          });
        }
        // the same package with the points kept by the session (session.loadPoints, not timed):
        // only the scalars travel per call, as the threads widget's pool is timed
        const kept = session?.loadPoints ? await npm.createSession({ curve: params.curve, backend: 'cpu', threads }) : null;
        if (kept) {
          await kept.loadPoints(input.points);
          row('npm-package-kept', 'our npm package: session.msm({scalars}) on points kept by session.loadPoints (loaded once per T, not timed)', async () => {
            const t0 = performance.now();
            const r = await kept.msm({ scalars: input.scalars });
            const ms = performance.now() - t0;
            if (r.mode !== 'shared') throw new Error(`the package ran in ${r.mode} mode, not shared memory`);
            return { ms, ...pointHex(r.bytes) };
          });
        }
        if (before) {
          row('npm-package-before', 'the npm package of the build before this change (npm0), the same call', async () => {
            const t0 = performance.now();
            const r = await before.msm({ points: input.points, scalars: input.scalars });
            return { ms: performance.now() - t0, ...pointHex(r.bytes) };
          });
        }
        row('threads-widget', 'the threads widget\'s pool (shared memory, points loaded once per n, not timed; pool.msm timed in its worker, as the widget does)', async () => {
          const r = await bench.call({ op: 'msm', threads });
          return { ms: r.ms, x: r.x, y: r.y };
        });
        if (q.has('glv')) {
          row('threads-widget-glv', 'the threads widget\'s pool with GLV (its glv option), the same call', async () => {
            const r = await bench.call({ op: 'msm', threads, glv: true });
            return { ms: r.ms, x: r.x, y: r.y };
          });
        }
        const once = async (/** @type {Row} */ r) => {
          try {
            const out = await r.run();
            r.verified &&= out.x === ref.x && out.y === ref.y;
            return out.ms;
          } catch (e) {
            r.errors.push(String(/** @type {any} */ (e)?.message ?? e));
            r.verified = false;
            return null;
          }
        };
        const loads = [];
        for (const r of rows) { say(0.05, `warming up ${r.key}`); await once(r); }
        for (let k = 0; k < params.repetitions; k++) {
          loads.push(await hostLoad());
          // every round another contender first: drift and the other engineers' load fall on all alike
          const order = rows.map((_, i) => rows[(i + k) % rows.length]);
          for (const [i, r] of order.entries()) {
            say(0.1 + 0.9 * (k * rows.length + i) / (params.repetitions * rows.length), `round ${k + 1}/${params.repetitions}, ${r.key}`);
            const ms = await once(r);
            if (ms !== null) r.samples.push(ms);
          }
        }
        loads.push(await hostLoad());
        session?.dispose();
        kept?.dispose();
        before?.dispose();
        await bench.call({ op: 'close' });
        const med = (/** @type {string} */ key) => {
          const r = rows.find((x) => x.key === key);
          return r?.samples.length ? summary(r.samples).median : null;
        };
        const peer = med('yrrid-snarkify-2023');
        const widget = med('threads-widget');
        const known = loads.filter((l) => l !== null);
        for (const r of rows) {
          const s = r.samples.length ? summary(r.samples) : { median: null, min: null, max: null, samples: 0 };
          results.push({
            name: `${params.curve}/n=2^${logn}/threads=${threads}/${r.key}`,
            params: {
              curve: params.curve, n, log2_n: logn, threads, library: r.key, label: r.label,
              // > 1: this row is faster than the entry, measured in the same run
              speedup_vs_yrrid: peer && s.median ? round(peer / s.median, 3) : null,
              ...(r.key.startsWith('npm-package') && widget && s.median ? { ratio_vs_widget: round(s.median / widget, 3) } : {}),
              ...(r.key.startsWith('npm-package') && r.key !== 'npm-package-before' && med('npm-package-before') && s.median ? { speedup_vs_before: round(/** @type {number} */ (med('npm-package-before')) / s.median, 3) } : {}),
              host_load_1min: known.length ? [Math.min(...known), Math.max(...known)] : null,
              result: ref.x === null ? 'identity' : `(${ref.x}, ${ref.y})`,
              ...(r.errors.length ? { errors: r.errors.slice(0, 3) } : {}),
            },
            unit: 'ms',
            ...s,
            verified: r.verified && r.samples.length === params.repetitions,
          });
        }
        // what is measured so far, for a driver whose time runs out before the end
        await post('partial', { env, protocol: PROTOCOL, params: { ...params, seed, peer: !!peerBase, npm: !!npmBase, npm_before: !!npmBeforeBase, partial: true }, results, verified: results.every((x) => x.verified) });
      }
    }
  } finally {
    yrrid?.close();
    bench.fail('done');
  }
  progress(1, 'done');
  return {
    env,
    protocol: PROTOCOL,
    params: { ...params, seed, peer: !!peerBase, npm: !!npmBase, npm_before: !!npmBeforeBase },
    results,
    verified: results.length > 0 && results.every((r) => r.verified),
  };
}

w.peerRun = main();
w.peerRun.then((doc) => post('result', doc), (e) => post('error', { error: String(e?.stack ?? e) }))
  .finally(() => { if (posting) fetch('../done', { method: 'POST' }); });
