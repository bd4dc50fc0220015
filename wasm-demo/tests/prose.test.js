// The book's prose, without a browser: every figure placeholder is backed by committed data, no
// main chapter states a measured figure by hand, and no main chapter reads like a lab log (that
// history lives in the ledger appendix). Rules and resolver: wasm-demo/bench/figures.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  NOT_MAIN, ROOT, dataSource, evaluate, format, labLogWords, literalFigures, placeholders, renderFigures,
} from '../bench/figures.js';

const BOOK = resolve(ROOT, 'book');
const chapters = readdirSync(BOOK).filter((f) => f.endsWith('.md')).sort();
const main = chapters.filter((f) => !NOT_MAIN.has(f));
const read = (f) => readFileSync(resolve(BOOK, f), 'utf8');
const data = dataSource();
const show = (xs) => xs.map((x) => `  ${JSON.stringify(x)}`).join('\n');

test('every {{fig}} placeholder of every chapter resolves against committed data', () => {
  const bad = [];
  let count = 0;
  for (const f of chapters) {
    for (const p of placeholders(read(f))) {
      count += 1;
      try { renderFigures(p, f, data); } catch (e) { bad.push(e.message); }
    }
  }
  assert.deepEqual(bad, [], bad.join('\n'));
  assert.ok(count > 20, `only ${count} placeholders: the chapters should render their figures from data`);
});

test('a placeholder renders the committed value, and a wrong one is refused with a reason', () => {
  const doc = JSON.parse(readFileSync(resolve(ROOT, 'benches/results/gpu-msm-nvidia-h200.json'), 'utf8'));
  const row = doc.results.find((r) => r.name === 'bls12-377/uniform/2^20/w30');
  assert.equal(evaluate('gpu-msm-nvidia-h200 bls12-377/uniform/2^20/w30 median | 3', data).text, row.median.toFixed(3));
  const smvp = row.params.stages_ms_of_median_run.find((s) => s.stage === 'smvp').ms;
  assert.equal(evaluate('gpu-msm-nvidia-h200 bls12-377/uniform/2^20/w30 stage:smvp', data).value, smvp);
  assert.equal(evaluate('gpu-msm-nvidia-h200 curve=bls12-377,log_n=20,limb_bits=30 median / 2', data).value, row.median / 2);
  assert.equal(format(1234.5), '1 235');
  assert.equal(format(2.14e10, 'sci'), '2.14·10¹⁰');
  assert.equal(format(2.14e10, 'tex-sci'), '2.14 \\cdot 10^{10}');
  for (const [body, why] of [
    ['gpu-msm-nvidia-h200 bls12-377/uniform/2^20/w31 median', /no row/],
    ['gpu-msm-nvidia-h200 curve=bls12-377 median', /rows of .* match/],
    ['gpu-msm-nvidia-h200 bls12-377/uniform/2^20/w30 medain', /"medain" is missing/],
    ['no-such-file x median', /no data file/],
    ['gpu-msm-nvidia-h200 bls12-377/uniform/2^20/w30 median | 7', /unknown format/],
  ]) assert.throws(() => evaluate(body, data), why, body);
});

test('no main chapter states a measured figure by hand (each is a {{fig}} placeholder)', () => {
  // The rule itself must catch an injected figure, or this test could never fail.
  const injected = 'At $2^{20}$ the MSM takes 17.3 ms, 1.62× faster than before; sppark needs 29.2 ms.';
  assert.equal(literalFigures(injected).length, 3);
  assert.equal(literalFigures('It takes {{fig gpu-msm-nvidia-h200 bn254/uniform/2^20/w29 median}} ms; `20 ms` in code.').length, 0);
  const found = main.flatMap((f) => literalFigures(read(f)).map((x) => ({ chapter: f, ...x })));
  assert.deepEqual(found, [], `literal measured figures (write them as {{fig ...}}):\n${show(found)}`);
});

test('no lab-log words in the main chapters (issue numbers, sessions, machine starts, commit hashes)', () => {
  const injected = 'Measured in this session on the lent machine (issue 7, commit `82f5558`, same start).';
  assert.equal(labLogWords(injected).length, 5);
  assert.equal(labLogWords('A run that starts later; the value `0x1f2e3d4c5b`; `smvp_combine`; [^ed25519].').length, 0);
  const found = main.flatMap((f) => labLogWords(read(f)).map((x) => ({ chapter: f, ...x })));
  assert.deepEqual(found, [], `lab-log words belong in the ledger appendix (book/ledger.md):\n${show(found)}`);
});
