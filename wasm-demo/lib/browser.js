// Headless Debian Chromium with WebGPU (SwiftShader), driven by playwright-core. Never downloads a browser.
import { relative } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// No first-run, background or update traffic: every request a page makes is the page's own.
const QUIET = ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** WebAssembly wide arithmetic (i64.mul_wide_u), behind this flag in Chromium 156. */
export const WIDE_ARITHMETIC_FLAG = '--js-flags=--wasm-wide-arithmetic';

export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...QUIET, '--enable-unsafe-webgpu', '--ignore-gpu-blocklist', '--enable-features=Vulkan', '--disable-quic'],
  });
}

/** Headless Chromium with wide arithmetic on and nothing else beyond the quiet set (no WebGPU needed). */
export function launchWideChromium() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...QUIET, WIDE_ARITHMETIC_FLAG] });
}

/**
 * Records on `page` everything that would make a reader's visit go wrong: requests outside
 * `origin` (aborted), page errors, console errors, failed requests and HTTP errors.
 * Returns the list the problems are pushed to.
 */
export async function recordProblems(page, origin) {
  const problems = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    problems.push(`external request: ${url}`);
    return route.abort();
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  return problems;
}

/**
 * A page of `browser` for a bench runner: page and console errors are pushed to `problems`, and
 * the task's progress (`window.fastmsmBenchProgress(fraction, text)`) is printed, in place on a
 * terminal, else each line that `printed(text, last)` accepts (`last`: the line before).
 */
export async function benchPage(browser, printed) {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  let lastLine = '';
  await page.exposeFunction('fastmsmBenchProgress', (fraction, text) => {
    const line = `[${(100 * fraction).toFixed(0).padStart(3)}%] ${text}`;
    if (process.stdout.isTTY) process.stdout.write(`\r${line.padEnd(lastLine.length)}`);
    else if (printed(text, lastLine.replace(/^\[\s*\d+%\] /, ''))) console.log(line);
    lastLine = line;
  });
  return { page, problems };
}

/** Says where a bench run went and whether it verified; a wrong result or a page problem fails the process. */
export function benchDone(result, out, problems) {
  console.log(`verified: ${result.verified}; wrote ${relative(process.cwd(), out)}`);
  if (problems.length) console.error(`page problems:\n  ${problems.join('\n  ')}`);
  if (!result.verified || problems.length) process.exitCode = 1;
}
