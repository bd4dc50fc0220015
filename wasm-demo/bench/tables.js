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

/** msm-wasm (the cpu-msm widget's task, wasm-demo/bench/msm-wasm.js): one row per run (ours with
 *  and without GLV, arkworks), one column per curve × n; each cell the median in ms, min–max, and
 *  the speed-up over arkworks measured in the same rounds. */
const MSM_LABELS = {
  arkworks: 'arkworks VariableBaseMSM',
  projective: 'ours: projective buckets, 64-bit limbs',
  'batch-affine': 'ours: batch-affine buckets, 64-bit limbs',
  'all-affine': 'ours: all affine, 64-bit limbs',
  'projective-r30': 'ours: projective buckets, 30-bit limbs',
  'batch-affine-r30': 'ours: batch-affine buckets, 30-bit limbs',
  'all-affine-r30': 'ours: all affine, 30-bit limbs',
};
function msmWasm(doc) {
  const runKey = (r) => `${r.params.variant}${r.params.glv ? '+glv' : ''}`;
  const groups = [...new Set(doc.results.map((r) => `${r.params.curve}|${r.params.n}`))];
  const runs = [...new Set(doc.results.map(runKey))];
  runs.sort((x, y) => (x === 'arkworks' ? -1 : y === 'arkworks' ? 1 : 0));
  const cell = (r) => (r ? `${r.median.toFixed(0)} (${r.min.toFixed(0)}–${r.max.toFixed(0)})`
    + `${r.params.variant === 'arkworks' ? '' : `, **${r.params.speedup_vs_arkworks.toFixed(2)}×**`}${r.verified ? '' : ' ✘'}` : '—');
  const rows = runs.map((k) => {
    const [variant, glv] = k.split('+');
    return [`${MSM_LABELS[variant] ?? variant}${glv ? ', GLV' : ''}`, ...groups.map((g) => {
      const [curve, n] = g.split('|');
      return cell(doc.results.find((r) => r.params.curve === curve && String(r.params.n) === n && runKey(r) === k));
    })];
  });
  const windows = groups.map((g) => {
    const [curve, n] = g.split('|');
    const ws = [...new Set(doc.results.filter((r) => r.params.curve === curve && String(r.params.n) === n && r.params.window)
      .map((r) => r.params.window))].join('/');
    return `${curve} 2^${Math.log2(Number(n))}: c = ${ws}`;
  }).join('; ');
  const samples = doc.results[0]?.samples;
  const load = doc.params?.host_load_1min;
  const how = doc.suite === 'msm-native'
    ? `Milliseconds per MSM, native, one thread: median (min–max) of ${samples} criterion samples on the same random `
      + 'input, and the speed-up over arkworks; each of ours checked against arkworks before it was timed'
    : `Milliseconds per MSM: median (min–max) of ${samples} interleaved runs on the same seeded input, `
      + 'one thread, and the speed-up over arkworks in the same rounds; every result equal to arkworks\'. '
      + `Windows: ${windows}`;
  return [`${how}${load ? `. Host load average ${load.join(' → ')} on ${doc.device.cores} shared cores` : ''}.`, '',
  table(['Run', ...groups.map((g) => { const [c, n] = g.split('|'); return `${c}, 2^${Math.log2(Number(n))}`; })], rows)].join('\n');
}

const formatters = { 'wgsl-mont': wgslMont, 'msm-wasm': msmWasm, 'msm-native': msmWasm };
// Suites whose newest result file is also written under a fixed name, for the chapters to include.
const latestAlias = { 'msm-wasm': 'msm-wasm.md', 'msm-native': 'msm-native.md' };

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
