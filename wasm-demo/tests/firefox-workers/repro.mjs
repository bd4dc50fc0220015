// Workers started from a worker in Firefox ESR: plain headless Firefox, Firefox driven by
// puppeteer-core over WebDriver BiDi (as tests/firefox.test.js once drove it), and Firefox driven
// over Marionette (lib/firefox.js, as the suite drives it now). Prints, per run, the
// last round of coordinator.js that completed and whether it reached 200 or stopped (no round for
// 15 s). Not part of `make test`: a reproduction kept with the Firefox suite (ARCHITECTURE.md).
//   node tests/firefox-workers/repro.mjs [runs per mode, default 3]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { FIREFOX, FIREFOX_PREFS, launchFirefox } from '../../lib/firefox.js';

const runs = Number(process.argv[2] ?? 3);

/** Serves this folder (cross-origin isolated) and waits for 200 rounds or 15 s without one. */
async function oneRun(open) {
  let last = 0;
  let at = Date.now();
  const server = createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    if (u.pathname === '/log') { last = Number(u.searchParams.get('round')); at = Date.now(); res.end(); return; }
    const file = u.pathname === '/' ? 'index.html' : u.pathname.slice(1);
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    res.setHeader('Content-Type', file.endsWith('.js') ? 'text/javascript' : 'text/html');
    try { res.end(readFileSync(join(import.meta.dirname, file))); } catch { res.statusCode = 404; res.end(); }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const close = await open(`http://127.0.0.1:${server.address().port}/`);
  while (last < 200 && Date.now() - at < 15_000) await new Promise((ok) => setTimeout(ok, 500));
  await close();
  server.close();
  return last;
}

const modes = {
  'plain headless Firefox': async (url) => {
    const child = spawn(FIREFOX, ['--headless', '--no-remote', '--profile', mkdtempSync(join(tmpdir(), 'ff-')), url], { stdio: 'ignore' });
    return async () => { child.kill(); };
  },
  // Seen on Firefox ESR 153: stops within a few rounds in every run, also with a session that
  // subscribes to no event at all; the two others ran all 200 rounds in each of three runs.
  'puppeteer-core over WebDriver BiDi': async (url) => {
    const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, extraPrefsFirefox: FIREFOX_PREFS });
    const page = await browser.newPage();
    await page.goto(url);
    return async () => { await browser.close(); };
  },
  'Marionette (lib/firefox.js)': async (url) => {
    const browser = await launchFirefox({ webgpu: false });
    const page = await browser.newPage();
    await page.goto(url);
    return async () => { await browser.close(); };
  },
};
for (const [name, open] of Object.entries(modes)) {
  for (let i = 1; i <= runs; i++) {
    const last = await oneRun(open);
    console.log(`${name}, run ${i}: ${last === 200 ? 'all 200 rounds' : `stopped after round ${last}`}`);
  }
}
