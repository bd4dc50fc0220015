// Headless-Chromium runner of the same-page comparison on many threads (book/bench/peer-yrrid.html):
// Yrrid Software and Snarkify's ZPrize 2023 WebAssembly MSM (BLS12-377), our npm package and the
// threads widget's pool, T threads each, on the same seeded input, interleaved, every result
// compared with arkworks'. The entry's prebuilt `msm.wasm` and `worker.js` are read from a folder
// given at run time (benches/README.md says how to copy them out of the public repository); they
// are fetched code and never committed. Builds nothing: it serves the built book (make book) and
// the npm package's dist/ (make npm) and writes
// benches/results/msm-wasm-peer-yrrid-<browser>-<cpu>.json (the schema of benches/README.md).
//
//   node bench/peer-yrrid.js [--peer-dir ../.peer/yrrid-snarkify-2023] [--no-peer] [--no-npm]
//        [--logn 16,18] [--threads 1,2,…] [--repetitions 5] [--book DIR] [--npm DIR]
//        [--npm-before DIR] [--glv] [--curve bls12-377] [--out FILE]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BOOK_DIR, serveBook } from '../lib/serve.js';
import { benchDone, benchPage, launchChromium } from '../lib/browser.js';
import { cpuModel, sanitize } from '../lib/machine.js';

const here = import.meta.dirname;
const root = resolve(here, '../..');
const cores = cpus().length;
const powers = [];
for (let t = 1; t < cores; t *= 2) powers.push(t);
powers.push(cores);

const { values: args } = parseArgs({
  options: {
    'peer-dir': { type: 'string', default: resolve(root, '.peer/yrrid-snarkify-2023') },
    'no-peer': { type: 'boolean', default: false },
    'no-npm': { type: 'boolean', default: false },
    // another build to measure: the book (its threads package and pool) and the npm package's dist/
    book: { type: 'string', default: BOOK_DIR },
    npm: { type: 'string', default: resolve(here, '../npm/dist') },
    // the npm package of another build (its dist/), measured beside this one: before and after
    'npm-before': { type: 'string' },
    // the threads widget's pool with GLV as one more row
    glv: { type: 'boolean', default: false },
    // the entry is BLS12-377 only: another curve runs ours alone (--no-peer implied)
    curve: { type: 'string', default: 'bls12-377' },
    logn: { type: 'string', default: '16,18' },
    threads: { type: 'string', default: powers.join(',') },
    repetitions: { type: 'string', default: '5' },
    out: { type: 'string' },
  },
});

/** The entry as committed in its public repository: where its two files are, and their digests. */
const PEER = JSON.parse(readFileSync(resolve(here, 'peer/yrrid-snarkify-2023.json'), 'utf8'));

/** Checks that `dir` holds the entry's two files as committed; the error says how to get them. */
function checkPeerDir(dir) {
  for (const [file, digest] of Object.entries(PEER.sha256)) {
    const path = resolve(dir, file);
    if (!existsSync(path)) {
      throw new Error(`${path} is missing: copy the entry's ${file} out of ${PEER.repository} at ${PEER.commit.slice(0, 8)} `
        + `(${PEER.folder}/${file}) into ${dir}; benches/README.md shows the commands`);
    }
    const got = createHash('sha256').update(readFileSync(path)).digest('hex');
    if (got !== digest) throw new Error(`${path}: sha256 ${got}, not the committed file's ${digest}`);
  }
}

const list = (s) => s.split(',').filter(Boolean).map(Number);
const params = { logn: list(args.logn), threads: list(args.threads), repetitions: Number(args.repetitions) };
for (const [name, v] of Object.entries(params)) {
  for (const x of [v].flat()) if (!(Number.isInteger(x) && x >= 1)) throw new Error(`--${name}: whole numbers ≥ 1`);
}
const CURVES = ['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377'];
if (!CURVES.includes(args.curve)) throw new Error(`--curve: one of ${CURVES.join(', ')}`);
// there is no public WebAssembly entry of this kind for the other curves
const withPeer = !args['no-peer'] && args.curve === 'bls12-377';
const npmDist = resolve(args.npm);
const npmBefore = args['npm-before'] ? resolve(args['npm-before']) : null;
const withNpm = !args['no-npm'];
if (withPeer) checkPeerDir(args['peer-dir']);
if (withNpm && !existsSync(resolve(npmDist, 'index.js'))) throw new Error(`${npmDist}/index.js is missing: build the npm package first (make npm)`);

