// End-to-end: the npm package `fastmsm` (wasm-demo/npm) as a user gets it. The tarball of
// `make npm` (target/npm/fastmsm-*.tgz) is installed with npm into a fresh directory, and a plain
// page (not the book) imports it by its name. Inputs are written in the `msm` tool's file layout
// (random, with edge items: the identity, a repeated point, scalars 0, 1 and r - 1), and the
// answer of every msm() — cpu on every curve (shared memory) and on two without isolation (message
// passing), gpu on BN254 (SwiftShader), auto with and without a kept crossover — is compared with the `msm` tool's on the same files, and the tool's
// with arkworks'. Bad input gets its error naming the problem and the index, on both backends.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serveBook } from '../lib/serve.js';
import { launchChromium } from '../lib/browser.js';
import { openPage } from './harness.js';

const ROOT = resolve(import.meta.dirname, '../..');
// The `msm` tool: built by `cargo test` (its tests run it) or `cargo build -p fastmsm-cli`.
const MSM = process.env.MSM_BIN ?? join(ROOT, 'target/debug/msm');
const CURVES = ['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377'];
const N = 200;
const SEED = 20260521;

let app;
let isolated;
let plain;
let browser;
const expected = {}; // file name → the msm tool's result line

function tarball() {
  const dir = join(ROOT, 'target/npm');
  const found = existsSync(dir) ? readdirSync(dir).filter((f) => /^fastmsm-.*\.tgz$/.test(f)) : [];
  if (found.length !== 1) throw new Error(`expected one target/npm/fastmsm-*.tgz, found ${found.length}: build it with make npm`);
  return join(dir, found[0]);
}

function cli(curve, name) {
  if (!existsSync(MSM)) throw new Error(`${MSM} is missing: build it with cargo build -p fastmsm-cli (or set MSM_BIN)`);
  const files = ['--points', join(app, 'inputs', `${name}.points`), '--scalars', join(app, 'inputs', `${name}.scalars`)];
  return execFileSync(MSM, ['--curve', curve, ...files]).toString().trim().split('\n').pop();
}

