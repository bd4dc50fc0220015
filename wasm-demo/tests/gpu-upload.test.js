// The gpu-msm widget's upload paths in the page (SwiftShader): writeBuffer whole and in pieces,
// and the kept mapped staging buffer (its browser-only fill through getMappedRange), each verified
// by discrete logs and by arkworks, each run with the host's timeline in its row; a bad path is
// named in the error.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertTaskErrors, closeClean, openPage, servedBook, startedChromium, taskResult } from './harness.js';

const book = servedBook();
const chromium = startedChromium();

describe('gpu-msm upload paths', () => {
  test('every path verified, traced; wait_after_upload traced; bad path named', async () => {
    const { page, problems } = await openPage(chromium.browser, book, 'webgpu-device.html');
    const paths = ['write-buffer', 'chunked:4K', 'auto'];
    // n = 1000: not a multiple of the 4 KiB pieces, so the last piece is a short one.
    const result = await taskResult(page, 'gpu-msm', {
      curve: 'ed-on-bls12-377', n: '1000', repetitions: 2, cpu_check: 10, warmup_s: 0,
      profile: 'swiftshader', upload: paths,
    });
    assert.equal(result.verified, true);
    // auto is the kept staging buffer, in the browser as natively.
    assert.deepEqual(result.results.map((r) => r.params.upload), ['write-buffer', 'chunked:4K', 'staging']);
    for (const r of result.results) {
      assert.equal(r.params.checks.arkworks.equal, true, r.name);
      const trace = r.params.host_trace_of_median_run;
      const whats = trace.map((t) => t.what);
      const uploads = whats.filter((w) => w.startsWith(r.params.upload === 'staging' ? 'staging: copy' : 'write_buffer'));
      assert.equal(uploads.length, r.params.upload === 'staging' ? 1 : 2, `${r.name}: ${whats}`);
      if (r.params.upload === 'chunked:4K') assert.match(uploads[0], /64000 B in 16 pieces/);
      assert.ok(whats.includes('read-back: wait for the map, copy out'), `${r.name}: ${whats}`);
      assert.ok(trace.every((t, i) => t.start_ms <= t.end_ms && (i === 0 || trace[i - 1].end_ms <= t.start_ms)), r.name);
    }
    const waited = await taskResult(page, 'gpu-msm', {
      curve: 'ed-on-bls12-377', n: '2^8', repetitions: 1, cpu_check: 0, warmup_s: 0,
      profile: 'swiftshader', upload: 'staging', wait_after_upload: true,
    });
    assert.equal(waited.verified, true);
    const [w] = waited.results;
    assert.match(w.name, /upload=staging\/wait-after-upload$/);
    assert.ok(w.params.host_trace_of_median_run.some((t) => t.what === 'wait until the GPU has the input'));
    await assertTaskErrors(page, 'gpu-msm', [
      [{ curve: 'ed-on-bls12-377', n: '2^6', repetitions: 1, warmup_s: 0, profile: 'swiftshader', upload: 'chunked:3' },
        /upload path "chunked:3".*multiple of 4 bytes/],
      [{ curve: 'ed-on-bls12-377', n: '2^6', repetitions: 1, warmup_s: 0, profile: 'swiftshader', upload: 'mapped' },
        /upload path "mapped": unknown; one of auto, write-buffer, staging/],
    ]);
    await closeClean(page, problems);
  });
});
