// End-to-end: the npm package `fastmsm` (wasm-demo/npm) as a user gets it. The tarball of
// `make npm` (target/npm/fastmsm-*.tgz) is installed with npm into a fresh directory; a TypeScript
// consumer (tests/consumer/consumer.ts) is compiled against its declarations; and a plain page (not
// the book) is bundled with it by esbuild (tests/consumer/app.js). Inputs are written in the `msm`
// tool's file layout (random, with edge items: the identity, a repeated point, scalars 0, 1 and
// r - 1), and the answer of every msm() — cpu on every curve (shared memory) and on two without
// isolation (message passing), gpu on BN254 (SwiftShader), auto with the estimate, measuring
// first, and with a kept crossover — is compared with the `msm` tool's on the same files, run
// here (target/debug/msm, which `cargo test` builds), and the tool's with arkworks'. Bad input gets
// its error naming the problem and the index, on both backends. The book's prover example
// (npm/examples/prover.mjs) is type-checked against the declarations, bundled and run.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { serveBook } from '../lib/serve.js';
import { launchChromium } from '../lib/browser.js';
import { openPage } from './harness.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CONSUMER = join(import.meta.dirname, 'consumer');
// The `msm` tool: built by `cargo test` (its tests run it) or `cargo build -p fastmsm-cli`.
const MSM = process.env.MSM_BIN ?? join(ROOT, 'target/debug/msm');
const TSC = join(ROOT, 'wasm-demo/node_modules/typescript/bin/tsc');
const CURVES = ['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377'];
const EXPORTS = ['createSession', 'loadCrossover', 'measureCrossover', 'msm', 'saveCrossover'];
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
  const dist = join(app, 'node_modules/fastmsm/dist');

  // The bundled page: app.js and the package in one bundle; the package's files beside it.
  cpSync(join(CONSUMER, 'app.js'), join(app, 'app.js'));
  cpSync(join(ROOT, 'wasm-demo/npm/examples/prover.mjs'), join(app, 'prover.mjs'));
  await build({ entryPoints: [join(app, 'app.js')], bundle: true, format: 'esm', outfile: join(app, 'bundle/app.js'), logLevel: 'warning' });
  cpSync(dist, join(app, 'fastmsm'), { recursive: true });
  const page = (script) => `<!doctype html><meta charset="utf-8"><title>fastmsm</title>\n${script}\n`;
  writeFileSync(join(app, 'index.html'), page('<script type="module" src="./bundle/app.js"></script>'));
  // Without a bundler: the package's own modules by name through an import map.
  writeFileSync(join(app, 'modules.html'), page(`<script type="importmap">{ "imports": { "fastmsm": "./node_modules/fastmsm/dist/index.js" } }</script>
<script type="module">import * as fastmsm from 'fastmsm'; window.fastmsm = fastmsm; document.title = 'ready';</script>`));
  mkdirSync(join(app, 'inputs'));

  // The inputs, drawn by the installed package's own wasm in node (random points and scalars in
  // the file layout) with arkworks' answer; the tool's answer must be arkworks'.
  const pkgDir = join(dist, 'wasm/pkg');
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

/** The bundled page (or `path`) on `server` in a fresh context (its own localStorage). */
async function open(server, path = '') {
  const context = await browser.newContext();
  const { page, problems } = await openPage(context, server, path);
  await page.waitForFunction(() => document.title === 'ready');
  return { context, page, problems };
}

/**
 * In the page: `session` (a key of window.sessions, made by `create`'s options first where it is
 * not there) runs msm() on inputs/<name>.*, or `msm()` alone where `session` is null; the result
 * (bytes as their length) or `{error}`.
 */
function run(page, { session = null, create = {}, curve = 'bn254', name, options = {} }) {
  return page.evaluate(async ({ session, create, curve, name, options }) => {
    const get = async (f) => new Uint8Array(await (await fetch(`inputs/${f}`)).arrayBuffer());
    const progress = [];
    const { fastmsm } = window;
    const assets = window.fastmsmAssets;
    try {
      const call = { points: await get(`${name}.points`), scalars: await get(`${name}.scalars`), ...options,
        onProgress: (f, text) => progress.push([f, text]) };
      let r;
      if (session === null) r = await fastmsm.msm({ curve, assets, ...call });
      else {
        window.sessions ??= {};
        window.sessions[session] ??= await fastmsm.createSession({ curve, assets, ...create });
        r = await window.sessions[session].msm(call);
      }
      return { ...r, bytes: r.bytes.length, progress };
    } catch (e) {
      return { error: String(e.message) };
    }
  }, { session, create, curve, name, options });
}

