// Headless-Chromium bench runner: our BLS12-381 MSM beside Mitscha-Baude's `montgomery` (npm, a
// devDependency: the ZPrize 2022 WebAssembly MSM) in one page of the built book, on the same
// input (npm run bench:peer; make bench-peer). Builds nothing of ours: it serves the built book
// (make book), bundles bench/peer/montgomery-worker.js with montgomery from node_modules (esbuild)
// into a temporary folder served beside the book, opens a page of the book, starts that worker
// from the page, and writes benches/results/msm-wasm-peer-montgomery-<browser>-<cpu>.json (the
// schema of benches/README.md). What is timed and checked: the worker's header and `protocol` below.
//
//   node bench/peer-montgomery.js [--logn 12,14,16,18] [--repetitions 5]
//                                 [--ours all-affine-r30+glv] [--arkworks-max-logn 16] [--out FILE]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { BOOK_DIR, serveBook } from '../lib/serve.js';
import { benchDone, benchPage, launchChromium } from '../lib/browser.js';
import { cpuModel, sanitize } from '../lib/machine.js';

const { values: args } = parseArgs({
  options: {
    logn: { type: 'string', default: '12,14,16,18' },
    repetitions: { type: 'string', default: '5' },
    // The cpu-msm widget's fastest single-thread form in the main package (msm-wasm-*.json).
    ours: { type: 'string', default: 'all-affine-r30+glv' },
    // arkworks is timed up to this log2 n; above it, it runs once as the reference (at 2^18 it
    // takes longer than the two others together).
    'arkworks-max-logn': { type: 'string', default: '16' },
    out: { type: 'string' },
  },
});

const here = import.meta.dirname;
const peer = JSON.parse(readFileSync(resolve(here, '../node_modules/montgomery/package.json'), 'utf8'));
const ourBuild = JSON.parse(readFileSync(resolve(BOOK_DIR, 'generated/build-info.json'), 'utf8'));
const params = {
  logn: args.logn.split(',').map(Number),
  repetitions: Number(args.repetitions),
  ours: args.ours.split(','),
  arkMaxLogn: Number(args['arkworks-max-logn']),
};
for (const [name, v] of [['--repetitions', params.repetitions], ['--arkworks-max-logn', params.arkMaxLogn]]) {
  if (!Number.isInteger(v)) throw new Error(`${name}: a whole number`);
}

// The worker and montgomery, bundled (montgomery's bare import of fast-base64 needs resolving;
// its modules instantiate their WebAssembly at import, so it is a chunk of its own, imported
// when the worker asks for it and failing with a message of its own).
const bundle = mkdtempSync(join(tmpdir(), 'fastmsm-peer-'));
await build({
  entryPoints: { 'montgomery-worker': resolve(here, 'peer/montgomery-worker.js') },
  outdir: bundle,
  bundle: true,
  splitting: true,
  format: 'esm',
  target: 'es2022',
  logLevel: 'warning',
});