/** 32 little-endian bytes of the hex number `h`. */
function le32(h) {
  let v = BigInt(h);
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

/** Writes inputs/<name>.points and .scalars and keeps the tool's answer on them. */
function write(curve, name, points, scalars) {
  writeFileSync(join(app, 'inputs', `${name}.points`), points);
  writeFileSync(join(app, 'inputs', `${name}.scalars`), scalars);
  return cli(curve, name);
}

before(async () => {
  app = mkdtempSync(join(tmpdir(), 'fastmsm-npm-'));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'npm-e2e', private: true }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', tarball()], { cwd: app, stdio: 'pipe' });
  // A plain page: the package by its name through an import map, nothing of the book.
  writeFileSync(join(app, 'index.html'), `<!doctype html><meta charset="utf-8"><title>fastmsm</title>
<script type="importmap">{ "imports": { "fastmsm": "./node_modules/fastmsm/index.js" } }</script>
<script type="module">import * as fastmsm from 'fastmsm'; window.fastmsm = fastmsm; document.title = 'ready';</script>\n`);
  mkdirSync(join(app, 'inputs'));

  // The inputs, drawn by the installed package's own wasm in node (random points and scalars in
  // the file layout) with arkworks' answer; the tool's answer must be arkworks'.
  const pkgDir = join(app, 'node_modules/fastmsm/wasm/pkg');
  const pkg = await import(pathToFileURL(join(pkgDir, 'fastmsm.js')).href);
  await pkg.default({ module_or_path: readFileSync(join(pkgDir, 'fastmsm_bg.wasm')) });
  for (const curve of CURVES) {
    const input = new pkg.CpuMsm(curve, N, SEED, () => {});
    const points = input.points_bytes(N);
    const scalars = input.scalars_bytes(N);
    const ark = input.run('arkworks', N, 0, 0, false);
    const r = input.scalar_modulus;
    input.free();
    expected[`${curve}-random`] = write(curve, `${curve}-random`, points, scalars);
    assert.equal(expected[`${curve}-random`], ark.x === null ? 'identity' : `x=${ark.x} y=${ark.y}`, `${curve}: the msm tool agrees with arkworks`);

    // Edge items: the identity (as the layout writes it), a repeated point, scalars 0, 1, r - 1.
    const pb = points.length / N;
    const edge = points.slice();
    edge.fill(0, 0, pb);
    if (curve === 'ed-on-bls12-377') edge[pb / 2] = 1; // twisted Edwards identity (0, 1)
    edge.copyWithin(5 * pb, 4 * pb, 5 * pb);
    const k = scalars.slice();
    k.set(le32(0), 32);
    k.set(le32(1), 64);
    k.set(le32(BigInt(r) - 1n), 96);
    expected[`${curve}-edge`] = write(curve, `${curve}-edge`, edge, k);

    if (curve === 'bn254') {
      // Bad input: a scalar equal to r at index 3; a point off the curve at index 5; 8 points
      // and 7 scalars; a truncated point; nothing at all.
      const big = scalars.slice(0, 8 * 32);
      big.set(le32(r), 3 * 32);
      writeFileSync(join(app, 'inputs/scalar-r.points'), points.slice(0, 8 * pb));
      writeFileSync(join(app, 'inputs/scalar-r.scalars'), big);
      const off = points.slice(0, 8 * pb);
      off[5 * pb + pb / 2] ^= 1;
      writeFileSync(join(app, 'inputs/off-curve.points'), off);
      writeFileSync(join(app, 'inputs/off-curve.scalars'), scalars.slice(0, 8 * 32));
      writeFileSync(join(app, 'inputs/mismatch.points'), points.slice(0, 8 * pb));
      writeFileSync(join(app, 'inputs/mismatch.scalars'), scalars.slice(0, 7 * 32));
      writeFileSync(join(app, 'inputs/truncated.points'), points.slice(0, 3 * pb - 10));
      writeFileSync(join(app, 'inputs/truncated.scalars'), scalars.slice(0, 3 * 32));
      writeFileSync(join(app, 'inputs/empty.points'), new Uint8Array(0));
      writeFileSync(join(app, 'inputs/empty.scalars'), new Uint8Array(0));
    }
  }
  isolated = await serveBook({ root: app, prefix: '/app/', isolate: true });
  plain = await serveBook({ root: app, prefix: '/app/', isolate: false });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await isolated?.close();
  await plain?.close();
  if (app) rmSync(app, { recursive: true, force: true });
});

async function open(server) {
  const context = await browser.newContext();
  const { page, problems } = await openPage(context, server);
  await page.waitForFunction(() => document.title === 'ready');
  return { context, page, problems };
}

/** msm() in the page on inputs/<name>.*: the result (bytes as their length) or `{error}`. */
function run(page, curve, name, options = {}) {
  return page.evaluate(async ({ curve, name, options }) => {
    const get = async (f) => new Uint8Array(await (await fetch(`inputs/${f}`)).arrayBuffer());
    const progress = [];
    try {
      const r = await window.fastmsm.msm({
        curve, points: await get(`${name}.points`), scalars: await get(`${name}.scalars`), ...options,
        onProgress: (f, text) => progress.push([f, text]),
      });
      return { ...r, bytes: r.bytes.length, progress };
    } catch (e) {
      return { error: String(e.message) };
    }
  }, { curve, name, options });
}

function same(result, name, what) {
  assert.equal(result.error, undefined, `${what}: ${result.error}`);
  assert.equal(result.point, expected[name], `${what}: the msm tool's answer`);
}

