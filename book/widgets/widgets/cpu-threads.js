// Every core of your CPU: the all-affine MSM cut into shares (fastmsm_msm::split) and run by a
// pool of Web Workers (pool/cpu-pool.js), in both modes this page can use — one shared WebAssembly
// memory where the page is cross-origin isolated, message passing anywhere — for 1, 2, 4, …
// threads up to the cores the browser reports. Every run's point is compared with arkworks'
// VariableBaseMSM on the same seeded input (drawn by the cpu-msm widget's code).
import { BOOK_PACKAGES } from '../core/packages.js';
import { byCurveAndSize, msText } from '../core/render.js';
import { CURVES, SEED } from '../core/seeded.js';
import { median, round, summary } from '../core/stats.js';
import { MsmBackends } from '../core/backends.js';
import { CpuPool, pointHex, threadSupport } from '../pool/cpu-pool.js';

export const title = 'The MSM on every core: threads in WebAssembly, both modes';

/** @type {import('../pool/cpu-pool.js').Mode[]} */
export const MODES = ['shared', 'message'];
const MODE_LABELS = { shared: 'shared memory', message: 'message passing' };

export const controls = [
  { name: 'curve', label: 'Curve', type: 'select', default: 'bls12-377', options: CURVES },
  { name: 'logn', label: 'n = 2^', type: 'number', default: 16, min: 4, max: 20 },
  { name: 'mode', label: 'Mode', type: 'select', default: 'both',
    options: [{ value: 'both', label: 'both, where this page can' }, ...MODES.map((m) => ({ value: m, label: MODE_LABELS[m] }))] },
  { name: 'repetitions', label: 'Repetitions', type: 'number', default: 3, min: 1, max: 20 },
  { name: 'glv', label: 'GLV', type: 'select', default: 'no', options: ['no', 'yes'] },
];
export const quick = { curve: ['bn254', 'bls12-377', 'ed-on-bls12-377'], logn: 9, mode: 'both', repetitions: 1, glv: 'no', threads: [1, 2, 3] };
export const autorun = false;


/** 1, 2, 4, … up to `cores`, and `cores` itself. */
export function threadCounts(cores) {
  const out = [];
  for (let t = 1; t < cores; t *= 2) out.push(t);
  out.push(cores);
  return out;
}

/** The errors a reader or a prover would meet, in every mode this page can run (the E2E checks them). */
async function errorChecks(wasm, support) {
  const results = [];
  const message = async (f) => { try { await f(); return 'no error'; } catch (e) { return String(e.message); } };
  for (const mode of MODES.filter((m) => support.modes[m].ok)) {
    const input = new wasm.CpuMsm('bn254', 8, SEED, () => {});
    const points = input.points_bytes(8);
    const scalars = input.scalars_bytes(8);
    input.free();
    const pool = await CpuPool.start(mode, 2, BOOK_PACKAGES);
    try {
      const empty = await message(() => pool.load('bn254', new Uint8Array(0)));
      // two bad points: the error names the first, whichever worker's span it lies in
      const bad = points.slice();
      bad[5 * 64] ^= 1;
      bad[7 * 64] ^= 1;
      const offCurve = await message(() => pool.load('bn254', bad));
      const truncated = await message(() => pool.load('bn254', points.slice(0, 8 * 64 - 3)));
      await pool.load('bn254', points);
      const mismatch = await message(() => pool.msm(wasm, scalars.slice(0, 7 * 32), 2));
      const big = scalars.slice();
      big.fill(0xff, 3 * 32, 4 * 32);
      const tooBig = await message(() => pool.msm(wasm, big, 2));
      pool.crashWorker(0);
      const crashed = await message(async () => {
        // the error arrives with the next message from the worker, or at once if it came first
        for (let i = 0; i < 50; i++) await pool.msm(wasm, scalars, 2);
      });
      results.push({ mode, empty, off_curve: offCurve, truncated, mismatch, too_big: tooBig, crashed });
    } finally {
      pool.terminate();
    }
  }
  // Where the probe finds the relaxed multiply-add unfused (pretended here), the shared-memory
  // pool refuses to start and the backends of the npm package and the CPU-or-GPU widget run
  // message passing on the exact 30-bit product instead: the same point, and the reason.
  const input = new wasm.CpuMsm('bls12-377', 64, SEED, () => {});
  const reference = input.run('arkworks', 64, 0, 0, false);
  const points = input.points_bytes(64);
  const scalars = input.scalars_bytes(64);
  input.free();
  const backends = new MsmBackends(wasm, { packages: BOOK_PACKAGES, threads: 2, gpuSession: async () => null, pool: { pretendUnfusedFma: true } });
  let fallback;
  try {
    const out = await backends.cpu('bls12-377', points, scalars, () => {});
    const got = pointHex(out.bytes);
    fallback = { mode: out.mode, reason: out.modeReason, package: backends.pool?.package, verified: got.x === reference.x && got.y === reference.y };
  } catch (e) {
    fallback = { error: String(e.message) };
  } finally {
    await backends.dispose();
  }
  return { suite: 'msm-wasm-threads-errors', device: {}, results, fallback, verified: true };
}

