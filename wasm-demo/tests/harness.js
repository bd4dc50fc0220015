// What the browser test files share: the built book served and headless Chromium started for a
// file's tests (and closed after them), pages that record every problem a reader would meet, and
// the widgets' worker tasks called from a page. Not a test file itself (no .test.js suffix).
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { serveBook } from '../lib/serve.js';
import { launchChromium, recordProblems } from '../lib/browser.js';

/**
 * Serves the built book (or `options.root`) for this file's tests: the handle's `url` is set once
 * the file's `before` hooks have run, and the server is closed after its tests.
 */
export function servedBook(options) {
  const handle = { server: null, get url() { return this.server.url; } };
  before(async () => { handle.server = await serveBook(options); });
  after(async () => { await handle.server?.close(); });
  return handle;
}

/** Headless Chromium for this file's tests (`launch` starts it): `handle.browser`, closed after. */
export function startedChromium(launch = launchChromium) {
  const handle = { browser: null };
  before(async () => { handle.browser = await launch(); });
  after(async () => { await handle.browser?.close(); });
  return handle;
}

/**
 * Opens `path` under `served.url` in a new page of `target` (a browser or a browser context),
 * recording every problem (page and console errors, failed, external or HTTP-error requests).
 */
export async function openPage(target, served, path = '') {
  const page = await target.newPage();
  const problems = await recordProblems(page, new URL(served.url).origin);
  await page.goto(served.url + path, { waitUntil: 'load' });
  return { page, problems };
}

/** Waits for the page's requests to settle, asserts that nothing went wrong on it, closes it. */
export async function closeClean(page, problems, what) {
  await page.waitForLoadState('networkidle');
  assert.deepEqual(problems, [], what);
  await page.close();
}

/**
 * Runs widget task `name` with `params` in the page's widget worker (as the widgets and the bench
 * runner call it): resolves to `{ result }`, or `{ error }` with the task's error message.
 */
export function runTask(page, name, params) {
  return page.evaluate(async ({ name, params }) => {
    await window.fastmsmWidgets.ready;
    try {
      return { result: await window.fastmsmWidgets.runTask(name, params) };
    } catch (e) {
      return { error: String(e.message) };
    }
  }, { name, params });
}

/** The result of widget task `name` on `params`; fails the test with the task's error instead. */
export async function taskResult(page, name, params) {
  const { result, error } = await runTask(page, name, params);
  assert.equal(error, undefined, `${name}: ${error}`);
  return result;
}

/** Asserts that each `[params, pattern]` of `cases` makes task `name` fail with a matching error. */
export async function assertTaskErrors(page, name, cases) {
  for (const [params, pattern] of cases) {
    const { error } = await runTask(page, name, params);
    assert.match(error ?? 'no error', pattern, JSON.stringify(params));
  }
}