describe('the npm package, installed from its tarball, in a plain page', () => {
  test('cpu on every curve (shared memory, cross-origin isolated) equals the msm tool', async () => {
    const { context, page, problems } = await open(isolated);
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), true);
    for (const curve of CURVES) {
      for (const name of [`${curve}-random`, `${curve}-edge`]) {
        const r = await run(page, curve, name, { backend: 'cpu' });
        same(r, name, `cpu ${name}`);
        assert.equal(r.backend, 'cpu');
        assert.equal(r.mode, 'shared', r.modeReason);
        assert.equal(r.n, N);
        assert.equal(r.bytes, curve.startsWith('bls') ? 96 : 64, 'one point in the file layout');
        assert.match(r.reason, /'cpu' was asked for/);
        assert.ok(r.ms > 0 && r.progress.at(-1)[0] === 1, 'progress reaches 1');
      }
    }
    const two = await run(page, 'bn254', 'bn254-edge', { backend: 'cpu', threads: 2 });
    same(two, 'bn254-edge', 'cpu, 2 threads');
    assert.equal(two.threads, 2);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('cpu without isolation: message passing, same answers', async () => {
    const { context, page, problems } = await open(plain);
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), false);
    for (const curve of ['bn254', 'ed-on-bls12-377']) {
      const r = await run(page, curve, `${curve}-edge`, { backend: 'cpu' });
      same(r, `${curve}-edge`, `cpu message ${curve}`);
      assert.equal(r.mode, 'message');
      assert.match(r.modeReason, /own memory/);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('gpu (WebGPU on SwiftShader) and auto, with and without a kept crossover', async () => {
    const { context, page, problems } = await open(isolated);
    // BN254 only: compiling a curve's pipelines on SwiftShader takes 10-40 s here (the identity
    // and answer of every curve go through msm_api's unit tests)
    const r = await run(page, 'bn254', 'bn254-edge', { backend: 'gpu', gpuProfile: 'swiftshader' });
    same(r, 'bn254-edge', 'gpu bn254');
    assert.equal(r.backend, 'gpu');
    const cpu = await run(page, 'bn254', 'bn254-random', { backend: 'auto' });
    same(cpu, 'bn254-random', 'auto without a crossover');
    assert.equal(cpu.backend, 'cpu');
    assert.match(cpu.reason, /no crossover measured/);
    // the msm-auto widget's record: the GPU from 2^4 = 16 points
    await page.evaluate(() => window.fastmsm.saveCrossover({ curve: 'bn254', log2_n: 4, gpu: true }));
    const gpu = await run(page, 'bn254', 'bn254-random', { gpuProfile: 'swiftshader' }); // backend defaults to auto
    same(gpu, 'bn254-random', 'auto with a crossover');
    assert.equal(gpu.backend, 'gpu');
    assert.match(gpu.reason, /n ≥ 2\^4/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('bad input is rejected with the problem and the index, on both backends', async () => {
    const { context, page, problems } = await open(isolated);
    for (const backend of ['cpu', 'gpu']) {
      const options = { backend, gpuProfile: 'swiftshader' };
      const error = async (curve, name) => (await run(page, curve, name, options)).error;
      assert.match(await error('bn254', 'empty'), /^n = 0/, `${backend}: n = 0`);
      assert.match(await error('bn254', 'mismatch'), /8 points but 7 scalars: point 7 has no scalar/, `${backend}: lengths`);
      assert.match(await error('bn254', 'truncated'), /point 2 is truncated/, `${backend}: truncated`);
      assert.match(await error('bn254', 'scalar-r'), /scalar 3: 0x[0-9a-f]+ is not below the group order r/, `${backend}: scalar ≥ r`);
      assert.match(await error('bn254', 'off-curve'), /point 5: .* is not on the curve/, `${backend}: off the curve`);
      assert.match(await error('secp256k1', 'bn254-edge'), /unknown curve "secp256k1"/, `${backend}: unknown curve`);
    }
    const wrongType = await page.evaluate(() => window.fastmsm.msm({ curve: 'bn254', points: [1, 2], scalars: new Uint8Array(32) }).catch((e) => e.message));
    assert.match(wrongType, /points: expected a Uint8Array/);
    const wrongBackend = await page.evaluate(() => window.fastmsm.msm({ curve: 'bn254', points: new Uint8Array(64), scalars: new Uint8Array(32), backend: 'tpu' }).catch((e) => e.message));
    assert.match(wrongBackend, /backend: "tpu" is not one of 'auto', 'gpu', 'cpu'/);
    // after the errors the same worker still answers
    same(await run(page, 'bn254', 'bn254-edge', { backend: 'cpu' }), 'bn254-edge', 'cpu after errors');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
