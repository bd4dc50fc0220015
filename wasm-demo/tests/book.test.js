// End-to-end: serve the built book at a sub-path, visit every page of SUMMARY.md in headless
// Chromium, fail on any page error, console error, failed or external request, and run every
// widget in quick mode, asserting its result is verified.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertTaskErrors, closeClean, openPage, servedBook, startedChromium, taskResult } from './harness.js';
import { chapters, checkChapter } from './book-pages.js';

const book = servedBook();
const chromium = startedChromium();

/** Opens a page and records everything that would make a reader's visit go wrong. */
const visit = (path) => openPage(chromium.browser, book, path);

/** As `visit`, in a browser context whose page and widget worker have no `navigator.gpu`. */
async function visitWithoutWebGPU(path) {
  const context = await chromium.browser.newContext();
  const hide = 'Object.defineProperty(self.WorkerNavigator?.prototype ?? self.Navigator.prototype, "gpu", { get: () => undefined });';
  await context.addInitScript(hide);
  // Init scripts do not reach workers: prefix the worker module itself.
  await context.route('**/widgets/core/widget-worker.js', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: `${hide}\n${await response.text()}` });
  });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  await page.goto(book.url + path, { waitUntil: 'load' });
  return { page, context, problems };
}

/** Asserts that `rows` (of a timed widget's result) are one verified, timed row per variant, in order. */
function assertVerifiedRows(rows, variants, what) {
  assert.deepEqual(rows.map((r) => r.params.variant), variants, `${what}: one row per variant`);
  for (const r of rows) {
    assert.equal(r.verified, true, `${r.name} verified`);
    assert.ok(Number.isFinite(r.median) && r.min <= r.median && r.median <= r.max, `${r.name} timing`);
  }
}

/** Sets a widget's form fields, clicks Run and returns the run's JSON export (throws on a failed run). */
async function runFromForm(page, widget, fields) {
  const root = page.locator(`.fastmsm-widget[data-widget="${widget}"]`);
  for (const [name, value] of Object.entries(fields)) {
    const field = root.locator(`[name="${name}"]`);
    if (await field.evaluate((e) => e.tagName === 'SELECT')) await field.selectOption(String(value));
    else await field.fill(String(value));
  }
  await root.getByRole('button', { name: /^Run/ }).click(); // the page marks it running before the click returns
  await page.waitForFunction((w) => ['done', 'error'].includes(
    document.querySelector(`.fastmsm-widget[data-widget="${w}"]`).dataset.state), widget, { timeout: 120_000 });
  assert.equal(await root.getAttribute('data-state'), 'done', await root.locator('.fm-status').textContent());
  await root.getByRole('button', { name: 'Copy as JSON' }).click();
  return { result: JSON.parse(await root.locator('.fm-exported').inputValue()), message: await root.locator('.fm-message').textContent() };
}

/**
 * backend 'auto' (widgets/msm-auto.js, core/crossover.js), after the page's quick run measured CPU
 * and GPU (SwiftShader) at small n: the per-n choice it reports follows the crossover it found, the
 * page kept that crossover, and later runs of one MSM with backend 'auto' use what the page kept —
 * the measured one, then one put in its place (GPU from 2^6), on both sides of it — and, with none
 * kept, the estimate, which says so (a software adapter: the CPU). Same page and profile, so the
 * GPU session of the quick run, with its compiled pipelines, is reused: a few seconds.
 */
