// End-to-end, benchmark-style (issue 37; run alone, after the other files, so that no other test
// shares the cores while it times): the npm package against the threads widget's pool on the
// same input and thread count, in one cross-origin-isolated page (the runner of
// bench/peer-yrrid.js without the peer: book/bench/peer-yrrid.html), interleaved rounds, every
// result checked against arkworks. It fails if the package, its points kept by the session as the
// widget keeps them, is more than 10% slower than the widget; the call that also hands over the
// points is reported beside it. The figures of record are in benches/results (the runner's JSON).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

test('the npm package is within 10% of the threads widget (same input, same threads)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'fastmsm-package-speed-'));
  try {
    const out = join(dir, 'speed.json');
    await run(process.execPath, [resolve(import.meta.dirname, '../../bench/peer-yrrid.js'), '--no-peer',
      '--logn', '15', '--threads', '2', '--repetitions', '5', '--out', out], { timeout: 300_000 });
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(doc.verified, true, 'every result equal to arkworks\'');
    const row = (key) => doc.results.find((r) => r.name === `bls12-377/n=2^15/threads=2/${key}`);
    const [widget, kept, given] = ['threads-widget', 'npm-package-kept', 'npm-package'].map(row);
    for (const r of [widget, kept, given]) {
      assert.ok(r, 'a row per contender');
      assert.equal(r.samples, 5, r.name);
    }
    t.diagnostic(`widget ${widget.median} ms; package, points kept ${kept.median} ms (${kept.params.ratio_vs_widget}×), `
      + `points given ${given.median} ms (${given.params.ratio_vs_widget}×); load ${JSON.stringify(doc.params.host_load_1min)}`);
    assert.ok(kept.params.ratio_vs_widget <= 1.1, `the package takes ${kept.params.ratio_vs_widget}× the widget's time`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
