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

const formatters = { 'wgsl-mont': wgslMont };

mkdirSync(outDir, { recursive: true });
for (const file of readdirSync(resultsDir).filter((f) => f.endsWith('.json'))) {
  const doc = JSON.parse(readFileSync(resolve(resultsDir, file), 'utf8'));
  const body = (formatters[doc.suite] ?? generic)(doc);
  writeFileSync(resolve(outDir, `${basename(file, '.json')}.md`), `${body}\n\n${header(doc)}\n`);
}
