// Builds the npm package's dist/ (Makefile target npm): its three entry points bundled by esbuild
// from the sources they share with the book — the API (src/index.js), the session's worker
// (src/worker.js, with the main wasm package's glue, the CPU pool's coordinator and the crossover)
// and the CPU pool's worker (book/widgets/pool/pool-worker.js) — then the wasm packages beside
// them in dist/wasm/. The bundles find each other and the packages through
// `new URL(…, import.meta.url)`, so dist/ works from any folder it is served from.
//   node wasm-demo/npm/build.js
import { build } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const here = import.meta.dirname;
const root = resolve(here, '../..');
const dist = join(here, 'dist');

rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: {
    index: join(here, 'src/index.js'),
    worker: join(here, 'src/worker.js'),
    'pool-worker': join(root, 'book/widgets/pool/pool-worker.js'),
  },
  outdir: dist,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  logLevel: 'warning',
});
// The packages the session's worker and the pool load: the main one, relaxed SIMD, shared memory.
for (const pkg of ['pkg', 'pkg-relaxed', 'pkg-threads']) {
  const from = join(root, 'book/generated', pkg);
  const to = join(dist, 'wasm', pkg);
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(from).filter((name) => /\.(js|wasm)$/.test(name))) cpSync(join(from, f), join(to, f));
}
