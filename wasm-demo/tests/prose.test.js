// The book's prose, without a browser. What a reader is promised, and how it is checked:
//
// 1. Every measured figure comes from committed data. A chapter writes {{fig FILE ROW FIELD}}
//    (wasm-demo/bench/figures.js) and the build puts in the value that benches/results/*.json (or
//    benches/anchors.json, benches/experiments.json) holds; ratios, percentages and ranges are
//    placeholders too ({{fig A / B | 2}}×). Inside a placeholder the only typed operands allowed
//    are unit conversions (1000ᵏ, 100 for a percentage, 1024ᵏ): `/ 10` or `* 1156` would smuggle a
//    hand-typed figure into the arithmetic.
//
// 2. The number rule for the main chapters (all but the ledger appendix and SUMMARY.md). A number
//    in the prose is flagged when it has the *shape of a measurement* and is not exempt:
//    shapes  - a number (digits, a range such as 13–15 or 0.90 to 1.06, a number word such as
//              "fifteen", or a fraction word such as "half") with a unit of time, frequency, rate
//              or data size (ms, ns, s, GHz, MiB, GB/s, products/s, …);
//            - a number or number word with a ratio marker: ×, x, -fold, or "times" before a
//              comparison ("fifteen times faster", "0.90 to 1.06 times as long");
//            - a number with % or "percent";
//            - a fraction of a measured quantity ("a third of the time", "four fifths of a
//              profile", "a quarter fewer", "half again") and multiplier words about speed
//              ("twice as fast", "half the time");
//            - a decimal number, unless it is a version or a numbered part of a source
//              (Chromium 156.0, ark-ff 0.5, Algorithm 14.42).
//    exempt  - a placeholder (what it renders comes from data);
//            - a sentence that carries a footnote to its source ([^name]): a borrowed figure;
//            - a derivation: a math span with an operator (·, /, +, −, ^, ⌈⌉, √, log, …) shows
//              its arithmetic, and a table row whose formula cell has one is that arithmetic's
//              table. A math span without an operator is read as prose: `$17.3$ ms` or
//              `$K = 272$` are checked like the same text outside math.
//    So a *mathematical constant* is, by shape: an integer without a unit or ratio marker (limb
//    widths, bit sizes, limb counts, word counts, indices, the counts of a worked example), any
//    power or expression (2^k, ⌈(b+1)/c⌉), and whatever number a derivation computes in math,
//    where its arithmetic is on the page for the reader to check. A model's prediction (products
//    per addition, the share of scalars that carry) is written as that derivation, not as a bare
//    percentage. No list of allowed phrases: only shapes and structure.
//    What the rule cannot see: a bare integer with an ordinary noun ("24 additions", "128
//    registers"). Those are checked by reading; where they are measured (registers reported by a
//    driver) they are placeholders like any other figure.
//
// 3. No lab log in the main chapters: no commit hash (in the prose, in the blocks tests write into
//    a chapter, or in a generated table a chapter includes), no date, no pointer to commits, no
//    issue number, no session, call, rental or machine start. Provenance lives in the data files
//    and the ledger appendix (book/ledger.md), which keeps the history whole. Every rule reads whole
//    paragraphs, so a phrase broken over two source lines is still one phrase.
//
// 4. Structure: no main chapter is longer than 500 lines; SUMMARY.md lists every chapter; every
//    link to a chapter and heading resolves; every {{#include}} names a file (and anchor) that
//    exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, dataSource, derivedNumbers, derivedPlaceholders, evaluate, format, placeholders, renderDerived, renderFigures } from '../bench/figures.js';
import { conflicts, describe as describeConflicts, renderings } from '../bench/quantities.js';
import { NOT_MAIN, labLogWords, literalFigures, placeholderConstants, renderedHashes } from '../bench/prose-lint.js';

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

