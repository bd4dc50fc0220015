// The GPU side of a worker: whether WebGPU is here, the calibrated device profile kept across
// visits, and GPU sessions (wasm-demo/src/gpu_session.rs: device, profile, compiled pipelines).
// Shared by the widgets and the npm package's worker (which bundles it).

/** @typedef {{ vendor?: string, architecture?: string, device?: string, description?: string, isFallbackAdapter?: boolean }} AdapterInfo */

/**
 * The browser's adapter, or null where WebGPU is missing or offers none.
 * @returns {Promise<any>}
 */
export async function webgpuAdapter() {
  const gpu = /** @type {any} */ (navigator).gpu;
  if (!gpu) return null;
  return gpu.requestAdapter({ powerPreference: 'high-performance' }).catch(() => null);
}

/**
 * Whether the adapter is a software one (the browser's fallback, SwiftShader, llvmpipe/lavapipe,
 * WARP): the GPU is then emulated on the CPU, which runs the MSM faster itself.
 * @param {AdapterInfo | undefined} info
 */
export function softwareAdapter(info) {
  if (!info) return false;
  const text = [info.vendor, info.architecture, info.device, info.description].join(' ');
  return info.isFallbackAdapter === true || /swiftshader|llvmpipe|lavapipe|software|warp\b/i.test(text);
}

// The calibrated profile, kept across visits: one record in IndexedDB (a worker has no
// localStorage). A profile names the adapter it was measured on, and a session ignores one from
// another adapter.
const DB = { name: 'fastmsm-gpu-profile', store: 'profiles', key: 'calibrated' };

/** @returns {Promise<IDBDatabase>} */
function openDb() {
  return new Promise((resolve, reject) => {
    const r = indexedDB.open(DB.name, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(DB.store);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/**
 * The kept calibration (its JSON text) with no argument; keeps `value` with one. Null where
 * IndexedDB is unavailable (a private window): then every session calibrates afresh.
 * @param {string} [value]
 * @returns {Promise<string | null>}
 */
export async function keptProfile(value) {
  try {
    const db = await openDb();
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(DB.store, value === undefined ? 'readonly' : 'readwrite');
      const q = value === undefined ? tx.objectStore(DB.store).get(DB.key) : tx.objectStore(DB.store).put(value, DB.key);
      q.onsuccess = () => resolve(value === undefined ? q.result ?? null : value);
      q.onerror = () => reject(q.error);
    });
  } catch {
    return null;
  }
}

/**
 * @typedef {{ profile?: string, form?: string, limits?: string, pipelines?: string }} GpuSettings
 *   `profile`: 'auto' (the kept calibration, else the named profile of this kind of adapter,
 *   unmeasured), 'recalibrate' or a profile name;
 *   `form`: the Montgomery product, 'auto' (the profile's), 'unrolled' or 'compact';
 *   `limits`: the device's, 'adapter' (the adapter's own) or 'default' (WebGPU's defaults only);
 *   `pipelines`: 'parallel' (every stage compiled at once, asynchronously, first) or 'sequential'
 *   (one after another, as wgpu alone creates them: the reference the first-use timings compare).
 */

/**
 * A new GPU session of the main package `wasm` with `settings`; 'auto' starts from the kept
 * calibration. Free it with `session.free()`.
 * @param {import('./types.js').Wasm} wasm
 * @param {GpuSettings} settings
 */
export async function openGpuSession(wasm, { profile = 'auto', form = 'auto', limits = 'adapter', pipelines = 'parallel' } = {}) {
  const cached = profile === 'auto' ? await keptProfile() : null;
  return new wasm.GpuSession(profile, form, cached ?? undefined, limits, pipelines);
}

/**
 * Sets `session`'s profile for `curve` and compiles the curve (see GpuSession.prepare), keeping a
 * new calibration for later sessions: `{profile, summary, origin, seconds, limb_bits}`.
 * @param {any} session
 * @param {string} curve
 * @param {(fraction: number, text: string) => void} progress
 */
export async function prepareCurve(session, curve, progress) {
  const report = await session.prepare(curve, progress);
  await keepCalibration(report);
  return report;
}

/**
 * Keeps the profile of a session's report where it was calibrated just now.
 * @param {{ origin: string, profile: string, seconds: number | null }} report
 */
export async function keepCalibration(report) {
  if (report.origin === 'calibrated' && report.seconds !== null) await keptProfile(report.profile);
}

/** @type {Map<string, Promise<any>>} */
const kept = new Map();

/**
 * The widget worker's session with `settings`, made on first use and kept for the widgets that
 * ask for the same settings (a device and compiled pipelines cost far more than a small run).
 * Settings are fixed per session, so no widget changes what another's session compiles;
 * 'recalibrate' always makes a new one.
 * @param {import('./types.js').Wasm} wasm
 * @param {GpuSettings} settings
 */
export function widgetGpuSession(wasm, { profile = 'auto', form = 'auto', limits = 'adapter', pipelines = 'parallel' } = {}) {
  if (profile === 'recalibrate') return openGpuSession(wasm, { profile, form, limits, pipelines });
  const key = `${profile}|${form}|${limits}|${pipelines}`;
  if (!kept.has(key)) kept.set(key, openGpuSession(wasm, { profile, form, limits, pipelines }));
  return /** @type {Promise<any>} */ (kept.get(key));
}

/** @type {Promise<any> | null} the calibration running for the next visit, while it runs */
let calibrating = null;

/**
 * Calibrates this GPU for `curve` in a session of its own and keeps the profile for the next
 * visit's sessions ('auto'), unless a calibration is running already. The sessions open now keep
 * the profile they started with: a calibration never changes what a session runs. Resolves to
 * the calibration's report, or `{ error }`.
 * @param {import('./types.js').Wasm} wasm
 * @param {string} curve
 * @param {GpuSettings} settings
 */
export function calibrateForNextVisit(wasm, curve, { form = 'auto', limits = 'adapter' } = {}) {
  calibrating ??= (async () => {
    const session = await openGpuSession(wasm, { profile: 'recalibrate', form, limits });
    try {
      return await prepareCurve(session, curve, () => {});
    } catch (e) {
      return { error: String(/** @type {any} */ (e)?.message ?? e) };
    } finally {
      session.free();
      calibrating = null;
    }
  })();
  return calibrating;
}

/** The calibration for the next visit while one runs (a run waits for it, not to share the GPU), else null. */
export function calibrationRunning() {
  return calibrating;
}