async function checkAutoBackend(page, runs) {
  const widget = await import('../../book/widgets/widgets/msm-auto.js');
  const { crossoverOf } = await import('../../book/widgets/core/crossover.js');
  const { curve, profile } = widget.quick;
  const { result } = runs.find((r) => r.widget === 'msm-auto');
  const c = result.crossover;
  assert.equal(c.gpu, true, 'headless Chromium has WebGPU (SwiftShader)');
  assert.deepEqual(c.measured.map((r) => r.log2_n), [5, 6, 7]);
  assert.ok(c.measured.every((r) => r.cpu > 0 && r.gpu > 0), 'both backends timed at every n');
  assert.deepEqual(result.results.map((r) => r.params.check), Array(6).fill('arkworks, CPU = GPU'), 'every n checked both ways');
  assert.equal(c.log2_n, crossoverOf(c.measured));
  for (const a of result.auto) {
    assert.equal(a.backend, c.log2_n !== null && a.log2_n >= c.log2_n ? 'gpu' : 'cpu', `auto's choice at 2^${a.log2_n}`);
    assert.ok(a.why.length > 10, 'the choice says why');
  }
  const key = `fastmsm:crossover:${curve}`;
  const kept = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)), key);
  assert.deepEqual({ log2_n: kept.log2_n, gpu: kept.gpu }, { log2_n: c.log2_n, gpu: true }, 'the page kept the crossover');

  const auto = (at) => runFromForm(page, 'msm-auto', { action: 'auto', curve, at, repetitions: 1, profile });
  const later = await auto(7);
  assert.deepEqual(later.result.crossover_used, { curve, ...kept }, 'a later run reads the kept crossover');
  assert.equal(later.result.results[0].params.backend, c.log2_n !== null && c.log2_n <= 7 ? 'gpu' : 'cpu');
  assert.equal(later.result.verified, true);

  const planted = { log2_n: 6, gpu: true, date: '2026-01-01T00:00:00.000Z' };
  await page.evaluate(([k, v]) => localStorage.setItem(k, JSON.stringify(v)), [key, planted]);
  for (const [at, backend] of [[5, 'cpu'], [7, 'gpu']]) {
    const { result: r, message } = await auto(at);
    assert.deepEqual(r.crossover_used, { curve, ...planted });
    assert.equal(r.choice.backend, backend, `2^${at} against a crossover at 2^6`);
    assert.equal(r.results[0].params.backend, backend);
    assert.equal(r.results[0].params.n, 2 ** at);
    assert.equal(r.verified, true, `auto at 2^${at} equals arkworks`);
    assert.match(message, new RegExp(`on the ${backend.toUpperCase()}: n ${at >= 6 ? '≥' : '<'} 2\\^6`));
  }

  await page.evaluate((k) => localStorage.removeItem(k), key);
  const { result: estimated, message } = await auto(7);
  assert.equal(estimated.crossover_used, null);
  assert.deepEqual([estimated.choice.source, estimated.choice.backend], ['estimate', 'cpu'], 'SwiftShader is a software adapter');
  assert.match(message, /estimated, not measured on this device.*software WebGPU adapter/);
  assert.equal(estimated.verified, true);
}

// Checks that run on a chapter's page after its widgets' quick runs (their workers still warm).
const afterQuickRuns = { 'prover.html': checkAutoBackend };

describe('every page of SUMMARY.md', () => {
  assert.ok(chapters.length >= 12, `SUMMARY.md lists ${chapters.length} chapters`);
  for (const chapter of chapters) {
    test(chapter, async () => {
      const { page, problems } = await visit(chapter);
      const results = await checkChapter(page);
      if (results.length > 0) await afterQuickRuns[chapter]?.(page, results);
      await closeClean(page, problems, `problems on ${chapter}`);
    });
  }
});

