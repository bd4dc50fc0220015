// Main-thread side of the widget worker: one module worker per page, request/response by id.
let worker = null;
let nextId = 1;
const pending = new Map();

function failAll(message) {
  for (const { reject } of pending.values()) reject(new Error(message));
  pending.clear();
  worker = null;
}

function getWorker() {
  if (worker) return worker;
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }) => {
    const job = pending.get(data.id);
    if (!job) return;
    if (data.type === 'progress') job.onProgress(data.fraction, data.text);
    else {
      pending.delete(data.id);
      if (data.type === 'result') job.resolve(data.result);
      else job.reject(new Error(data.message));
    }
  };
  worker.onerror = (e) => failAll(`the widget worker failed to start: ${e.message ?? 'unknown error'}`);
  return worker;
}

export function runInWorker(widget, params, onProgress) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject, onProgress });
    getWorker().postMessage({ id, widget, params });
  });
}
