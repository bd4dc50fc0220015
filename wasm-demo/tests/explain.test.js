// End-to-end: the step-through widgets (book/widgets/{barrett-steps,curve-ops,cuzk-steps,
// reduction-steps,glv-split}.js) in headless Chromium. Each chapter is opened, its widget runs in
// quick mode on a small example and must report verified (its WebAssembly side checks against
// num-bigint or arkworks, its page side with BigInt); the views are rendered, and bad input must
// give an error that names what is wrong.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveBook } from '../lib/serve.js';
import { launchChromium, recordProblems } from '../lib/browser.js';

let server;
let browser;
before(async () => {
  server = await serveBook();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens `chapter`, runs its widget `name` in quick mode, returns { page, problems, result, module }. */
async function runWidget(chapter, name) {
  const page = await browser.newPage();
  const problems = await recordProblems(page, new URL(server.url).origin);
  await page.goto(server.url + chapter, { waitUntil: 'load' });
  // Let the widget's own first run (autorun, default inputs) finish, so that the page shows the
  // quick run's view afterwards.
  await page.evaluate(() => window.fastmsmWidgets.ready);
  await page.waitForFunction((n) => document.querySelector(`.fastmsm-widget[data-widget="${n}"]`).dataset.state !== 'running', name);
  const runs = await page.evaluate(() => window.fastmsmWidgets.runAll({ quick: true }));
  const run = runs.find((r) => r.widget === name);
  assert.ok(run, `${chapter} holds the ${name} widget`);
  const root = page.locator(`.fastmsm-widget[data-widget="${name}"]`);
  assert.equal(await root.getAttribute('data-verified'), 'true', await root.locator('.fm-status').textContent());
  const module = await import(`../../book/widgets/${name}.js`);
  return { page, problems, result: run.result, module, root };
}

/** The error message a widget's task gives for `params`, through the page's worker. */
function taskError(page, name, params) {
  return page.evaluate(async ({ name, params }) => {
    const { runInWorker } = await import('./widgets/worker-client.js');
    try {
      await runInWorker(name, params, () => {});
      return null;
    } catch (e) {
      return String(e.message);
    }
  }, { name, params });
}

async function finish(page, problems) {
  await page.waitForLoadState('networkidle');
  assert.deepEqual(problems, []);
  await page.close();
}

describe('step-through widgets', () => {
  test('barrett-steps: every field, estimate within 2, result = z mod p', async () => {
    const { page, problems, result, module, root } = await runWidget('barrett.html', 'barrett-steps');
    assert.equal(result.verified, true);
    assert.equal(result.runs.length, module.FIELDS.length * 3);
    for (const s of result.runs) {
      assert.deepEqual(s.problems, [], s.field);
      assert.ok(s.corrections <= 2 && s.correction_steps.length === s.corrections + 1);
    }
    // (p − 1)² needs the largest quotient: its estimate is still within 2
    const top = result.runs.filter((s) => BigInt(s.a) === BigInt(s.p) - 1n);
    assert.equal(top.length, module.FIELDS.length);
    assert.equal(await root.locator('table.fm-table').count(), result.runs.length);
    // an injected wrong remainder is caught by the page's own check
    const bad = { ...result.runs[0], remainder: '0x1' };
    assert.ok(module.check(bad).some((p) => /remainder/.test(p)));
    for (const [params, pattern] of [
      [{ field: 'bn254-fq', a: '12x', b: '1' }, /a = "12x" is not a number/],
      [{ field: 'bn254-fq', a: '1', b: '0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47' }, /b = .* is not below the modulus p/],
      [{ field: 'goldilocks', a: '1', b: '1' }, /unknown field "goldilocks"/],
    ]) {
      assert.match(await taskError(page, 'barrett-steps', params) ?? 'no error', pattern, JSON.stringify(params));
    }
    await finish(page, problems);
  });
});