describe('introduction', () => {
  test('math is rendered at build time and KaTeX fonts load locally', async () => {
    const { page, problems } = await visit('intro.html');
    assert.ok(await page.locator('.katex-display').count() >= 2, 'display math rendered');
    assert.equal(await page.locator('.katex-error').count(), 0);
    await closeClean(page, problems);
  });

  test('capability widget shows WebGPU with real adapter limits', async () => {
    const { page, problems } = await visit('intro.html');
    const [{ result }] = await page.evaluate(() => window.fastmsmWidgets.runAll({ quick: true }));
    assert.equal(result.features.webgpu, true, 'headless Chromium should expose WebGPU (SwiftShader)');
    assert.ok(result.results.length >= 5, 'limits table is non-empty');
    const binding = result.results.find((r) => r.name === 'maxStorageBufferBindingSize');
    assert.ok(binding.median >= 2 ** 27, `maxStorageBufferBindingSize = ${binding.median}`);
    assert.equal(result.features.simd128, true, 'Chromium has WASM SIMD128');
    const rows = await page.locator('.fastmsm-widget table.fm-table').nth(1).locator('tbody tr').count();
    assert.equal(rows, result.results.length, 'the page shows one row per limit');
    assert.equal(await page.locator('.fastmsm-widget canvas').count(), 1, 'chart drawn');
    await page.getByRole('button', { name: 'Copy as JSON' }).click();
    const exported = JSON.parse(await page.locator('.fm-exported').inputValue());
    assert.equal(exported.suite, 'capabilities');
    await closeClean(page, problems);
  });
});

describe('float-and-wide', () => {
  test('mont-bench widget: every variant and the ark-ff baseline, each verified', async () => {
    const { page, problems } = await visit('float-and-wide.html');
    const widget = await import('../../book/widgets/widgets/mont-bench.js');
    const runs = await page.evaluate(() => window.fastmsmWidgets.runAll({ quick: true }));
    const { result } = runs.find((r) => r.widget === 'mont-bench');
    assert.equal(result.suite, 'mont-wasm');
    assert.equal(result.verified, true);
    const expected = [widget.BASELINE, ...widget.VARIANTS];
    if (result.features.relaxed_simd) expected.push(widget.RELAXED);
    else assert.ok(result.unavailable.some((u) => u.variant === widget.RELAXED), 'missing relaxed SIMD is reported');
    for (const field of widget.quick.field) {
      const rows = result.results.filter((r) => r.params.field === field);
      assertVerifiedRows(rows, expected, field);
      for (const r of rows) {
        assert.equal(r.samples, widget.quick.repetitions);
        assert.equal(r.unit, 'ns/mul');
      }
    }
    const shown = page.locator('.fastmsm-widget[data-widget="mont-bench"] table.fm-table');
    assert.equal(await shown.count(), widget.quick.field.length, 'one table per field');
    assert.equal(await shown.first().locator('tbody tr').count(),
      expected.length + result.unavailable.filter((u) => u.field === widget.quick.field[0]).length);
    assert.equal(await page.locator('.fastmsm-widget[data-widget="mont-bench"] canvas').count(), 1, 'chart drawn');
    await closeClean(page, problems);
  });
});

