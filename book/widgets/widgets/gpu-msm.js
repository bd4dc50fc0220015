// MSM on your GPU: the book's WebGPU MSM (crates/msm-gpu and shaders/msm.wgsl, driven by wgpu
// compiled to WebAssembly) on the cpu-msm widget's seeded input, in the widget worker (WebGPU is
// exposed to dedicated workers in current Chromium, Firefox and Safari; where it is not, the widget
// says so like any browser without WebGPU). Every GPU result is checked on the CPU, in the same
// WebAssembly module, in two independent ways:
//  - discrete logarithms, at every n: the input points are a random walk over known multiples of
//    the generator G, so Pᵢ = aᵢ·G with every aᵢ known and Σ kᵢ·Pᵢ must equal (Σ kᵢ·aᵢ mod r)·G
//    (n scalar products and one scalar multiplication in arkworks; exact, not sampled);
//  - arkworks' VariableBaseMSM on the same input, up to the size the reader sets (default 2^16:
//    seconds in WebAssembly, benches/results/msm-wasm-*.json, and more as n grows); above it the
//    row says "not run".
// The runs go through the widget worker's GPU session for the chosen profile and product form
// (core/gpu.js: device, profile and compiled pipelines, kept between runs). The plan and limb
// width come from the device profile (fastmsm_gpu::profile): calibrated on this GPU on first use
// (a short field probe and SMVP probe, with progress), then kept in IndexedDB (the widget runs in
// a worker, which has no localStorage) and reused; "Recalibrate" measures again, and the named
// profiles make a run reproducible. A failed calibration falls back to the portable profile and
// says so.
//
// The first use: the page prepares the GPU for the form's curve as soon as it opens (`prepare`,
// called by core/loader.js before any click, and again when the curve or a setting that changes the
// pipelines changes): it opens the device, sets the profile and compiles the pipelines, every stage
// at once (wasm-demo/src/gpu_session.rs, fastmsm_gpu::msm::precompile). A click then finds them
// ready, or waits only for the rest of the same preparation. With no calibration kept ('auto' on a
// first visit) the MSM runs on the named profile of this kind of adapter, unmeasured, and this
// GPU is calibrated after the run, in a session of its own, for the next visit. The result's
// `first_use` says when the preparation was ready after the page opened and how long after the
// click the first MSM started.
import { calibrateForNextVisit, calibrationRunning, prepareCurve, webgpuAdapter, widgetGpuSession } from '../core/gpu.js';
import { msText } from '../core/render.js';
import { CURVES, SEED } from '../core/seeded.js';
import { median, round } from '../core/stats.js';

export const title = 'MSM on your GPU';
const MAX_LOG_N = 20;
const CPU_WIDGET = { text: 'the CPU MSM widget (WebAssembly, runs everywhere)', href: 'wasm-msm.html#run-it-on-your-cpu' };

