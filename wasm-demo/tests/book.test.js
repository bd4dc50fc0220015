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
