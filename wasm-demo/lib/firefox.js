// Headless Debian Firefox ESR, driven over Marionette: the book's second browser engine. Never
// downloads a browser or a driver: Marionette is Firefox's own remote protocol (the one geckodriver
// speaks to it), a length-prefixed JSON exchange on a local TCP port, so a few commands here are
// the whole client.
//
// Why not WebDriver BiDi (puppeteer-core), which this suite used before: with any BiDi session open
// — even one that subscribes to nothing — Firefox ESR 153 now and then never starts a worker that
// a worker creates (tests/firefox-workers/repro.mjs: a BiDi session stops within a few rounds of
// three nested workers, a Marionette session or plain Firefox runs all 200). The CPU pool of the
// book and of the npm package starts its workers from a worker, so under BiDi its start hung on
// wasm-msm.html in some runs and the suite failed after its time limit.
//
// Marionette reports no page events, so a page's problems are recorded by the page and the test
// server instead (`recordProblems` in lib/serve.js, `problemRecorder` below): uncaught errors,
// unhandled rejections and console.error in the page, every response with an HTTP error, and
// every request outside the book's origin, which the server learns of through a report-only
// content security policy (Firefox also sends such requests to a proxy that is not there, so
// they never leave the machine). Console messages of workers are not seen; an error that stops
// a worker reaches the page through the widgets' worker clients, which fail the run.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';

// Mesa's lavapipe (Vulkan on the CPU), the adapter Firefox's WebGPU (wgpu) finds on a machine
// without a GPU; pinned so that a machine with a GPU driver too tests the same adapter as CI.
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

// Preferences of every fresh profile (Marionette adds its recommended automation preferences
// itself: no updates, telemetry, first-run pages or safe browsing): every request outside this
// machine goes to a proxy that is not there (port 9, discard), so it fails at once and never
// reaches the network; the test server on 127.0.0.1 is reached directly (Firefox never sends
// localhost to a proxy). No slow-script dialog: a widget's quick run may hold a worker for minutes.
export const FIREFOX_PREFS = {
  'marionette.port': 0, // any free port, written to the profile's MarionetteActivePort
  'network.proxy.type': 1,
  'network.proxy.http': '127.0.0.1',
  'network.proxy.http_port': 9,
  'network.proxy.ssl': '127.0.0.1',
  'network.proxy.ssl_port': 9,
  'network.proxy.allow_hijacking_localhost': false,
  'dom.max_script_run_time': 0,
  'dom.max_chrome_script_run_time': 0,
  'browser.shell.checkDefaultBrowser': false,
};

// WebGPU is off by default in Firefox ESR on Linux: these turn it on, in the page and in workers
// (the GPU widgets run in a dedicated worker), on any adapter (lavapipe is a software adapter,
// and a blocklisted driver would otherwise give no adapter at all).
export const WEBGPU_PREFS = {
  'dom.webgpu.enabled': true,
  'dom.webgpu.workers.enabled': true,
  'gfx.webgpu.ignore-blocklist': true,
};

// A widget's quick run is one script call: on lavapipe the GPU ones take minutes.
const SCRIPT_TIMEOUT_MS = 30 * 60_000;

/** One Marionette connection: `send(name, params)` resolves to the command's result or rejects with its error. */
async function marionette(port) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((ok, fail) => { socket.once('connect', ok); socket.once('error', fail); });
  let buffer = Buffer.alloc(0);
  /** @type {((message: any) => void)[]} */
  const waiting = [];
  const arrived = [];
  socket.on('data', (data) => {
    buffer = Buffer.concat([buffer, data]);
    for (;;) { // messages are `length:json`
      const colon = buffer.indexOf(0x3a);
      if (colon < 0) return;
      const length = Number(buffer.subarray(0, colon));
      if (buffer.length < colon + 1 + length) return;
      const message = JSON.parse(buffer.subarray(colon + 1, colon + 1 + length).toString('utf8'));
      buffer = buffer.subarray(colon + 1 + length);
      const next = waiting.shift();
      if (next) next(message); else arrived.push(message);
    }
  });
  const closed = new Promise((ok) => socket.once('close', ok));
  const receive = () => new Promise((ok, fail) => {
    if (arrived.length) { ok(arrived.shift()); return; }
    waiting.push(ok);
    closed.then(() => fail(new Error('Firefox closed the Marionette connection')));
  });
  await receive(); // the greeting: {applicationType: 'gecko', marionetteProtocol: 3}
  let id = 0;
  let queue = Promise.resolve();
  // One command at a time: Marionette answers in order, and the tests wait for each answer.
  const send = (name, params = {}) => {
    const run = queue.then(async () => {
      const body = JSON.stringify([0, ++id, name, params]);
      socket.write(`${Buffer.byteLength(body)}:${body}`);
      const [, , error, result] = await receive();
      if (error) throw new Error(`${name}: ${error.error}: ${error.message}`);
      return result;
    });
    queue = run.catch(() => {});
    return run;
  };
  return { send, close: () => socket.destroy() };
}

