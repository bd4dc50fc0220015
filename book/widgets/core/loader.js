// Widget loader: hydrates every <div class="fastmsm-widget" data-widget="NAME"> on the page.
//
// Each widget is one module, ../widgets/NAME.js (its shape: core/types.js), exporting:
//   title, controls (form fields: select, number or text), quick (parameters for a fast run), autorun (bool),
//   task(wasm, params, progress)  — runs in the widget worker, returns a results object
//   view(result)                  — tables and a chart spec for the page
//   fromPage(params)  (optional)  — runs in the page before the task: adds what only the page has
//                                   (localStorage, the click's time) to the parameters sent to the worker
//   prepare(wasm, params, progress), prepareOn (optional) — runs in the widget worker when the page
//                                   opens and when a control named in prepareOn changes, before any
//                                   click: work a run would otherwise wait for (GPU pipelines)
// Tasks run in one widget worker per page (core/widget-worker.js), through core/rpc.js.
// All URLs are relative to this file, so the site works from any sub-path, offline.
import { WorkerClient } from './rpc.js';
import { renderOutput, toMarkdown } from './render.js';

// A worker that stops rejects the tasks in flight; the next task starts a new one.
const worker = new WorkerClient(() => new Worker(new URL('./widget-worker.js', import.meta.url), { type: 'module' }),
  { what: 'the widget worker', restart: true });

/**
 * Runs widget `name`'s task with `params` in the page's widget worker.
 * @param {string} name
 * @param {any} params
 * @param {(fraction: number, text: string) => void} [onProgress]
 * @returns {Promise<import('./types.js').TaskResult>}
 */
export function runTask(name, params, onProgress) {
  return worker.call({ op: 'task', widget: name, params }, { onProgress });
}

/**
 * Runs widget `name`'s preparation (its module's `prepare`) with `params` in the page's worker.
 * @param {string} name
 * @param {any} params
 * @param {(fraction: number, text: string) => void} [onProgress]
 */
export function prepareTask(name, params, onProgress) {
  return worker.call({ op: 'prepare', widget: name, params: { ...params, page_open_epoch_ms: performance.timeOrigin } }, { onProgress });
}

/**
 * Prepares `widget` for the form's current settings and shows it in the idle widget's status line
 * (what is happening and for how long; a run, once started, owns the line). A newer preparation
 * replaces an older one's display; a failed one says why, and the run retries it.
 * @param {Hydrated} widget
 * @param {any} params
 * @param {HTMLElement} status
 */
function prepareWidget(widget, params, status) {
  const { root, name } = widget;
  const started = performance.now();
  const mine = {};
  widget.preparing = mine; // whose progress the status line shows (none once a run starts)
  widget.latestPreparation = mine; // whose state data-prepared tells
  let text = 'starting';
  const show = (line) => { if (widget.preparing === mine) status.textContent = line; };
  const what = params.curve ? ` for ${params.curve}` : '';
  const tick = () => show(`Preparing the GPU${what}: ${text}… ${((performance.now() - started) / 1e3).toFixed(1)} s`);
  const timer = setInterval(tick, 200);
  root.dataset.prepared = 'preparing';
  tick();
  prepareTask(name, params, (_, line) => { text = line; tick(); })
    .then((r) => {
      if (widget.latestPreparation !== mine) return;
      if (r?.skipped) { root.dataset.prepared = 'skipped'; show('Not run yet.'); return; }
      root.dataset.prepared = 'ready';
      show(`GPU ready${what} (prepared in ${r.seconds} s; profile: ${r.summary}): Run starts the MSM at once.`);
    })
    .catch((e) => {
      if (widget.latestPreparation !== mine) return;
      root.dataset.prepared = 'failed';
      show(`Preparing the GPU failed: ${e.message}. Run tries again and reports the error.`);
    })
    .finally(() => clearInterval(timer));
}

/**
 * A widget on this page: its element, module, last result and run.
 * @typedef {{ root: HTMLElement, name: string, module: import('./types.js').Widget, lastResult: any,
 *   started: boolean, run: (params: any) => Promise<any>, preparing?: object | null,
 *   latestPreparation?: object }} Hydrated
 */
/** @type {Hydrated[]} */
const widgets = [];

function controlElement(spec) {
  const label = document.createElement('label');
  label.textContent = `${spec.label} `;
  let input;
  if (spec.type === 'select') {
    input = document.createElement('select');
    input.multiple = !!spec.multiple;
    for (const option of spec.options) {
      const o = new Option(option.label ?? option, option.value ?? option);
      o.selected = spec.multiple ? (spec.default ?? []).includes(o.value) : o.value === String(spec.default);
      input.add(o);
    }
  } else if (spec.type === 'text') {
    input = document.createElement('input');
    input.type = 'text';
    input.spellcheck = false;
    Object.assign(input, { value: spec.default ?? '', size: spec.size ?? 40, placeholder: spec.placeholder ?? '' });
  } else {
    input = document.createElement('input');
    input.type = 'number';
    Object.assign(input, { min: spec.min, max: spec.max, step: spec.step ?? 1, value: spec.default });
  }
  input.name = spec.name;
  label.append(input);
  return label;
}

