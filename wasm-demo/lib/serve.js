// A tiny static file server for the built book (target/book), mounted at a sub-path so that the
// tests prove the site works away from the host root. Used by `make serve`, the E2E tests and the
// bench runners. With `isolate` (the default) it sends COOP/COEP, so the page is cross-origin
// isolated and the CPU MSM's workers can share memory; without, the page is as on a host that
// sends no headers (GitHub Pages), where the site's service worker adds them. `mounts` serves
// more folders beside the book, each under its own sub-path (a bench runner's bundled page code).
//
//   node wasm-demo/lib/serve.js [--port 3000] [--prefix /] [--no-isolate]
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.woff': 'font/woff', '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.ico': 'image/x-icon',
  '.txt': 'text/plain',
};

export const BOOK_DIR = resolve(import.meta.dirname, '../../target/book');

export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

// For drivers that report no page events (Firefox over Marionette, lib/firefox.js): a script run
// first in every HTML page, which keeps the page's uncaught errors, unhandled rejections and
// console.error calls in `window.fastmsmProblems`.
const PROBLEM_RECORDER = `<script>(() => {
  const problems = window.fastmsmProblems = [];
  const text = (x) => (x instanceof Error ? x.message : String(x));
  addEventListener('error', (e) => {
    const from = e.target !== window && (e.target?.src || e.target?.href);
    problems.push(from ? \`request failed: \${from}\` : \`page error: \${e.message}\`);
  }, true);
  addEventListener('unhandledrejection', (e) => problems.push(\`page error: \${text(e.reason)}\`));
  const error = console.error.bind(console);
  console.error = (...args) => { problems.push(\`console error: \${args.map(text).join(' ')}\`); error(...args); };
})();</script>`;
const CSP_REPORT = '__csp-report';

/**
 * Serves `root` under `prefix` on 127.0.0.1, and each folder of `mounts` (`{ 'sub/path/': folder }`)
 * under `prefix` + its sub-path; resolves to { url, close }. With `record`, the handle also keeps
 * what the server sees go wrong in `problems` (each response with an HTTP error, each request a
 * page makes outside this origin, reported by the browser under a report-only content security
 * policy), runs PROBLEM_RECORDER first in every HTML page, and tells the time of the last request
 * (`lastRequest`, ms since the epoch) so a test can wait for a page's requests to settle.
 */
export async function serveBook({ root = BOOK_DIR, prefix = '/fast-msm/', port = 0, isolate = true, mounts = {}, record = false } = {}) {
  const problems = [];
  let lastRequest = Date.now();
  await stat(join(root, 'index.html')).catch(() => {
    throw new Error(`${root}/index.html is missing: build the book first (make book)`);
  });
  const server = createServer(async (req, res) => {
    lastRequest = Date.now();
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (record && path === prefix + CSP_REPORT) {
      let body = '';
      for await (const chunk of req) body += chunk;
      const report = JSON.parse(body || '{}')['csp-report'] ?? {};
      problems.push(`external request: ${report['blocked-uri'] ?? JSON.stringify(report)}`);
      res.writeHead(204).end();
      return;
    }
    if (record) res.on('finish', () => { if (res.statusCode >= 400) problems.push(`HTTP ${res.statusCode}: ${req.url}`); });
    if (!path.startsWith(prefix)) { res.writeHead(404).end('outside the book'); return; }
    const rest = path.slice(prefix.length);
    const mount = Object.keys(mounts).find((sub) => rest.startsWith(sub));
    const base = mount ? resolve(mounts[mount]) : root;
    let file = normalize(join(base, mount ? rest.slice(mount.length) : rest));
    if (!file.startsWith(base)) { res.writeHead(403).end(); return; }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      let body = await readFile(file);
      const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' };
      if (record) {
        // Anything the page or its workers load from elsewhere is reported (and nothing blocked).
        headers['content-security-policy-report-only'] = "default-src 'self' blob: data: 'unsafe-inline' "
          + `'unsafe-eval' 'wasm-unsafe-eval'; report-uri ${prefix}${CSP_REPORT}`;
        if (extname(file) === '.html') body = Buffer.from(body.toString('utf8').replace(/<head>/i, (h) => h + PROBLEM_RECORDER));
      }
      res.writeHead(200, isolate ? { ...headers, ...ISOLATION_HEADERS } : headers).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(port, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${server.address().port}${prefix}`;
  return { url, problems, get lastRequest() { return lastRequest; }, close: () => new Promise((ok) => server.close(ok)) };
}

// `make serve`: the book at http://127.0.0.1:PORT/ until interrupted.
if (process.argv[1] === import.meta.filename) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const { url } = await serveBook({
    port: Number(arg('--port', 3000)),
    prefix: arg('--prefix', '/'),
    isolate: !process.argv.includes('--no-isolate'),
  });
  console.log(`Serving target/book at ${url} (cross-origin isolated: ${!process.argv.includes('--no-isolate')}); Ctrl-C stops`);
}
