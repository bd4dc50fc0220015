// The worker of the `montgomery` peer benchmark (wasm-demo/bench/peer-montgomery.js bundles it
// with esbuild and the page of the book starts it): ours and Mitscha-Baude's `montgomery` (npm,
// the ZPrize 2022 WebAssembly MSM for BLS12-381) in one worker of one page, on the same input.
//
// Both are single-threaded, so both run on this one thread, one call at a time. Per n:
// - the input is the widgets' seeded BLS12-381 input, drawn by the cpu-msm widget's `CpuMsm` of
//   the book's main wasm package; montgomery gets the same points and scalars, taken from the
//   `msm` tool's file layout (little-endian x ‖ y and 32-byte scalars, as ZPrize's harness) into
//   its input arrays before any timing;
// - warm-up: every row once on the first min(n, 2^12) points, checked against arkworks' MSM of
//   the same points;
// - rounds: arkworks first, then ours and montgomery, their order swapped every round so that
//   drift and collection pauses fall on both alike; each call timed with performance.now() around
//   it, and its result compared with arkworks' result on the same input. Above n = 2^arkMaxLogn
//   arkworks is not timed (it takes longer than the two others together): it runs once, as the
//   reference.
//
// montgomery's MSM adds points without the doubling case (`batchAddUnsafe`): two equal points
// meeting in a bucket stop it with a WebAssembly trap. Random inputs make that vanishingly rare;
// if it happens, the row reports the error and is not verified.
import { packageUrls } from '../../../book/widgets/core/packages.js';
import { serve } from '../../../book/widgets/core/rpc.js';
import { SEED } from '../../../book/widgets/core/seeded.js';
import { round, summary } from '../../../book/widgets/core/stats.js';

const CURVE = 'bls12-381';
const WARMUP_POINTS = 1 << 12;
const COORD_BYTES = 48;
const SCALAR_BYTES = 32;

/** Our variant names as the cpu-msm widget writes them: `VARIANT[+glv]`. */
const parseOurs = (name) => ({ variant: name.replace(/\+glv$/, ''), glv: name.endsWith('+glv') });
const limbBits = (variant) => (variant.endsWith('-r30') ? 30 : variant.endsWith('-r51') ? 51 : 64);

/** A little-endian integer as the cpu-msm widget's hex (`0x…`, no leading zeros). */
function hexLe(bytes) {
  let x = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(bytes[i]);
  return `0x${x.toString(16)}`;
}

/**
 * The first `n` points and scalars of the file layout as montgomery's input: per point
 * `[x, y, isInfinity]` (little-endian, 48 bytes each; the layout's identity is all zero bytes),
 * per scalar 32 little-endian bytes. Views into the two buffers, no arithmetic.
 */
function montgomeryInput(pointBytes, scalarBytes, n) {
  const points = new Array(n);
  const scalars = new Array(n);
  for (let i = 0; i < n; i++) {
    const at = 2 * COORD_BYTES * i;
    const x = pointBytes.subarray(at, at + COORD_BYTES);
    const y = pointBytes.subarray(at + COORD_BYTES, at + 2 * COORD_BYTES);
    points[i] = [x, y, x.every((b) => b === 0) && y.every((b) => b === 0)];
    scalars[i] = scalarBytes.subarray(SCALAR_BYTES * i, SCALAR_BYTES * (i + 1));
  }
  return { points, scalars };
}

const samePoint = (a, b) => a.x === b.x && a.y === b.y;
const pointText = (p) => (p.x === null ? 'identity' : `(${p.x}, ${p.y})`);

