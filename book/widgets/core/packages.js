// The WebAssembly packages (Makefile targets wasm*, one folder each): the crate wasm-demo built
// once per target. The book serves them from book/generated/; the npm package from its own wasm/
// folder, which it passes where a base URL is asked for.

/** The book's folder of packages. */
export const BOOK_PACKAGES = new URL('../../generated/', import.meta.url);

/** Each package's folder and file stem, as the Makefile names them. */
const FILES = {
  main: ['pkg', 'fastmsm'],
  relaxed: ['pkg-relaxed', 'fastmsm_relaxed'],
  threads: ['pkg-threads', 'fastmsm_threads'],
  wide: ['pkg-wide', 'fastmsm_wide'],
  'wide-msm': ['pkg-wide-msm', 'fastmsm_wide_msm'],
};

/** @typedef {keyof typeof FILES} PackageName */

/**
 * The URLs of package `which`'s JavaScript glue and module under `base`.
 * @param {PackageName} which
 * @param {URL | string} [base]
 */
export function packageUrls(which, base = BOOK_PACKAGES) {
  const [dir, stem] = FILES[which];
  return { glue: new URL(`${dir}/${stem}.js`, base).href, wasm: new URL(`${dir}/${stem}_bg.wasm`, base) };
}

/** @type {Map<string, Promise<any>>} */
const loaded = new Map();

/**
 * Package `which` of the book, imported and instantiated once in this worker. Ask only after
 * probing (core/features.js): a module using an extension the browser lacks does not compile.
 * @param {PackageName} which
 * @returns {Promise<any>}
 */
export function loadPackage(which) {
  if (!loaded.has(which)) {
    const { glue, wasm } = packageUrls(which);
    loaded.set(which, import(glue).then(async (m) => {
      await m.default({ module_or_path: wasm });
      return m;
    }));
  }
  return /** @type {Promise<any>} */ (loaded.get(which));
}
