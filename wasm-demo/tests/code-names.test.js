// Every name the book writes in backticks exists in the code (wasm-demo/bench/code-names.js says
// how each kind is resolved): Rust paths against the items, fields, variants and methods of the
// sources, files and folders against the tree, make targets against the Makefile, and every other
// identifier against the tokens of the Rust, WGSL and JavaScript sources and the keys of the data
// files. The sources are read as they are now, so a rename in the code fails here until the book
// follows. The bibliography is skipped: its names are those of the works it lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, codeIndex, unresolvedNames } from '../bench/code-names.js';

const BOOK = resolve(ROOT, 'book');
const chapters = readdirSync(BOOK).filter((f) => f.endsWith('.md') && f !== 'bibliography.md').sort();
const index = codeIndex();

test('the resolver finds what exists and refuses what does not', () => {
  const names = (text) => unresolvedNames(text, index).map((x) => x.span);
  // Real: a method, a field, a variant, a module item, a re-export through a crate, a macro-made
  // member, a file by its tail, a glob, a make target, a WGSL entry point, an npm function.
  assert.deepEqual(names('`Stage::bindings`, `RunOptions::chunk`, `Window::FromSize`, `window::window_size`, '
    + '`fastmsm_msm::count::Counted`, `Params::offset`, `msm/run.rs`, `benches/results/gpu-msm-<device>.json`, '
    + '`make wasm-wide`, `smvp_combine`, `createSession`, `Accumulation::{BatchAffine, Csr}`, `u32::MAX`'), []);
  // Invented: a type, a member, a word of the type's file that is not its member, a module item,
  // a file, a folder, a make target, an identifier.
  assert.deepEqual(names('`MsmOptions::chunk`, `RunOptions::chunks_per_wave`, `RunOptions::chunks`, `window::window_rule`, '
    + '`msm/plan_rules.rs`, `wasm-demo/relaxed`, `make wasm-relaxed-simd`, `stage_bindings`, `pad0`'),
  ['MsmOptions::chunk', 'RunOptions::chunks_per_wave', 'RunOptions::chunks', 'window::window_rule', 'msm/plan_rules.rs',
    'wasm-demo/relaxed', 'make wasm-relaxed-simd', 'stage_bindings', 'pad0']);
});

test('every code name in backticks in the book exists in the sources', () => {
  const found = chapters.flatMap((f) => unresolvedNames(readFileSync(resolve(BOOK, f), 'utf8'), index)
    .map((x) => `${f}:${x.line}: \`${x.span}\`: ${x.why}`));
  assert.deepEqual(found, [], `names the code does not have (fix the chapter, or the code's name changed):\n${found.join('\n')}`);
});