const ourBuild = JSON.parse(readFileSync(resolve(args.book, 'generated/build-info.json'), 'utf8'));
const mounts = {
  ...(withPeer ? { 'peer-yrrid/': args['peer-dir'] } : {}), ...(withNpm ? { 'npm-dist/': npmDist } : {}),
  ...(npmBefore ? { 'npm-before/': npmBefore } : {}),
};
const server = await serveBook({ root: resolve(args.book), mounts, isolate: true });
const browser = await launchChromium();
// the 1-minute load average, sampled every 2 s while the page runs
const loads = [];
const sampler = setInterval(() => loads.push(loadavg()[0]), 2000);
try {
  const cpu = cpuModel();
  const deviceName = sanitize(`chromium-${browser.version()}-${cpu}`);
  const { page, problems } = await benchPage(browser, (text, last) => text.replace(/round.*/, '') !== last.replace(/round.*/, ''));
  await page.exposeFunction('fastmsmHostLoad', () => loadavg()[0]);
  const query = new URLSearchParams({
    curve: args.curve,
    logn: params.logn.join(','), threads: params.threads.join(','), reps: String(params.repetitions),
    ...(withPeer ? { peer: '../peer-yrrid/' } : {}), ...(withNpm ? { npm: '../npm-dist/' } : {}),
    ...(npmBefore ? { npm0: '../npm-before/' } : {}), ...(args.glv ? { glv: '1' } : {}),
  });
  console.log(`${deviceName}: ${JSON.stringify(params)}; peer ${withPeer ? PEER.commit.slice(0, 8) : 'none'}; ours ${ourBuild.commit}; load ${loadavg()[0]}`);
  const started = Date.now();
  const loadBefore = loadavg()[0];
  await page.goto(`${server.url}bench/peer-yrrid.html?${query}`, { waitUntil: 'load' });
  const run = await page.evaluate(() => /** @type {any} */ (window).peerRun);
  if (process.stdout.isTTY) process.stdout.write('\n');
  const doc = resultsFile(run, { deviceName, cpu, browser: browser.version(), loadBefore, seconds: Math.round((Date.now() - started) / 1000) });
  const file = args.curve === 'bls12-377' ? `msm-wasm-peer-yrrid-${deviceName}.json` : `msm-wasm-peer-yrrid-${deviceName}-${args.curve}.json`;
  const out = resolve(args.out ?? resolve(root, `benches/results/${file}`));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
  for (const r of doc.results) {
    const vs = r.params.speedup_vs_yrrid;
    const w = r.params.ratio_vs_widget;
    console.log(`  ${r.name.padEnd(48)} ${fmt(r.median).padStart(9)} ms  [${fmt(r.min)}–${fmt(r.max)}]`
      + `${vs && r.params.library !== 'yrrid-snarkify-2023' ? `  ${vs.toFixed(2)}× Yrrid's speed` : ''}${w ? `  ${w.toFixed(2)}× the widget's time` : ''}`
      + `  ${r.verified ? '✔' : `✘ ${r.params.errors?.[0] ?? ''}`}`);
  }
  benchDone(doc, out, problems);
} finally {
  clearInterval(sampler);
  await browser.close();
  await server.close();
}

/** The results file from what the page returned and what this runner knows about the machine. */
function resultsFile(run, { deviceName, cpu, browser: version, loadBefore, seconds }) {
  const after = loadavg()[0];
  const all = [loadBefore, ...loads, after];
  return {
    suite: 'msm-wasm-peer-threads',
    device: {
      name: deviceName, cpu, cores, browser: `Chromium ${version}`, user_agent: run.env.ua,
      backend: 'wasm32 in one cross-origin-isolated page of headless Chromium; each library on T Web Workers over one shared memory',
    },
    protocol: run.protocol,
    params: {
      ...run.params,
      runner: 'wasm-demo/bench/peer-yrrid.js + book/bench/peer-yrrid.html',
      seconds,
      // the machine's 1-minute load average before, during (every 2 s) and after the run: other
      // people's builds share this machine, and interleaving spreads their load over every row
      host_load_1min: { before: round2(loadBefore), after: round2(after), min: round2(Math.min(...all)), max: round2(Math.max(...all)), mean: round2(all.reduce((a, b) => a + b, 0) / all.length) },
      browser_flags: [],
    },
    ...(run.params.peer ? { peer: { ...PEER, files: Object.keys(PEER.sha256) } } : {}),
    ours: { package: 'wasm-demo/npm/dist (make npm) and book/generated/pkg-threads (make wasm-threads)', commit: ourBuild.commit, built: ourBuild.built },
    results: run.results,
    verified: run.verified,
    commit: ourBuild.commit,
    date: new Date().toISOString(),
  };
}

function round2(x) {
  return Math.round(x * 100) / 100;
}

function fmt(x) {
  return x === null ? '—' : x.toFixed(1);
}
