// Every name the book writes in backticks must exist in the code: a Rust path (`Type::method`,
// `module::item`, `crate::module::Item`), a file or folder (`msm/run.rs`, `shaders/msm.wgsl`,
// `benches/results/gpu-msm-<device>.json`), a make target (`make wasm-wide`), or an identifier of
// the Rust, WGSL or JavaScript sources or of the data files (`smvp_combine`, `createSession`,
// `first_use`). This file reads the sources as they are when it runs (no rustdoc, no build), so
// a rename in the code fails the book's test until the chapters follow; wasm-demo/tests/
// code-names.test.js runs it over every chapter.
//
// What is checked, and how:
//  - Rust paths: the sources under crates/ and wasm-demo/src are scanned into modules, items
//    (fn, struct, enum, trait, const, static, type, mod, macro), the fields of structs, the
//    variants of enums, the methods and associated items of every `impl` (a trait's provided
//    methods count for the types that implement it) and `pub use` re-exports. Each `A::B` of a
//    path must be: B an item of module A, or a member of type or trait A. Paths that start with
//    another crate (std, wgpu, arkworks, …) are not ours and are left alone. A struct declared by
//    a macro (`Params`) has its members found in the file that invokes the macro.
//  - Files: the path exists, or is the end of a tracked path (`msm/run.rs`); `*` and `<…>` match
//    any characters, and at least one file must match. Build outputs (book/generated/, target/,
//    .bin/, dist/) are names of outputs, not sources, and are not looked up.
//  - Identifiers: every identifier-like word of a span (not a path, not a command) occurs as a
//    token of the sources (comments removed) or as a key of a JSON data file, or is on the short
//    list of names that belong to the platforms the book describes (WebAssembly instructions,
//    WebGPU and browser APIs), below.
// Spans inside fenced code, footnote definitions (a source's own names) and link texts that point
// outside the repository are a citation's words, not ours, and are skipped.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

// ---------------------------------------------------------------------------------------------
// Names that are not ours: the platforms' own (each with the reason it is in the book).
// ---------------------------------------------------------------------------------------------

/** First segments of Rust paths into other crates. */
const FOREIGN_CRATES = new Set(['std', 'core', 'alloc', 'wgpu', 'naga', 'ash', 'serde', 'serde_json', 'js_sys',
  'wasm_bindgen', 'wasm_bindgen_futures', 'web_sys', 'rayon', 'num_bigint', 'num_traits', 'bytemuck', 'pollster',
  'futures', 'criterion', 'thiserror', 'rand', 'ark_ec', 'ark_ff', 'ark_std', 'ark_bn254', 'ark_bls12_377',
  'ark_bls12_381', 'ark_ed_on_bls12_377', 'ark_serialize', 'ark_poly',
  // the primitive types' own items (`u32::MAX`, `f64::mul_add`)
  'u8', 'u16', 'u32', 'u64', 'u128', 'usize', 'i8', 'i16', 'i32', 'i64', 'i128', 'isize', 'f32', 'f64', 'bool', 'char', 'str']);

/** Identifiers of the platforms the book explains: checked against this list, not our code. */
const PLATFORM = [
  // WebAssembly instructions and proposals (`i64.mul_wide_u`, `f64x2.relaxed_madd`, …)
  /^(?:i8x16|i16x8|i32x4|i64x2|f32x4|f64x2|v128|i32|i64|f32|f64)\.[\w.]+$/,
  // WebGPU limits, features and calls; the DOM's and the JavaScript runtime's
  /^max[A-Z]\w*$/, /^min[A-Z]\w*$/, /^GPU[A-Z]\w*$/, /^create\w*Pipeline\w*$/, /^requestAdapter$/, /^requestDevice$/,
  /^crossOriginIsolated$/, /^SharedArrayBuffer$/, /^performance(?:\.now)?$/, /^now$/, /^navigator$/, /^gpu$/,
  /^TIMESTAMP_QUERY$/, /^SHADER_INT64$/, /^shaderInt64$/, /^MAP_WRITE$/, /^COPY_DST$/, /^COPY_SRC$/,
  /^writeBuffer$/, /^write_buffer$/, /^mapAsync$/, /^getMappedRange$/, /^unmap$/, /^queue$/,
  // Mesa, Chromium, Dawn and arkworks identifiers named where the book cites their sources
  /^LP_MAX_TGSI_LOOP_ITERATIONS$/, /^lp_exec_endloop$/, /^EnsureFlush$/, /^DawnControlClientHolder$/,
  /^GetCachedComputePipeline$/, /^AddOrGetCachedComputePipeline$/, /^widening_mul$/, /^ln_without_floats$/,
  /^VariableBaseMSM$/, /^mul_bigint$/, /^TdrDelay$/, /^reduce_buckets$/, /^add_affine_points$/,
  /^pBucketPointsReduction$/, /^mult_pippenger$/, /^msm_t$/, /^invoke$/, /^cudaMallocHost$/, /^cudaMalloc$/,
  /^nSafe$/, /^__multi3$/, /^add$/,
  // x86-64 instructions the compiled code is read in
  /^v?p(?:mul|unpck|shuf|add|sub|and|or|xor)\w*$/, /^imul$/,
];

