// End-to-end in a second browser engine: the built book in headless Firefox ESR (Debian's
// firefox-esr, driven over Marionette, lib/firefox.js, a fresh profile per launch), with the same
// every-page assertions as the Chromium suite (book-pages.js): every chapter of SUMMARY.md loads
// without a page error, console error, HTTP error or external request, its mermaid diagrams
// render, and every widget's quick run is verified — the GPU ones on the WebGPU adapter Firefox
// offers with its dom.webgpu.enabled preference on (lavapipe, Mesa's Vulkan on the CPU). Then what
// differs in Firefox, asserted rather than skipped: the capability probes (shared memory, relaxed
// SIMD, wide arithmetic), the CPU widgets' rows that need them, and Firefox ESR as shipped on
// Linux (WebGPU off), where every GPU widget must say why it cannot run.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { servedBook, taskResult } from './harness.js';
import { chapters, checkChapter, quickRuns } from './book-pages.js';
import { launchFirefox } from '../lib/firefox.js';

// Marionette reports no page events: the server and a script it puts first in every page record
// the problems (lib/serve.js `record`, lib/firefox.js says what is and is not seen).
const book = servedBook({ record: true });

/** Headless Firefox ESR for this file's tests, started before them and closed after. */
function startedFirefox(options) {
  const handle = { browser: null };
  before(async () => { handle.browser = await launchFirefox(options); });
  after(async () => { await handle.browser?.close(); });
  return handle;
}

/** Opens `path` of the book in a new tab of `started`'s Firefox; the server's record starts afresh. */
async function visit(started, path) {
  book.server.problems.length = 0;
  const page = await started.browser.newPage();
  await page.goto(book.url + path);
  return { page };
}

/** What went wrong on `page` so far: the page's own record and the server's. */
async function problemsOf(page) {
  const inPage = await page.evaluate(() => window.fastmsmProblems ?? ['the problem recorder did not run']);
  return [...inPage, ...book.server.problems];
}

/**
 * Waits until the server has had no request for half a second (the page's requests settled),
 * asserts that nothing went wrong on the page, closes it.
 */
async function closeClean(page, what) {
  while (Date.now() - book.server.lastRequest < 500) await new Promise((ok) => setTimeout(ok, 100));
  assert.deepEqual(await problemsOf(page), [], what);
  await page.close();
}

/** The quick run of `widget` among a chapter's `runs`. */
const run = (runs, widget) => runs.find((r) => r.widget === widget).result;

/** The page's status and message lines of `widget`. */
const shown = (page, widget) => page.evaluate((w) => {
  const root = document.querySelector(`.fastmsm-widget[data-widget="${w}"]`);
  return { status: root.querySelector('.fm-status').textContent, message: root.querySelector('.fm-message')?.textContent ?? '' };
}, widget);

// Where Firefox differs from Chromium, checked on a chapter's quick runs (after book-pages.js has
// checked that every one is verified): each widget's rows must follow what it probed here — a row
// that needs a missing feature is reported with the reason, never dropped silently.
const afterQuickRuns = {
  'intro.html': async (_page, runs, t) => {
    const result = run(runs, 'capabilities');
    const f = result.features;
    t.diagnostic(`Firefox features: ${JSON.stringify(f)}`);
    assert.equal(f.webgpu, true, 'Firefox with dom.webgpu.enabled exposes WebGPU (lavapipe)');
    assert.equal(f.simd128, true, 'Firefox has WASM SIMD128');
    assert.equal(f.cross_origin_isolated, true, 'COOP/COEP isolate the page in Firefox');
    assert.equal(f.threads, true, 'shared WebAssembly memory in the isolated page');
    const binding = result.results.find((r) => r.name === 'maxStorageBufferBindingSize');
    assert.ok(binding.median >= 2 ** 27, `maxStorageBufferBindingSize = ${binding.median}`);
  },
  'float-and-wide.html': async (_page, runs) => {
    const result = run(runs, 'mont-bench');
    const widget = await import('../../book/widgets/widgets/mont-bench.js');
    const why = new Map(result.unavailable.map((u) => [u.variant, u.reason]));
    const ran = new Set(result.results.map((r) => r.params.variant));
    if (result.features.relaxed_simd) assert.ok(ran.has(widget.RELAXED) || /not fused/.test(why.get(widget.RELAXED)), 'relaxed SIMD row');
    else assert.match(why.get(widget.RELAXED), /lacks WebAssembly relaxed SIMD/);
    // Firefox ESR 153 has wide arithmetic behind a preference (tested below): the reason names it
    for (const v of widget.WIDE_ROWS) {
      if (result.features.wide_arithmetic) assert.ok(ran.has(v), `${v} ran`);
      else assert.match(why.get(v), /lacks WebAssembly wide arithmetic.*javascript\.options\.wasm_wide_arithmetic/);
    }
  },
  'wasm-msm.html': async (_page, runs) => {
    const result = run(runs, 'cpu-msm');
    const widget = await import('../../book/widgets/widgets/cpu-msm.js');
    const ran = new Set(result.results.map((r) => r.params.variant));
    if (result.features.relaxed_package) assert.ok(widget.RELAXED_VARIANTS.every((v) => ran.has(v)), 'the relaxed-SIMD rows ran');
    else assert.deepEqual(result.unavailable.map((u) => u.variant), widget.RELAXED_VARIANTS, 'missing relaxed SIMD is reported');
    const threads = run(runs, 'cpu-threads');
    assert.equal(threads.modes.shared.ok, true, `shared memory in Firefox: ${threads.modes.shared.why}`);
    for (const mode of ['shared', 'message']) assert.ok(threads.results.some((r) => r.params.mode === mode), `${mode} ran`);
  },
  'prover.html': async (_page, runs) => {
    assert.equal(run(runs, 'msm-auto').crossover.gpu, true, 'the crossover was measured with the GPU (WebGPU on)');
  },
  'webgpu-device.html': async (_page, runs, t) => {
    const result = run(runs, 'gpu-msm');
    t.diagnostic(`gpu-msm in Firefox on "${result.device.name}" (${result.device.device_type}): ${result.results.map((r) => r.name).join(', ')}`);
  },
};

