// The GPU widget's first use in headless Chromium, as a reader meets it: a fresh browser opens a page,
// the widget's preparation starts (device, profile, every pipeline compiled, one warm-up MSM), and
// Run is pressed at once ("at-once") or once the preparation is done ("after-prepare"). Each with
// the pipelines created one after another (wgpu alone: "sequential") or all compiled at once first
// (createComputePipelineAsync, fastmsm_gpu::msm::precompile: "parallel"). A fresh browser per run,
// so no pipeline of an earlier run is cached; profile 'auto' in a fresh profile, so the adapter's
// named profile and no calibration before the MSM.
//   node wasm-demo/bench/gpu-first-use.js [--runs 1] [--curves bn254,bls12-377] [--out FILE]
// Needs the built book (make book). Prints one line per run; --out writes the JSON.
import { execSync } from 'node:child_process';
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
            // When the async compile ended and when wgpu's pipelines (then a warm-up MSM) were
            // ready: the gap shows whether wgpu's synchronous requests found them compiled.
            const at = {};
            const prepared = w.prepareTask('gpu-msm', job, (_, text) => {
              if (/pipelines at once/.test(text)) at.async_done = performance.now();
              if (/MSM is compiled/.test(text)) at.wgpu_done ??= performance.now();
            });
            if (click === 'after-prepare') await prepared;
            const result = await w.runTask('gpu-msm', { ...job, page_open_epoch_ms: performance.timeOrigin,
              click_epoch_ms: performance.timeOrigin + performance.now() });
            const wgpu = at.async_done === undefined || at.wgpu_done === undefined ? null : Math.round(at.wgpu_done - at.async_done);
            return { device: result.device.name, first_use: { ...result.first_use, wgpu_after_async_ms: wgpu }, verified: result.verified, profile: result.profile.summary };
          }, { job: { curve, pipelines, profile: 'auto', n: '2^6', repetitions: 1, warmup_s: 0, cpu_check: 6 }, click });
          device ??= out.device;
          if (!out.verified) throw new Error(`${curve} ${pipelines} ${click}: the MSM did not verify`);
          runs.push(out.first_use);
          console.log(`${curve} ${pipelines} ${click} run ${r + 1}: ${JSON.stringify(out.first_use)}`);
        } finally {
          await browser.close();
        }
      }
      const stat = (key) => {
        const xs = runs.map((f) => f[key]);
        return xs.includes(null) ? null : { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
      };
      // median/min/max: the click's wait for its first MSM, the figure a reader feels.
      rows.push({ name: `${curve}/pipelines=${pipelines}/click=${click}`, params: { curve, pipelines, click, n: 64 },
        unit: 'ms', ...stat('click_to_msm_start_ms'), preparation_ms: stat('preparation_ms'), click_to_msm_start_ms: stat('click_to_msm_start_ms'),
        wgpu_after_async_ms: stat('wgpu_after_async_ms'),
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
      + 'stage; parallel: createComputePipelineAsync for every stage first, and wgpu_after_async_ms the time from their '
      + 'end to wgpu\'s own pipelines created and one warm-up MSM run (Dawn\'s cache hit: no second compile).',
    about: 'the GPU widget\'s first use: preparation before the click, pipelines compiled one by one or all at once',
    device: { name: device, browser: 'Chromium (headless, Debian)' },
    commit: execSync('git rev-parse --short HEAD').toString().trim(),
    date: new Date().toISOString(),
    results: rows,
  }, null, 1)}\n`);
}
