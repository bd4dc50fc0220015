// Figures in the book's prose come from committed data, never from a hand-typed number: a chapter
// writes a placeholder and the build replaces it with the value the committed file holds. This file
// is both the mdbook preprocessor that does the replacing (book.toml: [preprocessor.figures]) and
// the library the prose test imports (wasm-demo/tests/prose.test.js).
//
// Placeholder:   {{fig TERM [OP TERM]... [| FORMAT]}}
//   TERM    FILE ROW FIELD, or a plain number
//   FILE    a file of benches/results/ without ".json", or `anchors` / `experiments` (benches/), or
//           `picks` (book/generated/results/picks.json: the row a generated table shows, by its key,
//           e.g. best/nvidia-h200/bn254/2^20, so that the prose reads the table's own row)
//   ROW     a row's name or id; else KEY=VALUE[,KEY=VALUE...] matched against the row's fields and
//           its params (quote a value with spaces: device="NVIDIA H100"); or `-`, the file itself.
//           It must name exactly one row.
//   FIELD   a field of the row or of its params (a dotted path for deeper ones, a key with spaces
//           quoted: executables.0."Register Count"), or stage:NAME,
//           the milliseconds of a GPU stage or host phase in the median run of a gpu-msm row
//   OP      / * + -, applied left to right
//   FORMAT  auto (the default: 3 or 4 significant figures, thousands separated by a space),
//           0..4 (decimals), int (rounded, thousands separated), sci (2.14·10¹⁰),
//           tex-sci (2.14 \cdot 10^{10}, inside math)
// Examples: {{fig gpu-msm-nvidia-h200 bls12-377/uniform/2^20/w30 median}} ms;
//           {{fig anchors source=target,curve=bn254 ms / gpu-msm-nvidia-h200 bn254/uniform/2^20/w29 median | 2}}×
//
// Placeholder:   {{num KEY [| FORMAT]}}
//   A number that follows from the code, not from a measurement: KEY in book/derived.json, which
//   crates/msm-gpu/tests/book_numbers.rs computes from the crates and keeps current (it fails when
//   the code and the file disagree). FORMAT: the default (an integer grouped by thousands with a
//   space; a real number with 3 or 4 significant figures, as `auto`), 0..4, sci, tex-sci, tex (an
//   integer grouped with `\,`, for math), word (a small integer in words: "six"), pct (a share in
//   percent, 0 decimals), chain (a list as `a \to b \to …` in math); a list is joined with ", ",
//   a string is written as it is, and a table ({columns, rows}) becomes a Markdown table where the
//   placeholder stands alone on its line.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NOT_MAIN } from './prose-lint.js';
import { conflicts, describe, renderings } from './quantities.js';

export const ROOT = resolve(import.meta.dirname, '../..');
const PLACEHOLDER = /\{\{fig\s+([^}]*)\}\}/g;
const NUM = /\{\{num\s+([^}|\s]+)\s*(?:\|\s*([\w-]+)\s*)?\}\}/g;
const OPS = new Set(['/', '*', '+', '-']);

/** Loads committed data files on demand (one read per file per build). */
export function dataSource(root = ROOT) {
  const cache = new Map();
  return (file) => {
    if (!cache.has(file)) {
      const paths = [resolve(root, 'benches/results', `${file}.json`), resolve(root, 'benches', `${file}.json`),
        // The rows the generated tables picked (tables.js): `picks`.
        resolve(root, 'book/generated/results', `${file}.json`)];
      const path = paths.find((p) => { try { readFileSync(p); return true; } catch { return false; } });
      if (!path) throw new Error(`no data file benches/results/${file}.json or benches/${file}.json`);
      cache.set(file, JSON.parse(readFileSync(path, 'utf8')));
    }
    return cache.get(file);
  };
}

/** The derived numbers (book/derived.json), read once. */
export function derivedNumbers(root = ROOT) {
  return JSON.parse(readFileSync(resolve(root, 'book/derived.json'), 'utf8'));
}

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven',
  'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];