describe('every page of SUMMARY.md in Firefox ESR (WebGPU on, lavapipe)', () => {
  const firefox = startedFirefox();

  test('the problem recorder catches what the pages must not do', async () => {
    const { page } = await visit(firefox, 'glossary.html');
    await page.evaluate(async () => {
      console.error('a console error');
      await fetch('https://example.invalid/x.js').catch(() => {});
      await fetch('./no-such-file.js');
      document.head.append(Object.assign(document.createElement('script'), { src: './no-such-script.js' }));
      // The page's own code (the driver's scripts run in a sandbox of their own, whose errors the
      // page never sees): an uncaught error and an unhandled rejection.
      document.head.append(Object.assign(document.createElement('script'), {
        textContent: "setTimeout(() => { throw new Error('a page error'); }); Promise.reject(new Error('a rejection'));" }));
      await new Promise((ok) => setTimeout(ok, 500));
    });
    while (Date.now() - book.server.lastRequest < 500) await new Promise((ok) => setTimeout(ok, 100));
    const problems = await problemsOf(page);
    for (const p of [/^console error: a console error$/, /^external request: https:\/\/example\.invalid\/x\.js$/,
      /^HTTP 404: .*no-such-file\.js$/, /^request failed: .*no-such-script\.js$/, /^page error: .*a page error/,
      /^page error: a rejection$/]) {
      assert.ok(problems.some((x) => p.test(x)), `${p} in ${JSON.stringify(problems)}`);
    }
    await page.close();
  });

  // A bound per chapter: a hang must fail, not stall CI. (Under WebDriver BiDi the CPU pool's start
  // on wasm-msm.html hung in some runs; lib/firefox.js says why the suite uses Marionette.)
  for (const chapter of chapters) {
    test(chapter, { timeout: 8 * 60_000 }, async (t) => {
      const { page } = await visit(firefox, chapter);
      const runs = await checkChapter(page);
      await afterQuickRuns[chapter]?.(page, runs, t);
      await closeClean(page, `problems on ${chapter}`);
    });
  }
});

// A reader's Firefox ESR on Linux has WebGPU off: every widget that needs it must say so (and
// where to go instead), the CPU ones must still run.
describe('Firefox ESR as shipped (WebGPU off)', () => {
  const firefox = startedFirefox({ webgpu: false });

  test('the capability widget says there is no WebGPU adapter', async () => {
    const { page } = await visit(firefox, 'intro.html');
    const [{ result }] = await quickRuns(page);
    assert.equal(result.features.webgpu, false);
    assert.equal(result.verified, true, 'wgpu and the browser agree: no adapter');
    assert.match((await shown(page, 'capabilities')).message, /exposes no WebGPU adapter/);
    await closeClean(page);
  });

  for (const [chapter, widget] of [['montgomery-wgsl.html', 'wgsl-mont'], ['webgpu-device.html', 'gpu-msm']]) {
    test(`${widget} says it cannot run without WebGPU`, async () => {
      const { page } = await visit(firefox, chapter);
      const [{ result }] = await quickRuns(page);
      assert.equal(result.verified, false);
      assert.match(result.unavailable, /^no WebGPU \(navigator\.gpu is missing/);
      const { status, message } = await shown(page, widget);
      assert.match(status, /^Not run: no WebGPU/);
      assert.match(message, /cannot run/);
      await closeClean(page);
    });
  }
});

// Firefox ESR 153 has WebAssembly wide arithmetic behind a preference: with it on, the
// wide-arithmetic package compiles, and its rows (a second engine's i64.mul_wide_u and
// i64.add128) equal ark-ff, as in Chromium with its flag (wide.test.js).
describe('Firefox ESR with javascript.options.wasm_wide_arithmetic', () => {
  const firefox = startedFirefox({ webgpu: false, prefs: { 'javascript.options.wasm_wide_arithmetic': true } });

  test('mont-bench: the wide-arithmetic rows run and are verified', async () => {
    const { page } = await visit(firefox, 'float-and-wide.html');
    const widget = await import('../../book/widgets/widgets/mont-bench.js');
    const result = await taskResult(page, 'mont-bench', { field: ['bn254-fr', 'bls12-381-fq'], variants: widget.WIDE_ROWS, count: 1000, repetitions: 1 });
    assert.equal(result.features.wide_arithmetic, true);
    assert.deepEqual(result.unavailable, []);
    for (const field of ['bn254-fr', 'bls12-381-fq']) {
      const rows = result.results.filter((r) => r.params.field === field);
      assert.deepEqual(rows.map((r) => r.params.variant), [widget.BASELINE, ...widget.WIDE_ROWS], field);
      for (const r of rows) assert.equal(r.verified, true, `${r.name} verified`);
    }
    await closeClean(page);
  });
});