// Injected first into every script a page runs through `evaluate`: resolves the callback with
// the value of `fn(arg)`, or with the error it threw, which `evaluate` throws again here.
const EVALUATE = `const [source, arg, done] = arguments;
Promise.resolve().then(() => (0, eval)('(' + source + ')')(arg))
  .then((value) => done({ value: value === undefined ? null : value }),
    (e) => done({ error: e instanceof Error ? e.message + '\\n' + e.stack : String(e) }));`;

/**
 * Starts headless Firefox ESR in a fresh profile and opens a Marionette session; with `webgpu`
 * (the default) WebGPU is on, on lavapipe where it is installed; without, Firefox is as shipped
 * (no WebGPU on Linux). `prefs` adds preferences. Resolves to `{ newPage(), close() }`; a page has
 * `goto(url)`, `evaluate(fn, arg)` (as Playwright's: `fn` is sent as source and called with `arg`
 * in the page) and `close()`.
 */
export async function launchFirefox({ webgpu = true, prefs = {} } = {}) {
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: install firefox-esr (.ci/setup.sh test) or set FIREFOX`);
  const profile = mkdtempSync(join(tmpdir(), 'fastmsm-firefox-'));
  const all = { ...FIREFOX_PREFS, ...(webgpu ? WEBGPU_PREFS : {}), ...prefs };
  writeFileSync(join(profile, 'user.js'), Object.entries(all).map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});\n`).join(''));
  const env = { ...process.env };
  if (webgpu && !env.VK_ICD_FILENAMES && existsSync(LAVAPIPE)) env.VK_ICD_FILENAMES = LAVAPIPE;
  const child = spawn(FIREFOX, ['--headless', '--marionette', '--no-remote', '--profile', profile, 'about:blank'], { env, stdio: 'ignore' });
  const exited = new Promise((ok) => child.once('exit', ok));
  const portFile = join(profile, 'MarionetteActivePort');
  for (const until = Date.now() + 60_000; !(existsSync(portFile) && readFileSync(portFile, 'utf8').trim());) {
    if (child.exitCode !== null) throw new Error(`Firefox exited (${child.exitCode}) before Marionette listened`);
    if (Date.now() > until) { child.kill(); throw new Error('Firefox did not start Marionette within 60 s'); }
    await new Promise((ok) => setTimeout(ok, 100));
  }
  const session = await marionette(Number(readFileSync(portFile, 'utf8')));
  await session.send('WebDriver:NewSession', { capabilities: { alwaysMatch: { pageLoadStrategy: 'normal' } } });
  await session.send('WebDriver:SetTimeouts', { script: SCRIPT_TIMEOUT_MS, pageLoad: 120_000, implicit: 0 });
  // Every page gets a tab of its own; the start-up tab stays open (blank), so that closing a
  // page never closes the last window.
  let current = (await session.send('WebDriver:GetWindowHandles'))[0];
  const use = async (handle) => {
    if (current !== handle) { await session.send('WebDriver:SwitchToWindow', { handle }); current = handle; }
  };
  return {
    async newPage() {
      const { handle } = await session.send('WebDriver:NewWindow', { type: 'tab' });
      return {
        async goto(url) { await use(handle); await session.send('WebDriver:Navigate', { url }); },
        async evaluate(fn, arg = null) {
          await use(handle);
          const out = await session.send('WebDriver:ExecuteAsyncScript', { script: EVALUATE, args: [fn.toString(), arg] });
          const { value, error } = out.value ?? out;
          if (error) throw new Error(`in the page: ${error}`);
          return value;
        },
        async close() {
          await use(handle);
          const [left] = await session.send('WebDriver:CloseWindow');
          current = null;
          await use(left);
        },
      };
    },
    async close() {
      await session.send('Marionette:Quit', { flags: ['eForceQuit'] }).catch(() => {});
      session.close();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