const isPlatform = (name) => PLATFORM.some((re) => re.test(name));

// ---------------------------------------------------------------------------------------------
// The sources
// ---------------------------------------------------------------------------------------------

/** Tracked and new (not ignored) files, relative to the root. */
export function sourceFiles(root = ROOT) {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' });
  return out.split('\0').filter((f) => f && existsSync(resolve(root, f)));
}

/** Removes comments (and, with `strings`, the contents of string literals) from C-like source. */
function stripComments(text, { strings = false } = {}) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const n = text[i + 1];
    if (c === '/' && n === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (c === '/' && n === '*') {
      let depth = 1;
      i += 2;
      while (i < text.length && depth) {
        if (text[i] === '/' && text[i + 1] === '*') { depth += 1; i += 2; } else if (text[i] === '*' && text[i + 1] === '/') { depth -= 1; i += 2; } else i += 1;
      }
      out += ' ';
    } else if (c === 'r' && /^r#*"/.test(text.slice(i, i + 8)) && !/\w/.test(text[i - 1] ?? '')) {
      const hashes = text.slice(i + 1).match(/^#*/)[0];
      const end = text.indexOf(`"${hashes}`, i + 2 + hashes.length);
      const body = text.slice(i + 2 + hashes.length, end < 0 ? text.length : end);
      out += `"${strings ? body.replace(/[^\n]/g, ' ') : body}"`;
      i = end < 0 ? text.length : end + 1 + hashes.length;
    } else if (c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      const body = text.slice(i + 1, j);
      out += `${c}${strings ? body.replace(/[^\n]/g, ' ') : body}${c}`;
      i = j + 1;
    } else if (c === "'" && /^'(?:\\.|[^\\'\n])'/.test(text.slice(i, i + 4))) {
      const m = text.slice(i).match(/^'(?:\\.|[^\\'\n])'/)[0];
      out += strings ? `'${' '.repeat(m.length - 2)}'` : m;
      i += m.length;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** The crate's identifier (`fastmsm_msm`) for each Cargo package directory. */
function crates(root, files) {
  const out = new Map();
  for (const f of files.filter((x) => basename(x) === 'Cargo.toml')) {
    const toml = readFileSync(resolve(root, f), 'utf8');
    const pkg = toml.match(/\[package\][^[]*?\bname\s*=\s*"([^"]+)"/);
    if (!pkg) continue;
    const lib = toml.match(/\[lib\][^[]*?\bname\s*=\s*"([^"]+)"/);
    out.set(dirname(f), (lib?.[1] ?? pkg[1]).replaceAll('-', '_'));
  }
  return out;
}

/** The module path of a Rust file: `crates/msm-gpu/src/msm/plan.rs` → `msm::plan`. */
function moduleOf(file) {
  const m = file.match(/\/src\/(.*)\.rs$/) ?? file.match(/\/(?:tests|examples|benches)\/(.*)\.rs$/);
  if (!m) return [basename(file, '.rs')];
  const parts = m[1].split('/');
  if (['lib', 'main'].includes(parts[parts.length - 1])) parts.pop();
  else if (parts[parts.length - 1] === 'mod') parts.pop();
  return parts;
}

