// End-to-end: the wide-arithmetic package (feature wide-arithmetic, Makefile wasm-wide) and the mont-bench
// widget's wide rows. Two Chromiums: the default one, where (in Chromium 156) the extension is off,
// so the widget must report it and the package must not compile; and one started with
// --js-flags=--wasm-wide-arithmetic, where fips-wide and ark-ff built with the extension are
// checked against BigInt (x·y mod p, the modulus as ark-ff defines it) and against ark-ff on edge
// and random inputs of all six fields. Each part skips, saying why, only where its browser
// disagrees with what it needs. The last part runs the CPU MSM over 64-bit limbs on the 128-bit
// multiply (cpu-msm rows *-wide) where the book carries the benchmark package pkg-wide-msm (make
// wasm-wide-msm before make book; the site and CI do not build it), checked against arkworks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BOOK_DIR } from '../lib/serve.js';
import { WIDE_ARITHMETIC_FLAG as WIDE_FLAG, launchWideChromium } from '../lib/browser.js';
import { closeClean, openPage, servedBook, startedChromium, taskResult } from './harness.js';

const NO_WIDE = `this Chromium validates no i64.mul_wide_u even with ${WIDE_FLAG}`;
const book = servedBook();
const plain = startedChromium();
const flagged = startedChromium(launchWideChromium);

/** The mont-bench chapter in `started`'s browser, and whether that browser has wide arithmetic. */
async function open(started) {
  const { page, problems } = await openPage(started.browser, book, 'float-and-wide.html');
  const wide = await page.evaluate(async () => (await import('./widgets/core/features.js')).wideArithmetic());
  return { page, problems, wide };
}

/** Where `skip` holds, skips test `t` saying why (in the log too) and closes `page`; returns `skip`. */
async function skipped(t, skip, reason, page) {
  if (skip) {
    console.log(`skipped: ${reason}`);
    t.skip(reason);
    await page?.close();
  }
  return skip;
}