/** @param {import('../core/types.js').Wasm} wasm */
export async function task(wasm, params, progress) {
  const support = threadSupport();
  if (params.check === 'errors') return errorChecks(wasm, support);
  const curves = [params.curve].flat();
  for (const c of curves) if (!CURVES.includes(c)) throw new Error(`unknown curve ${c}`);
  const logns = [params.logn].flat().map(Number);
  for (const l of logns) if (!(l >= 1 && l <= 20)) throw new Error(`n = 2^${l}: choose 2^1 to 2^20`);
  const wanted = params.mode === 'both' || params.mode === undefined ? MODES : [params.mode];
  for (const m of wanted) if (!MODES.includes(m)) throw new Error(`unknown mode ${m}`);
  const modes = wanted.filter((m) => support.modes[m].ok);
  const unavailable = wanted.filter((m) => !support.modes[m].ok).map((m) => ({ mode: m, reason: support.modes[m].why }));
  const threads = params.threads ? [params.threads].flat().map(Number) : threadCounts(support.cores);
  const size = Math.max(...threads);
  const repetitions = Math.max(1, Math.round(params.repetitions ?? 3));
  const glv = params.glv === 'yes' || params.glv === true;

  const results = [];
  const jobs = curves.flatMap((curve) => logns.map((logn) => ({ curve, logn })));
  const pools = {};
  try {
    for (const mode of [...modes]) {
      progress(0, `Starting ${size} workers (${MODE_LABELS[mode]})`);
      try {
        pools[mode] = await CpuPool.start(mode, size, BOOK_PACKAGES, (_, text) => progress(0, `${text} (${MODE_LABELS[mode]})`));
      } catch (e) {
        // a mode this browser offers but cannot start here: say why, run the others
        modes.splice(modes.indexOf(mode), 1);
        unavailable.push({ mode, reason: `the workers did not start: ${e.message}` });
      }
    }
    for (const [ji, { curve, logn }] of jobs.entries()) {
      const n = 2 ** logn;
      const say = (f, text) => progress((ji + f) / jobs.length, `${curve}, n = 2^${logn}: ${text}`);
      say(0, 'drawing the input');
      const input = new wasm.CpuMsm(curve, n, SEED, () => {});
      let reference;
      let points;
      let scalars;
      try {
        say(0.1, 'arkworks, one thread (the reference)');
        reference = input.run('arkworks', n, 0, 0, false);
        points = input.points_bytes(n);
        scalars = input.scalars_bytes(n);
      } finally {
        input.free();
      }
      for (const [mi, mode] of modes.entries()) {
        const pool = pools[mode];
        say(0.2 + 0.8 * (mi / modes.length), `loading the points into ${MODE_LABELS[mode]} workers`);
        await pool.load(curve, points);
        // warm-up: every thread count once, checked too
        const rows = threads.map((t) => ({ t, samples: [], verified: true, window: null }));
        const check = (out, row) => {
          const got = pointHex(out.point);
          row.verified &&= got.x === reference.x && got.y === reference.y;
          row.window = out.plan.window_bits;
        };
        for (const row of rows) check(await pool.msm(wasm, scalars, row.t, glv), row);
        for (let r = 0; r < repetitions; r++) {
          for (const row of rows) {
            say(0.2 + 0.8 * ((mi + (r + row.t / size) / repetitions) / modes.length),
              `${MODE_LABELS[mode]}, round ${r + 1}/${repetitions}, ${row.t} thread${row.t > 1 ? 's' : ''}`);
            const t0 = performance.now();
            const out = await pool.msm(wasm, scalars, row.t, glv);
            row.samples.push(performance.now() - t0);
            check(out, row);
          }
        }
        const one = median(rows[0].samples);
        for (const row of rows) {
          const m = median(row.samples);
          results.push({
            name: `${curve}/n=2^${logn}/${mode}/threads=${row.t}`,
            params: {
              curve, n, log2_n: logn, mode, threads: row.t, cores: support.cores, package: pool.package,
              limb_bits: pool.package === 'main' ? 30 : 51, window: row.window, glv, seed: SEED,
              speedup_vs_one_thread: rows[0].t === 1 ? round(one / m, 3) : null,
              efficiency: rows[0].t === 1 ? round(one / m / row.t, 3) : null,
              result: reference.x === null ? 'identity' : `(${reference.x}, ${reference.y})`,
            },
            unit: 'ms',
            ...summary(row.samples),
            verified: row.verified,
          });
        }
      }
    }
  } finally {
    for (const p of Object.values(pools)) p.terminate();
  }
  progress(1, 'Done');
  return {
    suite: 'msm-wasm-threads',
    device: { name: `browser CPU (${support.cores} logical cores)`, backend: 'wasm32 simd128, Web Workers', cores: support.cores },
    params: { repetitions, threads, glv, seed: SEED, isolated: support.isolated },
    modes: Object.fromEntries(MODES.map((m) => [m, support.modes[m]])),
    unavailable,
    results,
    verified: results.length > 0 && results.every((r) => r.verified),
  };
}

