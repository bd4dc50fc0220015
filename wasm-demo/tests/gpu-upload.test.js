// The gpu-msm widget's upload paths in the page (SwiftShader): writeBuffer whole and in pieces,
// the kept mapped staging buffer (its browser-only fill through getMappedRange), and pieces through
// a ring of kept buffers (auto in a page), in one batch and in several whose pieces wrap the ring,
// each verified by discrete logs and by arkworks, each run with the host's timeline in its row; a
// bad path is named in the error.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertTaskErrors, closeClean, openPage, servedBook, startedChromium, taskResult } from './harness.js';

const book = servedBook();
const chromium = startedChromium();

describe('gpu-msm upload paths', () => {
  test('every path verified, traced; wait_after_upload traced; bad path named', async () => {
    const { page, problems } = await openPage(chromium.browser, book, 'webgpu-device.html');
    const paths = ['write-buffer', 'chunked:4K', 'staging', 'pipelined:4K', 'auto'];
    // n = 1000: 96 000 B of input (64 000 B of points, then the scalars), not a multiple of the
    // 4 KiB pieces, so the last piece is a short one and one piece holds the end of the points and
    // the start of the scalars; auto's 8 MiB pieces are more than the whole input (one piece).
    const result = await taskResult(page, 'gpu-msm', {
      curve: 'ed-on-bls12-377', n: '1000', repetitions: 2, cpu_check: 10, warmup_s: 0,
      profile: 'swiftshader', upload: paths,
    });
    assert.equal(result.verified, true);
    // auto is the ring of 8 MiB pieces in a page (the kept staging buffer natively).
    assert.deepEqual(result.results.map((r) => r.params.upload),
      ['write-buffer', 'chunked:4K', 'staging', 'pipelined:4K', 'pipelined:8M']);
    const pieces = { 'write-buffer': 2, 'chunked:4K': 2, staging: 1, 'pipelined:4K': Math.ceil(96000 / 4096), 'pipelined:8M': 1 };
    for (const r of result.results) {
      assert.equal(r.params.checks.arkworks.equal, true, r.name);
      assert.equal(r.params.batches, 1, r.name);
      const trace = r.params.host_trace_of_median_run;
      const whats = trace.map((t) => t.what);
      const kept = r.params.upload === 'staging' || r.params.upload.startsWith('pipelined');
      const uploads = whats.filter((w) => w.startsWith(kept ? 'staging: copy' : 'write_buffer'));
      assert.equal(uploads.length, pieces[r.params.upload], `${r.name}: ${whats}`);
      if (r.params.upload === 'chunked:4K') assert.match(uploads[0], /64000 B in 16 pieces/);
      if (r.params.upload === 'pipelined:4K') {
        assert.ok(uploads.slice(0, -1).every((w) => w === 'staging: copy 4096 B into the mapping'), `${whats}`);
        assert.equal(uploads.at(-1), `staging: copy ${96000 % 4096} B into the mapping`);
      }
      // One submission of the MSM's passes (the pieces' copies apart).
      assert.equal(whats.filter((w) => w === 'submit').length, 1, `${r.name}: ${whats}`);
      assert.ok(whats.includes('read-back: wait for the map, copy out'), `${r.name}: ${whats}`);
      assert.ok(trace.every((t, i) => t.start_ms <= t.end_ms && (i === 0 || trace[i - 1].end_ms <= t.start_ms)), r.name);
      assert.ok(r.params.timed_epoch_ms[0] <= r.params.timed_epoch_ms[1], r.name);
    }
    // Batches of 256 points (24 576 B, 6 pieces: the ring's 6 slots) and a last one of 232: each
    // batch after the first reuses slots whose earlier pieces it waits for.
    const ring = await taskResult(page, 'gpu-msm', {
      curve: 'ed-on-bls12-377', n: '1000', repetitions: 2, cpu_check: 10, warmup_s: 0,
      profile: 'swiftshader', upload: 'pipelined:4K', batch: 256,
    });
    assert.equal(ring.verified, true);
    const [b] = ring.results;
    assert.equal(b.params.checks.arkworks.equal, true);
    assert.equal(b.params.batches, 4);
    const bw = b.params.host_trace_of_median_run.map((t) => t.what);
    assert.equal(bw.filter((w) => w.startsWith('staging: copy')).length, 3 * 6 + Math.ceil(232 * 96 / 4096), `${bw}`);
    // Each batch but the last submits its passes; the last goes with the reduction.
    assert.equal(bw.filter((w) => w === 'submit').length, 4, `${bw}`);
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
        /upload path "chunked:3".*multiple of 8 bytes/],
      [{ curve: 'ed-on-bls12-377', n: '2^6', repetitions: 1, warmup_s: 0, profile: 'swiftshader', upload: 'mapped' },
        /upload path "mapped": unknown; one of auto, write-buffer, staging, chunked:<size>, pipelined:<size>/],
    ]);
    await closeClean(page, problems);
  });
});
