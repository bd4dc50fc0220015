/** The curves of the `msm` command-line tool (G1 of the pairing curves; Ed-on-BLS12-377 is twisted Edwards). */
export type Curve = 'bn254' | 'bls12-377' | 'bls12-381' | 'ed-on-bls12-377';

/** Where the MSM runs: every CPU core (WebAssembly), the GPU (WebGPU), or where it is faster here. */
export type Backend = 'auto' | 'gpu' | 'cpu';

export interface MsmOptions {
  curve: Curve;
  /**
   * n points in the `msm` tool's file layout: per point x ‖ y, each coordinate a little-endian
   * integer (not Montgomery form) of 32 bytes (bn254, ed-on-bls12-377) or 48 bytes (bls12-377,
   * bls12-381), below the base-field modulus p, the point on the curve. The identity is all zero
   * bytes (short Weierstrass) or (0, 1) (twisted Edwards).
   */
  points: Uint8Array | ArrayBufferView | ArrayBuffer;
  /** n scalars, 32 bytes little-endian each, each below the curve's group order r. */
  scalars: Uint8Array | ArrayBufferView | ArrayBuffer;
  /**
   * 'cpu': WebAssembly on every core (shared memory where the page is cross-origin isolated,
   * message passing otherwise); 'gpu': WebGPU; 'auto' (default): the GPU from the crossover n
   * that the book's CPU-or-GPU widget measured and kept in this origin's localStorage
   * (`fastmsm:crossover:<curve>`), the CPU below it, and the CPU where none is kept.
   */
  backend?: Backend;
  /** Progress of the run: a fraction from 0 to 1 and what is happening. */
  onProgress?: (fraction: number, text: string) => void;
  /** CPU workers (default: navigator.hardwareConcurrency). */
  threads?: number;
  /**
   * The GPU's device profile: 'auto' (default; calibrated on this GPU once per worker, a few
   * seconds on the first GPU call) or a named one ('portable', 'swiftshader', 'h100', 'h200', …).
   * It changes only the speed, never the result.
   */
  gpuProfile?: string;
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
  /** Why that backend: asked for, or the auto rule's reason. */
  reason: string;
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
}

/**
 * Σ scalars[i]·points[i] on `curve`, in a Web Worker. Rejects with an Error naming what is
 * wrong: an unknown curve or backend, n = 0, a truncated point or scalar, counts that differ, a
 * coordinate ≥ p, a point not on the curve, a scalar ≥ r (with the item's index); and for
 * 'gpu' without WebGPU, or a GPU that fails (the device lost, limits too small).
 */
export function msm(options: MsmOptions): Promise<MsmResult>;

/** Ends the worker (and its CPU workers and GPU device); a later msm() starts a new one. */
export function dispose(): void;

/** A crossover as the book's CPU-or-GPU widget keeps it: GPU from n = 2^log2_n (null: never). */
export interface Crossover {
  curve: Curve;
  log2_n: number | null;
  /** Whether the device had WebGPU when measured. */
  gpu: boolean;
}

/** Keeps a crossover for `backend: 'auto'` in this origin's localStorage (a page, not a worker). */
export function saveCrossover(crossover: Crossover): void;

/** The kept crossover of `curve`, or null. */
export function loadCrossover(curve: Curve): { log2_n: number | null; gpu: boolean; date: string } | null;
