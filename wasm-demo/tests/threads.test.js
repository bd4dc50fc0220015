// End-to-end: the CPU MSM on every core (book/widgets/widgets/cpu-threads.js, pool/cpu-pool.js) in headless
// Chromium, on a server that sends COOP/COEP (isolated: shared memory and message passing), on
// one that sends none with the service worker kept out (message passing only), and on one that
// sends none where the site's service worker isolates the page after one reload. Every result
// is checked against arkworks by the widget; bad input and a dying worker give their errors.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, servedBook, startedChromium, taskResult } from './harness.js';

const isolated = servedBook({ isolate: true });
const plain = servedBook({ isolate: false });
const chromium = startedChromium();

/** A fresh context on `served`'s first chapter; `serviceWorker` false keeps coi-serviceworker out. */
async function open(served, { serviceWorker = true } = {}) {
  const context = await chromium.browser.newContext({ serviceWorkers: serviceWorker ? 'allow' : 'block' });
  if (!serviceWorker) await context.addInitScript('window.coi = { shouldRegister: () => false };');
  const { page, problems } = await openPage(context, served, 'intro.html');
  return { context, page, problems };
}

const QUICK = { curve: ['bn254', 'bls12-377', 'ed-on-bls12-377'], logn: 9, repetitions: 1, glv: 'no', threads: [1, 2, 3] };

const runThreads = (page, params) => taskResult(page, 'cpu-threads', params);

function checkRuns(result, modes) {
  assert.equal(result.verified, true, 'every threaded result equals arkworks\'');
  for (const mode of modes) {
    for (const curve of QUICK.curve) {
      const rows = result.results.filter((r) => r.params.mode === mode && r.params.curve === curve);
      assert.deepEqual(rows.map((r) => r.params.threads), QUICK.threads, `${mode} ${curve}: every thread count ran`);
      assert.ok(rows.every((r) => r.verified), `${mode} ${curve}: verified`);
    }
  }
}

describe('the CPU MSM on every core', () => {
  test('isolated page: shared memory and message passing, both verified', async () => {
    const { context, page, problems } = await open(isolated, { serviceWorker: false });
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), true);
    const result = await runThreads(page, { ...QUICK, mode: 'both' });
    checkRuns(result, ['shared', 'message']);
    assert.equal(result.modes.shared.ok, true, result.modes.shared.why);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('page without headers or service worker: message passing, and the reason shared memory is off', async () => {
    const { context, page, problems } = await open(plain, { serviceWorker: false });
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), false);
    const result = await runThreads(page, { ...QUICK, mode: 'both' });
    checkRuns(result, ['message']);
    assert.equal(result.results.some((r) => r.params.mode === 'shared'), false);
    assert.match(result.unavailable.find((u) => u.mode === 'shared').reason, /not cross-origin isolated/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('page without headers: the site\'s service worker isolates it after one reload', async () => {
    const { context, page, problems } = await open(plain);
    await page.waitForFunction(() => self.crossOriginIsolated === true, null, { timeout: 30_000 });
    await page.waitForLoadState('load');
    const result = await runThreads(page, { ...QUICK, curve: ['bn254'], mode: 'shared' });
    assert.equal(result.verified, true);
    assert.equal(result.results.every((r) => r.params.mode === 'shared'), true);
    // the service worker's one reload cancels what the first load still had in flight
    assert.deepEqual(problems.filter((p) => !p.endsWith('(net::ERR_ABORTED)')), []);
    await context.close();
  });

  test('bad input and a dying worker get clear errors, in both modes', async () => {
    const { context, page, problems } = await open(isolated, { serviceWorker: false });
    const checks = await runThreads(page, { check: 'errors' });
    for (const mode of ['shared', 'message']) {
      const c = checks.results.find((r) => r.mode === mode);
      assert.ok(c, `${mode} checked`);
      assert.match(c.empty, /n = 0/, `${mode}: n = 0`);
      assert.match(c.off_curve, /^point 5: .* is not on the curve/, `${mode}: the first bad point, by index`);
      assert.match(c.truncated, /point 7 is truncated/, `${mode}: a truncated point`);
      assert.match(c.mismatch, /8 points but 7 scalars/, `${mode}: lengths`);
      assert.match(c.too_big, /scalar 3: .* is not below the group order r/, `${mode}: scalar ≥ r`);
      assert.match(c.crashed, /CPU worker 0 stopped/, `${mode}: a dead worker is reported`);
    }
    // an unfused multiply-add (pretended): message passing on 30-bit limbs, the same point
    if (checks.fallback.error) assert.fail(`the fallback failed: ${checks.fallback.error}`);
    assert.equal(checks.fallback.mode, 'message');
    assert.equal(checks.fallback.package, 'main');
    assert.match(checks.fallback.reason, /not fused .*message passing/);
    assert.equal(checks.fallback.verified, true, 'the fallback\'s point equals arkworks\'');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