export const controls = [
  { name: 'curve', label: 'Curve', type: 'select', default: 'bls12-377', options: [...CURVES, { value: 'all', label: 'all four' }] },
  { name: 'n', label: 'n (2^k or a number, up to 2^20)', type: 'text', default: '2^16', size: 8 },
  { name: 'repetitions', label: 'Repetitions', type: 'number', default: 3, min: 1, max: 20 },
  { name: 'limbs', label: 'Limb bits', type: 'select', default: 'auto',
    options: [{ value: 'auto', label: 'auto (15)' }, '12', '13', '14', '15', '16'] },
  { name: 'window', label: 'Window c (0 = automatic)', type: 'number', default: 0, min: 0, max: 16 },
  { name: 'cpu_check', label: 'arkworks MSM check up to n = 2^', type: 'number', default: 16, min: 0, max: MAX_LOG_N },
  { name: 'warmup_s', label: 'Warm-up before timing (s)', type: 'number', default: 1, min: 0, max: 10 },
  { name: 'profile', label: 'Device profile', type: 'select', default: 'auto',
    options: [{ value: 'auto', label: 'calibrated (cached)' }, { value: 'recalibrate', label: 'Recalibrate now' },
      'h200', 'h100', 'swiftshader', 'lavapipe', 'mobile', 'portable'] },
  // WebGPU's default limits are what every device offers, a phone's included: the MSM then batches
  // its points to fit them, as it would on such a device.
  { name: 'limits', label: 'Device limits', type: 'select', default: 'adapter',
    options: [{ value: 'adapter', label: "the adapter's own" }, { value: 'default', label: "WebGPU's defaults (any device)" }] },
  { name: 'kernels', label: 'Montgomery product', type: 'select', default: 'auto',
    options: [{ value: 'auto', label: "the profile's" }, { value: 'unrolled', label: 'straight-line' },
      { value: 'compact', label: 'row loop (compact)' }] },
  // How the input reaches the GPU (fastmsm_gpu::msm::UploadPath); a list in a job's params gives
  // one row per path in the same run, for comparing them on one GPU.
  { name: 'upload', label: 'Input upload', type: 'select', default: 'auto',
    options: [{ value: 'auto', label: 'auto (8 MiB pieces through kept buffers)' }, { value: 'write-buffer', label: 'one writeBuffer per buffer' },
      { value: 'chunked:1M', label: 'writeBuffer in 1 MiB pieces' }, { value: 'chunked:8M', label: 'writeBuffer in 8 MiB pieces' },
      { value: 'staging', label: 'kept mapped staging buffer' }, { value: 'pipelined:8M', label: '8 MiB pieces through kept buffers' }] },
];
// The E2E run, on SwiftShader (headless Chromium's software adapter): every curve, a power of two and
// an n that is not one, with the named swiftshader profile (its compact product: the straight-line
// BLS12 kernels crash SwiftShader's compiler), so no calibration is waited for here; the widget's
// own test covers calibration.
export const quick = { curve: [...CURVES], n: ['2^8', '1000'], repetitions: 1, limbs: 'auto', window: 0, cpu_check: 16, profile: 'swiftshader', warmup_s: 0 };
export const autorun = false;
/** The controls whose change starts another preparation (they change what is compiled). */
export const prepareOn = ['curve', 'limbs', 'profile', 'limits', 'kernels'];
/** Seconds a preparation may take before it is reported as failed (SwiftShader compiles the BLS12 kernels in minutes on a slow CPU). */
const PREPARE_LIMIT_S = 600;

/** n from "2^k", "65536" or a number; throws a message naming what is wrong. */
export function parseN(v) {
  const s = String(v).trim();
  const pow = /^2\s*\^\s*(\d+)$/.exec(s);
  const n = pow ? 2 ** Number(pow[1]) : /^\d+$/.test(s) ? Number(s) : NaN;
  if (!(n >= 1 && n <= 2 ** MAX_LOG_N)) throw new Error(`n = ${s}: type 2^k or a whole number from 1 to 2^${MAX_LOG_N}`);
  return n;
}

const samePoint = (a, b) => a.x === b.x && a.y === b.y;
const pointText = (p) => (p.x === null ? 'identity' : `(${p.x}, ${p.y})`);
const nText = (n) => (Number.isInteger(Math.log2(n)) ? `2^${Math.log2(n)}` : String(n));

const HOW = {
  calibrated: 'calibrated on this GPU now',
  cached: 'calibrated earlier on this GPU, read from this browser’s cache',
  named: 'named',
  fallback: 'FALLBACK to the safe portable profile',
};
const UNMEASURED = 'the named profile of this kind of adapter, not measured (no calibration of this GPU is kept in this browser yet)';

function noWebGPU(why) {
  return { suite: 'gpu-msm', device: { name: 'no WebGPU adapter', backend: 'none' }, results: [], verified: false, unavailable: `no WebGPU (${why})` };
}

/** Epoch milliseconds now (comparable between the page and its worker). */
const epochMs = () => performance.timeOrigin + performance.now();