function same(result, name, what) {
  assert.equal(result.error, undefined, `${what}: ${result.error}`);
  assert.equal(result.point, expected[name], `${what}: the msm tool's answer`);
}

describe('the npm package, installed from its tarball', () => {
  test('a TypeScript consumer compiles against its declarations, which are its exports', async () => {
    for (const f of ['consumer.ts', 'tsconfig.json']) cpSync(join(CONSUMER, f), join(app, f));
    // prover.mjs is already there (copied for the bundle): its JSDoc is checked against index.d.ts too
    const out = (() => {
      try { return execFileSync(process.execPath, [TSC, '-p', app], { cwd: app, stdio: 'pipe' }).toString(); } catch (e) { return `${e.stdout}${e.stderr}`; }
    })();
    assert.equal(out, '', 'tsc --noEmit --strict on tests/consumer/consumer.ts');
    const declared = [...readFileSync(join(app, 'node_modules/fastmsm/index.d.ts'), 'utf8').matchAll(/^export function (\w+)/gm)].map((m) => m[1]);
    assert.deepEqual(declared.sort(), EXPORTS, 'index.d.ts declares every export');
    const { context, page, problems } = await open(isolated);
    assert.deepEqual(await page.evaluate(() => Object.keys(window.fastmsm).sort()), EXPORTS, 'the bundle exports what index.d.ts declares');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('cpu on every curve (bundled page, shared memory) equals the msm tool; sessions are separate', async () => {
    const { context, page, problems } = await open(isolated);
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), true);
    for (const curve of CURVES) {
      for (const name of [`${curve}-random`, `${curve}-edge`]) {
        const r = await run(page, { session: curve, create: { backend: 'cpu' }, curve, name });
        same(r, name, `cpu ${name}`);
        assert.equal(r.backend, 'cpu');
        assert.equal(r.mode, 'shared', r.modeReason);
        assert.equal(r.n, N);
        assert.equal(r.bytes, curve.startsWith('bls') ? 96 : 64, 'one point in the file layout');
        assert.match(r.reason, /'cpu' was asked for/);
        assert.equal(r.source, 'asked');
        assert.ok(r.ms > 0 && r.progress.at(-1)[0] === 1, 'progress reaches 1');
      }
    }
    // Two sessions, set differently, each keep their own setting; msm() alone is a third.
    const two = await run(page, { session: 'two', create: { backend: 'cpu', threads: 2 }, name: 'bn254-edge' });
    const one = await run(page, { session: 'one', create: { backend: 'cpu', threads: 1 }, name: 'bn254-edge' });
    const again = await run(page, { session: 'two', name: 'bn254-edge' });
    const alone = await run(page, { name: 'bn254-edge', options: { backend: 'cpu', threads: 3 } });
    for (const r of [two, one, again, alone]) same(r, 'bn254-edge', 'cpu, set threads');
    assert.deepEqual([two.threads, one.threads, again.threads, alone.threads], [2, 1, 2, 3]);
    // A call for another curve, and a call after dispose(), are refused.
    const refused = await page.evaluate(async () => {
      const s = window.sessions.one;
      const other = await s.msm({ curve: 'bls12-377', points: new Uint8Array(96), scalars: new Uint8Array(32) }).catch((e) => e.message);
      s.dispose();
      const disposed = await s.msm({ points: new Uint8Array(64), scalars: new Uint8Array(32) }).catch((e) => e.message);
      return { other, disposed };
    });
    assert.match(refused.other, /this session is for bn254, not bls12-377/);
    assert.match(refused.disposed, /disposed/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('points kept by the session, and inputs moved instead of copied', async () => {
    const { context, page, problems } = await open(isolated);
    const got = await page.evaluate(async () => {
      const get = async (f) => new Uint8Array(await (await fetch(`inputs/${f}`)).arrayBuffer());
      const message = (p) => p.then(() => 'no error', (e) => e.message);
      const s = await window.fastmsm.createSession({ curve: 'bls12-377', backend: 'cpu', assets: window.fastmsmAssets });
      const none = await message(s.msm({ scalars: await get('bls12-377-random.scalars') }));
      const loaded = await s.loadPoints(await get('bls12-377-random.points'));
      const kept = await s.msm({ scalars: await get('bls12-377-random.scalars') });
      // a call with points of its own leaves the kept ones kept
      const own = await s.msm({ points: await get('bls12-377-edge.points'), scalars: await get('bls12-377-edge.scalars') });
      const keptAgain = await s.msm({ scalars: await get('bls12-377-random.scalars') });
      // moved: the caller's arrays are detached afterwards
      const points = await get('bls12-377-edge.points');
      const scalars = await get('bls12-377-edge.scalars');
      const moved = await s.msm({ points, scalars, transfer: true });
      const detached = [points.byteLength, scalars.byteLength];
      const badLoad = await message(s.loadPoints(new Uint8Array(95)));
      const badTransfer = await message(s.msm({ scalars: new Uint8Array(32), transfer: 'yes' }));
      s.dispose();
      return { none, n: loaded.n, kept: kept.point, own: own.point, keptAgain: keptAgain.point, moved: moved.point, detached, badLoad, badTransfer };
    });
    assert.match(got.none, /no points: give points to this call, or keep some first \(session\.loadPoints\)/);
    assert.equal(got.n, N);
    assert.equal(got.kept, expected['bls12-377-random'], 'kept points');
    assert.equal(got.own, expected['bls12-377-edge'], 'a call\'s own points');
    assert.equal(got.keptAgain, expected['bls12-377-random'], 'the kept points after a call with its own');
    assert.equal(got.moved, expected['bls12-377-edge'], 'moved inputs');
    assert.deepEqual(got.detached, [0, 0], 'moved arrays are detached');
    assert.match(got.badLoad, /point 0 is truncated/);
    assert.match(got.badTransfer, /transfer: expected true or false/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('cpu without isolation: message passing, same answers; the package unbundled too', async () => {
    for (const path of ['', 'modules.html']) {
      const { context, page, problems } = await open(plain, path);
      assert.equal(await page.evaluate(() => self.crossOriginIsolated), false);
      for (const curve of path ? ['bn254'] : ['bn254', 'ed-on-bls12-377']) {
        const r = await run(page, { curve, name: `${curve}-edge`, options: { backend: 'cpu' } });
        same(r, `${curve}-edge`, `cpu message ${curve} ${path}`);
        assert.equal(r.mode, 'message');
        assert.match(r.modeReason, /own memory/);
      }
      assert.deepEqual(problems, []);
      await context.close();
    }
  });

  test('gpu (WebGPU on SwiftShader) and auto outside the book: estimated, measured, kept, followed', async () => {
    const { context, page, problems } = await open(isolated);
    const kept = () => page.evaluate(() => localStorage.getItem('fastmsm:crossover:bn254'));
    assert.equal(await kept(), null, 'a fresh page: no crossover kept');
    // auto with nothing kept and no measuring asked for: the estimate, named as one (SwiftShader
    // is a software adapter, so the CPU)
    const estimated = await run(page, { session: 'estimate', create: { backend: 'auto' }, name: 'bn254-random' });
    same(estimated, 'bn254-random', 'auto by the estimate');
    assert.deepEqual([estimated.backend, estimated.source, estimated.crossover], ['cpu', 'estimate', null]);
    assert.match(estimated.reason, /estimated, not measured on this device.*software WebGPU adapter/);
    assert.equal(await kept(), null, 'an estimate is not kept');

    // One session for the rest, so the GPU compiles BN254 once (10-40 s on SwiftShader here).
    const create = { backend: 'auto', gpuProfile: 'swiftshader', measureCrossover: { from: 6, to: 10, step: 2, repetitions: 1 } };
    const gpu = await run(page, { session: 'gpu', create, name: 'bn254-edge', options: { backend: 'gpu' } });
    same(gpu, 'bn254-edge', 'gpu bn254');
    assert.deepEqual([gpu.backend, gpu.source, gpu.profile.origin], ['gpu', 'asked', 'named']);
    // auto with nothing kept, measuring asked for: it measures both backends, chooses, says why
    const auto = await run(page, { session: 'gpu', name: 'bn254-random' });
    same(auto, 'bn254-random', 'auto after measuring');
    const m = auto.measured;
    assert.ok(m, 'this call measured the crossover');
    assert.deepEqual(m.measured.map((r) => r.log2_n), [6, 8, 10]);
    for (const r of m.measured) {
      assert.ok(r.cpu > 0 && r.gpu > 0 && r.verified, `2^${r.log2_n}: both timed and checked (${r.check})`);
    }
    assert.equal(m.verified, true);
    assert.ok(m.gpu_first_ms > 0, 'the GPU\'s first run (compiling) is reported apart');
    assert.ok(auto.progress.some(([, text]) => /measuring the crossover/.test(text)), 'the measuring is reported as progress');
    assert.equal(auto.source, 'measured');
    assert.deepEqual(auto.crossover, m.crossover);
    const expectBackend = m.crossover.log2_n !== null && N >= 2 ** m.crossover.log2_n ? 'gpu' : 'cpu';
    assert.equal(auto.backend, expectBackend, auto.reason);
    assert.match(auto.reason, m.crossover.log2_n === null ? /the CPU was faster at every n measured here \(measured up to 2\^10\)/ : /2\^\d+, where the (GPU|CPU) was faster here/);
    assert.deepEqual(JSON.parse(await kept()).log2_n, m.crossover.log2_n, 'the page kept what was measured');
    // a crossover put in its place (the GPU from 2^4 = 16 points) is followed, on the GPU
    await page.evaluate(() => window.fastmsm.saveCrossover({ curve: 'bn254', log2_n: 4, gpu: true }));
    const planted = await run(page, { session: 'gpu', name: 'bn254-random' });
    same(planted, 'bn254-random', 'auto with a kept crossover');
    assert.deepEqual([planted.backend, planted.source, planted.measured], ['gpu', 'measured', undefined]);
    assert.match(planted.reason, /n ≥ 2\^4/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the book\'s prover example: commit on the CPU, commitAuto measuring first', async () => {
    const { context, page, problems } = await open(isolated);
    const got = await page.evaluate(async () => {
      const get = async (f) => new Uint8Array(await (await fetch(`inputs/${f}`)).arrayBuffer());
      const points = await get('bn254-random.points');
      const scalars = await get('bn254-random.scalars');
      const where = { assets: window.fastmsmAssets, gpuProfile: 'swiftshader' };
      const cpu = await window.prover.commit(points, scalars, where);
      const auto = await window.prover.commitAuto(points, scalars, where, { from: 6, to: 8, step: 2, repetitions: 1 });
      return { cpu: Array.from(cpu), auto: { ...auto, bytes: Array.from(auto.bytes) } };
    });
    // the file layout of one point (x ‖ y, 32 bytes little-endian each) as the msm tool prints it
    const hex = (b) => `0x${BigInt(`0x${Buffer.from(b.slice().reverse()).toString('hex')}`).toString(16)}`;
    const printed = (b) => (b.every((v) => v === 0) ? 'identity' : `x=${hex(b.slice(0, 32))} y=${hex(b.slice(32, 64))}`);
    assert.equal(printed(got.cpu), expected['bn254-random'], 'commit: the msm tool\'s answer');
    assert.equal(got.auto.point, expected['bn254-random'], 'commitAuto: the msm tool\'s answer');
    assert.deepEqual(got.auto.bytes, got.cpu, 'commitAuto: the same bytes');
    assert.equal(got.auto.source, 'measured', got.auto.reason);
    assert.ok(await page.evaluate(() => localStorage.getItem('fastmsm:crossover:bn254') !== null), 'the crossover is kept');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('bad input is rejected with the problem and the index, on both backends', async () => {
    const { context, page, problems } = await open(isolated);
    for (const backend of ['cpu', 'gpu']) {
      const error = async (name) => (await run(page, { session: 'bad', create: { gpuProfile: 'swiftshader' }, name, options: { backend } })).error;
      assert.match(await error('empty'), /^n = 0/, `${backend}: n = 0`);
      assert.match(await error('mismatch'), /8 points but 7 scalars: point 7 has no scalar/, `${backend}: lengths`);
      assert.match(await error('truncated'), /point 2 is truncated/, `${backend}: truncated`);
      assert.match(await error('scalar-r'), /scalar 3: 0x[0-9a-f]+ is not below the group order r/, `${backend}: scalar ≥ r`);
      assert.match(await error('off-curve'), /point 5: .* is not on the curve/, `${backend}: off the curve`);
    }
    assert.match((await run(page, { curve: 'secp256k1', name: 'bn254-edge' })).error, /unknown curve "secp256k1"/);
    const wrong = await page.evaluate(async () => {
      const s = window.sessions.bad;
      const message = (p) => p.catch((e) => e.message);
      return {
        points: await message(s.msm({ points: [1, 2], scalars: new Uint8Array(32) })),
        backend: await message(s.msm({ points: new Uint8Array(64), scalars: new Uint8Array(32), backend: 'tpu' })),
        session: await message(window.fastmsm.createSession({ curve: 'bn254', backend: 'tpu' })),
      };
    });
    assert.match(wrong.points, /points: expected a Uint8Array/);
    assert.match(wrong.backend, /backend: "tpu" is not one of 'auto', 'gpu', 'cpu'/);
    assert.match(wrong.session, /backend: "tpu" is not one of/);
    // after the errors the same session still answers
    same(await run(page, { session: 'bad', name: 'bn254-edge', options: { backend: 'cpu' } }), 'bn254-edge', 'cpu after errors');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
