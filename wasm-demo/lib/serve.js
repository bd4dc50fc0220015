// A tiny static file server for the built book (target/book), mounted at a sub-path so that the
// tests prove the site works away from the host root. Used by the E2E tests and the bench runner.
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

/** Serves `root` under `prefix` on 127.0.0.1; resolves to { url, close }. */
export async function serveBook({ root = BOOK_DIR, prefix = '/fast-msm/', port = 0 } = {}) {
  await stat(join(root, 'index.html')).catch(() => {
    throw new Error(`${root}/index.html is missing: build the book first (make book)`);
  });
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!path.startsWith(prefix)) { res.writeHead(404).end('outside the book'); return; }
    let file = normalize(join(root, path.slice(prefix.length)));
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(port, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${server.address().port}${prefix}`;
  return { url, close: () => new Promise((ok) => server.close(ok)) };
}