/** What the page adds to the form's values: when it opened and when Run was pressed. */
export function fromPage(params) {
  return { ...params, page_open_epoch_ms: performance.timeOrigin, click_epoch_ms: epochMs() };
}
function settings(params) {
  const curves = params.curve === 'all' ? CURVES : [params.curve].flat();
  for (const c of curves) if (!CURVES.includes(c)) throw new Error(`unknown curve ${c}`);
  return {
    curves,
    ns: [params.n].flat().map(parseN),
    repetitions: Math.max(1, Math.round(params.repetitions ?? 3)),
    limbs: params.limbs === 'auto' || !params.limbs ? 0 : Number(params.limbs),
    window: Math.max(0, Math.round(params.window ?? 0)),
    cpuCheck: Math.min(MAX_LOG_N, Math.max(0, Math.round(params.cpu_check ?? 16))),
    seed: Number(params.seed ?? SEED) >>> 0,
    uploads: [params.upload ?? 'auto'].flat().map(String),
    // Diagnostic (benchmark jobs only): wait for the GPU after each upload, so that the host trace
    // shows when the input has really arrived. Adds a round trip to every run.
    waitAfterUpload: params.wait_after_upload === true,
    // Points per batch (benchmark jobs; 0: the plan's). In a browser the GPU process copies one
    // batch's input while the GPU works on the batch before it.
    batch: Math.max(0, Math.round(Number(params.batch ?? 0))),
    profile: params.profile ?? 'auto',
    kernels: params.kernels ?? 'auto',
    limits: params.limits === 'default' ? 'default' : 'adapter',
    // Benchmark jobs: 'sequential' times wgpu's own one-by-one pipeline creation against the
    // default, every stage compiled at once first ('parallel').
    pipelines: params.pipelines === 'sequential' ? 'sequential' : 'parallel',
    pageOpen: Number.isFinite(params.page_open_epoch_ms) ? params.page_open_epoch_ms : null,
    click: Number.isFinite(params.click_epoch_ms) ? params.click_epoch_ms : null,
    // GPUs idle at a fraction of their clock and take a second of steady work to raise it; without
    // this the page times the clock ramp (as native benchmarks would without their warm-up).
    warmupS: Math.min(10, Math.max(0, Number(params.warmup_s ?? 1))),
  };
}

/**
 * @typedef {{ key: string, promise: Promise<{ profile: any, compiled: any }>, started: number, ready: number | null,
 *   reported: boolean, listeners: Set<(fraction: number, text: string) => void> }} Preparation
 */
/** Preparations by settings and curve: each made once, kept with the worker's sessions. @type {Map<string, Preparation>} */
const preparations = new Map();

const sessionSettings = (o) => ({ profile: o.profile, form: o.kernels, limits: o.limits, pipelines: o.pipelines });

/**
 * The preparation of `curve` under settings `o` (device, profile, the pipelines at `o.limbs`):
 * started on first request, shared by every later one, and dropped when it fails so that the
 * next request tries again. A preparation that takes longer than PREPARE_LIMIT_S fails with
 * that reason. 'recalibrate' sessions are made per run and never prepared ahead.
 * @returns {Preparation}
 */
function preparation(session, o, curve) {
  const key = `${o.profile}|${o.kernels}|${o.limits}|${o.pipelines}|${curve}|${o.limbs}`;
  const kept = o.profile === 'recalibrate' ? undefined : preparations.get(key);
  if (kept) return kept;
  /** @type {Preparation} */
  const p = { key, promise: Promise.resolve(/** @type {any} */ (null)), started: epochMs(), ready: null, reported: false, listeners: new Set() };
  const tell = (f, text) => p.listeners.forEach((l) => l(f, text));
  const work = (async () => {
    tell(0, 'opening the GPU device');
    const profile = await prepareCurve(session, curve, (f, text) => tell(0.9 * f, text));
    tell(0.9, 'compiling the pipelines at the chosen limb width');
    const compiled = await session.compile(curve, o.limbs);
    p.ready = epochMs();
    return { profile, compiled };
  })();
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`preparing the GPU for ${curve} did not finish in ${PREPARE_LIMIT_S} s `
      + '(opening the device, setting the profile and compiling the pipelines): the GPU or its driver may be stuck; reload the page to try again')),
    PREPARE_LIMIT_S * 1e3);
  });
  p.promise = Promise.race([work, limit]).finally(() => clearTimeout(timer));
  p.promise.catch(() => { if (preparations.get(key) === p) preparations.delete(key); });
  if (o.profile !== 'recalibrate') preparations.set(key, p);
  return p;
}

/**
 * Prepares the GPU for the form's (first) curve before any run: called by the page when it opens
 * and when a setting in `prepareOn` changes. Resolves to what the page shows.
 * @param {import('../core/types.js').Wasm} wasm
 */