const MOUNT = 'bench-peer/';
const server = await serveBook({ mounts: { [MOUNT]: bundle } });
const browser = await launchChromium();
try {
  const cpu = cpuModel();
  const deviceName = sanitize(`chromium-${browser.version()}-${cpu}`);
  const { page, problems } = await benchPage(browser, (text, last) => text !== last);
  await page.goto(`${server.url}intro.html`, { waitUntil: 'load' });
  // The page's own widgets that run on load (intro's capability probe) finish first: nothing else
  // runs in the page while the bench does.
  await page.waitForFunction(() => window.fastmsmWidgets);
  await page.evaluate(() => window.fastmsmWidgets.ready);
  await page.waitForFunction(() => !document.querySelector('.fastmsm-widget[data-state="running"]'), null, { timeout: 120_000 });
  console.log(`${deviceName}: ${JSON.stringify(params)}; montgomery ${peer.version}; ours ${ourBuild.commit}`);
  const started = Date.now();
  const loadBefore = loadavg();
  // The worker is started from the page, with the request/response module the book's workers use.
  const run = await page.evaluate(async ({ book, worker, params: p }) => {
    const { WorkerClient } = await import(new URL('widgets/core/rpc.js', book).href);
    const client = new WorkerClient(() => new Worker(worker, { type: 'module' }), { what: 'the peer bench worker' });
    try {
      return await client.call({ op: 'bench', params: { ...p, book } },
        { onProgress: (fraction, text) => window.fastmsmBenchProgress(fraction, text) });
    } finally {
      client.fail('done');
    }
  }, { book: server.url, worker: `${server.url}${MOUNT}montgomery-worker.js`, params });
  const loadAfter = loadavg();
  if (process.stdout.isTTY) process.stdout.write('\n');

  const result = {
    suite: 'msm-wasm-peer',
    device: {
      name: deviceName, backend: 'wasm32, one thread, both libraries in one worker of one page',
      browser: run.browser, cpu, cores: cpus().length,
    },
    protocol: 'BLS12-381 G1, the widgets\' seeded input (uniform scalars below r, points from a random walk '
      + 'over multiples of the generator), drawn once per n by the cpu-msm widget\'s CpuMsm in our main wasm '
      + 'package; montgomery gets the same points and scalars as byte arrays cut from the msm tool\'s file '
      + 'layout (little-endian, as its API takes them) before any timing. Ours and montgomery run in one '
      + 'dedicated worker of one page of the book, one call at a time on one thread (neither uses threads; '
      + 'ours is built with simd128, montgomery\'s modules use none). Timed span: one call, from inputs in '
      + 'each library\'s input form to the affine result: for ours CpuMsm.run (the 30-bit limbs converted '
      + 'from our 64-bit points inside it), for montgomery its msm() (its bytes written into its memory '
      + 'and converted to Montgomery form inside it), for arkworks VariableBaseMSM::msm (ark-ec without '
      + 'parallel). Warm-up: every row once on the first min(n, 2^12) points, checked. Then interleaved '
      + 'rounds: arkworks first, then ours and montgomery in an order swapped every round; every result '
      + `compared with arkworks' MSM of the same input. Above n = 2^${params.arkMaxLogn} arkworks is not timed: `
      + 'it runs once, as the reference. Windows: each library its own default.',
    params: {
      curve: 'bls12-381', ...params, repetitions: params.repetitions, warmup_points: run.warmup_points, seed: run.seed,
      runner: 'wasm-demo/bench/peer-montgomery.js',
      seconds: Math.round((Date.now() - started) / 1000),
      // the machine's 1-minute load average before and after: a busy machine widens the spread
      host_load_1min: [round2(loadBefore[0]), round2(loadAfter[0])],
      browser_flags: [],
    },
    peer: {
      name: 'montgomery', version: peer.version, license: peer.license, author: peer.author,
      repository: 'https://github.com/mitschabaude/montgomery', entry: 'msm (msmAffine in src/msm.js)',
      threads: 'one (no workers)', source: 'npm registry, wasm-demo/package-lock.json',
    },
    ours: { package: 'book/generated/pkg (wasm-demo, feature book)', commit: ourBuild.commit, built: ourBuild.built },
    results: run.results,
    verified: run.verified,
    commit: ourBuild.commit,
    date: new Date().toISOString(),
  };
  const file = `msm-wasm-peer-montgomery-${deviceName}.json`;
  const out = resolve(args.out ?? resolve(here, `../../benches/results/${file}`));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);

  for (const r of result.results) {
    const vs = r.params.speedup_vs_montgomery;
    console.log(`  ${r.name.padEnd(36)} ${fmt(r.median).padStart(9)} ms  [${fmt(r.min)}–${fmt(r.max)}]`
      + `${vs ? `  ${vs.toFixed(2)}× montgomery` : ''}  ${r.verified ? '✔' : `✘ ${r.params.errors?.[0] ?? ''}`}`);
  }
  benchDone(result, out, problems);
} finally {
  await browser.close();
  await server.close();
  rmSync(bundle, { recursive: true, force: true });
}

function round2(x) {
  return Math.round(x * 100) / 100;
}

function fmt(x) {
  return x === null ? '—' : x.toFixed(1);
}