function readControls(form, specs) {
  const params = {};
  for (const spec of specs) {
    const input = form.elements[spec.name];
    if (spec.type === 'select' && spec.multiple) params[spec.name] = [...input.selectedOptions].map((o) => o.value);
    else if (spec.type === 'select' || spec.type === 'text') params[spec.name] = input.value;
    else params[spec.name] = Number(input.value);
  }
  return params;
}

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

async function hydrate(root) {
  const name = root.dataset.widget;
  /** @type {import('./types.js').Widget} */
  const module = await import(new URL(`../widgets/${name}.js`, import.meta.url).href);
  const controls = module.controls ?? [];
  root.replaceChildren();
  root.dataset.state = 'idle';
  const head = el('div', 'fm-head');
  head.append(el('strong', '', module.title));
  const form = el('form', 'fm-controls');
  controls.forEach((c) => form.append(controlElement(c)));
  const button = el('button', 'fm-run', module.autorun ? 'Run again' : 'Run');
  button.type = 'submit';
  form.append(button);
  const progress = el('progress', 'fm-progress');
  progress.max = 1;
  progress.value = 0;
  const status = el('span', 'fm-status', 'Not run yet.');
  const output = el('div', 'fm-output');
  const exportBar = el('div', 'fm-export');
  const copyMd = el('button', '', 'Copy as Markdown');
  const copyJson = el('button', '', 'Copy as JSON');
  const exported = el('textarea', 'fm-exported');
  exported.readOnly = true;
  exported.hidden = true;
  exportBar.append(copyMd, copyJson, exported);
  exportBar.hidden = true;
  root.append(head, form, el('div', 'fm-progress-row'), output, exportBar);
  root.querySelector('.fm-progress-row').append(progress, status);

  /** @type {Hydrated} */
  const widget = { root, name, module, lastResult: null, started: false, run: async () => {} };
  const exportAs = async (text) => {
    exported.value = text;
    exported.hidden = false;
    try { await navigator.clipboard.writeText(text); status.textContent = 'Copied to the clipboard.'; }
    catch { exported.select(); status.textContent = 'Clipboard unavailable: select the text below and copy it.'; }
  };
  copyMd.onclick = () => exportAs(toMarkdown(widget.lastResult, module.view(widget.lastResult)));
  copyJson.onclick = () => exportAs(JSON.stringify(widget.lastResult, null, 2));

  widget.run = async (params) => {
    widget.started = true; // no first-sight preparation after this (see `near` below)
    widget.preparing = null; // the run owns the status line from now on
    root.dataset.state = 'running';
    button.disabled = true;
    status.textContent = 'Starting…';
    progress.value = 0;
    try {
      const request = module.fromPage ? module.fromPage(params) : params;
      const result = await runTask(name, request, (fraction, text) => {
        progress.value = fraction;
        status.textContent = text;
      });
      widget.lastResult = result;
      renderOutput(output, module.view(result));
      root.dataset.verified = String(result.verified);
      root.dataset.state = 'done';
      progress.value = 1;
      // `unavailable` as text: the widget could not run here at all (e.g. no WebGPU); its view says
      // why. (As a list it names the rows that could not run beside those that did.)
      status.textContent = typeof result.unavailable === 'string' ? `Not run: ${result.unavailable}.`
        : result.verified ? '✔ Verified against the reference.' : '✘ NOT verified: see the rows marked ✘.';
      exportBar.hidden = false;
      return result;
    } catch (e) {
      root.dataset.state = 'error';
      status.textContent = `Failed: ${e.message}`;
      throw e;
    } finally {
      button.disabled = false;
    }
  };
  form.onsubmit = (event) => {
    event.preventDefault();
    widget.run(readControls(form, controls)).catch(() => {});
  };
  widgets.push(widget);
  if (module.prepare) {
    // Prepared once the widget is within a screen of the view (at once where the page opens on
    // it), so that a reader who never scrolls there costs the device nothing; again when a
    // setting that changes what is compiled changes.
    const prepareNow = () => prepareWidget(widget, readControls(form, controls), status);
    form.addEventListener('change', (event) => {
      if ((module.prepareOn ?? []).includes(/** @type {any} */ (event.target)?.name)) prepareNow();
    });
    // Not after a run has started: the run prepares what it needs itself, and its status line
    // (a result, or why it cannot run here) must stay as the run left it when the reader scrolls
    // to it. (A preparation started by that scroll once replaced "Not run: no WebGPU" with
    // "Preparing…" under the reader's eyes and moved the line below it.)
    const near = new IntersectionObserver((seen) => {
      if (!seen.some((e) => e.isIntersecting)) return;
      near.disconnect();
      if (!widget.latestPreparation && !widget.started) prepareNow();
    }, { rootMargin: '100% 0px' });
    near.observe(root);
  }
  if (module.autorun) widget.run(readControls(form, controls)).catch(() => {});
}

const ready = Promise.all([...document.querySelectorAll('.fastmsm-widget[data-widget]')].map(hydrate));

// For the end-to-end tests and the headless bench runners: run every widget on this page, or one
// widget's task in the page's worker.
/** @type {any} */ (window).fastmsmWidgets = {
  ready,
  runTask,
  prepareTask,
  async runAll({ quick = false } = {}) {
    await ready;
    const results = [];
    for (const w of widgets) {
      const form = w.root.querySelector('form');
      const params = quick && w.module.quick ? w.module.quick : readControls(form, w.module.controls ?? []);
      results.push({ widget: w.name, result: await w.run(params) });
    }
    return results;
  },
};