/** A derived value as a page shows it: `fmt` as in the header of this file. */
export function formatDerived(value, fmt, key) {
  if (value === null || value === undefined) throw new Error(`no key "${key}" in book/derived.json`);
  if (typeof value === 'string') {
    if (fmt) throw new Error(`"${key}" is text; it takes no format`);
    return value;
  }
  if (typeof value === 'boolean') throw new Error(`"${key}" is a yes/no, not something to print`);
  if (Array.isArray(value)) {
    if (fmt === 'chain') return value.map((x) => formatDerived(x, 'tex', key)).join(' \\to ');
    return value.map((x) => formatDerived(x, fmt, key)).join(', ');
  }
  if (typeof value === 'object') {
    if (fmt) throw new Error(`"${key}" is a table; it takes no format`);
    return table(value.columns, value.rows);
  }
  if (fmt === 'tex') {
    if (!Number.isInteger(value)) throw new Error(`"${key}" = ${value} is not an integer (format tex)`);
    return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '\\,');
  }
  if (fmt === 'word') {
    if (!Number.isInteger(value) || value < 0 || value >= WORDS.length) throw new Error(`"${key}" = ${value} has no word`);
    return WORDS[value];
  }
  if (fmt === 'pct') return String(Math.round(value));
  if (!fmt) return Number.isInteger(value) ? format(value, 'int') : format(value, 'auto');
  return format(value, fmt);
}

