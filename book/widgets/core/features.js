// What this browser's WebAssembly and page can do, probed without loading any package: a module
// using an extension the engine lacks does not compile, so the widgets (and the CPU pool of the
// npm package) load the packages built with relaxed SIMD, wide arithmetic or shared memory only
// after asking here.

// Hand-assembled minimal WASM modules: each returns a v128 built with one instruction of the
// feature under test, so WebAssembly.validate() accepts it only if the engine has that feature.
const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const typeAndFunc = [0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, 0x03, 0x02, 0x01, 0x00]; // () -> v128
const splatZero = [0x41, 0x00, 0xfd, 0x0f]; // i32.const 0; i8x16.splat
/** @param {number[]} body */
const codeSection = (body) => [0x0a, body.length + 3, 0x01, body.length + 1, 0x00, ...body];
const SIMD128 = [...header, ...typeAndFunc, ...codeSection([...splatZero, 0x0b])];
// f64x2.relaxed_madd is opcode 0xfd 0x107 (LEB128: 0x87 0x02): the FMA Emmart's method relies on.
const RELAXED_SIMD = [...header, ...typeAndFunc,
  ...codeSection([...splatZero, ...splatZero, ...splatZero, 0xfd, 0x87, 0x02, 0x0b])];
// A module with one i64.mul_wide_u (0xfc 0x16) and one i64.add128 (0xfc 0x13), () -> (i64, i64).
const WIDE_ARITHMETIC = [...header,
  0x01, 0x06, 0x01, 0x60, 0x00, 0x02, 0x7e, 0x7e, // type: () -> (i64, i64)
  0x03, 0x02, 0x01, 0x00, // one function of that type
  0x0a, 0x10, 0x01, 0x0e, 0x00, // code: one body of 14 bytes, no locals
  0x42, 0x00, 0x42, 0x00, 0xfc, 0x16, // i64.const 0; i64.const 0; i64.mul_wide_u
  0x42, 0x00, 0x42, 0x00, 0xfc, 0x13, 0x0b]; // i64.const 0; i64.const 0; i64.add128; end

/** @param {number[]} bytes */
function validates(bytes) {
  try { return WebAssembly.validate(new Uint8Array(bytes)); } catch { return false; }
}

/** Whether the engine has WebAssembly wide arithmetic (in Chromium 156 behind a flag). */
export function wideArithmetic() {
  return validates(WIDE_ARITHMETIC);
}

export const WIDE_MISSING = 'this browser lacks WebAssembly wide arithmetic (in Chromium 156 it is behind --js-flags=--wasm-wide-arithmetic, in Firefox ESR 153 behind the preference javascript.options.wasm_wide_arithmetic)';

/**
 * @typedef {{ simd128: boolean, relaxed_simd: boolean, shared_memory: boolean,
 *   cross_origin_isolated: boolean, threads: boolean, hardware_concurrency: number | null }} WasmFeatures
 */

/** @type {WasmFeatures | null} */
let probed = null;

/**
 * What this engine offers, probed once per worker (or page): the answer cannot change while it
 * runs, and the probe allocates a shared memory each time it runs.
 * @returns {WasmFeatures}
 */
export function wasmFeatures() {
  probed ??= probeWasmFeatures();
  return probed;
}

/** @returns {WasmFeatures} */
function probeWasmFeatures() {
  let sharedMemory = false;
  try { sharedMemory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }).buffer instanceof SharedArrayBuffer; } catch { /* unsupported */ }
  return {
    simd128: validates(SIMD128),
    relaxed_simd: validates(RELAXED_SIMD),
    shared_memory: sharedMemory,
    cross_origin_isolated: !!self.crossOriginIsolated,
    threads: sharedMemory && !!self.crossOriginIsolated,
    hardware_concurrency: navigator.hardwareConcurrency ?? null,
  };
}
