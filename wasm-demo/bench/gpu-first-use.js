// The GPU widget's first use in headless Chromium, as a reader meets it: a fresh browser opens a page,
// the widget's preparation starts (device, profile, every pipeline compiled, one warm-up MSM), and
// Run is pressed at once ("at-once") or once the preparation is done ("after-prepare"). Each with
// the pipelines created one after another (wgpu alone: "sequential") or all compiled at once first
// (createComputePipelineAsync, fastmsm_gpu::msm::precompile: "parallel"). A fresh browser per run,
// so no pipeline of an earlier run is cached; profile 'auto' in a fresh profile, so the adapter's
// named profile and no calibration before the MSM.
//   node wasm-demo/bench/gpu-first-use.js [--runs 1] [--curves bn254,bls12-377] [--out FILE]
// Needs the built book (make book). Prints one line per run; --out writes the JSON.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { launchChromium } from '../lib/browser.js';
import { serveBook } from '../lib/serve.js';
import { median } from '../../book/widgets/core/stats.js';

const { values: args } = parseArgs({ options: {
  runs: { type: 'string', default: '1' },
  curves: { type: 'string', default: 'bn254,bls12-377' },
  out: { type: 'string' },
} });
const server = await serveBook();
const rows = [];
let device = null;
for (const curve of args.curves.split(',')) {
  for (const pipelines of ['sequential', 'parallel']) {
    for (const click of ['at-once', 'after-prepare']) {
      const runs = [];
      for (let r = 0; r < Number(args.runs); r++) {
        const browser = await launchChromium();
        try {
          const page = await browser.newPage();
          await page.goto(`${server.url}index.html`, { waitUntil: 'load' });
          const out = await page.evaluate(async ({ job, click }) => {
            const w = window.fastmsmWidgets;
            await w.ready;
            const info = (await (/** @type {any} */ (navigator)).gpu.requestAdapter())?.info ?? {};
            const prepared = w.prepareTask('gpu-msm', job);
            if (click === 'after-prepare') await prepared;
            const result = await w.runTask('gpu-msm', { ...job, page_open_epoch_ms: performance.timeOrigin,
              click_epoch_ms: performance.timeOrigin + performance.now() });
            return { info, first_use: result.first_use, verified: result.verified, profile: result.profile.summary };
          }, { job: { curve, pipelines, profile: 'auto', n: '2^6', repetitions: 1, warmup_s: 0, cpu_check: 6 }, click });
          device ??= [out.info.vendor, out.info.architecture, out.info.description].filter(Boolean).join(' ');
          if (!out.verified) throw new Error(`${curve} ${pipelines} ${click}: the MSM did not verify`);
          runs.push(out.first_use);
          console.log(`${curve} ${pipelines} ${click} run ${r + 1}: ${JSON.stringify(out.first_use)}`);
        } finally {
          await browser.close();
        }
      }
      const stat = (key) => {
        const xs = runs.map((f) => f[key]);
        return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
      };
      rows.push({ name: `${curve}/pipelines=${pipelines}/click=${click}`, params: { curve, pipelines, click, n: 64 },
        unit: 'ms', preparation_ms: stat('preparation_ms'), click_to_msm_start_ms: stat('click_to_msm_start_ms'),
        samples: runs.length, runs, verified: true });
    }
  }
}
await server.close();
if (args.out) {
  writeFileSync(args.out, `${JSON.stringify({
    suite: 'gpu-first-use',
    protocol: 'wasm-demo/bench/gpu-first-use.js: a fresh headless Chromium per run opens a page; the gpu-msm widget\'s '
      + 'preparation starts (device, the adapter\'s named profile, every pipeline compiled, one warm-up MSM) and Run '
      + '(n = 64, verified) is pressed at once or after it; preparation_ms is the preparation, timed in the worker, '
      + 'click_to_msm_start_ms the wait from the click to the first MSM. sequential: wgpu\'s createComputePipeline per '
      + 'stage; parallel: createComputePipelineAsync for every stage first.',
    device: { name: device, browser: 'Chromium (headless, Debian)' },
    date: new Date().toISOString(),
    results: rows,
  }, null, 1)}\n`);
}
