// Turns every benches/results/*.json into Markdown tables under book/generated/tables/, which the
// chapters {{#include}}: the book's numbers come only from committed result files.
// Run by `make book` before mdbook.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const resultsDir = resolve(root, 'benches/results');
const outDir = resolve(root, 'book/generated/tables');

const sci = (x) => Number(x).toExponential(2);
const header = (doc) => `*${doc.device.name} (${doc.device.backend}${doc.device.driver ? `, ${doc.device.driver}` : ''}`
  + `${doc.device.browser ? `, ${doc.device.browser}` : ''}), commit ${doc.commit}, ${doc.date}; `
  + `${doc.results.every((r) => r.verified) ? 'every row verified' : 'NOT every row verified'}.*`;

function table(columns, rows) {
  return [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** Generic: one row per result. */
function generic(doc) {
  return table(['Benchmark', 'Median', 'Min – max', 'Unit', 'Samples', 'Verified'],
    doc.results.map((r) => [r.name, sci(r.median), `${sci(r.min)} – ${sci(r.max)}`, r.unit, r.samples, r.verified ? '✔' : '✘']));
}

/** wgsl-mont: fields down, limb widths across, median products/s at the most common workgroup size. */
function wgslMont(doc) {
  const sizes = [...new Set(doc.results.map((r) => r.params.workgroup_size))];
  const out = [];
  for (const wg of sizes) {
    const rows = doc.results.filter((r) => r.params.workgroup_size === wg);
    const widths = [...new Set(rows.map((r) => r.params.limb_bits))].sort((a, b) => a - b);
    const fields = [...new Set(rows.map((r) => r.params.field))];
    out.push(`Montgomery products per second (median of ${rows[0].samples}; ${rows[0].params.threads.toLocaleString('en')} threads × ${rows[0].params.iterations} chained products; workgroup size ${wg})`, '');
    out.push(table(['Field', ...widths.map((w) => `${w}-bit`)], fields.map((f) => [f, ...widths.map((w) => {
      const r = rows.find((x) => x.params.field === f && x.params.limb_bits === w);
      return r ? `${sci(r.median)}${r.verified ? '' : ' ✘'}` : '—';
    })])), '');
  }
  return out.join('\n');
}

/** msm-wasm (the cpu-msm widget's task, wasm-demo/bench/msm-wasm.js): one row per curve × n, one
 *  column per run, each cell the median in ms with min–max, then ours-best over arkworks. */
const MSM_RUNS = [
  ['arkworks', 'arkworks'],
  ['projective', 'ours, projective, 64-bit'],
  ['batch-affine', 'ours, batch-affine, 64-bit'],
  ['projective-r30', 'ours, projective, 30-bit'],
  ['batch-affine-r30', 'ours, batch-affine, 30-bit'],
];
function msmWasm(doc) {
  const groups = [...new Set(doc.results.map((r) => `${r.params.curve}|${r.params.n}`))];
  const cell = (r) => (r ? `${r.median.toFixed(0)} (${r.min.toFixed(0)}–${r.max.toFixed(0)})${r.verified ? '' : ' ✘'}` : '—');
  const rows = groups.map((g) => {
    const [curve, n] = g.split('|');
    const rs = doc.results.filter((r) => r.params.curve === curve && String(r.params.n) === n);
    const ours = rs.filter((r) => r.params.variant !== 'arkworks');
    const best = ours.reduce((a, b) => (b.median < a.median ? b : a), ours[0]);
    return [curve, `2^${Math.log2(Number(n))}`, ...MSM_RUNS.map(([v]) => cell(rs.find((r) => r.params.variant === v))),
      best ? `**${best.params.speedup_vs_arkworks.toFixed(2)}×** (${best.params.variant}, c = ${best.params.window})` : '—'];
  });
  const samples = doc.results[0]?.samples;
  const load = doc.params?.host_load_1min;
  return [`Milliseconds per MSM, median (min–max) of ${samples} interleaved runs on the same seeded input, one thread; `
    + `every result equal to arkworks'${load ? `; host load average ${load.join(' → ')} on ${doc.device.cores} cores` : ''}.`, '',
  table(['Curve', 'n', ...MSM_RUNS.map(([, label]) => label), 'Best of ours vs arkworks'], rows)].join('\n');
}

const formatters = { 'wgsl-mont': wgslMont, 'msm-wasm': msmWasm };
// Suites whose newest result file is also written under a fixed name, for the chapters to include.
const latestAlias = { 'msm-wasm': 'msm-wasm.md' };

mkdirSync(outDir, { recursive: true });
const newest = {};
for (const file of readdirSync(resultsDir).filter((f) => f.endsWith('.json'))) {
  const doc = JSON.parse(readFileSync(resolve(resultsDir, file), 'utf8'));
  const body = (formatters[doc.suite] ?? generic)(doc);
  const text = `${body}\n\n${header(doc)}\n`;
  writeFileSync(resolve(outDir, `${basename(file, '.json')}.md`), text);
  if (latestAlias[doc.suite] && !(newest[doc.suite]?.date > doc.date)) newest[doc.suite] = { date: doc.date, text };
}
for (const [suite, { text }] of Object.entries(newest)) writeFileSync(resolve(outDir, latestAlias[suite]), text);
