// What the book's pages hold beside the widgets' modules, for `npm run typecheck`: Chart.js and
// mermaid, loaded by book/theme/head.hbs as scripts, and the end-to-end suite's test hook.
declare var Chart: any;
declare var mermaid: any;

interface Window {
  Chart: any;
}

interface WindowOrWorkerGlobalScope {
  /** The gpu-msm widget's test hook (wasm-demo/tests/book.test.js): lose the device once. */
  fastmsmTest?: { loseDeviceOnce?: boolean };
}