// The CPU MSM widgets, through the page's widget worker (as the bench runner calls them), so their
// tasks are exercised whichever chapter holds their placeholders; their views are rendered in node.
describe('cpu-msm and signed-digits widgets', () => {
  test('signed-digits: decompositions verified with BigInt; bad input named', async () => {
    const { page, problems } = await visit('intro.html');
    const widget = await import('../../book/widgets/widgets/signed-digits.js');
    const result = await taskResult(page, 'signed-digits', widget.quick);
    assert.equal(result.verified, true);
    const cases = widget.quick.curve.length * widget.quick.c.length * widget.quick.scalar.length;
    assert.equal(result.decompositions.length, cases);
    for (const d of result.decompositions) assert.deepEqual(d.problems, [], `${d.curve} c=${d.c} ${d.scalar}`);
    // the chapter's example: 301 at c = 5 is 301 = 13 + 9·32, digits 13, 9
    const ex = result.decompositions.find((d) => d.c === 5 && d.scalar === '0x12d');
    assert.deepEqual(ex.rows.slice(0, 3).map((r) => r.digit), [13, 9, 0]);
    // r − 1 needs every window num_windows counts, and no carry is left
    const view = widget.view(result);
    assert.equal(view.tables.length, cases);
    await assertTaskErrors(page, 'signed-digits', [
      [{ curve: 'bn254', c: 8, scalar: '12a' }, /not a number/],
      [{ curve: 'bn254', c: 8, scalar: '-7' }, /not a number/],
      [{ curve: 'bls12-377', c: 8, scalar: '0x12ab655e9a2ca55660b44d1e5c37b00159aa76fed00000010a11800000000001' }, /not below the group order r/],
      [{ curve: 'bn254', c: 1, scalar: '5' }, /choose 2 to 16/],
      [{ curve: 'secp256k1', c: 8, scalar: '5' }, /unknown curve "secp256k1"/],
    ]);
    await closeClean(page, problems);
  });

  test('cpu-msm: every run of ours equals arkworks, operation counts shown', async () => {
    const { page, problems } = await visit('intro.html');
    const widget = await import('../../book/widgets/widgets/cpu-msm.js');
    const result = await taskResult(page, 'cpu-msm', widget.quick);
    assert.equal(result.suite, 'msm-wasm');
    assert.equal(result.verified, true);
    // the 51-bit FMA runs come from the relaxed-SIMD package where the browser has it
    const expected = result.features.relaxed_package ? widget.ALL : widget.VARIANTS;
    if (!result.features.relaxed_package) {
      assert.deepEqual(result.unavailable.map((u) => u.variant), widget.RELAXED_VARIANTS, 'missing relaxed SIMD is reported');
    }
    for (const curve of widget.quick.curve) {
      const rows = result.results.filter((r) => r.params.curve === curve);
      assertVerifiedRows(rows, expected, curve);
      for (const r of rows) assert.equal(r.params.n, 2 ** widget.quick.logn);
      const counts = result.counts.filter((c) => c.curve === curve);
      assert.deepEqual(counts.map((c) => c.variant), widget.COUNTED);
      const [proj, ba, aa] = counts;
      assert.ok(proj.mul > 0 && proj.inverse === 0, 'projective buckets need no inversion');
      assert.ok(ba.inverse > 0 && ba.stats.batched_additions > 0, 'batch-affine shares inversions');
      assert.ok(aa.inverse > 0 && aa.mul + aa.square < proj.mul + proj.square, 'all-affine: fewer products');
      assert.ok(counts.every((c) => c.verified));
    }
    const view = widget.view(result);
    assert.equal(view.tables.length, widget.quick.curve.length + 1, 'one table per curve, one of counts');
    await closeClean(page, problems);
  });
});

/**
 * Sets the gpu-msm widget's controls in order, as a reader's changes do (a change event each), without
 * scrolling to the widget: a widget coming near the view starts preparing the GPU for the settings
 * it has then, which would compile a curve the test does not run.
 */
async function setGpuControls(page, values) {
  await page.evaluate((values) => {
    const form = document.querySelector('.fastmsm-widget[data-widget="gpu-msm"] form');
    for (const [name, value] of values) {
      form.elements[name].value = value;
      form.elements[name].dispatchEvent(new Event('change', { bubbles: true }));
    }
  }, Object.entries(values));
}

/** Presses the gpu-msm widget's Run, waits for the run to end, asserts it ran, returns its JSON export. */
async function runGpuWidget(page) {
  const root = page.locator('.fastmsm-widget[data-widget="gpu-msm"]');
  await root.getByRole('button', { name: 'Run' }).click();
  await page.waitForFunction(() => ['done', 'error'].includes(
    document.querySelector('.fastmsm-widget[data-widget="gpu-msm"]').dataset.state), null, { timeout: 300_000 });
  assert.equal(await root.getAttribute('data-state'), 'done', await root.locator('.fm-status').textContent());
  await root.getByRole('button', { name: 'Copy as JSON' }).click();
  return JSON.parse(await root.locator('.fm-exported').inputValue());
}