export async function prepare(wasm, params, progress) {
  if (!navigator.gpu || !(await webgpuAdapter())) return { skipped: 'no WebGPU here' };
  const o = settings({ n: 1, ...params }); // n does not change what is prepared
  if (o.profile === 'recalibrate') return { skipped: 'the calibration runs when you press Run' };
  const [curve] = o.curves;
  const session = await widgetGpuSession(wasm, sessionSettings(o));
  const p = preparation(session, o, curve);
  const listen = (f, text) => progress(f, text);
  p.listeners.add(listen);
  try {
    const { profile } = await p.promise;
    return { curve, ready_ms: o.pageOpen === null ? null : round(p.ready - o.pageOpen, 1), seconds: round((p.ready - p.started) / 1e3, 2),
      origin: profile.origin, summary: profile.summary };
  } finally {
    p.listeners.delete(listen);
  }
}

/** @param {import('../core/types.js').Wasm} wasm */
export async function task(wasm, params, progress) {
  if (!navigator.gpu) return noWebGPU('navigator.gpu is missing in the widget worker');
  const browserAdapter = await webgpuAdapter();
  if (!browserAdapter) return noWebGPU('the browser offers no adapter');
  const o = settings(params);
  o.click ??= epochMs(); // a task not started by a click (tests, benchmark jobs): from its start
  if (calibrationRunning()) {
    progress(0, 'Waiting for the calibration of this GPU that runs for your next visit…');
    await calibrationRunning();
  }
  progress(0, 'Opening the GPU device…');
  const session = await widgetGpuSession(wasm, sessionSettings(o));
  try {
    const result = await runAll(wasm, session, browserAdapter.info ?? {}, o, progress);
    // No calibration kept yet: this run planned with the adapter's named profile; measure this GPU
    // now, in a session of its own, for the next visit (the open sessions keep their profile).
    if (o.profile === 'auto' && result.profile?.origin === 'named') {
      calibrateForNextVisit(wasm, o.curves[0], { form: o.kernels, limits: o.limits });
      result.profile.calibration = 'running now for the next visit';
    }
    return result;
  } finally {
    if (o.profile === 'recalibrate') session.free(); // a session of its own (core/gpu.js)
  }
}

