/** The curves of the `msm` command-line tool (G1 of the pairing curves; Ed-on-BLS12-377 is twisted Edwards). */
export type Curve = 'bn254' | 'bls12-377' | 'bls12-381' | 'ed-on-bls12-377';

/** Where the MSM runs: every CPU core (WebAssembly), the GPU (WebGPU), or where it is faster here. */
export type Backend = 'auto' | 'gpu' | 'cpu';

/** Progress of a call: a fraction from 0 to 1 and what is happening. */
export type Progress = (fraction: number, text: string) => void;

export interface SessionOptions {
  curve: Curve;
  /**
   * The session's backend where a call names none. 'cpu': WebAssembly on every core (shared
   * memory where the page is cross-origin isolated, message passing otherwise); 'gpu': WebGPU;
   * 'auto' (default): the GPU from the crossover n measured on this device and kept in this
   * origin's localStorage (`measureCrossover`, or the Fast MSM book's CPU-or-GPU widget), the CPU
   * below it; where none is kept, an estimate, which `reason` names as one.
   */
  backend?: Backend;
  /**
   * With backend 'auto' and no crossover kept for the curve: measure it on the session's first
   * 'auto' call (a few seconds, reported through `onProgress`; an object sets the measurement as
   * `Session.measureCrossover` takes it) and keep it, instead of estimating. Default false.
   */
  measureCrossover?: boolean | Omit<CrossoverOptions, 'onProgress'>;
  /** CPU workers (default: navigator.hardwareConcurrency). */
  threads?: number;
  /**
   * The GPU's device profile: 'auto' (default; the calibration this browser kept for this GPU,
   * else the named profile of this kind of adapter, unmeasured), 'recalibrate' (measured on the
   * session's first GPU call, a few seconds, and kept for 'auto') or a named one ('portable',
   * 'swiftshader', 'lavapipe', 'h100', 'h200'). It changes only the speed, never the result.
   */
  gpuProfile?: string;
  /**
   * The URL of the folder holding the package's `worker.js`, `pool-worker.js` and `wasm/` (its
   * `dist/`). Default: the folder of the package's `index.js`; give it where a bundler moves
   * `index.js` into a bundle of its own (README.md, "Bundlers").
   */
  assets?: string | URL;
  /** Progress of every call of the session that names no callback of its own. */
  onProgress?: Progress;
}

export interface MsmOptions {
  /** The session's curve (optional; a call for another curve is rejected). */
  curve?: Curve;
  /**
   * n points in the `msm` tool's file layout: per point x ‖ y, each coordinate a little-endian
   * integer (not Montgomery form) of 32 bytes (bn254, ed-on-bls12-377) or 48 bytes (bls12-377,
   * bls12-381), below the base-field modulus p, the point on the curve. The identity is all zero
   * bytes (short Weierstrass) or (0, 1) (twisted Edwards). Left out: the points the session kept
   * (`Session.loadPoints`), already checked and converted.
   */
  points?: Uint8Array | ArrayBufferView | ArrayBuffer;
  /** n scalars, 32 bytes little-endian each, each below the curve's group order r. */
  scalars: Uint8Array | ArrayBufferView | ArrayBuffer;
  /**
   * Move the inputs' buffers to the session's worker instead of copying them (default false).
   * Each one that is the whole of its own ArrayBuffer moves and is detached (empty) afterwards;
   * others are copied as usual.
   */
  transfer?: boolean;
  /** This call's backend (default: the session's). */
  backend?: Backend;
  onProgress?: Progress;
}

/** A crossover as measured and kept: the GPU from n = 2^log2_n (null: the CPU won at every measured n). */
export interface Crossover {
  curve: Curve;
  log2_n: number | null;
  /** Whether the device had WebGPU when measured. */
  gpu: boolean;
  /** The largest log₂ n measured. */
  measured_to?: number;
  /** When it was measured (ISO 8601). */
  date?: string;
}

export interface CrossoverOptions {
  /** log₂ of the first n measured (default 8). */
  from?: number;
  /** log₂ of the last n measured (default 16). */
  to?: number;
  /** Step in log₂ n (default 2). */
  step?: number;
  /** Timed runs per backend and n, after one warm-up (default 2). */
  repetitions?: number;
  /** Seconds of timed runs after which no larger n is started (default 3). */
  seconds?: number;
  onProgress?: Progress;
}

