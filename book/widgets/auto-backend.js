// backend: 'auto' — where an MSM of n points runs on this device: on the CPU's cores below the
// crossover that the msm-auto widget measured here (kept per curve in localStorage), on the GPU
// from it. The crossover is a property of the device, so nothing is assumed before it is measured:
// without one, auto runs on the CPU and says so.
const KEY = (curve) => `fastmsm:crossover:${curve}`;

/** Keeps a measured crossover `{curve, log2_n, gpu}` (page only; workers have no localStorage). */
export function saveCrossover(c) {
  try {
    globalThis.localStorage?.setItem(KEY(c.curve), JSON.stringify({ log2_n: c.log2_n, gpu: c.gpu, date: new Date().toISOString() }));
  } catch { /* storage disabled: auto stays on the CPU */ }
}

export function loadCrossover(curve) {
  try {
    return JSON.parse(globalThis.localStorage?.getItem(KEY(curve)) ?? 'null');
  } catch {
    return null;
  }
}

/** `{backend: 'cpu'|'gpu', why}` for an MSM of n points on `curve`, from `crossover` (or the kept one). */
export function chooseBackend(curve, n, crossover = loadCrossover(curve)) {
  if (!crossover) return { backend: 'cpu', why: 'no crossover measured on this device yet (run the CPU-or-GPU widget)' };
  if (!crossover.gpu) return { backend: 'cpu', why: 'no WebGPU on this device' };
  if (crossover.log2_n === null) return { backend: 'cpu', why: 'the CPU was faster at every n measured here' };
  return n >= 2 ** crossover.log2_n
    ? { backend: 'gpu', why: `n ≥ 2^${crossover.log2_n}, where the GPU was faster here` }
    : { backend: 'cpu', why: `n < 2^${crossover.log2_n}, where the CPU was faster here` };
}
