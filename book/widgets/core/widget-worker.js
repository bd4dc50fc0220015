// The widget worker: loads the main wasm package once, runs widget tasks (widgets/NAME.js) and
// stamps their results with the build commit, date and browser (schema: the results JSON of
// benches/results). Requests and replies: core/rpc.js.
import init, * as wasm from '../../generated/pkg/fastmsm.js';
import { serve } from './rpc.js';

const wasmReady = init({ module_or_path: new URL('../../generated/pkg/fastmsm_bg.wasm', import.meta.url) });
const buildInfo = fetch(new URL('../../generated/build-info.json', import.meta.url)).then((r) => r.json());

serve({
  // A widget's preparation before any run (its optional `prepare`, e.g. compiling GPU pipelines
  // when the page opens): what the page shows while the reader has not pressed Run.
  async prepare({ widget, params }, progress) {
    await wasmReady;
    /** @type {import('./types.js').Widget} */
    const module = await import(new URL(`../widgets/${widget}.js`, import.meta.url).href);
    return module.prepare ? module.prepare(wasm, params, progress) : { skipped: 'nothing to prepare' };
  },
  async task({ widget, params }, progress) {
    await wasmReady;
    /** @type {import('./types.js').Widget} */
    const module = await import(new URL(`../widgets/${widget}.js`, import.meta.url).href);
    const result = await module.task(wasm, params, progress);
    const info = await buildInfo;
    result.commit = info.commit;
    result.date = new Date().toISOString();
    result.device = { ...result.device, browser: navigator.userAgent };
    result.verified = result.verified ?? result.results.every((/** @type {{ verified: boolean }} */ r) => r.verified);
    return result;
  },
});