/** The widget's runs of settings `o` in `session`. */
async function runAll(wasm, session, info, o, progress) {
  const adapter = await session.adapter();
  const results = [];
  let profile = null;
  /** @type {any} */
  let firstUse = null;
  const plan = o.curves.flatMap((curve) => o.ns.map((n) => ({ curve, n })));
  for (const [pi, { curve, n }] of plan.entries()) {
    const say = (f, text) => progress((pi + f) / plan.length, `${curve}, n = ${nText(n)}: ${text}`);
    // The preparation runs while the input is drawn (it may have started at page open).
    const prep = preparation(session, o, curve);
    const listen = (f, text) => say(0.15 + 0.15 * f, `preparing the GPU: ${text}`);
    prep.listeners.add(listen);
    say(0, 'drawing the input');
    const input = new wasm.GpuMsmInput(curve, n, o.seed, (f, text) => say(0.15 * f, text));
    try {
      const readyAtClick = prep.ready !== null && prep.ready <= o.click;
      say(0.15, 'device profile and pipelines (once per curve)');
      const prepared = await prep.promise.finally(() => prep.listeners.delete(listen));
      // The compile and profile times are reported by the first run that uses them (null after).
      const first = !prep.reported;
      prep.reported = true;
      profile = first ? prepared.profile : { ...prepared.profile, seconds: null };
      const compiled = first ? prepared.compiled : { ...prepared.compiled, compile_seconds: null };
      firstUse ??= { curve, pipelines: o.pipelines, prepared_before_click: readyAtClick,
        preparation_ms: round(prep.ready - prep.started, 1),
        page_open_to_ready_ms: o.pageOpen === null ? null : round(prep.ready - o.pageOpen, 1),
        msm_start: null };
      // Test hook (end-to-end suite): lose the device here, as a crash of the GPU process would.
      if (self.fastmsmTest?.loseDeviceOnce) { self.fastmsmTest.loseDeviceOnce = false; await session.lose_device(); }
      const timed = [];
      for (const [ui, upload] of o.uploads.entries()) {
        const part = (f) => 0.3 + 0.4 * ((ui + f) / o.uploads.length);
        const via = o.uploads.length > 1 ? ` (upload: ${upload})` : '';
        const gpu = () => {
          firstUse.msm_start ??= epochMs();
          return session.run(input, o.limbs, o.window, upload, o.waitAfterUpload, o.batch);
        };
        let warmupRuns = 0;
        for (const until = performance.now() + o.warmupS * 1e3; performance.now() < until; warmupRuns++) {
          say(part(0), `warming the GPU up (${warmupRuns + 1})${via}`);
          await gpu();
        }
        // The timed runs back to back (checked after them all), and when they ran, for the GPU
        // clock samples a benchmark takes beside the page (benches/browser/gpu-msm-json.py).
        const runs = [];
        const timedEpochMs = [performance.timeOrigin + performance.now()];
        for (let r = 0; r < o.repetitions; r++) {
          say(part(r / o.repetitions), `GPU run ${r + 1}/${o.repetitions}${via}`);
          runs.push(await gpu());
        }
        timedEpochMs.push(performance.timeOrigin + performance.now());
        timed.push({ runs, upload, warmupRuns, timedEpochMs });
      }
      // Checked once per input: every run of every upload path must equal the same point.
      say(0.7, 'checking: Σ kᵢ·aᵢ·G from the discrete logarithms');
      const logs = input.by_discrete_logs();
      const ark = n <= 2 ** o.cpuCheck ? (say(0.75, 'checking: arkworks MSM on the CPU'), input.arkworks()) : null;
      for (const { runs, upload, warmupRuns, timedEpochMs } of timed) {
        results.push(row({ curve, n, upload, runs, warmupRuns, timedEpochMs, compiled, profile, logs, ark }, o));
      }
    } catch (e) {
      // The session may have dropped its device and pipelines (a lost device): the next run
      // prepares again rather than count on what this preparation made.
      if (preparations.get(prep.key) === prep) preparations.delete(prep.key);
      throw e;
    } finally {
      input.free();
    }
  }
  progress(1, 'Done');
  // The first use, as a reader meets it: when the GPU was ready after the page opened, and how
  // long after the click the first MSM started (the wait the preparation shortens).
  const { msm_start: msmStart, ...firstUseKept } = firstUse ?? {};
  const firstUseReport = firstUse && { ...firstUseKept, click_to_msm_start_ms: msmStart === null ? null : round(msmStart - o.click, 1) };
  const name = adapter.name || [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' ')
    || 'unnamed WebGPU adapter';
  return {
    suite: 'gpu-msm',
    device: { name, backend: 'WebGPU', device_type: adapter.device_type },
    adapter: { timestamp_query: adapter.timestamp_query, limits: adapter.limits },
    params: { repetitions: o.repetitions, limbs: o.limbs || 'auto', window: o.window || 'automatic', arkworks_check_up_to: 2 ** o.cpuCheck,
      seed: o.seed, profile: o.profile, kernels: o.kernels, limits: o.limits, warmup_s: o.warmupS, upload: o.uploads, wait_after_upload: o.waitAfterUpload,
      batch: o.batch || 'plan', pipelines: o.pipelines },
    first_use: firstUseReport,
    profile: profile && { origin: profile.origin, summary: profile.summary, seconds: profile.seconds, ...JSON.parse(profile.profile) },
    results,
    verified: results.length > 0 && results.every((r) => r.verified),
  };
}