/** One measured n: median milliseconds per MSM on each backend, and how the results were checked. */
export interface CrossoverRow {
  log2_n: number;
  cpu: number;
  /** null without WebGPU. */
  gpu: number | null;
  cpu_samples: number[];
  gpu_samples: number[];
  /** 'arkworks' (n ≤ 2^12), 'CPU = GPU', both, or 'none'. */
  check: string;
  verified: boolean;
}

export interface CrossoverMeasurement {
  crossover: Crossover;
  measured: CrossoverRow[];
  verified: boolean;
  /** Seconds of timed runs. */
  seconds_measuring: number;
  /** Milliseconds of the GPU's first run (its profile and pipelines included); null without WebGPU. */
  gpu_first_ms: number | null;
  cpu: { mode?: 'shared' | 'message'; threads?: number };
}

export interface MsmResult {
  /**
   * Σ scalars[i]·points[i] as the `msm` tool prints it: `x=0x… y=0x…` (affine, lowercase
   * big-endian hex without leading zeros) or `identity`.
   */
  point: string;
  /** The same point in the file layout of one point (x ‖ y; the identity as above). */
  bytes: Uint8Array;
  /** The backend that ran. */
  backend: 'cpu' | 'gpu';
  /** Why that backend: asked for, or the auto rule's reason (a measured crossover or the estimate). */
  reason: string;
  /** What decided: 'asked' (a backend was named), 'measured' (a kept crossover), 'estimate'. */
  source: 'asked' | 'measured' | 'estimate';
  /** Backend 'auto' only: the crossover it followed (null: none was kept, so the estimate). */
  crossover?: Crossover | null;
  /** Backend 'auto' with `measureCrossover`: the measurement this call made first (and kept). */
  measured?: CrossoverMeasurement;
  /** Milliseconds in the worker from the request to the result (the first call also starts the workers or compiles the GPU's pipelines). */
  ms: number;
  /** Points (and scalars) in the MSM. */
  n: number;
  curve: Curve;
  /** CPU only: how the workers share the work, and why that mode. */
  mode?: 'shared' | 'message';
  modeReason?: string;
  /** CPU only: workers used. */
  threads?: number;
  /** GPU only: the device profile the plan came from ('calibrated', 'cached', 'named' or 'fallback'). */
  profile?: { origin: string; summary: string };
}

/** One MSM session: a worker with its CPU workers and GPU session, for one curve. */
export interface Session {
  readonly curve: Curve;
  /**
   * Σ scalars[i]·points[i]. Rejects with an Error naming what is wrong: n = 0, a truncated point
   * or scalar, counts that differ, a coordinate ≥ p, a point not on the curve, a scalar ≥ r (with
   * the item's index); 'gpu' without WebGPU, or a GPU that fails (the device lost, limits too
   * small). Calls run one after another.
   */
  msm(options: MsmOptions): Promise<MsmResult>;
  /**
   * Keeps `points` (the layout of `MsmOptions.points`) as the session's points: checked and
   * loaded into the CPU workers now (the errors as `msm`'s), so that calls without `points` skip
   * both. A call with `points` uses its own and leaves the kept ones kept.
   */
  loadPoints(points: Uint8Array | ArrayBufferView | ArrayBuffer, options?: { transfer?: boolean; onProgress?: Progress }): Promise<{ n: number }>;
  /** Measures where the GPU overtakes the CPU for the session's curve here, and keeps it for 'auto'. */
  measureCrossover(options?: CrossoverOptions): Promise<CrossoverMeasurement>;
  /** Ends the session's worker, its CPU workers and GPU device; later calls reject. */
  dispose(): void;
}

/** A session for `options.curve`, its worker started and its WebAssembly loaded. */
export function createSession(options: SessionOptions): Promise<Session>;

/** One MSM in a session of its own (started, used once and disposed). */
export function msm(options: SessionOptions & MsmOptions): Promise<MsmResult>;

/** Measures and keeps the crossover of `options.curve` in a session of its own. */
export function measureCrossover(options: SessionOptions & CrossoverOptions): Promise<CrossoverMeasurement>;

/** Keeps a crossover for backend 'auto' in this origin's localStorage. */
export function saveCrossover(crossover: Crossover): void;

/** The crossover kept for `curve` in this origin, or null. */
export function loadCrossover(curve: Curve): Crossover | null;
