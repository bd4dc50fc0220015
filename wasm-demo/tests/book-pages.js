// What the every-page end-to-end test asserts on a chapter, in any browser engine: the chapters of
// SUMMARY.md, and the check of one loaded chapter (its mermaid diagrams rendered, each widget's
// quick run verified, with provenance). It talks to the page through `page.evaluate` alone, which
// Playwright (Chromium, book.test.js) and puppeteer (Firefox, firefox.test.js) share; loading the
// page and recording its problems stay with each engine's driver. Not a test file itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const SUMMARY = resolve(import.meta.dirname, '../../book/SUMMARY.md');

/** The chapters of SUMMARY.md, as the built book's page names (intro.html, …). */
export const chapters = [...readFileSync(SUMMARY, 'utf8').matchAll(/\]\(([^)]+)\.md\)/g)].map((m) => `${m[1]}.html`);

// A page's quick runs end within minutes even on lavapipe; past this bound they are taken to be
// stuck, and the test fails naming where each widget stood (its state and status line) rather
// than waiting for the test's own timeout, which says nothing of where.
const STALL_SECONDS = 390;

/** Runs every widget of the loaded page in quick mode: `[{ widget, result }]`, one per widget. */
export async function quickRuns(page) {
  // As JSON: the drivers' own serialisations of a large result differ (depth limits).
  const out = JSON.parse(await page.evaluate(async (stallSeconds) => {
    let timer;
    const late = new Promise((ok) => { timer = setTimeout(ok, stallSeconds * 1000, 'stalled'); });
    const runs = await Promise.race([window.fastmsmWidgets.runAll({ quick: true }), late]);
    clearTimeout(timer);
    if (runs !== 'stalled') return JSON.stringify({ runs });
    return JSON.stringify({ stalled: [...document.querySelectorAll('.fastmsm-widget')].map((w) =>
      `${w.dataset.widget}: ${w.dataset.state ?? 'no state'}, "${w.querySelector('.fm-status')?.textContent ?? ''}"`) });
  }, STALL_SECONDS));
  if (out.stalled) throw new Error(`the quick runs did not end within ${STALL_SECONDS} s; ${out.stalled.join('; ')}`);
  return out.runs;
}

/**
 * On a loaded chapter: every mermaid block rendered to SVG (within 30 s), then every widget's quick
 * run verified, with provenance, and shown as done and verified. Resolves to the runs
 * (`[{ widget, result }]`, empty where the chapter has no widget).
 */
export async function checkChapter(page) {
  const mermaid = await page.evaluate(async () => {
    const blocks = document.querySelectorAll('pre.mermaid').length;
    for (const until = performance.now() + 30_000; blocks > 0 && !document.documentElement.dataset.mermaid
      && performance.now() < until;) await new Promise((ok) => setTimeout(ok, 50));
    const state = document.documentElement.dataset.mermaid ?? 'not rendered within 30 s';
    return { blocks, state, svgs: document.querySelectorAll('pre.mermaid svg').length };
  });
  if (mermaid.blocks > 0) {
    assert.equal(mermaid.state, 'done');
    assert.equal(mermaid.svgs, mermaid.blocks, 'every mermaid block rendered');
  }
  const widgets = await page.evaluate(() => document.querySelectorAll('.fastmsm-widget').length);
  if (widgets === 0) return [];
  const results = await quickRuns(page);
  assert.equal(results.length, widgets);
  for (const { widget, result } of results) {
    const failed = (result.results ?? []).filter((r) => r.verified === false).map((r) => r.name ?? JSON.stringify(r.params));
    assert.equal(result.verified, true, `${widget}: not verified on ${result.device?.name}${failed.length ? `: ${failed.join(', ')}` : ''}`);
    assert.ok(result.commit && result.date && result.device?.browser, `${widget}: result lacks provenance`);
  }
  const shown = await page.evaluate(() => [...document.querySelectorAll('.fastmsm-widget')].map((w) => ({
    widget: w.dataset.widget, state: w.dataset.state, verified: w.dataset.verified, status: w.querySelector('.fm-status').textContent })));
  for (const s of shown) {
    assert.deepEqual(s, { ...s, state: 'done', verified: 'true', status: '✔ Verified against the reference.' }, `${s.widget} as shown`);
  }
  return results;
}