/** One result row: the runs of one (curve, n, upload path), checked against the CPU's answers. */
function row({ curve, n, upload, runs, warmupRuns, timedEpochMs, compiled, profile, logs, ark }, { seed, cpuCheck, waitAfterUpload, batch }) {
  const verified = runs.every((run) => samePoint(run, logs) && (!ark || samePoint(run, ark)))
    && (!ark || samePoint(ark, logs));
  const times = runs.map((run) => run.seconds * 1e3);
  const mid = runs[times.map((t, i) => [t, i]).sort((a, b) => a[0] - b[0])[(times.length - 1) >> 1][1]];
  const first = runs[0];
  return {
    name: `${curve}/n=${nText(n)}/w${first.limb_bits}` + (upload === 'auto' ? '' : `/upload=${upload}`)
      + (batch ? `/batch=${batch}` : '') + (waitAfterUpload ? '/wait-after-upload' : ''),
    params: {
      curve, n, seed, limb_bits: first.limb_bits, limbs: first.limbs, window_bits: first.window_bits,
      windows: first.windows, buckets: first.buckets, batch: first.batch, batches: first.batches,
      segments: first.segments, timing: first.timing,
      compile_ms: compiled.compile_seconds === null ? null : round(compiled.compile_seconds * 1e3, 1),
      kernel_form: compiled.form,
      // The profile step compiles the profile's own pipelines: in a browser this is where a
      // curve's first use waits (null: nothing compiled for this n).
      profile_ms: profile.seconds === null ? null : round(profile.seconds * 1e3, 1),
      warmup_runs: warmupRuns,
      // Unix ms from the first timed run's start to the last one's end.
      timed_epoch_ms: timedEpochMs.map((t) => Math.round(t)),
      profile: profile.origin,
      upload: first.upload, wait_after_upload: waitAfterUpload,
      stages_ms_of_median_run: mid.stages.map((s) => ({ stage: s.stage, ms: round(s.seconds * 1e3) })),
      host_ms_of_median_run: mid.host.map((s) => ({ phase: s.stage, ms: round(s.seconds * 1e3) })),
      // Where the host's time went in the median run: each writeBuffer, submit, wait and map,
      // ms from the MSM's start (fastmsm_gpu::msm::HostSpan).
      host_trace_of_median_run: (mid.host_trace ?? []).map((t) => ({ what: t.what, start_ms: round(t.start * 1e3), end_ms: round(t.end * 1e3) })),
      result: pointText(first),
      checks: {
        discrete_log: { equal: runs.every((run) => samePoint(run, logs)), ms: round(logs.seconds * 1e3, 1) },
        arkworks: ark ? { equal: runs.every((run) => samePoint(run, ark)), ms: round(ark.seconds * 1e3, 1) }
          : { not_run: `n above 2^${cpuCheck}` },
      },
    },
    unit: 'ms',
    median: round(median(times)), min: round(Math.min(...times)), max: round(Math.max(...times)),
    samples: times.length,
    verified,
  };
}

const ms = msText;
const check = (c) => (c.not_run ? `not run (${c.not_run})` : `${c.equal ? '✔ equal' : '✘ DIFFERENT'} (${ms(c.ms)} ms)`);
const TIMING = {
  'gpu-timestamps': 'GPU timestamp queries around each stage',
  'host-waits': 'the host clock, waiting for the GPU after each stage (this adapter has no timestamp queries; the waits add to the total)',
  none: 'not available',
};

/** The host's timeline of one row's median run (none for results saved before it existed). */
function traceTable(r, label) {
  const trace = r?.params.host_trace_of_median_run;
  if (!trace?.length) return [];
  return [{
    caption: `Host timeline of the median run, ${label(r)}: ms from the MSM's start (upload calls, submits, waits)`,
    columns: ['What', 'Start', 'End', 'ms'],
    rows: trace.map((t) => [t.what, ms(t.start_ms), ms(t.end_ms), ms(t.end_ms - t.start_ms)]),
  }];
}

