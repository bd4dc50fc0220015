// Headless Debian Firefox ESR, driven by puppeteer-core over WebDriver BiDi: the book's second
// browser engine. Never downloads a browser: puppeteer-core ships none and is pointed at the
// system's firefox-esr. Each launch gets a fresh profile in a temporary directory (puppeteer
// creates it and removes it on close), so no profile state (a kept GPU calibration, a service
// worker) carries from one run to the next.
import { existsSync } from 'node:fs';
import puppeteer from 'puppeteer-core';

export const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';

// Mesa's lavapipe (Vulkan on the CPU), the adapter Firefox's WebGPU (wgpu) finds on a machine
// without a GPU; pinned so that a machine with a GPU driver too tests the same adapter as CI.
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

// Preferences of every fresh profile (beside puppeteer's, which already turn off updates,
// telemetry and safe browsing): every request outside this machine goes to a proxy that is not
// there (port 9, discard), so it fails at once and never reaches the network; the test server on
// 127.0.0.1 is reached directly (Firefox never sends localhost to a proxy). The Chromium recorder
// aborts such requests itself; here that would take BiDi request interception, with which the
// CPU pool's start-up on wasm-msm.html hung in each of three runs of this suite.
export const FIREFOX_PREFS = {
  'network.proxy.type': 1,
  'network.proxy.http': '127.0.0.1',
  'network.proxy.http_port': 9,
  'network.proxy.ssl': '127.0.0.1',
  'network.proxy.ssl_port': 9,
  'network.proxy.allow_hijacking_localhost': false,
};

// WebGPU is off by default in Firefox ESR on Linux: these turn it on, in the page and in workers
// (the GPU widgets run in a dedicated worker), on any adapter (lavapipe is a software adapter,
// and a blocklisted driver would otherwise give no adapter at all).
export const WEBGPU_PREFS = {
  'dom.webgpu.enabled': true,
  'dom.webgpu.workers.enabled': true,
  'gfx.webgpu.ignore-blocklist': true,
};

/**
 * Starts headless Firefox ESR in a fresh profile; with `webgpu` (the default) WebGPU is on, on
 * lavapipe where it is installed; without, Firefox is as shipped (no WebGPU on Linux). `prefs`
 * adds preferences.
 */
export function launchFirefox({ webgpu = true, prefs = {} } = {}) {
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: install firefox-esr (.ci/setup.sh test) or set FIREFOX`);
  const env = { ...process.env };
  if (webgpu && !env.VK_ICD_FILENAMES && existsSync(LAVAPIPE)) env.VK_ICD_FILENAMES = LAVAPIPE;
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    env,
    extraPrefsFirefox: { ...FIREFOX_PREFS, ...(webgpu ? WEBGPU_PREFS : {}), ...prefs },
    // A widget's quick run is one page.evaluate: on lavapipe the GPU ones take minutes, past
    // puppeteer's default of 180 s for one protocol call.
    protocolTimeout: 30 * 60_000,
  });
}

/**
 * As recordProblems (browser.js) for a puppeteer page: records on `page` requests outside `origin`
 * (which fail: FIREFOX_PREFS), page errors, console errors, failed requests and HTTP errors; returns the list.
 */
export async function recordProblemsFirefox(page, origin) {
  const problems = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!(url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:'))) problems.push(`external request: ${url}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  // Firefox cancels a web font's first load now and then (NS_BINDING_ABORTED) and loads it again:
  // a cancelled request is a problem only while the same URL has not loaded.
  const loaded = new Set();
  const cancelled = (url) => `request failed: ${url} (NS_BINDING_ABORTED)`;
  page.on('requestfailed', (r) => {
    const why = r.failure()?.errorText;
    if (why !== 'NS_BINDING_ABORTED' || !loaded.has(r.url())) problems.push(`request failed: ${r.url()} (${why})`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
    else {
      loaded.add(r.url());
      for (let i; (i = problems.indexOf(cancelled(r.url()))) >= 0;) problems.splice(i, 1);
    }
  });
  return problems;
}