serve({
  /**
   * params: { book: base URL of the built book, logn: number[], repetitions, ours: string[],
   *   arkMaxLogn: arkworks timed up to this log2 n, seed? }
   */
  async bench({ params }, progress) {
    progress(0, 'Loading our wasm package and montgomery…');
    const { glue, wasm: wasmUrl } = packageUrls('main', new URL('generated/', params.book));
    const ours = await import(glue);
    await ours.default({ module_or_path: wasmUrl });
    // montgomery instantiates its two modules when imported (top-level await): 3 GiB of
    // WebAssembly memory reserved for the field module.
    const montgomery = await import('montgomery').catch((e) => {
      throw new Error(`montgomery did not load: ${e?.message ?? e}`);
    });
    const known = ours.cpu_msm_info().variants;
    const oursRows = params.ours.map(parseOurs);
    for (const o of oursRows) if (!known.includes(o.variant)) throw new Error(`unknown variant ${o.variant}; one of ${known}`);
    const repetitions = Math.max(1, Math.round(params.repetitions));
    const seed = Number(params.seed ?? SEED) >>> 0;
    const logns = params.logn.map(Number);
    for (const l of logns) if (!(Number.isInteger(l) && l >= 4 && l <= 20)) throw new Error(`n = 2^${l}: choose 2^4 to 2^20`);

    const results = [];
    for (const [li, logn] of logns.entries()) {
      const n = 2 ** logn;
      const arkTimed = logn <= params.arkMaxLogn;
      const say = (f, text) => progress((li + f) / logns.length, `${CURVE}, n = 2^${logn}: ${text}`);
      say(0, 'drawing the input');
      const input = new ours.CpuMsm(CURVE, n, seed, (f, text) => say(0.1 * f, text));
      try {
        const peerInput = montgomeryInput(input.points_bytes(n), input.scalars_bytes(n), n);
        const runMontgomery = (len) => {
          const { result } = montgomery.msm(peerInput.scalars.slice(0, len), peerInput.points.slice(0, len));
          return result[2] ? { x: null, y: null } : { x: hexLe(result[0]), y: hexLe(result[1]) };
        };
        /** Rows: what each runs on `len` points, and what it has measured. */
        const rows = [
          { key: 'arkworks', library: 'arkworks', variant: 'arkworks', glv: false, limb_bits: 64,
            label: 'arkworks VariableBaseMSM (ark-ec, one thread)', run: (len) => input.run('arkworks', len, 0, 0, false) },
          ...oursRows.map((o) => ({ key: `${o.variant}${o.glv ? '+glv' : ''}`, library: 'fastmsm', variant: o.variant, glv: o.glv,
            limb_bits: limbBits(o.variant), label: `ours: ${o.variant}${o.glv ? ', GLV' : ''}`,
            run: (len) => input.run(o.variant, len, 0, 0, o.glv) })),
          { key: 'montgomery', library: 'montgomery', variant: 'montgomery', glv: true, limb_bits: 30,
            label: 'montgomery msm (Mitscha-Baude, ZPrize 2022)', run: runMontgomery },
        ].map((r) => ({ ...r, samples: [], verified: true, out: null, errors: [] }));
        const call = (row, len) => {
          try {
            return row.run(len);
          } catch (e) {
            row.errors.push(String(e?.message ?? e));
            return null;
          }
        };

        const warm = Math.min(n, WARMUP_POINTS);
        const warmRef = input.run('arkworks', warm, 0, 0, false);
        for (const row of rows) {
          say(0.1, `warming up ${row.key} on ${warm} points`);
          const out = call(row, warm);
          row.verified &&= out !== null && samePoint(out, warmRef);
        }
        const reference = arkTimed ? null : input.run('arkworks', n, 0, 0, false);
        const timed = rows.filter((r) => arkTimed || r.library !== 'arkworks');
        const contenders = timed.filter((r) => r.library !== 'arkworks');
        let done = 0;
        for (let round = 0; round < repetitions; round++) {
          const order = [...timed.filter((r) => r.library === 'arkworks'),
            ...(round % 2 ? [...contenders].reverse() : contenders)];
          for (const row of order) {
            say(0.12 + 0.85 * (done++ / (repetitions * timed.length)), `round ${round + 1}/${repetitions}, ${row.key}`);
            const t0 = performance.now();
            const out = call(row, n);
            const t = performance.now() - t0;
            if (out === null) { row.verified = false; continue; }
            row.samples.push(t);
            row.out = out;
            row.verified &&= samePoint(out, reference ?? rows[0].out);
          }
        }
        const ref = reference ?? rows[0].out;
        const median = (key) => {
          const row = timed.find((r) => r.key === key);
          return row?.samples.length ? summary(row.samples).median : null;
        };
        const peerMedian = median('montgomery');
        const arkMedian = arkTimed ? median('arkworks') : null;
        for (const row of timed) {
          const s = row.samples.length ? summary(row.samples) : { median: null, min: null, max: null, samples: 0 };
          results.push({
            name: `${CURVE}/n=2^${logn}/${row.key}`,
            params: {
              curve: CURVE, n, log2_n: logn, library: row.library, variant: row.variant, label: row.label,
              limb_bits: row.limb_bits, glv: row.glv, seed,
              window: row.library === 'fastmsm' ? row.out?.window ?? null : null,
              speedup_vs_montgomery: row.key !== 'montgomery' && peerMedian && s.median ? round(peerMedian / s.median, 3) : null,
              speedup_vs_arkworks: row.key !== 'arkworks' && arkMedian && s.median ? round(arkMedian / s.median, 3) : null,
              result: row.out ? pointText(row.out) : null,
              ...(row.errors.length ? { errors: row.errors } : {}),
            },
            unit: 'ms',
            ...s,
            verified: row.verified && row.samples.length === repetitions && !!ref,
          });
        }
      } finally {
        input.free();
      }
    }
    progress(1, 'Done');
    return {
      results,
      verified: results.length > 0 && results.every((r) => r.verified),
      warmup_points: WARMUP_POINTS,
      seed,
      cores: navigator.hardwareConcurrency,
      browser: navigator.userAgent,
    };
  },
});
