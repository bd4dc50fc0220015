// End-to-end: the step-through widgets (book/widgets/widgets/{barrett-steps,curve-ops,cuzk-steps,
// reduction-steps,glv-split}.js) in headless Chromium. Each chapter is opened, its widget runs in
// quick mode on a small example and must report verified (its WebAssembly side checks against
// num-bigint or arkworks, its page side with BigInt); the views are rendered, and bad input must
// give an error that names what is wrong.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertTaskErrors, closeClean, openPage, servedBook, startedChromium, taskResult } from './harness.js';

const book = servedBook();
const chromium = startedChromium();

/** Opens `chapter`, runs its widget `name` in quick mode, returns { page, problems, result, module }. */
async function runWidget(chapter, name) {
  const { page, problems } = await openPage(chromium.browser, book, chapter);
  // Let the widget's own first run (autorun, default inputs) finish, so that the page shows the
  // quick run's view afterwards.
  await page.evaluate(() => window.fastmsmWidgets.ready);
  await page.waitForFunction((n) => document.querySelector(`.fastmsm-widget[data-widget="${n}"]`).dataset.state !== 'running', name);
  const runs = await page.evaluate(() => window.fastmsmWidgets.runAll({ quick: true }));
  const run = runs.find((r) => r.widget === name);
  assert.ok(run, `${chapter} holds the ${name} widget`);
  const root = page.locator(`.fastmsm-widget[data-widget="${name}"]`);
  assert.equal(await root.getAttribute('data-verified'), 'true', await root.locator('.fm-status').textContent());
  const module = await import(`../../book/widgets/widgets/${name}.js`);
  return { page, problems, result: run.result, module, root };
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
    await assertTaskErrors(page, 'barrett-steps', [
      [{ field: 'bn254-fq', a: '12x', b: '1' }, /a = "12x" is not a number/],
      [{ field: 'bn254-fq', a: '1', b: '0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47' }, /b = .* is not below the modulus p/],
      [{ field: 'goldilocks', a: '1', b: '1' }, /unknown field "goldilocks"/],
    ]);
    await closeClean(page, problems);
  });

  test('curve-ops: every formula counted and equal to arkworks on all four curves', async () => {
    const { page, problems, result, module, root } = await runWidget('curves.html', 'curve-ops');
    assert.equal(result.verified, true);
    assert.deepEqual(result.runs.map((r) => r.curve), module.CURVES);
    const count = (curve, formula) => result.runs.find((r) => r.curve === curve).formulas.find((f) => f.formula === formula);
    for (const curve of ['bn254', 'bls12-377', 'bls12-381']) {
      // the EFD costs, as counted from the code: add-2008-s 12M + 2S, madd-2008-s 8M + 2S, add-2007-bl 11M + 5S
      assert.deepEqual([count(curve, 'add-2008-s').mul, count(curve, 'add-2008-s').square], [12, 2]);
      assert.deepEqual([count(curve, 'madd-2008-s').mul, count(curve, 'madd-2008-s').square], [8, 2]);
      assert.deepEqual([count(curve, 'add-2007-bl').mul, count(curve, 'add-2007-bl').square], [11, 5]);
      assert.equal(count(curve, 'dbl-2009-l').inverse, 0);
    }
    assert.equal(count('ed-on-bls12-377', 'add-2008-hwcd-3').mul, 9, '8M + 1 by k');
    for (const r of result.runs) {
      assert.ok(r.formulas.every((f) => f.equal && f.x !== null), r.curve);
      assert.ok(r.formulas.filter((f) => /inversion/.test(f.formula)).every((f) => f.inverse === 1));
    }
    assert.equal(await root.locator('table.fm-table').count(), module.CURVES.length);
    // P = Q: the projective additions fall back to doubling, and still agree with arkworks
    const same = await taskResult(page, 'curve-ops', { curve: 'bls12-381', a: '7', b: '7' });
    assert.equal(same.verified, true);
    await assertTaskErrors(page, 'curve-ops', [
      [{ curve: 'bn254', a: 'seven', b: '1' }, /a = "seven" is not a number/],
      [{ curve: 'bn254', a: '1', b: '0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001' }, /b = .* is not below the group order r/],
      [{ curve: 'secp256k1', a: '1', b: '1' }, /unknown curve "secp256k1"/],
    ]);
    await closeClean(page, problems);
  });

  test('cuzk-steps: CSR arrays, chunked SMVP and the MSM verified', async () => {
    const { page, problems, result, module, root } = await runWidget('cuzk.html', 'cuzk-steps');
    assert.equal(result.verified, true);
    assert.equal(result.runs.length, module.quick.length);
    for (const s of result.runs) {
      assert.deepEqual(s.problems, [], s.curve);
      assert.ok(s.shown.length >= 1 && s.x === s.ark_x && s.y === s.ark_y);
      for (const w of s.shown) {
        assert.equal(w.row_ptr.length, s.buckets + 2);
        assert.equal(w.matrix.row_ptr.length, s.n + 1);
        assert.equal(w.chunks.length, Math.ceil(w.entries.length / s.chunk));
      }
    }
    // with K = 2 some bucket is cut by a chunk boundary: two chunks hold pieces of it
    const cut = result.runs[0].shown.some((w) => w.chunks.some((c, t) => t > 0
      && c.pieces[0]?.bucket === w.chunks[t - 1].pieces.at(-1)?.bucket));
    assert.ok(cut, 'a bucket spans two chunks');
    // a wrong row pointer is caught by the page's own check
    const w = structuredClone(result.runs[0].shown[0]);
    w.row_ptr[1] += 1;
    assert.ok(module.checkWindow(w, result.runs[0].buckets).length > 0);
    assert.ok(await root.locator('table.fm-table').count() >= 3);
    await assertTaskErrors(page, 'cuzk-steps', [
      [{ curve: 'bn254', n: 0, c: 3, bits: 8, chunk: 2, seed: 1 }, /n = 0 points: choose 1 to 32/],
      [{ curve: 'bn254', n: 8, c: 9, bits: 8, chunk: 2, seed: 1 }, /window width c = 9: choose 2 to 8/],
      [{ curve: 'bn254', n: 8, c: 3, bits: 300, chunk: 2, seed: 1 }, /scalar size 300 bits: choose 1 to 254/],
      [{ curve: 'bn254', n: 8, c: 3, bits: 8, chunk: 0, seed: 1 }, /chunk of 0 entries/],
    ]);
    await closeClean(page, problems);
  });

  test('reduction-steps: running sums and segments equal the direct sum', async () => {
    const { page, problems, result, module, root } = await runWidget('bucket-reduction.html', 'reduction-steps');
    assert.equal(result.verified, true);
    for (const s of result.runs) assert.deepEqual(s.problems, [], s.curve);
    // the default example: 3, 1, 4, 1, 5, 9, 2, 6 → Σ j·b_j = 3 + 2 + 12 + 4 + 25 + 54 + 14 + 48 = 162
    const first = result.runs[0];
    assert.equal(first.direct.multiple, 162);
    assert.deepEqual(first.segments.map((x) => [x.first, x.last, x.offset]), [[1, 3, 0], [4, 6, 3], [7, 8, 6]]);
    assert.equal(first.steps.length, 8);
    const bad = structuredClone(first);
    bad.segments[1].corrected.multiple += 1;
    assert.ok(module.check(bad).length > 0, 'a wrong correction is caught');
    assert.equal(await root.locator('table.fm-table').count(), 2 * result.runs.length);
    await assertTaskErrors(page, 'reduction-steps', [
      [{ curve: 'bn254', multiples: '1, x, 3', segments: 1 }, /bucket multiple "x"/],
      [{ curve: 'bn254', multiples: '1, 2, 3', segments: 4 }, /4 segments for 3 buckets/],
      [{ curve: 'bn254', multiples: '', segments: 1 }, /0 bucket multiples/],
    ]);
    await closeClean(page, problems);
  });

  test('glv-split: k1 + λ·k2 ≡ k, bounds, and the point identity against arkworks', async () => {
    const { page, problems, result, module, root } = await runWidget('glv.html', 'glv-split');
    assert.equal(result.verified, true);
    assert.equal(result.splits.length, module.CURVES.length * module.quick.k.length);
    for (const s of result.splits) {
      assert.deepEqual(s.problems, [], `${s.curve} ${s.input}`);
      assert.ok(s.half_bits <= 128, `${s.curve}: half-length scalars`);
    }
    const lambda = result.splits.find((s) => s.input === 'lambda');
    assert.deepEqual([lambda.k1, lambda.k2], ['0x0', '0x1'], 'λ splits as (0, 1)');
    const bad = { ...result.splits[0], k1: '0x5' };
    assert.ok(module.check(bad).some((p) => /≢/.test(p)), 'a wrong k1 is caught');
    assert.equal(await root.locator('table.fm-table').count(), result.splits.length);
    await assertTaskErrors(page, 'glv-split', [
      [{ curve: 'ed-on-bls12-377', k: '5' }, /ed-on-bls12-377 has no cheap endomorphism/],
      [{ curve: 'bn254', k: '0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001' }, /k = .* is not below the group order r/],
      [{ curve: 'bn254', k: '-3' }, /k = "-3" is not a number/],
    ]);
    await closeClean(page, problems);
  });
});