function table(columns, rows) {
  const line = (cells) => `| ${cells.map((c) => String(c)).join(' | ')} |`;
  return [line(columns), `|${columns.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/** Replaces every {{num}} placeholder; a table must stand alone on its line. */
export function renderDerived(text, where, derived = derivedNumbers()) {
  return text.replace(NUM, (whole, key, fmt, offset) => {
    try {
      const value = derived[key];
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const before = text.lastIndexOf('\n', offset - 1) + 1;
        const after = text.indexOf('\n', offset);
        const line = text.slice(before, after < 0 ? undefined : after);
        if (line.trim() !== whole) throw new Error('a table stands alone on its line');
      }
      return formatDerived(value, fmt, key);
    } catch (e) {
      throw new Error(`${where}: ${whole}: ${e.message}`);
    }
  });
}

/** The {{num}} placeholders of a chapter: [whole, key, format]. */
export function derivedPlaceholders(text) {
  return [...text.matchAll(NUM)].map((m) => ({ whole: m[0], key: m[1], fmt: m[2] }));
}

/** Splits a placeholder body into tokens; a double-quoted value stays one token. */
function tokenize(body) {
  return [...body.matchAll(/(?:[^\s"]*"[^"]*"[^\s"]*)+|\S+/g)].map((m) => m[0]);
}

const unquote = (s) => s.replace(/^"(.*)"$/, '$1');
// A dotted path; a key with spaces is quoted: executables.0."Register Count".
const get = (obj, path) => (path.match(/"[^"]*"|[^.]+/g) ?? []).map(unquote)
  .reduce((o, k) => (o === null || o === undefined ? undefined : o[k]), obj);

function rowsOf(doc) {
  return doc.results ?? doc.figures ?? doc.entries ?? [];
}

function pickRow(doc, file, spec) {
  if (spec === '-') return doc;
  const rows = rowsOf(doc);
  let hits = rows.filter((r) => r.name === spec || r.id === spec);
  if (!hits.length && spec.includes('=')) {
    const filters = spec.match(/(?:[^,"]+|"[^"]*")+/g).map((kv) => {
      const i = kv.indexOf('=');
      return [kv.slice(0, i), unquote(kv.slice(i + 1))];
    });
    hits = rows.filter((r) => filters.every(([k, v]) => {
      const x = get(r, k) ?? get(r.params ?? {}, k);
      return x !== undefined && String(x) === v;
    }));
  }
  if (hits.length !== 1) {
    throw new Error(`${hits.length ? `${hits.length} rows` : 'no row'} of ${file} match "${spec}"`
      + `${hits.length ? ' (name one row)' : ''}`);
  }
  return hits[0];
}

function fieldOf(row, file, spec, field) {
  let v;
  if (field.startsWith('stage:')) {
    const name = field.slice(6);
    const p = row.params ?? {};
    v = (p.stages_ms_of_median_run ?? []).find((s) => s.stage === name)?.ms
      ?? (p.host_ms_of_median_run ?? []).find((h) => h.phase === name)?.ms;
  } else {
    v = get(row, field) ?? get(row.params ?? {}, field);
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    throw new Error(`${file} ${spec}: field "${field}" is ${v === undefined ? 'missing' : `not a number (${JSON.stringify(v)})`}`);
  }
  return v;
}

const grouped = (s) => s.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** Renders a number the way the book's tables do (tables.js `ms`), or in the format asked for. */
export function format(x, fmt = 'auto') {
  const a = Math.abs(x);
  switch (fmt) {
    case 'auto':
      if (a >= 1000) return grouped(String(Math.round(x)));
      return x.toFixed(a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
    case 'int':
      return grouped(String(Math.round(x)));
    case 'sci':
    case 'tex-sci': {
      const [m, e] = x.toExponential(2).split('e');
      const exp = String(Number(e));
      return fmt === 'sci' ? `${m}·10${[...exp].map((c) => SUPERSCRIPT[c]).join('')}` : `${m} \\cdot 10^{${exp}}`;
    }
    default:
      if (/^[0-4]$/.test(fmt)) return x.toFixed(Number(fmt));
      throw new Error(`unknown format "${fmt}" (auto, 0..4, int, sci, tex-sci)`);
  }
}

/** The value and text of one placeholder body, e.g. "gpu-msm-nvidia-h200 bn254/uniform/2^20/w29 median | 2",
 *  and the data it read: `terms`, one `{ file, doc, row, field, value }` per FILE ROW FIELD. */
export function evaluate(body, data = dataSource()) {
  const [expr, fmt = 'auto', ...extra] = body.split('|').map((s) => s.trim());
  if (extra.length) throw new Error('more than one "|"');
  const tokens = tokenize(expr);
  const terms = [];
  let i = 0;
  const term = () => {
    if (i < tokens.length && /^-?\d+(\.\d+)?$/.test(tokens[i])) return Number(tokens[i++]);
    if (i + 3 > tokens.length) throw new Error(`expected FILE ROW FIELD at "${tokens.slice(i).join(' ')}"`);
    const [file, spec, field] = tokens.slice(i, i + 3);
    i += 3;
    const doc = data(file);
    const row = pickRow(doc, file, spec);
    const value = fieldOf(row, file, spec, field);
    terms.push({ file, doc, row, field, value });
    return value;
  };
  let value = term();
  while (i < tokens.length) {
    const op = tokens[i++];
    if (!OPS.has(op)) throw new Error(`expected one of / * + - at "${op}"`);
    const rhs = term();
    value = op === '/' ? value / rhs : op === '*' ? value * rhs : op === '+' ? value + rhs : value - rhs;
  }
  return { value, text: format(value, fmt), terms };
}

/** Replaces every placeholder of a chapter; an error names the chapter and the placeholder. */
export function renderFigures(text, where, data = dataSource()) {
  return text.replace(PLACEHOLDER, (whole, body) => {
    try {
      return evaluate(body, data).text;
    } catch (e) {
      throw new Error(`${where}: ${whole}: ${e.message}`);
    }
  });
}

export function placeholders(text) {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[0]);
}

// The prose rules that keep hand-typed figures and the lab log out of the main chapters are in
// prose-lint.js; wasm-demo/tests/prose.test.js states and enforces them.

// ---------------------------------------------------------------------------------------------
// mdbook preprocessor: `node figures.js supports <renderer>` answers yes; otherwise read
// [context, book] from stdin and write the book back with every placeholder replaced.
// ---------------------------------------------------------------------------------------------
function preprocess() {
  if (process.argv[2] === 'supports') process.exit(0);
  const [context, book] = JSON.parse(readFileSync(0, 'utf8'));
  const data = dataSource(context.root);
  const derived = derivedNumbers(context.root);
  const errors = [];
  const main = [];
  const walk = (items) => {
    for (const item of items ?? []) {
      const ch = item.Chapter;
      if (!ch) continue;
      const name = (ch.source_path ?? ch.path ?? '').split('/').pop();
      if (name && !NOT_MAIN.has(name)) main.push([name, ch.content]);
      try {
        const where = ch.source_path ?? ch.path ?? ch.name;
        ch.content = renderFigures(renderDerived(ch.content, where, derived), where, data);
      } catch (e) {
        errors.push(e.message);
      }
      walk(ch.sub_items);
    }
  };
  walk(book.items ?? book.sections);
  // One value per quantity (quantities.js): a measured quantity the main chapters show from two rows
  // fails the build, as it fails the prose test.
  try {
    const twice = conflicts(renderings(main, { root: context.root, data }));
    if (twice.length) errors.push(`quantities shown with more than one value (lines count the page with its includes expanded):\n${describe(twice)}`);
  } catch (e) {
    errors.push(e.message);
  }
  if (errors.length) {
    process.stderr.write(`figures: ${errors.length} problem(s) with the book's placeholders:\n${errors.join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write(JSON.stringify(book));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) preprocess();
