// Request and response over a Web Worker, one implementation for every worker of the book and of
// the npm package: the widget worker (core/widget-worker.js), the package's worker
// (wasm-demo/npm/src/worker.js) and each worker of the CPU pool (pool/pool-worker.js).
//
// The page side (`WorkerClient`) numbers each request and keeps its promise until the worker
// answers; the worker side (`serve`) answers every request with its result or its error's message,
// and may send progress before. A worker that stops (an uncaught error, a module that does not
// load, a message that cannot be read) rejects every request in flight with the reason, never
// leaves one waiting.

/**
 * @typedef {(fraction: number, text: string) => void} Progress
 * @typedef {{ id: number, type: 'progress', fraction: number, text: string }
 *   | { id: number, type: 'result', result: any }
 *   | { id: number, type: 'error', message: string }} Reply
 */

/** A value a handler returns with the buffers to move to the page (not copied). */
export class Transfer {
  /** @param {any} value @param {Transferable[]} list */
  constructor(value, list) {
    this.value = value;
    this.list = list;
  }
}

export class WorkerClient {
  /**
   * @param {() => Worker} start makes the worker (called on the first request)
   * @param {{ what: string, restart?: boolean, onFail?: (message: string) => void }} options
   *   `what` names the worker in errors; with `restart`, a request after a failure starts a new
   *   worker, without it the failure stays; `onFail` hears the failure once.
   */
  constructor(start, { what, restart = false, onFail = () => {} }) {
    this.start = start;
    this.what = what;
    this.restart = restart;
    this.onFail = onFail;
    /** @type {Worker | null} */
    this.worker = null;
    /** @type {string | null} why the worker stopped, while it stays stopped */
    this.failure = null;
    this.nextId = 1;
    /** @type {Map<number, { resolve: (v: any) => void, reject: (e: Error) => void, onProgress?: Progress }>} */
    this.pending = new Map();
  }

  #open() {
    if (this.worker) return this.worker;
    const w = this.start();
    w.onmessage = ({ data }) => this.#reply(data);
    w.onerror = (e) => {
      e.preventDefault?.();
      this.fail(`${this.what} stopped: ${e.message || 'it could not load or crashed'}`);
    };
    w.onmessageerror = () => this.fail(`${this.what} sent a message that could not be read`);
    this.worker = w;
    return w;
  }

  /** @param {Reply} data */
  #reply(data) {
    const job = this.pending.get(data.id);
    if (!job) return;
    if (data.type === 'progress') {
      try { job.onProgress?.(data.fraction, data.text); } catch { /* a caller's callback never stops the run */ }
      return;
    }
    this.pending.delete(data.id);
    if (data.type === 'result') job.resolve(data.result);
    else job.reject(new Error(data.message));
  }

  /**
   * Sends `message` (with `op` naming the handler) and resolves to the worker's result.
   * @param {Record<string, any>} message
   * @param {{ onProgress?: Progress, transfer?: Transferable[] }} [options]
   * @returns {Promise<any>}
   */
  call(message, { onProgress, transfer = [] } = {}) {
    if (this.failure && !this.restart) return Promise.reject(new Error(this.failure));
    this.failure = null;
    const worker = this.#open();
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject, onProgress });
      worker.postMessage({ id, ...message }, transfer);
    });
  }

  /** Ends the worker and rejects what is in flight with `message`. */
  fail(message) {
    const first = this.failure === null;
    this.failure = message;
    for (const job of this.pending.values()) job.reject(new Error(message));
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
    if (first) this.onFail(message);
  }
}

/**
 * The worker side: answers each request `{id, op, ...}` with `handlers[op](request, progress)`.
 * With `sequential`, a request starts when the one before it has been answered.
 * @param {Record<string, (request: any, progress: Progress) => any>} handlers
 * @param {{ sequential?: boolean }} [options]
 */
export function serve(handlers, { sequential = false } = {}) {
  const scope = /** @type {any} */ (globalThis);
  let queue = Promise.resolve();
  scope.onmessage = (/** @type {MessageEvent} */ { data }) => {
    const { id, op } = data;
    /** @type {Progress} */
    const progress = (fraction, text) => scope.postMessage({ id, type: 'progress', fraction, text });
    const answer = async () => {
      try {
        const handler = handlers[op];
        if (!handler) throw new Error(`unknown request ${JSON.stringify(op)}`);
        const out = await handler(data, progress);
        const [result, transfer] = out instanceof Transfer ? [out.value, out.list] : [out, []];
        scope.postMessage({ id, type: 'result', result }, transfer);
      } catch (e) {
        scope.postMessage({ id, type: 'error', message: String(e?.message ?? e) });
      }
    };
    if (sequential) queue = queue.then(answer);
    else answer();
  };
}