// Numbers that follow from the code: {{num KEY}} reads book/derived.json, which
// crates/msm-gpu/tests/book_numbers.rs computes from the crates and keeps current (cargo test fails
// when the code moves a number the file holds); a key the file lacks fails the build here.
test('every {{num}} placeholder names a number the code computed, and a missing one is refused', () => {
  const derived = derivedNumbers();
  const bad = [];
  let count = 0;
  for (const f of chapters) {
    const before = bad.length;
    for (const p of derivedPlaceholders(read(f))) {
      count += 1;
      try { renderDerived(p.whole, f, derived); } catch (e) { bad.push(e.message); }
    }
    // The whole page too (a table placeholder must stand alone on its line), once each alone passed.
    if (bad.length === before) {
      try { renderDerived(read(f), f, derived); } catch (e) { bad.push(e.message); }
    }
  }
  assert.deepEqual(bad, [], bad.join('\n'));
  assert.ok(count > 100, `only ${count} {{num}} placeholders`);
  assert.equal(renderDerived('{{num gpu.window.rule_max}} and {{num gpu.ex.limit | tex}}', 't', { 'gpu.window.rule_max': 17, 'gpu.ex.limit': 134217728 }),
    '17 and 134\\,217\\,728');
  for (const [text, why] of [
    ['{{num gpu.window.rule_maximum}}', /no key "gpu.window.rule_maximum"/],
    ['a table inline: {{num window.rule_table}}', /stands alone on its line/],
    ['{{num fields.count | hex}}', /unknown format/],
  ]) assert.throws(() => renderDerived(text, 't', derived), why, text);
});