/** In the page: the calibrated GPU profile its origin keeps (core/gpu.js), without creating its database. */
const KEPT_CALIBRATION = async () => {
  if (!(await indexedDB.databases()).some((d) => d.name === 'fastmsm-gpu-profile')) return null;
  const db = await new Promise((resolve, reject) => {
    const r = indexedDB.open('fastmsm-gpu-profile');
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  if (!db.objectStoreNames.contains('profiles')) return null;
  return new Promise((resolve) => {
    const q = db.transaction('profiles').objectStore('profiles').get('calibrated');
    q.onsuccess = () => resolve(q.result ?? null);
    q.onerror = () => resolve(null);
  });
};

// The GPU MSM widget on SwiftShader. The quick run (every-page test above) has the arkworks check on;
// this one sets it below n, so the result rests on the discrete-log check alone, as for large n.
describe('gpu-msm widget', () => {
  test('MSM on WebGPU verified by discrete logs, calibrated, stage chart, exports', async () => {
    const { page, problems } = await visit('webgpu-device.html');
    await page.evaluate(() => window.fastmsmWidgets.ready);
    const root = page.locator('.fastmsm-widget[data-widget="gpu-msm"]');
    await setGpuControls(page, { profile: 'recalibrate', curve: 'ed-on-bls12-377', n: '2^9', repetitions: '2', cpu_check: '8' });
    const result = await runGpuWidget(page);
    assert.equal(result.suite, 'gpu-msm');
    assert.equal(result.verified, true);
    const [r] = result.results;
    assert.equal(r.params.n, 512);
    assert.equal(r.samples, 2);
    assert.equal(r.params.checks.discrete_log.equal, true);
    assert.match(r.params.checks.arkworks.not_run, /above 2\^8/);
    assert.ok(r.params.stages_ms_of_median_run.length >= 5, 'per-stage times');
    assert.ok(r.params.stages_ms_of_median_run.every((s) => Number.isFinite(s.ms) && s.ms >= 0));
    assert.ok(r.min > 0 && r.min <= r.median && r.median <= r.max);
    assert.ok(result.device.name && result.adapter.limits.some((l) => l.name === 'maxStorageBufferBindingSize'));
    assert.equal(result.profile.origin, 'calibrated');
    assert.ok(result.profile.smvp_wave.length >= 1 && result.profile.device, 'the calibrated profile is in the result');
    assert.match(await root.locator('.fm-message').textContent(), /Device profile: calibrated on this GPU now/);
    assert.equal(await root.locator('canvas').count(), 1, 'stacked stage chart drawn');
    assert.match(await root.locator('table.fm-table').first().textContent(), /not run \(n above 2\^8\)/);
    await root.getByRole('button', { name: 'Copy as Markdown' }).click();
    assert.match(await root.locator('.fm-exported').inputValue(), /\| ed-on-bls12-377 \| 2\^9 \|/);
    await closeClean(page, problems);
  });

  test('WebGPU\'s default limits only: all four curves verified, batched to fit', async () => {
    const { page, problems } = await visit('webgpu-device.html');
    // A device requested with WebGPU's defaults (what a phone offers), the `mobile` profile; n
    // above what one batch of the smallest binding holds would need more than 2^20 points, so
    // the batches are forced smaller here too (`batch`), as a small binding would force them.
    const result = await taskResult(page, 'gpu-msm', { curve: 'all', n: ['1000'], repetitions: 1, cpu_check: 10,
      profile: 'mobile', limits: 'default', batch: 256, warmup_s: 0 });
    assert.equal(result.verified, true, JSON.stringify(result.results.map((r) => [r.name, r.verified])));
    assert.deepEqual(result.results.map((r) => r.params.curve), ['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377']);
    for (const r of result.results) assert.ok(r.params.batches >= 4, `${r.name}: ${r.params.batches} batches of 256 points`);
    assert.equal(result.params.limits, 'default');
    const above = result.adapter.limits.filter((l) => l.value > l.webgpu_default);
    assert.deepEqual(above.map((l) => l.name), [], 'the device has no limit above WebGPU\'s default');
    assert.match(result.profile.summary, /mobile/);
    await closeClean(page, problems);
  });

  test('a device lost mid-run is reported, and the next run opens a new device', async () => {
    const context = await chromium.browser.newContext();
    // The widget's test hook: destroy the device after compiling, before the first GPU run.
    await context.route('**/widgets/core/widget-worker.js', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: `self.fastmsmTest = { loseDeviceOnce: true };\n${await response.text()}` });
    });
    const page = await context.newPage();
    await page.goto(book.url + 'webgpu-device.html', { waitUntil: 'load' });
    await page.evaluate(() => window.fastmsmWidgets.ready);
    const root = page.locator('.fastmsm-widget[data-widget="gpu-msm"]');
    // 'auto' in a fresh browser: the adapter's named profile, no calibration before the run
    await setGpuControls(page, { n: '2^6', repetitions: '1', curve: 'ed-on-bls12-377' });
    const settled = () => page.waitForFunction(() => ['done', 'error'].includes(
      document.querySelector('.fastmsm-widget[data-widget="gpu-msm"]').dataset.state), null, { timeout: 300_000 });
    await root.getByRole('button', { name: 'Run' }).click();
    await settled();
    assert.equal(await root.getAttribute('data-state'), 'error');
    assert.match(await root.locator('.fm-status').textContent(), /device was lost.*next run opens a new/i);
    await root.getByRole('button', { name: 'Run' }).click();
    await page.waitForFunction(() => document.querySelector('.fastmsm-widget[data-widget="gpu-msm"]').dataset.state !== 'error');
    await settled();
    assert.equal(await root.getAttribute('data-state'), 'done', await root.locator('.fm-status').textContent());
    assert.equal(await root.getAttribute('data-verified'), 'true');
    await context.close();
  });

  // The first use (issue: a first click that waited seconds for calibration and compiles): the page
  // prepares the GPU before the click, compiling every stage at once, on the adapter's named
  // profile; the click finds it ready, and this GPU is calibrated afterwards for the next visit.
  test('the GPU is prepared before the click, which runs at once; calibrated after, kept', async () => {
    const { page, problems } = await visit('webgpu-device.html');
    await page.evaluate(() => window.fastmsmWidgets.ready);
    const root = page.locator('.fastmsm-widget[data-widget="gpu-msm"]');
    assert.equal(await root.getAttribute('data-prepared'), null, 'nothing prepared while the widget is far from the view');
    await page.evaluate(() => {
      const status = document.querySelector('.fastmsm-widget[data-widget="gpu-msm"] .fm-status');
      window.seenStatus = [];
      new MutationObserver(() => window.seenStatus.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
    });
    await setGpuControls(page, { n: '2^6', repetitions: '1', warmup_s: '0', cpu_check: '6' });
    assert.equal(await root.getAttribute('data-prepared'), null, 'n and the repetitions change nothing compiled');
    await setGpuControls(page, { curve: 'bn254' });
    await page.waitForFunction(() => ['ready', 'failed'].includes(
      document.querySelector('.fastmsm-widget[data-widget="gpu-msm"]').dataset.prepared), null, { timeout: 300_000 });
    const status = await root.locator('.fm-status').textContent();
    assert.equal(await root.getAttribute('data-prepared'), 'ready', status);
    assert.match(status, /^GPU ready for bn254 \(prepared in [\d.]+ s; profile: swiftshader/);
    const seen = await page.evaluate(() => window.seenStatus);
    assert.ok(seen.some((t) => /^Preparing the GPU for bn254: .*\d\.\d s$/.test(t)), 'the preparation is shown with its time');
    assert.ok(seen.some((t) => /compiled the \d+ pipelines at once/.test(t)), `every stage compiled at once: ${seen.join(' | ')}`);
    const result = await runGpuWidget(page);
    assert.equal(result.verified, true);
    const f = result.first_use;
    assert.equal(f.curve, 'bn254');
    assert.equal(f.pipelines, 'parallel');
    assert.equal(f.prepared_before_click, true, 'the click found the GPU ready');
    assert.ok(f.page_open_to_ready_ms >= f.preparation_ms && f.preparation_ms > 0, JSON.stringify(f));
    // Nothing compiled after the click: the MSM starts after drawing 64 points, far sooner than the compile.
    assert.ok(f.click_to_msm_start_ms >= 0 && f.click_to_msm_start_ms < f.preparation_ms / 2, JSON.stringify(f));
    assert.ok(result.results[0].params.compile_ms === null || result.results[0].params.compile_ms >= 0);
    // No calibration kept in this fresh browser: the adapter's named profile, unmeasured, said so.
    assert.equal(result.profile.origin, 'named');
    assert.match(result.profile.summary, /swiftshader/);
    assert.match(result.profile.calibration, /next visit/);
    const message = await root.locator('.fm-message').textContent();
    assert.match(message, /Device profile: the named profile of this kind of adapter, not measured/);
    assert.match(message, /First use \(bn254\): the GPU was prepared in .* ms, ready .* ms after the page opened, before the click/);
    // The calibration for the next visit runs after the click, in a session of its own, and is kept.
    let kept = null;
    for (const until = Date.now() + 300_000; !kept && Date.now() < until;) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      kept = JSON.parse(await page.evaluate(KEPT_CALIBRATION) ?? 'null');
    }
    assert.ok(kept?.smvp_wave?.length >= 1, `a calibration kept for the next visit: ${JSON.stringify(kept)}`);
    await closeClean(page, problems);
  });

  // A click while the preparation runs joins it: one device, one compile (a second device opened
  // meanwhile once made the run fail on pipelines of the first).
  test('a click during the preparation waits for the rest of it and runs verified', async () => {
    const { page, problems } = await visit('webgpu-device.html');
    await page.evaluate(() => window.fastmsmWidgets.ready);
    await setGpuControls(page, { n: '2^6', repetitions: '1', warmup_s: '0', cpu_check: '6', curve: 'bn254' });
    const result = await runGpuWidget(page);
    assert.equal(result.verified, true);
    const f = result.first_use;
    assert.equal(f.prepared_before_click, false, JSON.stringify(f));
    assert.ok(f.click_to_msm_start_ms <= f.preparation_ms + 5000, `the click waited only for the preparation: ${JSON.stringify(f)}`);
    assert.ok(result.results[0].params.compile_ms === null || result.results[0].params.compile_ms >= 0);
    await closeClean(page, problems);
  });

  test('without WebGPU it says so and links to the CPU MSM widget', async () => {
    const { page, context, problems } = await visitWithoutWebGPU('webgpu-device.html');
    const runs = await page.evaluate(() => window.fastmsmWidgets.runAll({ quick: true }));
    const { result } = runs.find((r) => r.widget === 'gpu-msm');
    assert.equal(result.verified, false);
    assert.match(result.unavailable, /no WebGPU/);
    const root = page.locator('.fastmsm-widget[data-widget="gpu-msm"]');
    assert.match(await root.locator('.fm-status').textContent(), /^Not run: no WebGPU/);
    assert.match(await root.locator('.fm-message').textContent(), /cannot run on your GPU here/);
    const link = root.locator('.fm-message a');
    await link.click();
    await page.waitForURL(/wasm-msm\.html#run-it-on-your-cpu$/);
    assert.equal(await page.locator('#run-it-on-your-cpu').count(), 1, 'the link lands on the CPU widget');
    assert.equal(await page.locator('.fastmsm-widget[data-widget="cpu-msm"]').count(), 1);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
