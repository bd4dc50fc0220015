// The widget worker: loads the wasm-pack module once, runs widget tasks, stamps results with
// the build commit, date and browser (schema: DESIGN.md "Results JSON").
import init, * as wasm from '../generated/pkg/fastmsm.js';

const wasmReady = init({ module_or_path: new URL('../generated/pkg/fastmsm_bg.wasm', import.meta.url) });
const buildInfo = fetch(new URL('../generated/build-info.json', import.meta.url)).then((r) => r.json());

self.onmessage = async ({ data: { id, widget, params } }) => {
  const progress = (fraction, text) => self.postMessage({ id, type: 'progress', fraction, text });
  try {
    await wasmReady;
    const module = await import(new URL(`./${widget}.js`, import.meta.url));
    const result = await module.task(wasm, params, progress);
    const info = await buildInfo;
    result.commit = info.commit;
    result.date = new Date().toISOString();
    result.device = { ...result.device, browser: navigator.userAgent };
    result.verified = result.verified ?? result.results.every((r) => r.verified);
    self.postMessage({ id, type: 'result', result });
  } catch (e) {
    self.postMessage({ id, type: 'error', message: String(e?.message ?? e) });
  }
};
