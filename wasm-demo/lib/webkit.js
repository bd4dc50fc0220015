// The third browser engine of the E2E suite: WebKit, as a new user on Debian gets it —
// `webkit2gtk-driver` (WebKitWebDriver) driving WebKitGTK's MiniBrowser under Xvfb (both from
// apt: .ci/setup.sh test installs them). Spoken to over W3C WebDriver (classic, HTTP) with
// node's fetch; a page offers `goto` and `evaluate(fn, arg)` like the other engines' drivers, so
// tests/book-pages.js checks a chapter here as it does in Chromium and Firefox. Never downloads
// a browser.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB = '/usr/bin/Xvfb';

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (s.address());
      s.close(() => ok(port));
    });
  });
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/**
 * Starts Xvfb (a display of its own), WebKitWebDriver and one MiniBrowser session: resolves to
 * `{ version, goto(url), evaluate(fn, arg), close() }`. Fails with what is missing.
 */
export async function launchWebKit() {
  for (const [path, pkg] of [[WEBKIT_DRIVER, 'webkit2gtk-driver'], [MINIBROWSER, 'webkit2gtk-driver (libwebkit2gtk-4.1-0)'], [XVFB, 'xvfb']]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: apt-get install ${pkg} (.ci/setup.sh test does)`);
  }
  // Xvfb picks its own display and prints it (-displayfd), so parallel runs never collide.
  const xvfb = spawn(XVFB, ['-displayfd', '1', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const display = await new Promise((ok, fail) => {
    let out = '';
    xvfb.stdout.on('data', (d) => { out += d; if (out.includes('\n')) ok(`:${out.trim()}`); });
    xvfb.on('exit', (code) => fail(new Error(`Xvfb exited (${code}) before it opened a display`)));
  });
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], { env: { ...process.env, DISPLAY: display }, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => { driver.kill(); xvfb.kill(); };
  /** One WebDriver command; its `value`, or an error with the driver's message. */
  const call = async (method, path, body) => {
    const r = await fetch(base + path, {
      method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await r.json();
    if (!r.ok) throw new Error(`WebKitWebDriver ${method} ${path}: ${json.value?.error}: ${json.value?.message}`);
    return json.value;
  };
  let session;
  try {
    for (let i = 0; ; i++) {
      try {
        session = await call('POST', '/session', { capabilities: { alwaysMatch: {
          browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
        } } });
        break;
      } catch (e) {
        // the driver takes a moment to listen
        if (i >= 50 || !String(e.cause?.code ?? e.message).match(/ECONNREFUSED|fetch failed/)) throw e;
        await sleep(100);
      }
    }
  } catch (e) {
    stop();
    throw e;
  }
  const id = session.sessionId;
  await call('POST', `/session/${id}/timeouts`, { script: 600_000, pageLoad: 60_000 });
  return {
    version: session.capabilities.browserVersion,
    goto: (url) => call('POST', `/session/${id}/url`, { url }),
    /**
     * `fn(arg)` in the page, awaited there; its value (as JSON), or its error thrown here.
     * @template T
     * @param {(arg: any) => T | Promise<T>} fn
     * @param {any} [arg]
     * @returns {Promise<T>}
     */
    async evaluate(fn, arg) {
      const script = `const done = arguments[arguments.length - 1];
        Promise.resolve().then(() => (${fn})(arguments[0]))
          .then((value) => done({ value: JSON.stringify(value === undefined ? null : value) }), (e) => done({ error: String(e && e.message || e) }));`;
      const out = await call('POST', `/session/${id}/execute/async`, { script, args: [arg ?? null] });
      if (out.error !== undefined) throw new Error(out.error);
      return JSON.parse(out.value);
    },
    async close() {
      await call('DELETE', `/session/${id}`).catch(() => {});
      stop();
    },
  };
}