describe('wide arithmetic (i64.mul_wide_u)', () => {
  test('default Chromium: the widget reports the missing extension; the package needs it', async (t) => {
    const { page, problems, wide } = await open(plain);
    if (await skipped(t, wide, 'this Chromium has wide arithmetic without a flag; the flagged tests cover it', page)) return;
    const compileError = await page.evaluate(async () => {
      const bytes = await (await fetch('./generated/pkg-wide/fastmsm_wide_bg.wasm')).arrayBuffer();
      try { await WebAssembly.compile(bytes); return null; } catch (e) { return String(e.message); }
    });
    // 0xfc13..0xfc16: i64.add128, i64.sub128, i64.mul_wide_s, i64.mul_wide_u
    assert.match(compileError ?? 'compiled', /Invalid opcode 0xfc1[3-6]/, 'the package holds wide-arithmetic instructions');
    const widget = await import('../../book/widgets/widgets/mont-bench.js');
    const result = await taskResult(page, 'mont-bench', { field: 'bn254-fr', variants: widget.WIDE_ROWS, count: 1000, repetitions: 1 });
    assert.equal(result.features.wide_arithmetic, false);
    assert.deepEqual(result.results.map((r) => r.params.variant), [widget.BASELINE], 'only the baseline ran');
    assert.deepEqual(result.unavailable.map((u) => u.variant), widget.WIDE_ROWS);
    for (const u of result.unavailable) assert.match(u.reason, /lacks WebAssembly wide arithmetic/);
    assert.match(widget.view(result).message, /without the 128-bit multiply/);
    await closeClean(page, problems);
  });

  test(`Chromium ${WIDE_FLAG}: fips-wide, the no-carry CIOS (eager and lazy) and ark-ff+wide equal BigInt and ark-ff on edge and random inputs`, async (t) => {
    const { page, problems, wide } = await open(flagged);
    if (await skipped(t, !wide, NO_WIDE, page)) return;
    const report = await page.evaluate(async () => {
      const { loadPackage } = await import('./widgets/core/packages.js');
      const w = await loadPackage('wide');
      const main = await import('./generated/pkg/fastmsm.js');
      await main.default({ module_or_path: './generated/pkg/fastmsm_bg.wasm' });
      const modpow = (b, e, p) => {
        let r = 1n;
        for (b %= p; e > 0n; e >>= 1n, b = (b * b) % p) if (e & 1n) r = (r * b) % p;
        return r;
      };
      const hex = (x) => `0x${x.toString(16)}`;
      let seed = 0x9e3779b97f4a7c15n;
      const random = (p) => { // a deterministic 64-bit LCG, enough words for any of the six moduli
        let x = 0n;
        for (let i = 0; i < 7; i++) { seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n); x = (x << 64n) | seed; }
        return x % p;
      };
      const failures = [];
      let checked = 0;
      let lazyFields = 0;
      for (const { name: field, bits } of w.mont_fields()) {
        const p = BigInt(w.mont_ark_modulus(field));
        if (BigInt(main.mont_ark_modulus(field)) !== p) failures.push(`${field}: the packages disagree on p`);
        const words = Math.ceil(bits / 64);
        const rModP = (1n << BigInt(64 * words)) % p;
        const edges = [0n, 1n, 2n, 3n, p - 1n, p - 2n, p - 3n, (p - 1n) >> 1n, (p + 1n) >> 1n,
          (1n << 64n) % p, (1n << 128n) % p, rModP, (rModP * rModP) % p, modpow(rModP, p - 2n, p),
          (1n << BigInt(bits - 1)) - 1n, (1n << BigInt(bits - 1))];
        for (let j = 64; j < bits; j += 64) edges.push(((p >> BigInt(j)) << BigInt(j)) - 1n); // all-ones low words
        const xs = [...new Set([...edges.filter((x) => x < p), ...Array.from({ length: 10 }, () => random(p))])];
        // the lazy no-carry product needs R ≥ 4p: every field but BLS12-381's scalar field
        const lazy = (p << 2n) <= (1n << BigInt(64 * words));
        if (lazy === w.mont_variants().find((v) => v.name === 'cios-no-carry-lazy').not_for.some((n) => n.field === field)) {
          failures.push(`${field}: the package's not_for disagrees with R ≥ 4p`);
        }
        if (lazy) lazyFields++;
        for (const a of xs) {
          for (const b of xs) {
            const want = hex((a * b) % p);
            const got = {
              'fips-wide+wide': w.mont_chain(field, 'fips-wide', hex(a), hex(b), 1),
              'cios-no-carry+wide': w.mont_chain(field, 'cios-no-carry', hex(a), hex(b), 1),
              ...(lazy ? { 'cios-no-carry-lazy+wide': w.mont_chain(field, 'cios-no-carry-lazy', hex(a), hex(b), 1) } : {}),
              'ark-ff+wide': w.mont_ark_chain(field, hex(a), hex(b), 1),
              'ark-ff': main.mont_ark_chain(field, hex(a), hex(b), 1),
            };
            for (const [row, v] of Object.entries(got)) {
              if (v !== want) failures.push(`${field} ${row}: ${hex(a)}·${hex(b)} = ${v}, want ${want}`);
            }
            checked++;
          }
        }
        // a long chain: x·y^n, every product dependent on the last
        const [x, y, n] = [random(p), random(p), 5000];
        const want = hex((x * modpow(y, BigInt(n), p)) % p);
        for (const [row, v] of [['fips-wide+wide', w.mont_chain(field, 'fips-wide', hex(x), hex(y), n)],
          ...(lazy ? [['cios-no-carry-lazy+wide', w.mont_chain(field, 'cios-no-carry-lazy', hex(x), hex(y), n)]] : []),
          ['ark-ff+wide', w.mont_ark_chain(field, hex(x), hex(y), n)]]) {
          if (v !== want) failures.push(`${field} ${row}: chain of ${n} = ${v}, want ${want}`);
        }
      }
      // bad input is named, as in the main package
      const errorOf = (f) => { try { f(); return null; } catch (e) { return String(e.message ?? e); } };
      const p = w.mont_ark_modulus('bn254-fr');
      const bad = {
        notReduced: errorOf(() => w.mont_chain('bn254-fr', 'fips-wide', p, '0x1', 1)),
        unknownVariant: errorOf(() => w.mont_chain('bn254-fr', 'fips-narrow', '0x1', '0x1', 1)),
        unknownField: errorOf(() => w.mont_ark_chain('bn254-fx', '0x1', '0x1', 1)),
        notHex: errorOf(() => w.mont_chain('bn254-fr', 'fips-wide', '0xzz', '0x1', 1)),
        noRoom: errorOf(() => w.mont_chain('bls12-381-fr', 'cios-no-carry-lazy', '0x1', '0x1', 1)),
      };
      return { failures, checked, lazyFields, bad };
    });
    assert.deepEqual(report.failures.slice(0, 10), [], `${report.failures.length} mismatches`);
    assert.ok(report.checked > 6 * 400, `${report.checked} input pairs`);
    assert.match(report.bad.notReduced, /input x is not below the modulus of bn254-fr/);
    assert.match(report.bad.unknownVariant, /unknown variant "fips-narrow"/);
    assert.match(report.bad.unknownField, /unknown field "bn254-fx"/);
    assert.match(report.bad.notHex, /not a hex number/);
    assert.equal(report.lazyFields, 5, 'the lazy no-carry product ran on five of the six fields');
    assert.match(report.bad.noRoom, /bls12-381-fr: the lazy no-carry CIOS needs the top limb of p below 0x4000000000000000/);
    await closeClean(page, problems);
  });

  test(`Chromium ${WIDE_FLAG}: the widget runs the wide rows, each verified, and says which product runs`, async (t) => {
    const { page, problems, wide } = await open(flagged);
    if (await skipped(t, !wide, NO_WIDE, page)) return;
    const widget = await import('../../book/widgets/widgets/mont-bench.js');
    const fields = ['bn254-fr', 'bls12-377-fq'];
    const variants = ['cios', 'fips-wide', ...widget.WIDE_ROWS];
    const result = await taskResult(page, 'mont-bench', { field: fields, variants, count: 3000, repetitions: 2 });
    assert.equal(result.verified, true);
    assert.equal(result.features.wide_arithmetic, true);
    assert.deepEqual(result.unavailable, []);
    for (const field of fields) {
      const rows = result.results.filter((r) => r.params.field === field);
      assert.deepEqual(rows.map((r) => r.params.variant), [widget.BASELINE, ...variants], `${field}: one row each`);
      for (const r of rows) assert.equal(r.verified, true, `${r.name} verified`);
      for (const r of rows.filter((x) => widget.WIDE_ROWS.includes(x.params.variant))) {
        assert.ok(r.params.speedup_vs_ark_ff_wide > 0, `${r.name}: ratio to ark-ff+wide`);
        assert.match(r.params.backend, /i64\.mul_wide_u/);
      }
    }
    assert.match(widget.view(result).message, /fips-wide on i64\.mul_wide_u/);
    await closeClean(page, problems);
  });

  test(`Chromium ${WIDE_FLAG}: the CPU MSM over 64-bit limbs on the 128-bit multiply equals arkworks`, async (t) => {
    const noPackage = !existsSync(join(BOOK_DIR, 'generated/pkg-wide-msm/fastmsm_wide_msm.js'));
    if (await skipped(t, noPackage, 'the book carries no pkg-wide-msm (a benchmark package: make wasm-wide-msm, then make book)')) return;
    const { page, problems, wide } = await open(flagged);
    if (await skipped(t, !wide, NO_WIDE, page)) return;
    const widget = await import('../../book/widgets/widgets/cpu-msm.js');
    const variants = ['all-affine', ...widget.WIDE_VARIANTS];
    const result = await taskResult(page, 'cpu-msm',
      { curve: ['bn254', 'bls12-377', 'ed-on-bls12-377'], logn: 9, variants, repetitions: 1, count: 'no', glv: 'no' });
    assert.equal(result.verified, true, 'every run equals arkworks');
    assert.equal(result.features.wide_package, true);
    assert.deepEqual(result.unavailable, []);
    for (const v of widget.WIDE_VARIANTS) {
      const rows = result.results.filter((r) => r.params.variant === v);
      assert.ok(rows.length >= 3, `${v}: a row per curve`);
      for (const r of rows) assert.equal(r.verified, true, `${r.name} verified`);
    }
    await closeClean(page, problems);
  });
});
