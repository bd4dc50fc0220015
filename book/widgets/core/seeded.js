// The widgets' seeded input (wasm-demo/src/seeded_input.rs): one seed, so that every widget and
// the crossover measurement draw the same points and scalars, in every browser.
export const SEED = 20260521;

/** The curves, as the `msm` tool names them. */
export const CURVES = ['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377'];
