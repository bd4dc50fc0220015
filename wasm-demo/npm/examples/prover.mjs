// The `fastmsm` package in a prover's page: the two calls the book's chapter "Using Fast MSM in a
// prover" shows (its listings are the ANCHOR parts). Points and scalars are bytes in the `msm`
// tool's file layout. tests/npm.test.js bundles this file with the installed package into a plain
// page and checks both calls' answers against the `msm` tool.
import { createSession, loadCrossover } from 'fastmsm';

/**
 * One commitment on every CPU core, in a session of its own.
 * @param {Uint8Array} points
 * @param {Uint8Array} scalars
 * @param {{ assets?: string | URL }} [where] where the package's files are served, if a bundler moved them
 */
export async function commit(points, scalars, where = {}) {
  // ANCHOR: msm
  const session = await createSession({ curve: 'bn254', backend: 'cpu', ...where });
  try {
    // Rejects with the problem and its index for bad input (a point off the curve, a scalar ≥ r…).
    const { point, bytes, ms } = await session.msm({ points, scalars });
    console.log(`Σ kᵢ·Pᵢ = ${point} in ${ms.toFixed(1)} ms`);
    return bytes; // the same point in the file layout
  } finally {
    session.dispose(); // ends the session's workers; sessions share nothing
  }
  // ANCHOR_END: msm
}

/**
 * One commitment where it runs faster on this device, measuring the crossover on first use.
 * @param {Uint8Array} points
 * @param {Uint8Array} scalars
 * @param {{ assets?: string | URL, gpuProfile?: string }} [where]
 * @param {import('fastmsm').CrossoverOptions} [measure] the sizes to measure (default: 2^8 … 2^16)
 */
export async function commitAuto(points, scalars, where = {}, measure = {}) {
  // ANCHOR: auto
  const session = await createSession({ curve: 'bn254', backend: 'auto', ...where });
  try {
    if (loadCrossover('bn254') === null) {
      // Once per origin: both backends timed on a few sizes (a few seconds), then kept.
      await session.measureCrossover({ ...measure, onProgress: (f, text) => console.log(`${Math.round(100 * f)}% ${text}`) });
    }
    const result = await session.msm({ points, scalars });
    console.log(`${result.backend}: ${result.reason}`); // which backend ran, and why
    return result;
  } finally {
    session.dispose();
  }
  // ANCHOR_END: auto
}