export function view(result) {
  if (result.unavailable) {
    return {
      message: `This browser gives the widget ${result.unavailable}, so the MSM cannot run on your GPU here. Run the same MSM on your CPU instead:`,
      links: [CPU_WIDGET],
      tables: [],
    };
  }
  const rows = result.results;
  const stageNames = [...new Set(rows.flatMap((r) => r.params.stages_ms_of_median_run.map((s) => s.stage)))];
  const hostNames = [...new Set(rows.flatMap((r) => r.params.host_ms_of_median_run.map((p) => p.phase)))];
  const stageMs = (r, stage) => r.params.stages_ms_of_median_run.find((s) => s.stage === stage)?.ms ?? null;
  const label = (r) => `${r.params.curve}, n = ${nText(r.params.n)}` + (r.params.upload && r.params.upload !== 'auto' ? ` (${r.params.upload})` : '');
  const timing = [...new Set(rows.map((r) => TIMING[r.params.timing] ?? r.params.timing))].join('; ');
  const p = result.profile;
  const how = p && (result.params.profile === 'auto' && p.origin === 'named' ? UNMEASURED : HOW[p.origin] ?? p.origin);
  const profileText = p ? `Device profile: ${how}`
    + (p.origin === 'calibrated' && p.seconds !== null ? ` (${ms(p.seconds * 1e3)} ms, compiling included)` : '')
    + ` — ${p.summary}. ` + (p.calibration ? `Calibration of this GPU: ${p.calibration}. ` : '') : '';
  const f = result.first_use;
  const firstUseText = f ? `First use (${f.curve}): the GPU was prepared in ${ms(f.preparation_ms)} ms`
    + (f.page_open_to_ready_ms === null ? '' : `, ready ${ms(f.page_open_to_ready_ms)} ms after the page opened`)
    + `, ${f.prepared_before_click ? 'before' : 'not yet ready at'} the click; the first MSM started ${ms(f.click_to_msm_start_ms)} ms after it. ` : '';
  return {
    message: profileText + firstUseText + `Each run is timed from the packed input in memory to the affine result (upload, every stage, readback, Horner on the CPU). Stage times: ${timing}. `
      + 'Verification, on the CPU in the same WebAssembly: every result must equal (Σ kᵢ·aᵢ)·G, computed from the known discrete logarithms aᵢ of the input points (exact, at any n), '
      + `and arkworks' MSM on the same input for n up to ${nText(result.params.arkworks_check_up_to)}.`,
    tables: [
      {
        caption: `GPU MSM on ${result.device.name}: milliseconds per MSM (${rows[0]?.samples ?? 0} runs)`,
        columns: ['Curve', 'n', 'Limbs', 'Plan', 'ms: median (min–max)', 'Pipeline compile', 'Check: discrete logs',
          'Check: arkworks MSM', 'Verified'],
        rows: rows.map((r) => [r.params.curve, nText(r.params.n), `${r.params.limbs} × ${r.params.limb_bits} bits`,
          `c = ${r.params.window_bits}, ${r.params.windows} windows, ${r.params.batches} batch${r.params.batches > 1 ? 'es' : ''}`,
          `${ms(r.median)} (${ms(r.min)}–${ms(r.max)})`,
          r.params.compile_ms === null ? 'cached' : `${ms(r.params.compile_ms)} ms`,
          check(r.params.checks.discrete_log), check(r.params.checks.arkworks), r.verified ? '✔' : '✘']),
      },
      {
        caption: 'Stage times of the median run, ms (then the host’s phases: “gpu” spans the stages, transfers and waits)',
        columns: ['Stage', ...rows.map(label)],
        rows: [...stageNames.map((s) => [s, ...rows.map((r) => stageMs(r, s) ?? '—')]),
          ...hostNames.map((h) => [`host: ${h}`, ...rows.map((r) => r.params.host_ms_of_median_run.find((p) => p.phase === h)?.ms ?? '—')])],
      },
      ...traceTable(rows.at(-1), label),
      {
        caption: 'Results (affine, hex)',
        columns: ['Curve', 'n', 'Σ kᵢ·Pᵢ'],
        rows: rows.map((r) => [r.params.curve, nText(r.params.n), r.params.result]),
      },
      {
        caption: `Adapter: ${result.device.name} (${result.device.device_type}); timestamp queries: ${result.adapter.timestamp_query ? 'yes' : 'no'}`,
        columns: ['Limit', 'Adapter', 'WebGPU default'],
        rows: result.adapter.limits.map((l) => [l.name, l.value.toLocaleString('en'), l.webgpu_default.toLocaleString('en')]),
      },
    ],
    chart: {
      title: 'GPU time per stage (median run)',
      labels: rows.map(label),
      // one hue per stage: Chart.js's default palette repeats after seven
      series: stageNames.map((s, i) => ({ label: s, data: rows.map((r) => stageMs(r, s)),
        color: `hsl(${Math.round((360 * i) / stageNames.length)} 65% 60%)` })),
      stacked: true,
      yLabel: 'ms',
    },
  };
}
