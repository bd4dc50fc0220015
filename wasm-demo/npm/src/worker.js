// The worker of one fastmsm session (index.js): checks each input's shape, picks the backend and
// runs it, with what the book's widgets run (bundled in by build.js):
//  - cpu: the CPU pool (book/widgets/pool/) on every core: one shared WebAssembly memory where
//    the page is cross-origin isolated, message passing between the workers anywhere else;
//  - gpu: a GPU session of the main package (wasm-demo/src/gpu_session.rs): the device, its
//    profile and the compiled pipelines, kept for the session's later calls;
//  - auto: core/crossover.js's choice from the crossover the page keeps, measured first where the
//    session asks for it, else the stated estimate.
// Every request carries the session's settings, so a worker restarted after a crash starts the
// same session again. Requests run one at a time (core/rpc.js).
import init, * as wasm from '../../../book/generated/pkg/fastmsm.js';
import { MsmBackends } from '../../../book/widgets/core/backends.js';
import { chooseBackend, measureCrossover } from '../../../book/widgets/core/crossover.js';
import { openGpuSession, softwareAdapter, webgpuAdapter } from '../../../book/widgets/core/gpu.js';
import { Transfer, serve } from '../../../book/widgets/core/rpc.js';

// The wasm packages ship beside this file (dist/wasm/, Makefile target npm).
const PACKAGES = new URL('./wasm/', import.meta.url);
const ready = init({ module_or_path: new URL('./wasm/pkg/fastmsm_bg.wasm', import.meta.url) });

/**
 * The session's settings (index.js): `measure`, the options of a crossover measurement that a
 * first 'auto' call with none kept makes (null: it estimates instead).
 * @typedef {{ curve: string, threads?: number, gpuProfile: string, measure: object | null }} Settings
 */

/** @type {MsmBackends | null} */
let backends = null;

/** @param {Settings} settings */
async function session(settings) {
  await ready;
  backends ??= new MsmBackends(wasm, {
    packages: PACKAGES,
    threads: settings.threads,
    gpuSession: () => openGpuSession(wasm, { profile: settings.gpuProfile }),
  });
  return backends;
}

async function gpuHere() {
  const adapter = await webgpuAdapter();
  return { webgpu: !!adapter, software: softwareAdapter(adapter?.info) };
}

/**
 * The crossover measurement of the session's curve; an error where a result was wrong.
 * @param {Settings} settings
 * @param {any} options
 * @param {(fraction: number, text: string) => void} progress
 */
async function measure(settings, options, progress) {
  const b = await session(settings);
  const { webgpu } = await gpuHere();
  const m = await measureCrossover(wasm, b, { ...options, curve: settings.curve, webgpu, progress });
  const wrong = m.measured.find((r) => !r.verified);
  if (wrong) throw new Error(`measuring the crossover: the results differ at n = 2^${wrong.log2_n} (checked: ${wrong.check})`);
  return m;
}

serve({
  async open({ settings }) {
    await session(settings);
    return { webgpu: !!(/** @type {any} */ (navigator).gpu) };
  },

  measure({ settings, options }, progress) {
    return measure(settings, options ?? {}, progress);
  },

  // the pool's load checks them (n = 0, a truncated point, a coordinate ≥ p, a point off the curve)
  async points({ settings, points }, progress) {
    const b = await session(settings);
    const { n } = await b.keepPoints(settings.curve, points, progress);
    progress(1, 'done');
    return { n };
  },

  async msm({ settings, points, scalars, backend, crossover }, progress) {
    const t0 = performance.now();
    const b = await session(settings);
    const { curve } = settings;
    progress(0, 'checking the input');
    // no points: the session's kept ones (session.loadPoints)
    const n = wasm.msm_input_size(curve, (points ?? b.keptPoints(curve)).length, scalars.length);
    let choice;
    let measured = null;
    if (backend === 'auto') {
      const here = await gpuHere();
      if (!crossover && settings.measure) {
        measured = await measure(settings, settings.measure, (f, text) => progress(0.5 * f, `measuring the crossover: ${text}`));
        crossover = measured.crossover;
      }
      choice = chooseBackend(n, crossover, here);
    } else {
      choice = { backend, why: `backend '${backend}' was asked for`, source: 'asked' };
    }
    const rest = (/** @type {number} */ f, /** @type {string} */ text) => progress(measured ? 0.5 + 0.5 * f : f, text);
    const out = choice.backend === 'gpu' ? await b.gpu(curve, points, scalars, rest) : await b.cpu(curve, points, scalars, rest);
    const point = wasm.msm_result_line(curve, out.bytes);
    progress(1, 'done');
    const { bytes, ...details } = out;
    return new Transfer({
      point, bytes, backend: choice.backend, reason: choice.why, source: choice.source,
      ...(backend === 'auto' ? { crossover: crossover ?? null } : {}), ...(measured ? { measured } : {}),
      ms: performance.now() - t0, n, curve, ...details,
    }, [bytes.buffer]);
  },
}, { sequential: true });
