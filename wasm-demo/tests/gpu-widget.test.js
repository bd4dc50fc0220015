// End-to-end: the GPU MSM widget (webgpu-device.html) in headless Chromium on SwiftShader: a run
// from its form checked by discrete logs, WebGPU's default limits, a lost device, the preparation
// before the first click, and a browser without WebGPU. Its quick run, on every curve, is in the
// every-page test (book.test.js); the two files run side by side (package.json, e2e).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeClean, openPage, servedBook, startedChromium, taskResult } from './harness.js';

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

  test('WebGPU\'s default limits only: a 4- and a 6-word curve verified, batched to fit', async () => {
    const { page, problems } = await visit('webgpu-device.html');
    // A device requested with WebGPU's defaults (what a phone offers), the `mobile` profile; n
    // above what one batch of the smallest binding holds would need more than 2^20 points, so
    // the batches are forced smaller here too (`batch`), as a small binding would force them.
    // BN254 and BLS12-381: the smallest and the largest points, whose buffers the limits bound;
    // every curve's kernels run in the quick run of the every-page test (book.test.js), and the
    // plan under these limits is the same code for every curve (compiling all four again on
    // SwiftShader was two minutes of this suite).
    const result = await taskResult(page, 'gpu-msm', { curve: ['bn254', 'bls12-381'], n: ['1000'], repetitions: 1, cpu_check: 10,
      profile: 'mobile', limits: 'default', batch: 256, warmup_s: 0 });
    assert.equal(result.verified, true, JSON.stringify(result.results.map((r) => [r.name, r.verified])));
    assert.deepEqual(result.results.map((r) => r.params.curve), ['bn254', 'bls12-381']);
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
    // Bringing the widget into view after its run changes nothing on it: the status line keeps
    // the run's reason (no preparation starts once a run has), so the link holds still.
    await root.scrollIntoViewIfNeeded();
    await page.waitForTimeout(500); // past the observer's callback and a few status ticks
    assert.match(await root.locator('.fm-status').textContent(), /^Not run: no WebGPU/, 'the run\'s status stays');
    assert.equal(await root.getAttribute('data-prepared'), null, 'nothing was prepared after the run');
    const link = root.locator('.fm-message a');
    await link.click();
    await page.waitForURL(/wasm-msm\.html#run-it-on-your-cpu$/);
    assert.equal(await page.locator('#run-it-on-your-cpu').count(), 1, 'the link lands on the CPU widget');
    assert.equal(await page.locator('.fastmsm-widget[data-widget="cpu-msm"]').count(), 1);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
