// Charts of the Results chapter, drawn from book/generated/results/gpu-msm.json, which `make book`
// writes from the committed benches/results/gpu-msm-*.json and benches/anchors.json
// (wasm-demo/bench/tables.js; the chapter's tables come from the same pass). Not a widget: nothing
// runs on the reader's machine, the page only draws committed numbers. Placeholders:
//   <div class="fm-results-chart" data-chart="scaling" data-curve="bls12-377"></div>  time against n, log-log
//   <div class="fm-results-chart" data-chart="stages" data-curve="bls12-377"></div>   the median run split by stage
//   <div class="fm-results-chart" data-chart="history"></div>                         the whole MSM through the ledger's steps
// Chart.js is served with the book (window.Chart, loaded by the theme's head).
const DATA_URL = new URL('../generated/results/gpu-msm.json', import.meta.url);

// GPU stages in colours, host phases in greys, the unaccounted rest pale.
const STAGE_COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#17becf', '#bcbd22'];
const HOST_COLOURS = ['#555555', '#7f7f7f', '#a5a5a5', '#c7c7c7', '#3b3b3b'];
const SERIES_COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#8c564b', '#17becf', '#7f7f7f', '#bcbd22'];
const ANCHOR_COLOURS = ['#ff7f0e', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
const ANCHOR_POINTS = ['rectRot', 'triangle', 'rect', 'crossRot', 'star'];

const pow2 = (n) => { const k = Math.log2(n); return Number.isInteger(k) ? `2^${k}` : String(n); };
const msText = (x) => (x >= 100 ? Math.round(x).toLocaleString('en') : x >= 10 ? x.toFixed(1) : x.toFixed(2));

function canvasIn(root, height = 320) {
  const box = document.createElement('div');
  box.style.position = 'relative';
  box.style.height = `${height}px`;
  box.style.margin = '0.6em 0';
  const canvas = document.createElement('canvas');
  box.append(canvas);
  root.append(box);
  return canvas;
}

function note(root, text) {
  const p = document.createElement('p');
  p.className = 'fm-results-note';
  p.textContent = text;
  root.append(p);
}

/** A log₂ axis in n with ticks at the powers of two that the data span. */
function nAxis(ns) {
  const lo = Math.floor(Math.log2(Math.min(...ns)));
  const hi = Math.ceil(Math.log2(Math.max(...ns)));
  return {
    type: 'logarithmic',
    min: 2 ** (lo - 0.25),
    max: 2 ** (hi + 0.25),
    title: { display: true, text: 'n (points)' },
    afterBuildTicks: (axis) => {
      axis.ticks = [];
      for (let k = lo; k <= hi; k += 1) axis.ticks.push({ value: 2 ** k });
    },
    ticks: { callback: (value) => pow2(value) },
  };
}

function scalingChart(root, data, curve) {
  const datasets = [];
  let colour = 0;
  for (const d of data.devices) {
    for (const s of d.curves[curve]?.series ?? []) {
      const c = SERIES_COLOURS[colour++ % SERIES_COLOURS.length];
      datasets.push({ label: s.label, data: s.points.map((p) => ({ x: p.n, y: p.ms })), showLine: true,
        borderColor: c, backgroundColor: c, pointRadius: 4, borderWidth: 2 });
    }
  }
  data.anchors.forEach((a, i) => {
    const points = a.points.filter((p) => p.curve === curve);
    if (!points.length) return;
    const c = ANCHOR_COLOURS[i % ANCHOR_COLOURS.length];
    datasets.push({ label: `${a.label}${a.approximate ? ' (approximate)' : ''}`, data: points.map((p) => ({ x: p.n, y: p.ms })),
      showLine: points.length > 1, borderDash: [6, 4], borderColor: c, backgroundColor: c, borderWidth: 1.5,
      pointStyle: ANCHOR_POINTS[i % ANCHOR_POINTS.length], pointRadius: 6 });
  });
  const targets = data.targets.filter((t) => t.curve === curve);
  if (targets.length) {
    datasets.push({ label: 'target (at most)', data: targets.map((t) => ({ x: t.n, y: t.ms })), pointStyle: 'star',
      pointRadius: 10, borderColor: '#000000', backgroundColor: '#000000', borderWidth: 2, showLine: false });
  }
  const ns = datasets.flatMap((s) => s.data.map((p) => p.x));
  if (!ns.length) { note(root, `No GPU MSM result or published figure for ${data.curves[curve] ?? curve} yet.`); return; }
  return new window.Chart(canvasIn(root, 360), {
    type: 'scatter',
    data: { datasets },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: {
        title: { display: true, text: `${data.curves[curve] ?? curve} G1: milliseconds per MSM against n (log–log; lower is better)` },
        legend: { labels: { usePointStyle: true } },
        tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${msText(ctx.parsed.y)} ms at n = ${pow2(ctx.parsed.x)}` } },
      },
      scales: { x: nAxis(ns), y: { type: 'logarithmic', title: { display: true, text: 'ms' } } },
    },
  });
}

function stagesChart(root, data, curve) {
  const charts = [];
  for (const d of data.devices) {
    const runs = d.curves[curve]?.best ?? [];
    if (!runs.length) continue;
    const labels = runs.map((r) => `${pow2(r.n)} (${r.limb_bits}-bit)`);
    const segments = [];
    for (const r of runs) for (const s of r.segments) if (!segments.some((x) => x.label === s.label)) segments.push({ label: s.label, kind: s.kind });
    let stage = 0;
    let host = 0;
    const colourOf = (s) => (s.kind === 'stage' ? STAGE_COLOURS[stage++ % STAGE_COLOURS.length]
      : s.kind === 'host' ? HOST_COLOURS[host++ % HOST_COLOURS.length] : s.kind === 'gap' ? '#d4b483' : '#e8e8e8');
    const colours = segments.map(colourOf);
    const values = (share) => segments.map((s) => runs.map((r) => {
      const v = r.segments.find((x) => x.label === s.label)?.ms ?? 0;
      return share ? (100 * v) / r.ms : v;
    }));
    const select = document.createElement('select');
    select.append(new Option('milliseconds', 'ms'), new Option('share of the run (%)', 'share'));
    const label = document.createElement('label');
    label.append('Show ', select);
    root.append(label);
    const chart = new window.Chart(canvasIn(root, 360), {
      type: 'bar',
      data: {
        labels,
        datasets: segments.map((s, i) => ({ label: s.label, data: values(false)[i], backgroundColor: colours[i], borderColor: colours[i] })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          title: { display: true, text: `${data.curves[curve] ?? curve}, ${d.device}: the median run of the fastest limb width at each n, by stage` },
          tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${select.value === 'share' ? `${ctx.parsed.y.toFixed(1)}%` : `${msText(ctx.parsed.y)} ms`}` } },
        },
        scales: { x: { stacked: true, title: { display: true, text: 'n (limb width)' } }, y: { stacked: true, title: { display: true, text: 'ms' } } },
      },
    });
    select.onchange = () => {
      const share = select.value === 'share';
      values(share).forEach((v, i) => { chart.data.datasets[i].data = v; });
      chart.options.scales.y.title.text = share ? '% of the whole MSM' : 'ms';
      chart.options.scales.y.max = share ? 100 : undefined;
      chart.update();
    };
    charts.push(chart);
  }
  if (!charts.length) note(root, `No GPU MSM result for ${data.curves[curve] ?? curve} yet.`);
  return charts;
}

