// Headless-Chromium bench runner for the cpu-msm widget (npm run bench:msm; make bench-msm-wasm).
// Builds nothing: it serves the built book (make book), opens a page of it, runs the widget's own
// task in the page's widget worker — ours (projective and batch-affine buckets, 64- and 30-bit
// limbs) and arkworks' VariableBaseMSM, one thread, same seeded input, interleaved rounds, every
// result checked against arkworks' — and writes benches/results/msm-wasm-<browser>-<cpu>.json
// (the schema of benches/README.md).
//
// With --suite threads it runs the cpu-threads widget's task instead: the all-affine MSM on 1, 2, 4, …
// threads up to every core, in both modes (shared memory: the page is served with COOP/COEP; and
// message passing), speed-up over one thread in the same run, and writes
// benches/results/msm-wasm-threads-<browser>-<cpu>.json with the mode, threads and cores of every row.
//
// With --wide-arithmetic (single suite) Chromium starts with --js-flags=--wasm-wide-arithmetic and the
// rows `*-wide` run too: the MSM over 64-bit limbs on the 128-bit multiply, from the benchmark package
// pkg-wide-msm (make wasm-wide-msm, before make book so that the book carries it); the file is then
// msm-wasm-<browser>-<cpu>-wide-arithmetic.json, and the run fails if those rows did not run.
//
//   node bench/msm-wasm.js [--curves bls12-377,bn254] [--logn 12,14,16] [--repetitions 5] [--glv both|yes|no]
//                          [--variants all|v1,v2] [--count yes|no] [--suite single|threads] [--wide-arithmetic]
//                          [--out FILE]
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveBook } from '../lib/serve.js';
import { WIDE_ARITHMETIC_FLAG, benchDone, benchPage, launchChromium, launchWideChromium } from '../lib/browser.js';
import { cpuModel, sanitize } from '../lib/machine.js';
import { ALL, WIDE_VARIANTS } from '../../book/widgets/widgets/cpu-msm.js';

const { values: args } = parseArgs({
  options: {
    curves: { type: 'string', default: 'bls12-377,bn254' },
    logn: { type: 'string', default: '12,14,16' },
    repetitions: { type: 'string', default: '5' },
    variants: { type: 'string', default: 'all' },
    count: { type: 'string', default: 'yes' },
    glv: { type: 'string', default: 'both' },
    suite: { type: 'string', default: 'single' },
    'wide-arithmetic': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const threads = args.suite === 'threads';
const wideRun = args['wide-arithmetic'] && !threads;
const params = threads ? {
  curve: args.curves.split(','),
  logn: args.logn.split(',').map(Number),
  repetitions: Number(args.repetitions),
  mode: 'both',
  glv: args.glv === 'yes' ? 'yes' : 'no',
} : {
  curve: args.curves.split(','),
  logn: args.logn.split(',').map(Number),
  variants: args.variants === 'all' ? (wideRun ? [...ALL, ...WIDE_VARIANTS] : 'all') : args.variants.split(','),
  repetitions: Number(args.repetitions),
  count: args.count,
  glv: args.glv,
  window: 0,
};


const server = await serveBook();
// No WebGPU is needed here, so the flagged browser gets only the flag beyond the usual quiet set.
const browser = await (wideRun ? launchWideChromium() : launchChromium());
try {
  const cpu = cpuModel();
  const deviceName = sanitize(`chromium-${browser.version()}-${cpu}`);
  // off a terminal, each step once
  const { page, problems } = await benchPage(browser, (text, last) => text !== last);
  // Any page of the book loads the widget loader; the task runs in its worker.
  await page.goto(`${server.url}intro.html`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.fastmsmWidgets);
  console.log(`${deviceName}: ${JSON.stringify(params)}`);
  const started = Date.now();
  const loadBefore = loadavg();
  const result = await page.evaluate(async (p) => {
    await window.fastmsmWidgets.ready;
    return window.fastmsmWidgets.runTask(p.widget, p.params, (fraction, text) => window.fastmsmBenchProgress(fraction, text));
  }, { widget: threads ? 'cpu-threads' : 'cpu-msm', params });
  const loadAfter = loadavg();
  if (process.stdout.isTTY) process.stdout.write('\n');
  result.device = { ...result.device, name: deviceName, backend: result.device.backend, cpu, cores: cpus().length };
  result.params = {
    ...result.params, ...params, runner: 'wasm-demo/bench/msm-wasm.js',
    seconds: Math.round((Date.now() - started) / 1000),
    // the machine's 1-minute load average before and after: a busy machine widens the spread
    host_load_1min: [round2(loadBefore[0]), round2(loadAfter[0])],
    browser_flags: wideRun ? [WIDE_ARITHMETIC_FLAG] : [],
  };
  const wideMissing = wideRun ? result.unavailable.filter((u) => WIDE_VARIANTS.includes(u.variant)) : [];
  if (wideMissing.length) throw new Error(`the wide-arithmetic rows did not run: ${wideMissing[0].reason}`);

  const file = `msm-wasm-${threads ? 'threads-' : ''}${deviceName}${wideRun ? '-wide-arithmetic' : ''}.json`;
  const out = resolve(args.out ?? resolve(import.meta.dirname, `../../benches/results/${file}`));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);

  for (const r of threads ? [] : result.results) {
    console.log(`  ${r.name.padEnd(40)} ${r.median.toFixed(1).padStart(9)} ms  [${r.min.toFixed(1)}–${r.max.toFixed(1)}]`
      + `  ${r.params.speedup_vs_arkworks.toFixed(2)}× arkworks  c=${r.params.window ?? '-'}  ${r.verified ? '✔' : '✘'}`);
  }
  for (const r of threads ? result.results : []) {
    console.log(`  ${r.name.padEnd(44)} ${r.median.toFixed(1).padStart(9)} ms  [${r.min.toFixed(1)}–${r.max.toFixed(1)}]`
      + `  ${r.params.speedup_vs_one_thread?.toFixed(2)}× one thread  ${r.verified ? '✔' : '✘'}`);
  }
  for (const c of result.counts ?? []) {
    console.log(`  ops ${c.curve} 2^${c.log2_n} ${`${c.variant}${c.glv ? '+glv' : ''}`.padEnd(15)} M=${c.mul} S=${c.square} A=${c.add} I=${c.inverse}`
      + `  ${c.verified ? '✔' : '✘'}`);
  }
  benchDone(result, out, problems);
} finally {
  await browser.close();
  await server.close();
}

function round2(x) {
  return Math.round(x * 100) / 100;
}
