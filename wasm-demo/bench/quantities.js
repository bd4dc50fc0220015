// One value per quantity. A measured quantity is named by what was measured, not by the file it
// happens to sit in: the device (and browser, and browser flags), the configuration (curve, n,
// limb width, scalars, plan options, profile, mode) and the field (median, a speed-up, a stage).
// The same quantity measured on several days sits in several files with several values; the book
// must show one of them everywhere it shows that quantity. This file names every figure the main
// chapters render, from their `{{fig}}` placeholders and from the generated tables they include
// (book/generated/tables/rendered.json, written by tables.js), and reports each quantity that is
// rendered from two different rows. The ledger appendix is history and keeps every run.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, dataSource, evaluate } from './figures.js';

const CURVES = new Set(['bn254', 'bls12-377', 'bls12-381', 'ed-on-bls12-377']);
const PATTERNS = new Set(['uniform', 'small', 'equal', 'skewed']);

/** The browser and its flags: "chromium-156+--js-flags=…", or "native". */
function environment(doc, row) {
  const browser = doc.device?.browser;
  if (!browser || /^native\//.test(row.name ?? '')) return 'native';
  const [name, version = ''] = String(browser).toLowerCase().split(/\s+/);
  const flags = doc.params?.browser_flags?.length ? `+${doc.params.browser_flags.join(' ')}` : '';
  return `${name}-${version.split('.')[0]}${flags}`;
}

/** The plan's profile: a named one by its name, every calibration alike. */
function profileOf(row) {
  const p = row.params?.profile;
  const tokens = String(row.name ?? '').split('/');
  if (p === 'calibrated' || p === 'cached') return 'calibrated';
  if (p === 'named') return `named:${tokens.find((t) => /^(?:h\d+|auto|portable|mobile|lavapipe|swiftshader|recalibrate)$/.test(t)) ?? '?'}`;
  return p ?? '-';
}

/** What a GPU MSM row measured: everything in its name but the file-specific spelling. */
function gpuConfig(row) {
  const p = row.params ?? {};
  const n = Number.isFinite(p.n) ? p.n : Number.isFinite(p.log_n) ? 2 ** p.log_n : null;
  const tokens = String(row.name).split('/').filter((t) => !CURVES.has(t) && !PATTERNS.has(t)
    && !/^(?:n=)?2\^\d+$/.test(t) && !/^w\d+$/.test(t) && t !== 'native'
    && !/^(?:h\d+|auto|portable|mobile|lavapipe|swiftshader|recalibrate|calibrated)$/.test(t));
  return [p.curve, n, p.limb_bits, p.pattern ?? 'uniform', p.edit ?? 'none', p.mode ?? 'host-arrays', p.copies ?? 1,
    profileOf(row), tokens.sort().join(',')].join('|');
}

/** The quantity a field of a row measures, or null for what is not a measurement of ours. */
export function identity(file, doc, row, field, data = null) {
  // A row the tables picked (book/generated/results/picks.json) is the row it was picked from.
  if (file === 'picks' && row.source && data) {
    const stem = row.source.file.replace(/\.json$/, '');
    const src = data(stem);
    return identity(stem, src, src.results.find((r) => r.name === row.source.name), field, data);
  }
  if (file === 'anchors' || file === 'experiments' || file === 'picks' || doc === null) return `${file}|${row.id ?? row.name}|${field}`;
  const device = doc.device?.name ?? 'unknown device';
  const env = environment(doc, row);
  const suite = doc.suite ?? '';
  if (/^gpu-msm/.test(suite)) {
    const peer = suite === 'gpu-msm-sppark' ? 'sppark' : 'ours';
    return [peer, device, env, gpuConfig(row), field].join('|');
  }
  if (suite === 'wgsl-mont') {
    const p = row.params ?? {};
    return ['wgsl-mont', device, p.field, p.limb_bits, p.workgroup_size, p.threads, p.iterations, field].join('|');
  }
  return [suite, device, env, row.name, field].join('|');
}

/** Every measured value the main chapters show: `{ quantity, source, where }`. */
export function renderings(chapters, { root = ROOT, data = dataSource(root), rendered } = {}) {
  const tables = rendered ?? readRendered(root);
  const out = [];
  for (const [chapter, text] of chapters) {
    text.split('\n').forEach((line, k) => {
      for (const m of line.matchAll(/\{\{fig\s+([^}]*)\}\}/g)) {
        let terms;
        try { ({ terms } = evaluate(m[1], data)); } catch { continue; } // the prose test reports it
        // A figure the reader sees as the quantity itself: one term (a unit conversion by a typed
        // constant aside). A ratio or a sum of several is a comparison, often within one run, and
        // is not itself a value of either quantity.
        if (terms.length !== 1) continue;
        const [t] = terms;
        const src = t.file === 'picks' && t.row.source ? `${t.row.source.file.replace(/\.json$/, '')} ${t.row.source.name}` : `${t.file} ${t.row.name ?? t.row.id ?? '-'}`;
        out.push({ quantity: identity(t.file, t.doc, t.row, t.field, data), source: `${src} ${t.field}`, where: `${chapter}:${k + 1}` });
      }
      const inc = line.match(/\{\{#include\s+generated\/tables\/([^}\s]+)\s*\}\}/);
      for (const [file, rowName, field] of inc ? tables[inc[1]] ?? [] : []) {
        const stem = file.replace(/\.json$/, '');
        let doc;
        try { doc = data(stem); } catch { continue; }
        const row = (doc.results ?? []).find((r) => r.name === rowName);
        if (!row) continue;
        out.push({ quantity: identity(stem, doc, row, field), source: `${stem} ${rowName} ${field}`,
          where: `${chapter}:${k + 1} (table ${inc[1]})` });
      }
    });
  }
  return out;
}

function readRendered(root) {
  const path = resolve(root, 'book/generated/tables/rendered.json');
  if (!existsSync(path)) throw new Error('book/generated/tables/rendered.json is missing: run node wasm-demo/bench/tables.js');
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The quantities rendered from more than one row: `{ quantity, sources: { source: [where…] } }`. */
export function conflicts(list) {
  const by = new Map();
  for (const r of list) {
    if (!by.has(r.quantity)) by.set(r.quantity, new Map());
    const sources = by.get(r.quantity);
    if (!sources.has(r.source)) sources.set(r.source, []);
    sources.get(r.source).push(r.where);
  }
  return [...by].filter(([, s]) => s.size > 1)
    .map(([quantity, s]) => ({ quantity, sources: Object.fromEntries([...s].map(([k, v]) => [k, [...new Set(v)]])) }));
}

/** The report a failing check prints. */
export function describe(found) {
  return found.map((c) => `${c.quantity}\n${Object.entries(c.sources).map(([src, where]) => `    ${src}\n        at ${where.join(', ')}`).join('\n')}`).join('\n');
}
