// End-to-end: the `montgomery` peer runner (wasm-demo/bench/peer-montgomery.js) at n = 2^8 and
// 2^9, two rounds: it bundles the peer, runs it beside ours in one page of the built book, and
// writes a results file whose every row agrees with arkworks. A quick check that the comparison
// still runs (the peer loads, the input reaches it in its layout, the results are compared), not
// a benchmark: its timings are not looked at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

test('montgomery beside ours: one page, the same input, every result equal to arkworks\'', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fastmsm-peer-test-'));
  try {
    const out = join(dir, 'peer.json');
    await run(process.execPath, [resolve(import.meta.dirname, '../bench/peer-montgomery.js'),
      '--logn', '8,9', '--repetitions', '2', '--out', out], { timeout: 120_000 });
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(doc.suite, 'msm-wasm-peer');
    assert.equal(doc.peer.name, 'montgomery');
    assert.equal(doc.peer.version, JSON.parse(readFileSync(resolve(import.meta.dirname, '../node_modules/montgomery/package.json'), 'utf8')).version);
    assert.equal(doc.verified, true);
    for (const logn of [8, 9]) {
      const row = (key) => doc.results.find((r) => r.name === `bls12-381/n=2^${logn}/${key}`);
      const [ark, ours, peer] = ['arkworks', 'all-affine-r30+glv', 'montgomery'].map(row);
      for (const r of [ark, ours, peer]) {
        assert.ok(r, `2^${logn}: a row per library`);
        assert.equal(r.verified, true, r.name);
        assert.equal(r.samples, 2, r.name);
      }
      // The rows' own results, compared here again: the peer's answer read back in our format.
      assert.match(ark.params.result, /^\(0x[0-9a-f]+, 0x[0-9a-f]+\)$/);
      assert.equal(peer.params.result, ark.params.result, `2^${logn}: montgomery's point`);
      assert.equal(ours.params.result, ark.params.result, `2^${logn}: our point`);
      assert.ok(ours.params.speedup_vs_montgomery > 0);
    }
    // Another n, another point: the input differs per n.
    assert.notEqual(doc.results[0].params.result, doc.results.at(-1).params.result);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