// One value per quantity (wasm-demo/bench/quantities.js): a measured quantity (device, browser,
// configuration, field) the main chapters show, in their prose or in the generated tables they
// include, comes from one row of one data file everywhere.
test('every measured quantity is shown with one value: prose and tables read the same row', () => {
  const mainText = main.map((f) => [f, read(f)]);
  const injected = conflicts(renderings([...mainText, ['injected.md',
    'The H200 took {{fig gpu-msm-skewed-nvidia-h200 bls12-377/uniform/2^20/w30 median}} ms and '
    + '{{fig gpu-msm-nvidia-h200 bls12-377/uniform/2^20/w30 median}} ms.']], { data }));
  assert.ok(injected.some((c) => Object.values(c.sources).flat().some((w) => w.startsWith('injected.md'))),
    'two runs of one configuration, rendered side by side, are found');
  const found = conflicts(renderings(mainText, { data }));
  assert.deepEqual(found, [], `quantities shown with more than one value (use the row the tables use, picks KEY, or one file):\n${describeConflicts(found)}`);
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

// One injected sentence per way a hand-typed measurement has slipped past earlier versions of
// the rule. Each must be flagged on its own, or the rule could never fail on it.
const BYPASSES = [
  ['a time with decimals', 'At $2^{20}$ the MSM takes 17.3 ms on the H200.'],
  ['a whole-number time', 'The first version took 43 s for the same MSM.'],
  ['a decimal ratio', 'The lanes run 1.62× as fast as ark-ff.'],
  ['a whole-number ratio', 'The measured gain is 13× for 12-bit limbs.'],
  ['a range of ratios', 'The measured gain is 13–15× for 12- to 15-bit limbs.'],
  ['a range in words', 'Skewed scalars take 0.90 to 1.06 times as long as uniform ones.'],
  ['a ratio in words', 'The change made the product up to fifteen times faster.'],
  ['a bare number word with times', 'The browser is fifteen times slower.'],
  ['a percentage', 'GLV saves up to about 10% on these sizes.'],
  ['a range of percentages', 'Thirty bits won by 5–6% once the point was read by value.'],
  ['percent in words', 'The lazy product saved 7 percent in the MSM.'],
  ['a fraction of the time', 'One loop instead of two saved a third of the SMVP\'s time.'],
  ['a fraction with a unit', 'In the dependent chain this saved about half a nanosecond per product.'],
  ['a fraction of a profile', 'The two functions took about four fifths of a profile of this MSM.'],
  ['a multiplier word', 'The staging buffer made the upload twice as fast.'],
  ['a clock in MHz', 'The clock stayed near its idle 345\nMHz through the runs.'],
  ['a clock in GHz', 'The machine reported a 1.98 GHz maximum clock.'],
  ['a size in MiB', 'The input of BLS12-377 takes 128 MiB at this size.'],
  ['a rate', 'That is about 40 GB/s at most.'],
  ['a bare decimal', 'The page ran at 0.58 of the native speed.'],
  ['a figure in math', 'The MSM takes $17.3$ ms at this size.'],
  ['a ratio in math', 'Batch-affine is $1.62\\times$ slower here.'],
  ['a value in an equation', 'The SMVP took $t = 4.1$ ms on the H100.'],
  ['a duration in words', 'Native wgpu builds either form in about a second.'],
  ['a figure across a line break', 'The native benchmark holds the clock at\n1980 MHz through the run.'],
];

test('the number rule catches every kind of hand-typed measurement, and passes the book', () => {
  for (const [kind, text] of BYPASSES) {
    assert.ok(literalFigures(text).length >= 1, `not flagged: ${kind}: ${JSON.stringify(text)}`);
  }
  // What the rule must let through: placeholders, derivations, constants, cited figures.
  for (const ok of [
    'It takes {{fig gpu-msm-nvidia-h200 bn254/uniform/2^20/w29 median}} ms, {{fig a b c / d e f | 2}}× the other.',
    'A 254-bit modulus needs 9 limbs of 29 bits; 16 limbs of 16 bits; $n = 2^{20}$ points in 17 windows.',
    'The buckets take $480 \\cdot 17 \\cdot 16\\,385 = 133\\,701\\,600$ bytes, and $2^{15} \\cdot 192 \\text{ bytes} = 6 \\text{ MiB}$.',
    'Derei and Koh saved 200–300 ms per MSM with larger workgroups[^derei-koh].',
    'A 64×64-bit product; `20 ms` in code; Chromium 156.0.8078.108; ark-ff 0.5; Algorithm 14.42.',
    'GLV gives $2n$ points over half as many windows, and the batch is capped at half the buckets.',
  ]) assert.deepEqual(literalFigures(ok), [], ok);
  const found = main.flatMap((f) => literalFigures(read(f)).map((x) => ({ chapter: f, ...x })));
  assert.deepEqual(found, [], `figures typed by hand (write them as {{fig ...}}, cite their source, or derive them in math):\n${show(found)}`);
});

test('a placeholder carries no typed operand but a unit conversion', () => {
  assert.equal(placeholderConstants('missed by {{fig gpu-msm-nvidia-h200 bn254/uniform/2^20/w29 median / 10 | 2}}×').length, 1);
  assert.equal(placeholderConstants('{{fig wgsl-mont-nvidia-h200 bn254-fq/w15/wg64 median * 1156 | sci}}').length, 1);
  assert.equal(placeholderConstants('{{fig 17 / gpu-msm-nvidia-h200 bn254/uniform/2^20/w29 median}}').length, 1);
  assert.equal(placeholderConstants('{{fig gpu-msm-nvidia-h200 bn254/uniform/2^20/w29 median / 1000 | 0}} s; '
    + '{{fig a b c / d e f * 100 - 100 | 0}}%').length, 0, 'unit conversions (ms to s, a ratio to a percentage) pass');
  const found = main.flatMap((f) => placeholderConstants(read(f)).map((x) => ({ chapter: f, ...x })));
  assert.deepEqual(found, [], `typed operands in placeholders (take them from a data file):\n${show(found)}`);
});

test('no lab-log words in the main chapters, across line breaks', () => {
  for (const [kind, text] of [
    ['a session split over two lines', 'Both ran in the same\nsession on one GPU.'],
    ['a call', 'Measured in one call on an NVIDIA H100.'],
    ['a later call', 'The second table comes from\na later call.'],
    ['rentals', 'Two rentals of the machine differed by up to a tenth.'],
    ['a lent machine', 'Measured on the lent machine.'],
    ['an issue number', 'As issue 7 asked, the target is met.'],
    ['a commit hash', 'The data are from commit `82f5558`.'],
    ['a date', 'Measured on 2026-11-25.'],
    ['a pointer to commits', 'The A/B measurements are in the commit that introduced it.'],
    ['a machine start', 'Two starts of the same machine differed; same start.'],
  ]) assert.ok(labLogWords(text).length >= 1, `not flagged: ${kind}: ${JSON.stringify(text)}`);
  assert.deepEqual(labLogWords('A run that starts later; the value `0x1f2e3d4c5b`; `smvp_combine`; one call site; '
    + 'a commitment to the witness; the committed data; [^ed25519].'), []);
  const found = main.flatMap((f) => labLogWords(read(f)).map((x) => ({ chapter: f, ...x })));
  assert.deepEqual(found, [], `lab-log words belong in the ledger appendix (book/ledger.md):\n${show(found)}`);
});

test('no main chapter shows a commit hash on its rendered page (prose, test blocks, generated tables)', () => {
  const run = spawnSync(process.execPath, [resolve(ROOT, 'wasm-demo/bench/tables.js')], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const injected = renderedHashes('Data: `x.json` (commit 5ab936b).\n\n```text\nlisting 5ab936b\n```\n', BOOK);
  assert.equal(injected.length, 1, 'a hash in prose is found, one in a listing is not');
  const found = main.flatMap((f) => renderedHashes(read(f), BOOK).map((x) => ({ chapter: f, ...x })));
  assert.deepEqual(found, [], `commit hashes on main chapters' pages (provenance belongs in the ledger):\n${show(found)}`);
});

// mdbook's heading ids: lower case, alphanumerics, '-' and '_' kept, spaces to '-', the rest dropped.
const slug = (heading) => heading.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]*>/g, '').trim()
  .toLowerCase().split('').map((c) => (/[\p{L}\p{N}_-]/u.test(c) ? c : /\s/.test(c) ? '-' : '')).join('');
function anchorsOf(file) {
  const seen = new Map();
  const ids = new Set();
  const text = read(file).replace(/^(```|~~~)[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]);
    const k = seen.get(base) ?? 0;
    ids.add(k ? `${base}-${k}` : base);
    seen.set(base, k + 1);
  }
  return ids;
}

test('SUMMARY lists every chapter, and every link to a chapter and heading resolves', () => {
  const summary = read('SUMMARY.md');
  const listed = [...summary.matchAll(/\]\(([^)]+\.md)\)/g)].map((m) => m[1]);
  assert.deepEqual([...chapters.filter((f) => f !== 'SUMMARY.md')].sort(), [...new Set(listed)].sort(), 'SUMMARY.md and book/*.md differ');
  assert.ok(listed.includes('prover.md'), 'the prover chapter is in SUMMARY.md');
  const bad = [];
  for (const f of chapters) {
    const text = read(f).replace(/^(```|~~~)[\s\S]*?^\1[^\n]*$/gm, '');
    for (const m of text.matchAll(/\]\((?!https?:|mailto:)([^)#\s]*)(?:#([^)\s]+))?\)/g)) {
      const [, target, anchor] = m;
      if (target && !target.endsWith('.md')) continue;
      const file = target || f;
      if (!chapters.includes(file)) bad.push(`${f}: link to missing chapter ${file}`);
      else if (anchor && !anchorsOf(file).has(anchor)) bad.push(`${f}: no heading #${anchor} in ${file}`);
    }
  }
  assert.deepEqual(bad, [], bad.join('\n'));
});

test('every {{#include}} names a file and anchor that exist, and no main chapter passes 500 lines', () => {
  const bad = [];
  for (const f of chapters) {
    for (const m of read(f).matchAll(/\{\{#include\s+([^}:\s]+)(?::([\w-]+))?\s*\}\}/g)) {
      const [, path, anchor] = m;
      if (path.startsWith('generated/')) continue; // written by the build (tables.js, wasm-bindgen)
      const file = resolve(BOOK, path);
      const key = `${resolve(file).slice(ROOT.length + 1)}${anchor ? `:${anchor}` : ''}`;
      const exists = existsSync(file)
        && (!anchor || new RegExp(`ANCHOR:\\s*${anchor}\\b`).test(readFileSync(file, 'utf8')));
      if (!exists) bad.push(`${f}: {{#include ${path}${anchor ? `:${anchor}` : ''}}} does not resolve`);
    }
  }
  assert.deepEqual(bad, [], bad.join('\n'));
  const long = main.map((f) => [f, read(f).split('\n').length]).filter(([, n]) => n > 500);
  assert.deepEqual(long, [], 'chapters over 500 lines: move investigations to the ledger');
});
