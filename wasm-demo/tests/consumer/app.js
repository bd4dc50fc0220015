// The plain page of tests/npm.test.js, bundled by esbuild with the installed package `fastmsm`:
// what an application's own bundle does. The bundle holds the package's index.js; its worker,
// pool worker and wasm/ are served from ../fastmsm/ (the package's dist/, copied there as an
// application would copy it), which `assets` names.
import * as fastmsm from 'fastmsm';
// The book's prover example (npm/examples/prover.mjs), bundled as an application would.
import * as prover from './prover.mjs';

window.fastmsm = fastmsm;
window.prover = prover;
window.fastmsmAssets = new URL('../fastmsm/', import.meta.url).href;
document.title = 'ready';