const KEYWORDS = new Set(['fn', 'struct', 'enum', 'trait', 'mod', 'const', 'static', 'type', 'union', 'impl', 'use',
  'pub', 'crate', 'super', 'self', 'Self', 'where', 'for', 'let', 'mut', 'unsafe', 'async', 'extern', 'dyn',
  'macro_rules', 'as', 'in', 'if', 'else', 'match', 'return', 'loop', 'while', 'move', 'ref']);

/** Scans one Rust file's items into `index`. */
function scanRust(text, file, module, index) {
  const code = stripComments(text, { strings: true });
  const tokens = [...code.matchAll(/[A-Za-z_]\w*|::|->|=>|[{}()[\]<>;:,#!=&*.]|\S/g)].map((m) => m[0]);
  const stack = [{ kind: 'mod', name: module[module.length - 1] ?? '' }];
  const moduleName = () => [...stack].reverse().find((s) => s.kind === 'mod').name;
  const addItem = (name, kind) => {
    const mod = moduleName();
    if (!index.modules.has(mod)) index.modules.set(mod, new Set());
    index.modules.get(mod).add(name);
    if (!index.items.has(name)) index.items.set(name, new Set());
    index.items.get(name).add(kind);
  };
  const typeEntry = (name) => {
    if (!index.types.has(name)) index.types.set(name, { members: new Set(), traits: new Set(), files: new Set() });
    return index.types.get(name);
  };
  const skipGenerics = (i) => {
    if (tokens[i] !== '<') return i;
    let depth = 0;
    for (; i < tokens.length; i += 1) {
      if (tokens[i] === '<') depth += 1;
      else if (tokens[i] === '>') { depth -= 1; if (!depth) return i + 1; } else if (tokens[i] === '->') depth += 0;
    }
    return i;
  };
  // The last identifier of a type path before its generics: `fastmsm_curves::sw::Xyzz<C>` → Xyzz.
  const pathEnd = (i) => {
    let name = null;
    while (i < tokens.length) {
      if (/^[A-Za-z_]\w*$/.test(tokens[i]) && !['dyn', 'mut', 'const'].includes(tokens[i])) name = tokens[i];
      else if (tokens[i] !== '::' && tokens[i] !== '&') break;
      i += 1;
    }
    return { name, next: skipGenerics(i) };
  };
  let pending = null; // the header whose `{` comes next
  let prev = ';';
  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i];
    const top = stack[stack.length - 1];
    if (top.kind === 'macro') {
      if (t === '{') top.depth += 1;
      else if (t === '}') { top.depth -= 1; if (!top.depth) stack.pop(); }
      prev = t;
      continue;
    }
    const itemStart = [';', '}', '{', ']', 'pub', ')', 'unsafe', 'async', 'const', 'default', 'extern'].includes(prev)
      || /^crate$|^super$|^self$/.test(prev);
    if (t === '{') {
      stack.push(pending ?? { kind: 'block' });
      pending = null;
    } else if (t === '}') {
      if (stack.length > 1) stack.pop();
    } else if (t === ';' && pending && pending.kind !== 'fn') {
      pending = null;
    } else if (top.kind === 'struct' && /^[A-Za-z_]\w*$/.test(t) && tokens[i + 1] === ':' && (top.parens ?? 0) === 0
      && ['{', ',', 'pub', ')', ']'].includes(prev)) {
      typeEntry(top.name).members.add(t);
    } else if (top.kind === 'enum' && /^[A-Za-z_]\w*$/.test(t) && ['{', ',', ']'].includes(prev) && !KEYWORDS.has(t)) {
      typeEntry(top.name).members.add(t);
      // Skip the variant's fields or discriminant.
      let depth = 0;
      for (i += 1; i < tokens.length; i += 1) {
        if (['(', '{', '['].includes(tokens[i])) depth += 1;
        else if ([')', '}', ']'].includes(tokens[i])) { if (!depth) { i -= 1; break; } depth -= 1; } else if (tokens[i] === ',' && !depth) { i -= 1; break; }
      }
      prev = ',';
      continue;
    } else if (t === 'macro_rules' && tokens[i + 1] === '!' && /^\w+$/.test(tokens[i + 2] ?? '')) {
      addItem(tokens[i + 2], 'macro');
      i += 2;
      pending = { kind: 'macro', depth: 0 };
      // the body's braces are counted by the macro context
      if (tokens[i + 1] === '{') { stack.push({ kind: 'macro', depth: 1 }); pending = null; i += 1; }
    } else if (['fn', 'struct', 'enum', 'trait', 'mod', 'union', 'type', 'static'].includes(t) && itemStart
      && /^[A-Za-z_]\w*$/.test(tokens[i + 1] ?? '')) {
      const name = tokens[i + 1];
      const owner = [...stack].reverse().find((s) => ['impl', 'trait', 'mod', 'fn'].includes(s.kind));
      if ((t === 'fn' || t === 'type') && owner && (owner.kind === 'impl' || owner.kind === 'trait')) {
        if (owner.kind === 'impl' && owner.self) typeEntry(owner.self).members.add(name);
        if (owner.kind === 'trait') index.traits.get(owner.name)?.add(name);
      } else {
        addItem(name, t);
      }
      if (t === 'struct' || t === 'enum' || t === 'union') { typeEntry(name).files.add(file); typeEntry(name).declared = true; }
      if (t === 'trait') {
        if (!index.traits.has(name)) index.traits.set(name, new Set());
        typeEntry(name).files.add(file);
      }
      if (t === 'type' && owner?.kind !== 'impl' && owner?.kind !== 'trait') typeEntry(name).files.add(file);
      pending = t === 'fn' ? { kind: 'fn' } : t === 'mod' ? { kind: 'mod', name }
        : t === 'trait' ? { kind: 'trait', name } : ['struct', 'union'].includes(t) ? { kind: 'struct', name }
          : t === 'enum' ? { kind: 'enum', name } : null;
      i += 1;
    } else if (t === 'const' && itemStart && /^[A-Za-z_]\w*$/.test(tokens[i + 1] ?? '') && tokens[i + 1] !== 'fn'
      && tokens[i + 2] === ':') {
      const name = tokens[i + 1];
      const owner = [...stack].reverse().find((s) => ['impl', 'trait', 'mod', 'fn'].includes(s.kind));
      if (owner?.kind === 'impl' && owner.self) typeEntry(owner.self).members.add(name);
      else if (owner?.kind === 'trait') index.traits.get(owner.name)?.add(name);
      else addItem(name, 'const');
      i += 1;
    } else if (t === 'impl' && itemStart) {
      let j = skipGenerics(i + 1);
      let first = pathEnd(j);
      let self = first.name;
      let trait = null;
      j = first.next;
      if (tokens[j] === 'for') {
        trait = self;
        const second = pathEnd(j + 1);
        self = second.name;
      }
      pending = { kind: 'impl', self, trait };
      if (self && trait) typeEntry(self).traits.add(trait);
      if (self) typeEntry(self).files.add(file);
    } else if (t === 'use' && prev === 'pub') {
      // pub use a::b::{C, D as E}; — the names it brings into this module
      let j = i + 1;
      const names = [];
      for (; j < tokens.length && tokens[j] !== ';'; j += 1) {
        if (/^[A-Za-z_]\w*$/.test(tokens[j]) && ['::', ';', ',', '}'].includes(tokens[j + 1]) && tokens[j + 1] !== '::') names.push(tokens[j]);
        if (tokens[j] === 'as') names.pop();
      }
      for (const nm of names) addItem(nm, 'use');
      i = j;
    } else if (top.kind === 'struct') {
      if (t === '(') top.parens = (top.parens ?? 0) + 1;
      else if (t === ')') top.parens -= 1;
    }
    prev = t;
  }
}

/** The identifiers of every source file (comments removed, string contents kept), the keys of the
 *  JSON data files, the make targets, and the Rust index. */
export function codeIndex(root = ROOT) {
  const files = sourceFiles(root);
  const tokens = new Set();
  const index = { modules: new Map(), items: new Map(), types: new Map(), traits: new Map(), crates: new Set(), files, dirs: new Set(), tokens, targets: new Set(), fileTokens: new Map() };
  for (const f of files) {
    for (let d = dirname(f); d !== '.'; d = dirname(d)) index.dirs.add(d);
  }
  const crateDirs = crates(root, files);
  for (const c of crateDirs.values()) index.crates.add(c);
  const code = /\.(rs|wgsl|js|mjs|cjs|ts|py|sh|toml|yml|yaml|cu|cuh|c|h|html|hbs)$|(^|\/)Makefile$|^\.ci\//;
  // Not the book's own checks, whose tests hold invented names on purpose.
  const checks = /^wasm-demo\/(?:tests\/(?:prose|code-names|quantities)\.test\.js|bench\/(?:code-names|prose-lint|figures|quantities)\.js)$/;
  for (const f of files.filter((x) => code.test(x) && !checks.test(x) && !/(^|\/)(vendor|generated)\//.test(x))) {
    let text;
    try { text = readFileSync(resolve(root, f), 'utf8'); } catch { continue; }
    const hashComments = /\.(py|sh|toml|yml|yaml)$|Makefile$|^\.ci\//.test(f);
    const bare = hashComments ? text.replace(/(^|\s)#(?![[!]).*$/gm, '$1') : stripComments(text);
    const own = new Set(bare.match(/[A-Za-z_$][\w$]*/g) ?? []);
    for (const t of own) tokens.add(t);
    index.fileTokens.set(f, own);
    if (f.endsWith('.rs')) scanRust(text, f, moduleOf(f), index);
    if (/(^|\/)Makefile$/.test(f)) {
      for (const m of text.matchAll(/^([\w.-]+(?:\s+[\w.-]+)*)\s*:(?!=)/gm)) for (const t of m[1].split(/\s+/)) index.targets.add(t);
    }
  }
  // Keys of the data files (`first_use`, `stats.batched_additions`).
  const keys = (v) => {
    if (Array.isArray(v)) v.forEach(keys);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { for (const t of k.match(/[A-Za-z_]\w*/g) ?? []) tokens.add(t); keys(x); }
  };
  for (const f of files.filter((x) => x.endsWith('.json') && /^(benches|book)\//.test(x))) {
    try { keys(JSON.parse(readFileSync(resolve(root, f), 'utf8'))); } catch { /* not JSON data */ }
  }
  // A trait's own methods count for the types that implement it.
  for (const entry of index.types.values()) {
    for (const t of entry.traits) for (const m of index.traits.get(t) ?? []) entry.members.add(m);
  }
  return index;
}

// ---------------------------------------------------------------------------------------------
// The book's spans
// ---------------------------------------------------------------------------------------------

const blank = (s) => s.replace(/[^\n]/g, ' ');

/** The backticked spans of a chapter a reader reads as our names, with their line numbers. */
export function codeSpans(chapter) {
  const text = chapter
    .replace(/^(```|~~~)[\s\S]*?^\1[^\n]*$/gm, blank)
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/\{\{#include[^}]*\}\}/g, blank)
    // Footnote definitions: a source's own names.
    .replace(/^\[\^[^\]]+\]:[\s\S]*?(?=\n\s*\n|\n\[\^|(?![\s\S]))/gm, blank)
    // Link texts that point outside the repository: the linked source's names.
    .replace(/\[((?:[^\]\n]|\n)*?)\]\((https?:[^)]*)\)/g, (m) => blank(m));
  const spans = [];
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    spans.push({ span: m[1], line: text.slice(0, m.index).split('\n').length });
  }
  return spans;
}

const RUST_PATH = /(?:[A-Za-z_]\w*)(?:::(?:[A-Za-z_]\w*|\{[^}]*\}))+/g;
const FILE_EXT = /\.(?:rs|wgsl|js|mjs|ts|json|md|toml|sh|py|html|cuh|cu|c|h|yml|yaml|wasm|tgz|lock|hbs)$/;
const OUTPUTS = /^(?:book\/generated\/|target\/|\.bin\/|\.gl\/|wasm-demo\/npm\/dist\/|node_modules\/|pkg\w*\/|book\/generated$)/;

/** Why a Rust path does not resolve, or null. */
function checkRustPath(path, index) {
  // `A::{B, C}` → A::B and A::C
  const group = path.match(/^(.*)::\{([^}]*)\}(.*)$/);
  if (group) {
    for (const part of group[2].split(',').map((s) => s.trim()).filter(Boolean)) {
      const why = checkRustPath(`${group[1]}::${part}${group[3]}`, index);
      if (why) return why;
    }
    return null;
  }
  let segs = path.split('::');
  while (['crate', 'self', 'super'].includes(segs[0])) segs = segs.slice(1);
  if (FOREIGN_CRATES.has(segs[0])) return null;
  if (index.crates.has(segs[0])) segs = segs.slice(1);
  if (!segs.length) return null;
  const known = (s) => index.modules.has(s) || index.types.has(s) || index.traits.has(s) || index.items.has(s);
  if (!known(segs[0])) return `\`${segs[0]}\` is not a module, type, trait or item of the sources`;
  for (let i = 0; i + 1 < segs.length; i += 1) {
    const [a, b] = [segs[i], segs[i + 1]];
    if (index.modules.get(a)?.has(b)) continue;
    const type = index.types.get(a);
    if (type?.members.has(b) || index.traits.get(a)?.has(b)) continue;
    // A type a macro declares or implements: its members are words of the files that name it
    // (a struct whose body was read has exactly the members read, plus its impls' items).
    if (type && !type.declared && [...type.files].some((f) => index.fileTokens.get(f)?.has(b))) continue;
    return `\`${b}\` is not ${type || index.traits.has(a) ? 'a member' : 'an item'} of \`${a}\``;
  }
  return null;
}

/** Why a file or folder name does not resolve, or null. */
function checkFile(name, index) {
  const path = name.replace(/[:#].*$/, '').replace(/\/$/, '');
  if (/^[~$/]/.test(path) || OUTPUTS.test(path) || /^https?:/.test(name)) return null;
  if (/[*<]/.test(path)) {
    const re = new RegExp(`(^|/)${path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\\\*|<[^>]*>/g, '[^/]*').replace(/\*/g, '[^/]*')}$`);
    return index.files.some((f) => re.test(f)) || [...index.dirs].some((d) => re.test(d)) ? null : `no file matches \`${name}\``;
  }
  if (existsSync(resolve(ROOT, path))) return null;
  const tail = `/${path}`;
  if (index.files.some((f) => f.endsWith(tail)) || [...index.dirs].some((d) => d.endsWith(tail))) return null;
  return `no file or folder \`${path}\``;
}

/** Identifier-like words of a span that are neither our tokens nor the platforms'. */
function unknownWords(span, index) {
  const bad = [];
  for (const m of span.replace(RUST_PATH, ' ').replace(/\b0x[0-9a-f_]+|\b\d[\w.]*/gi, ' ').matchAll(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)) {
    const word = m[0];
    if (isPlatform(word)) continue;
    for (const part of word.split('.')) {
      if (part.length < 3 && !/\d|_/.test(part)) continue; // x, y, n, ms: variables of the prose
      if (index.tokens.has(part) || isPlatform(part)) continue;
      bad.push(part);
    }
  }
  return bad;
}

/** The spans of `chapter` that name something the code does not have: `{ line, span, why }`. */
export function unresolvedNames(chapter, index) {
  const found = [];
  for (const { span, line } of codeSpans(chapter)) {
    const s = span.trim();
    if (!s || /\{\{/.test(s)) continue;
    const push = (why) => found.push({ line, span: s, why });
    // Commands: make targets are checked, the others' words are the tools' own.
    const make = s.match(/^make\s+([\w.-]+)/);
    if (make) { if (!index.targets.has(make[1])) push(`no make target \`${make[1]}\``); continue; }
    if (/^(?:(?:cargo|node|npm|npx|msm|mdbook|git|bash|python3?|curl)\s|OUT=|RUSTFLAGS=|\.\/|FASTMSM_\w+=)/.test(s) || /\s--?\w/.test(s)) continue;
    if (/^--?\w/.test(s)) continue; // a flag
    // A commit hash, or a kebab-case name (an EFD formula, a CLI value, a row of a data file):
    // not an identifier of the code.
    if (/^[0-9a-f]{7,40}$/.test(s) || /^[a-z0-9]+(?:-[a-z0-9^]+)+-?$/i.test(s)) continue;
    // Files and folders.
    if (!/\s/.test(s) && !s.includes('::') && (s.includes('/') || FILE_EXT.test(s)) && !/^\d/.test(s)) {
      const why = checkFile(s, index);
      if (why) push(why);
      continue;
    }
    for (const m of s.matchAll(RUST_PATH)) {
      const why = checkRustPath(m[0], index);
      if (why) push(`${m[0]}: ${why}`);
    }
    if (/^0x|^\d/.test(s)) continue; // numbers
    const words = unknownWords(s, index);
    if (words.length) push(`not in the sources: ${words.map((w) => `\`${w}\``).join(', ')}`);
  }
  return found;
}