function historyChart(root, data) {
  const t = data.timeline;
  if (!t?.steps.length) { note(root, 'No measured step yet.'); return; }
  const labels = t.steps.map((s) => `${s.title}${s.timing_only ? ' (timing only)' : ''}`.split(' ').reduce((lines, word) => {
    const last = lines[lines.length - 1];
    if (last && `${last} ${word}`.length <= 24) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
    return lines;
  }, []));
  const datasets = [{
    type: 'bar', label: 'whole MSM, median (ms)', data: t.steps.map((s) => s.ms),
    backgroundColor: t.steps.map((s) => (s.timing_only ? '#c7c7c7' : '#4e79a7')), pointStyle: 'rect', order: 1,
  }];
  const lines = [
    ...data.anchors.flatMap((a, i) => a.points.filter((p) => p.curve === t.curve && p.log_n === t.log_n)
      .map((p) => ({ label: a.label, ms: p.ms, colour: ANCHOR_COLOURS[i % ANCHOR_COLOURS.length] }))),
    ...data.targets.filter((x) => x.curve === t.curve && x.log_n === t.log_n).map((x) => ({ label: 'target', ms: x.ms, colour: '#000000' })),
  ];
  for (const l of lines) {
    datasets.push({ type: 'line', label: `${l.label}: ${l.ms} ms`, data: t.steps.map(() => l.ms), borderColor: l.colour,
      backgroundColor: l.colour, borderDash: [6, 4], pointRadius: 0, pointStyle: 'line', borderWidth: 1.5, order: 0 });
  }
  return new window.Chart(canvasIn(root, 360), {
    data: { labels, datasets },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: {
        title: { display: true, text: `${data.curves[t.curve] ?? t.curve} G1, n = 2^${t.log_n}: the whole MSM after each measured step (log scale; grey: result wrong by design, timing only)` },
        legend: { labels: { usePointStyle: true } },
        tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label.split(':')[0]}: ${msText(ctx.parsed.y)} ms` } },
      },
      scales: { y: { type: 'logarithmic', title: { display: true, text: 'ms' } } },
    },
  });
}

async function main() {
  const roots = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.fm-results-chart[data-chart]'))];
  if (!roots.length) return;
  let data;
  try {
    const response = await fetch(DATA_URL);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    data = await response.json();
  } catch (e) {
    roots.forEach((root) => { root.replaceChildren(); note(root, `The chart data could not be loaded (${e.message}); the tables below hold the same figures.`); });
    return;
  }
  if (!window.Chart && document.readyState !== 'complete') await new Promise((done) => window.addEventListener('load', done, { once: true }));
  if (!window.Chart) {
    roots.forEach((root) => { root.replaceChildren(); note(root, 'Chart.js did not load; the tables below hold the same figures.'); });
    return;
  }
  for (const root of roots) {
    root.replaceChildren();
    const { chart, curve } = root.dataset;
    if (chart === 'scaling') scalingChart(root, data, curve);
    else if (chart === 'stages') stagesChart(root, data, curve);
    else if (chart === 'history') historyChart(root, data);
    else note(root, `Unknown chart "${chart}".`);
    root.dataset.state = 'done';
  }
  document.documentElement.dataset.resultsCharts = 'done';
}

main();