const ms = msText;

export function view(result) {
  const groups = byCurveAndSize(result.results);
  const tables = groups.map(({ curve, logn, rows }) => {
    return {
      caption: `${curve}, n = 2^${logn}: milliseconds per MSM (median of ${rows[0].samples}), points loaded into the workers once`,
      columns: ['Mode', 'Threads', 'Limbs', 'ms (median)', 'min–max', 'Speed-up vs 1 thread', 'Efficiency', 'Verified'],
      rows: rows.map((r) => [MODE_LABELS[r.params.mode], r.params.threads, `${r.params.limb_bits}-bit`, ms(r.median),
        `${ms(r.min)}–${ms(r.max)}`, r.params.speedup_vs_one_thread == null ? '—' : `${r.params.speedup_vs_one_thread.toFixed(2)}×`,
        r.params.efficiency == null ? '—' : `${Math.round(100 * r.params.efficiency)}%`, r.verified ? '✔' : '✘']),
    };
  });
  const why = Object.entries(result.modes).map(([m, s]) => `${MODE_LABELS[m]}: ${s.ok ? 'runs' : 'not here'} — ${s.why}`);
  const series = groups.flatMap(({ curve, logn, rows: all }) => MODES.map((mode) => {
    const rows = all.filter((r) => r.params.mode === mode);
    return rows.length ? { label: `${curve} 2^${logn}, ${MODE_LABELS[mode]}`, data: rows.map((r) => r.params.speedup_vs_one_thread) } : null;
  }).filter(Boolean));
  return {
    message: `${why.join('. ')}.`,
    tables,
    chart: {
      title: 'Speed-up over one thread (higher is better; ideal = threads)',
      labels: result.params.threads.map((t) => `${t} thread${t > 1 ? 's' : ''}`),
      series,
      yLabel: '×',
    },
  };
}
