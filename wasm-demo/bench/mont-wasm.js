// Headless-Chromium bench runner for the mont-bench widget (npm run bench:mont; make bench-mont-wasm).
// Builds nothing: it serves the built book (make book), opens the Montgomery chapter, runs the
// widget's own task in the page's widget worker for every field × every variant (plus ark-ff and
// the relaxed-SIMD Emmart row), and writes benches/results/mont-wasm-<device>.json (the schema of benches/README.md).
// With --wide-arithmetic, Chromium starts with --js-flags=--wasm-wide-arithmetic (off by default in
// Chromium 156), so the widget's wide-arithmetic rows run too (ark-ff+wide, fips-wide+wide, …);
// the file is then mont-wasm-<device>-wide-arithmetic.json and the run fails if they did not run.
//
//   node bench/mont-wasm.js [--count N] [--repetitions R] [--wide-arithmetic] [--out FILE]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveBook } from '../lib/serve.js';
import { WIDE_ARITHMETIC_FLAG, benchDone, benchPage, launchChromium, launchWideChromium } from '../lib/browser.js';
import { cpuModel, sanitize } from '../lib/machine.js';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '200000' },
    repetitions: { type: 'string', default: '9' },
    'wide-arithmetic': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const params = { field: 'all', variants: 'all', count: Number(args.count), repetitions: Number(args.repetitions) };


const server = await serveBook();
const wideRun = args['wide-arithmetic'];
// No WebGPU is needed here, so the flagged browser gets only the flag beyond the usual quiet set.
const browser = await (wideRun ? launchWideChromium() : launchChromium());
try {
  const cpu = cpuModel();
  const deviceName = sanitize(`chromium-${browser.version()}-${cpu}`);
  const fileName = `mont-wasm-${deviceName}${wideRun ? '-wide-arithmetic' : ''}.json`;
  // off a terminal, one line per round (its baseline row) and every other step
  const { page, problems } = await benchPage(browser, (text) => !text.includes('round') || /round \d+\/\d+, ark-ff$/.test(text));
  await page.goto(`${server.url}float-and-wide.html`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.fastmsmWidgets && document.querySelector('.fastmsm-widget[data-widget="mont-bench"]'));
  console.log(`${deviceName}: ${JSON.stringify(params)}`);
  const started = Date.now();
  // The widget's task, in the page's widget worker, through the loader's own worker client.
  const result = await page.evaluate(async (p) => {
    await window.fastmsmWidgets.ready;
    return window.fastmsmWidgets.runTask('mont-bench', p, (fraction, text) => window.fastmsmBenchProgress(fraction, text));
  }, params);
  if (process.stdout.isTTY) process.stdout.write('\n');
  result.device = { ...result.device, name: deviceName, backend: result.device.backend, cpu };
  result.params = { ...params, runner: 'wasm-demo/bench/mont-wasm.js', seconds: Math.round((Date.now() - started) / 1000),
    browser_flags: wideRun ? [WIDE_ARITHMETIC_FLAG] : [] };
  // the widget's own verdict (rows unavailable for another reason, a product whose condition on p a
  // field fails, stay listed in the file)
  if (wideRun && !result.features.wide_arithmetic) throw new Error(`${WIDE_ARITHMETIC_FLAG} did not enable wide arithmetic`);

  const out = resolve(args.out ?? resolve(import.meta.dirname, `../../benches/results/${fileName}`));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);

  // Summary: per field, every row with its speed-up over ark-ff.
  for (const field of [...new Set(result.results.map((r) => r.params.field))]) {
    console.log(`\n${field}`);
    for (const r of result.results.filter((x) => x.params.field === field)) {
      console.log(`  ${r.params.variant.padEnd(20)} ${r.median.toFixed(1).padStart(8)} ns/mul  `
        + `[${r.min.toFixed(1)}–${r.max.toFixed(1)}]  ${r.params.speedup_vs_ark_ff?.toFixed(2) ?? '—'}× ark-ff  `
        + `${r.params.speedup_vs_ark_ff_wide ? `${r.params.speedup_vs_ark_ff_wide.toFixed(2)}× ark-ff+wide  ` : ''}${r.verified ? '✔' : '✘'}`);
    }
    for (const u of result.unavailable.filter((x) => x.field === field)) console.log(`  ${u.variant.padEnd(20)} unavailable: ${u.reason}`);
  }
  const small = result.results.filter((r) => r.params.variant !== 'ark-ff' && r.params.speedup_vs_ark_ff != null && /^(bn254|bls12-377-fr|bls12-381-fr)/.test(r.params.field));
  const best = small.reduce((a, b) => (b.params.speedup_vs_ark_ff > a.params.speedup_vs_ark_ff ? b : a), small[0]);
  if (best) console.log(`\nbest 254/256-bit speed-up over ark-ff: ${best.params.speedup_vs_ark_ff.toFixed(2)}× (${best.name})`);
  benchDone(result, out, problems);
} finally {
  await browser.close();
  await server.close();
}
