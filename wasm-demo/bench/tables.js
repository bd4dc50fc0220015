// Turns every benches/results/*.json into Markdown tables under book/generated/tables/, which the
// chapters {{#include}}: the book's numbers come only from committed result files.
// Run by `make book` before mdbook.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const resultsDir = resolve(root, 'benches/results');
const outDir = resolve(root, 'book/generated/tables');

const sci = (x) => Number(x).toExponential(2);

// What each generated table shows: [data file, row name, field] per measured value, written to
// book/generated/tables/rendered.json so that the book's check of one value per quantity
// (wasm-demo/bench/quantities.js) sees the tables' figures beside the prose's.
const rendered = {};
const note = (table, file, row, field = 'median') => { (rendered[table] ??= []).push([file, row, field]); };
const noteAll = (table, file, doc) => {
  for (const r of doc.results ?? []) {
    note(table, file, r.name);
    for (const f of ['speedup_vs_arkworks', 'speedup_vs_ark_ff', 'speedup_vs_ark_ff_wide', 'speedup_vs_one_thread', 'speedup_vs_montgomery']) {
      if (Number.isFinite(r.params?.[f])) note(table, file, r.name, f);
    }
  }
};
// A caption names the device and the data file; the commit and date of a run stay in its file and
// in the ledger's list of result files (book/ledger.md), not on the chapters' pages.
const header = (doc, file) => `*${doc.device.name} (${doc.device.backend}${doc.device.driver ? `, ${doc.device.driver}` : ''}`
  + `${doc.device.browser ? `, ${doc.device.browser}` : ''}); `
  + `${doc.suite === 'pipeline-stats' ? 'driver statistics, no result to verify'
    : doc.results.every((r) => r.verified) ? 'every row verified' : 'NOT every row verified'}. Data: \`benches/results/${file}\`.*`;

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
  const threadCounts = [...new Set(doc.results.map((r) => r.params.threads))].sort((a, b) => a - b);
  if (threadCounts.length > 1) {
    // A sweep over the number of threads: one row per count, one column per field and width.
    const cols = [...new Set(doc.results.map((r) => `${r.params.field} ${r.params.limb_bits}-bit`))];
    const cell = (t, c) => {
      const r = doc.results.find((x) => x.params.threads === t && `${x.params.field} ${x.params.limb_bits}-bit` === c);
      return r ? `${sci(r.median)}${r.verified ? '' : ' ✘'}` : '—';
    };
    return [`Montgomery products per second against the number of threads (median of ${doc.results[0].samples}; `
      + `threads × chained products per thread fixed; workgroup size ${doc.results[0].params.workgroup_size})`, '',
    table(['Threads', ...cols], threadCounts.map((t) => [t.toLocaleString('en'), ...cols.map((c) => cell(t, c))])), ''].join('\n');
  }
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
  'projective-r51': 'ours: projective buckets, 51-bit limbs (FMA, relaxed SIMD)',
  'batch-affine-r51': 'ours: batch-affine buckets, 51-bit limbs (FMA, relaxed SIMD)',
  'all-affine-r51': 'ours: all affine, 51-bit limbs (FMA, relaxed SIMD)',
  'projective-wide': 'ours: projective buckets, 64-bit limbs (128-bit multiply, wide arithmetic)',
  'batch-affine-wide': 'ours: batch-affine buckets, 64-bit limbs (128-bit multiply, wide arithmetic)',
  'all-affine-wide': 'ours: all affine, 64-bit limbs (128-bit multiply, wide arithmetic)',
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

/** msm-wasm-peer (ours beside the `montgomery` package in one page, wasm-demo/bench/peer-montgomery.js):
 *  one row per library, one column per n; each cell the median in ms, min–max, and montgomery's
 *  median over the row's (above 1: the row is faster). Below them, montgomery's own published
 *  figures (benches/anchors.json, sources with "platform": "wasm"), marked as another machine. */
function msmWasmPeer(doc) {
  const logns = [...new Set(doc.results.map((r) => r.params.log2_n))].sort((a, b) => a - b);
  const keys = [...new Set(doc.results.map((r) => r.name.split('/').pop()))];
  const order = (k) => (k === 'montgomery' ? 0 : k === 'arkworks' ? 2 : 1);
  keys.sort((a, b) => order(a) - order(b));
  const label = (r) => (r.params.library === 'montgomery' ? `\`montgomery\` ${doc.peer?.version ?? ''} \`msm\``
    : r.params.library === 'arkworks' ? MSM_LABELS.arkworks
      : `${MSM_LABELS[r.params.variant] ?? r.params.variant}${r.params.glv ? ', GLV' : ''}`);
  const cell = (r) => {
    if (!r || r.median === null) return '—';
    const x = r.params.speedup_vs_montgomery;
    return `${r.median.toFixed(0)} (${r.min.toFixed(0)}–${r.max.toFixed(0)})${x ? `, **${x.toFixed(2)}×**` : ''}${r.verified ? '' : ' ✘'}`;
  };
  const rows = keys.map((k) => {
    const any = doc.results.find((r) => r.name.endsWith(`/${k}`));
    return [label(any), ...logns.map((l) => cell(doc.results.find((r) => r.params.log2_n === l && r.name.endsWith(`/${k}`))))];
  });
  const anchors = JSON.parse(readFileSync(resolve(root, 'benches/anchors.json'), 'utf8'));
  const published = Object.entries(anchors.sources).filter(([, s]) => s.platform === 'wasm' && s.published !== false);
  const curve = doc.results[0]?.params.curve;
  for (const [id, source] of published) {
    const figures = anchors.figures.filter((f) => f.source === id && f.curve === curve);
    if (!figures.length) continue;
    rows.push([`${source.short}: ${figures[0].device}, *another machine*`,
      ...logns.map((l) => { const f = figures.find((x) => x.log_n === l); return f ? String(f.ms) : '—'; })]);
  }
  const samples = doc.results[0]?.samples;
  const load = doc.params?.host_load_1min;
  const windows = logns.map((l) => {
    const ws = doc.results.filter((r) => r.params.log2_n === l && r.params.window).map((r) => r.params.window);
    return ws.length ? `2^${l}: c = ${[...new Set(ws)].join('/')}` : null;
  }).filter(Boolean).join('; ');
  return [`Milliseconds per ${curve === 'bls12-381' ? 'BLS12-381' : curve} MSM, both libraries in one worker of one page, one thread: `
    + `median (min–max) of ${samples} interleaved runs on the same seeded input, and in bold montgomery's median over the row's `
    + '(above 1: faster than montgomery); every result equal to arkworks\'. '
    + `${windows ? `Our windows: ${windows}. ` : ''}`
    + `${load ? `Host load average ${load.join(' → ')} on ${doc.device.cores} shared cores. ` : ''}`
    + `The last row${published.length > 1 ? 's are' : ' is'} the peer's own published figures (ms) from \`benches/anchors.json\`, `
    + 'measured on another machine and in another runtime: context, not a comparison.', '',
  table(['Run', ...logns.map((l) => `2^${l}`)], rows)].join('\n');
}

/** pipeline-stats: what the Vulkan driver made of each MSM stage (examples/pipeline_stats.rs). */
function pipelineStats(doc) {
  // NVIDIA reports local memory with a constant 2^36 added; the rest is the bytes per invocation.
  const local = (v) => (v === undefined ? '—' : String(v % 2 ** 32));
  const kb = (v) => (v === undefined ? '—' : (v / 1000).toFixed(0));
  // Files from `--edits` runs name each row's source edit (msm_bench's edits): a column then.
  const edited = doc.results.some((r) => (r.edit ?? 'none') !== 'none');
  const rows = doc.results.map((r) => {
    const e = r.executables?.[0] ?? {};
    const what = [r.curve, `${r.limb_bits} (${r.limbs})`, ...(edited ? [r.edit ?? 'none'] : []), `\`${r.entry}\``];
    if (r.error) return [...what, 'failed to build', '', '', ''];
    return [...what, e['Register Count'] ?? '—', kb(e['Binary Size']), local(e['Local Memory Size']), e['Shared Memory Size'] ?? '—'];
  });
  return table(['Curve', 'Limb bits (limbs)', ...(edited ? ['Edit'] : []), 'Kernel', 'Registers', 'Code (kB)', 'Local memory (B)', 'Shared memory (B)'], rows);
}

/** mont-wasm (every Montgomery variant in the browser, wasm-demo/bench/mont-wasm.js): variants
 *  down, fields across; each cell the median ns per dependent product and the speed-up over
 *  ark-ff measured in the same run; rows from the wide-arithmetic package (`…+wide`) also give
 *  the speed-up over ark-ff built with wide arithmetic, the second baseline. */
function montWasm(doc) {
  const fields = [...new Set(doc.results.map((r) => r.params.field))];
  const variants = [...new Set(doc.results.map((r) => r.params.variant))];
  variants.sort((x, y) => (x === 'ark-ff' ? -1 : y === 'ark-ff' ? 1 : 0));
  const rows = variants.map((v) => {
    const any = doc.results.find((r) => r.params.variant === v);
    const label = `\`${v}\`${any.params.limb_bits ? ` (${any.params.limb_bits}-bit)` : ''}`;
    return [label, ...fields.map((f) => {
      const r = doc.results.find((x) => x.params.field === f && x.params.variant === v);
      if (!r) return '—';
      const x = r.params.speedup_vs_ark_ff;
      const bold = (y) => (y >= 1 ? `**${y.toFixed(2)}×**` : `${y.toFixed(2)}×`);
      const w = r.params.speedup_vs_ark_ff_wide;
      const wide = v === 'ark-ff+wide' || !Number.isFinite(w) ? '' : ` (${bold(w)} ark-ff+wide)`;
      return `${r.median}${v === 'ark-ff' || !Number.isFinite(x) ? '' : `, ${bold(x)}`}${wide}${r.verified ? '' : ' ✘'}`;
    })];
  });
  const any = doc.results[0];
  const hasWide = doc.results.some((r) => Number.isFinite(r.params.speedup_vs_ark_ff_wide));
  const flags = doc.params?.browser_flags?.length ? ` Browser flags: ${doc.params.browser_flags.map((f) => `\`${f}\``).join(' ')}.` : '';
  return [`Nanoseconds per product in a chain of ${any.params.iterations.toLocaleString('en')} dependent products (median of `
    + `${any.samples}), and the speed-up over ark-ff in the same run (bold where faster)`
    + `${hasWide ? '; rows ending in `+wide` come from the package built with wide arithmetic, and the speed-up in brackets is over ark-ff built the same way' : ''}`
    + `; every chain's result checked.${flags}`, '',
  table(['Variant', ...fields], rows)].join('\n');
}

/** The Montgomery chapter's wide-arithmetic table (mont-wasm-wide.md, from the newest mont-wasm run
 *  that has `+wide` rows): each 64-bit product with and without the 128-bit multiply, and the
 *  fastest products without it (reduced radix, Emmart on relaxed SIMD) for the limb choice. */
const WIDE_TABLE_ROWS = ['ark-ff', 'ark-ff+wide', 'cios', 'cios+wide', 'cios-no-carry', 'cios-no-carry+wide',
  'cios-no-carry-lazy', 'cios-no-carry-lazy+wide', 'fips-wide', 'fips-wide+wide', 'reduced-radix-30', 'reduced-radix-30-lanes', 'emmart-fma-relaxed'];
function montWasmWide(doc) {
  if (!doc.results.some((r) => r.params.variant.endsWith('+wide'))) return null;
  const results = WIDE_TABLE_ROWS.flatMap((v) => doc.results.filter((r) => r.params.variant === v));
  return montWasm({ ...doc, results });
}

/** msm-wasm-threads (the cpu-threads widget's task): curve and n down, threads across, one row per mode. */
function msmWasmThreads(doc) {
  const threads = [...new Set(doc.results.map((r) => r.params.threads))].sort((a, b) => a - b);
  const keys = [...new Set(doc.results.map((r) => `${r.params.curve}|${r.params.log2_n}|${r.params.mode}`))];
  const rows = keys.map((k) => {
    const [curve, logn, mode] = k.split('|');
    const of = (t) => doc.results.find((r) => r.params.curve === curve && String(r.params.log2_n) === logn
      && r.params.mode === mode && r.params.threads === t);
    return [curve, `2^${logn}`, mode === 'shared' ? 'shared memory' : 'message passing', ...threads.map((t) => {
      const r = of(t);
      return r ? `${r.median.toFixed(0)} ms (${r.params.speedup_vs_one_thread.toFixed(2)}×)` : '—';
    })];
  });
  return [`Milliseconds per MSM (median) and speed-up over one thread, by threads; ${doc.device.cores} cores.`, '',
    table(['Curve', 'n', 'Mode', ...threads.map((t) => `${t} thread${t > 1 ? 's' : ''}`)], rows)].join('\n');
}

/** msm-wasm-peer-threads (Yrrid + Snarkify's ZPrize 2023 entry, our npm package and the threads
 *  widget in one page, wasm-demo/bench/peer-yrrid.js): n and threads down, one column per
 *  contender (median ms, min–max), then each of ours as the entry's median over its own (above 1:
 *  ours is faster), measured in the same rounds. */
const PEER_COLUMNS = [
  ['yrrid-snarkify-2023', 'Yrrid + Snarkify 2023'],
  ['npm-package', 'npm package'],
  ['npm-package-kept', 'npm package, points kept'],
  ['npm-package-before', 'npm package, build before'],
  ['threads-widget', 'threads widget'],
  ['threads-widget-glv', 'threads widget, GLV'],
];
function msmWasmPeerThreads(doc) {
  const present = PEER_COLUMNS.filter(([k]) => doc.results.some((r) => r.params.library === k));
  const ours = present.filter(([k]) => k !== 'yrrid-snarkify-2023' && doc.results.some((r) => r.params.library === k && r.params.speedup_vs_yrrid));
  const keys = [...new Set(doc.results.map((r) => `${r.params.log2_n}|${r.params.threads}`))];
  const rows = keys.map((key) => {
    const [logn, t] = key.split('|').map(Number);
    const of = (k) => doc.results.find((r) => r.params.log2_n === logn && r.params.threads === t && r.params.library === k);
    const ms = (r) => (r && r.median !== null ? `${r.median.toFixed(0)} (${r.min.toFixed(0)}–${r.max.toFixed(0)})${r.verified ? '' : ' ✘'}` : '—');
    const x = (r) => (r?.params.speedup_vs_yrrid ? `${r.params.speedup_vs_yrrid.toFixed(2)}×` : '—');
    return [`2^${logn}`, t, ...present.map(([k]) => ms(of(k))), ...ours.map(([k]) => x(of(k)))];
  });
  const load = doc.params.host_load_1min;
  const loadText = load?.min !== undefined ? ` Host load average ${load.min}–${load.max} (mean ${load.mean}) on ${doc.device.cores} shared cores.`
    : load?.before !== undefined ? ` Host load average ${load.before} before and ${load.after} after, ${doc.device.cores} cores.` : '';
  return [`${doc.params.curve?.toUpperCase?.() ?? 'BLS12-377'}: milliseconds per MSM, median (min–max) of ${doc.results[0]?.samples} interleaved rounds in one page, `
    + `then the entry's median over ours (above 1: ours is faster), from the same rounds; every result checked against arkworks'.${loadText}`, '',
  table(['n', 'Threads', ...present.map(([, l]) => `${l} (ms)`), ...ours.map(([, l]) => `entry / ${l}`)], rows)].join('\n');
}

const formatters = { 'msm-wasm-peer-threads': msmWasmPeerThreads, 'msm-wasm-threads': msmWasmThreads, 'msm-wasm-peer': msmWasmPeer, 'pipeline-stats': pipelineStats, 'wgsl-mont': wgslMont, 'msm-wasm': msmWasm, 'msm-native': msmWasm, 'mont-wasm': montWasm };
// Suites whose newest result file is also written under a fixed name, for the chapters to include.
const latestAlias = { 'msm-wasm': 'msm-wasm.md', 'msm-wasm-peer': 'msm-wasm-peer.md', 'msm-native': 'msm-native.md', 'mont-wasm': 'mont-wasm.md' };

/** wgsl-mont with two workgroup sizes: the rate at the first size over the rate at the second,
 *  per field and limb width, and a one-line summary for the portable widths (12 to 16 bits). */
function wgslMontWorkgroups(doc) {
  const sizes = [...new Set(doc.results.map((r) => r.params.workgroup_size))].sort((a, b) => a - b);
  const threads = new Set(doc.results.map((r) => r.params.threads));
  if (sizes.length !== 2 || threads.size !== 1) return null;
  const [a, b] = sizes;
  const widths = [...new Set(doc.results.map((r) => r.params.limb_bits))].sort((x, y) => x - y);
  const fields = [...new Set(doc.results.map((r) => r.params.field))];
  const rate = (f, w, wg) => doc.results.find((r) => r.params.field === f && r.params.limb_bits === w && r.params.workgroup_size === wg)?.median;
  const ratios = [];
  const rows = fields.map((f) => [f, ...widths.map((w) => {
    const x = rate(f, w, a);
    const y = rate(f, w, b);
    if (!x || !y) return '—';
    ratios.push({ w, r: x / y });
    return (x / y).toFixed(2);
  })]);
  const portable = ratios.filter((x) => x.w <= 16);
  const ahead = portable.filter((x) => x.r > 1).length;
  const spread = Math.max(...portable.map((x) => Math.max(x.r, 1 / x.r)));
  return [`Products per second with workgroups of ${a} divided by the same with ${b} (above 1: ${a} is faster).`, '',
    table(['Field', ...widths.map((w) => `${w}-bit`)], rows), '',
    `*Limb widths up to 16 bits: ${a} is faster in ${ahead} of ${portable.length} cases, and the faster size is up to `
    + `${spread.toFixed(2)}× the slower. Data: \`benches/results/${doc.file}\`.*`].join('\n');
}

/** The first WGSL product (loops over local arrays) against the straight-line one, per field and
 *  width at the first version's workgroup size: the gain, and its range for the portable widths
 *  that carry lazily (12 to 15 bits) and for 16 bits (CIOS), so the prose can cite the range. */
function wgslMontGain(before, after, beforeFile, afterFile) {
  const wg = before.results[0].params.workgroup_size;
  const fields = [...new Set(before.results.map((r) => r.params.field))];
  const widths = [...new Set(before.results.map((r) => r.params.limb_bits))].sort((a, b) => a - b);
  const rate = (doc, f, w) => doc.results.find((r) => r.params.field === f && r.params.limb_bits === w
    && (r.params.workgroup_size ?? wg) === wg)?.median;
  const gains = [];
  const rows = fields.map((f) => [f, ...widths.map((w) => {
    const x = rate(before, f, w);
    const y = rate(after, f, w);
    if (!x || !y) return '—';
    gains.push({ w, g: y / x });
    return `${(y / x).toFixed(1)}×`;
  })]);
  const span = (gs) => (gs.length ? `${Math.min(...gs.map((x) => x.g)).toFixed(1)}× to ${Math.max(...gs.map((x) => x.g)).toFixed(1)}×` : '—');
  return [`Products per second of the straight-line product divided by those of the first version (loops over local arrays), workgroup size ${wg}.`, '',
    table(['Field', ...widths.map((w) => `${w}-bit`)], rows), '',
    `*12 to 15 bits: ${span(gains.filter((x) => x.w < 16))}; 16 bits: ${span(gains.filter((x) => x.w === 16))}. `
    + `Data: \`benches/results/${beforeFile}\` and \`benches/results/${afterFile}\`.*`].join('\n');
}

mkdirSync(outDir, { recursive: true });
const newest = {};
for (const file of readdirSync(resultsDir).filter((f) => f.endsWith('.json'))) {
  const doc = JSON.parse(readFileSync(resolve(resultsDir, file), 'utf8'));
  const body = (formatters[doc.suite] ?? generic)(doc);
  const text = `${body}\n\n${header(doc, file)}\n`;
  writeFileSync(resolve(outDir, `${basename(file, '.json')}.md`), text);
  noteAll(`${basename(file, '.json')}.md`, file, doc);
  if (doc.suite === 'wgsl-mont') {
    const wg = wgslMontWorkgroups({ ...doc, file });
    if (wg) {
      writeFileSync(resolve(outDir, `${basename(file, '.json')}-workgroups.md`), `${wg}\n`);
      noteAll(`${basename(file, '.json')}-workgroups.md`, file, doc);
    }
  }
  if (doc.suite === 'wgsl-mont' && file.endsWith('-v1-loops.json')) {
    const now = resolve(resultsDir, file.replace('-v1-loops', ''));
    const gain = wgslMontGain(doc, JSON.parse(readFileSync(now, 'utf8')), file, basename(now));
    writeFileSync(resolve(outDir, `${basename(file, '.json')}-gain.md`), `${gain}\n`);
    noteAll(`${basename(file, '.json')}-gain.md`, file, doc);
    noteAll(`${basename(file, '.json')}-gain.md`, basename(now), JSON.parse(readFileSync(now, 'utf8')));
  }
  // The fixed-name tables show what a browser does by default: runs with a browser flag (wide
  // arithmetic) are left to the tables that name them (mont-wasm-wide.md, their own files).
  const flagged = doc.params?.browser_flags?.length > 0;
  if (latestAlias[doc.suite] && !flagged && !(newest[doc.suite]?.date > doc.date)) newest[doc.suite] = { date: doc.date, text, file, doc };
  const wide = doc.suite === 'mont-wasm' ? montWasmWide(doc) : null;
  if (wide && !(newest.wide?.date > doc.date)) {
    const rows = { ...doc, results: WIDE_TABLE_ROWS.flatMap((v) => doc.results.filter((r) => r.params.variant === v)) };
    newest.wide = { date: doc.date, text: `${wide}\n\n${header(doc, file)}\n`, alias: 'mont-wasm-wide.md', file, doc: rows };
  }
}
for (const [suite, { text, alias, file, doc }] of Object.entries(newest)) {
  writeFileSync(resolve(outDir, alias ?? latestAlias[suite]), text);
  noteAll(alias ?? latestAlias[suite], file, doc);
}

// ---------------------------------------------------------------------------------------------
// The Results chapter (book/results.md): GPU MSM timings from every benches/results/gpu-msm-*.json,
// beside the published anchors of benches/anchors.json and the optimisation ledger of
// benches/experiments.json. Writes Markdown tables to book/generated/tables/results/ (included by
// the chapter, readable without JavaScript) and the same figures as one JSON file,
// book/generated/results/gpu-msm.json, that book/widgets/results-charts.js draws.
//
// Files named gpu-msm-experiment-*.json are experiments (a fixed moment of the history); every
// other gpu-msm-*.json is a current result (the benchmark protocol's output, replaced by each new
// run), grouped by the device it names. Nothing here depends on which sizes, curves, limb widths
// or stages a file holds; missing fields leave cells empty ('—') rather than failing.
// ---------------------------------------------------------------------------------------------
{
  const tablesDir = resolve(outDir, 'results');
  const dataDir = resolve(root, 'book/generated/results');
  // Written afresh on every build, so that no table of a removed result file lingers.
  rmSync(tablesDir, { recursive: true, force: true });
  mkdirSync(tablesDir, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
  const optionalJson = (path) => { try { return readJson(path); } catch { return null; } };

  const CURVE_NAMES = { 'bls12-377': 'BLS12-377', bn254: 'BN254', 'bls12-381': 'BLS12-381', 'ed-on-bls12-377': 'Ed-on-BLS12-377' };
  // Numbers that follow from the code, as the crates compute them (book/derived.json, kept current
  // by crates/msm-gpu/tests/book_numbers.rs): the bits of each curve's r (the GPU plan asks for
  // ⌈(b + 1)/c⌉ windows) and the Montgomery products of a mixed XYZZ + affine addition (SMVP) and
  // of a general XYZZ addition (running sums), for the floor and window tables.
  const derived = readJson(resolve(root, 'book/derived.json'));
  const R_BITS = Object.fromEntries(Object.keys(CURVE_NAMES).map((c) => [c, derived[`scalar.bits.${c}`]]));
  const MIXED_ADD_PRODUCTS = derived['ops.xyzz.madd.products'];
  const GENERAL_ADD_PRODUCTS = derived['ops.xyzz.add.products'];
  // The bound the non-uniform scalars are held to: their time within this factor of uniform ones'.
  const PATTERN_BOUND = 1.5;
  const curveName = (c) => CURVE_NAMES[c] ?? c;
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const pow2 = (k) => (Number.isInteger(k) ? `2^${k}` : String(k));
  /** Milliseconds with three or four significant figures, thousands separated by a space. */
  const ms = (x) => {
    if (x === null || x === undefined || !Number.isFinite(x)) return '—';
    if (x >= 1000) return Math.round(x).toLocaleString('en').replaceAll(',', ' ');
    if (x >= 100) return x.toFixed(0);
    if (x >= 10) return x.toFixed(1);
    if (x >= 1) return x.toFixed(2);
    return x.toFixed(3);
  };
  const ratio = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const code = (s) => `\`${s}\``;
  const toMs = (x, unit) => (Number.isFinite(x) ? (unit === 's' ? x * 1e3 : unit === 'us' || unit === 'µs' ? x / 1e3 : x) : null);

  // --- every gpu-msm file, its rows normalised ---
  const files = readdirSync(resultsDir).filter((f) => /^gpu-msm-.*\.json$/.test(f)).sort().map((file) => {
    const doc = optionalJson(resolve(resultsDir, file));
    if (!doc || !Array.isArray(doc.results)) return null;
    const experiment = file.startsWith('gpu-msm-experiment-');
    const device = doc.device?.name ?? 'unknown device';
    const rows = doc.results.map((r) => {
      const p = r.params ?? {};
      const n = Number.isFinite(p.n) ? p.n : Number.isFinite(p.log_n) ? 2 ** p.log_n : null;
      const logN = Number.isFinite(p.log_n) ? p.log_n : n ? Math.log2(n) : null;
      const stages = (Array.isArray(p.stages_ms_of_median_run) ? p.stages_ms_of_median_run : [])
        .filter((s) => s && Number.isFinite(s.ms)).map((s) => ({ name: String(s.stage), ms: s.ms }));
      const host = (Array.isArray(p.host_ms_of_median_run) ? p.host_ms_of_median_run : [])
        .filter((h) => h && Number.isFinite(h.ms)).map((h) => ({ name: String(h.phase), ms: h.ms }));
      return {
        file, device, name: String(r.name ?? ''), curve: p.curve, n, logN, limb: p.limb_bits, batches: p.batches,
        pattern: p.pattern ?? 'uniform', edit: p.edit ?? 'none', c: p.window_bits, chunk: p.smvp_chunk, segments: p.segments, firstBatch: p.first_batch,
        levels: p.smvp_levels, median: toMs(r.median, r.unit), min: toMs(r.min, r.unit), max: toMs(r.max, r.unit),
        samples: r.samples, verified: r.verified === true, stages, host,
        // `host-arrays` (older files say nothing: the same), `resident` (bases kept on the GPU, with
        // `copies` precomputed multiples of each), `batch-packed` / `batch-sequential` (B MSMs).
        mode: p.mode ?? 'host-arrays', copies: p.copies ?? 1, basesBytes: p.bases_bytes, uploadMs: p.upload_bases_ms,
        msms: p.msms, msmPoints: p.msm_points, perPass: p.packed_msms_per_pass,
      };
    }).filter((r) => r.curve && r.n && Number.isFinite(r.median));
    return { file, doc, experiment, device, rows, commit: doc.commit ?? 'unknown', date: doc.date ?? 'unknown',
      about: doc.experiment ?? doc.note ?? null };
  }).filter(Boolean);
  // Ours, natively: not the page's runs (suite gpu-msm-browser) nor a peer library's (gpu-msm-sppark).
  // A browser run's `native/…` rows are native runs of the same protocol, measured beside the
  // page: they count like any other (the newest run of a configuration is the one shown).
  const current = files.filter((f) => !f.experiment && ['gpu-msm', 'gpu-msm-browser'].includes(f.doc.suite ?? 'gpu-msm'))
    .map((f) => (f.doc.suite === 'gpu-msm-browser' ? { ...f, rows: f.rows.filter((r) => r.name.startsWith('native/')) } : f))
    .filter((f) => f.rows.length);
  const devices = [...new Set(current.map((f) => f.device))];
  const byName = Object.fromEntries(files.map((f) => [f.file, f]));

  /** Tokens of a row name that force the plan (a window `c16`, a chunk `k264`, batches `b2`, a
   *  first batch `f…`, segments `s…`, a workgroup size, a batch size, an upload path…): a run of
   *  the plan's own choices has none. */
  const FORCED = /^(?:c\d+|k\d+|b\d+|f\d+|s\d+|wg\d+|batch=.*|upload=.*|wait-after-upload|limits=.*)$/;
  const planDefault = (r) => !r.name.split('/').some((t) => FORCED.test(t));
  /** The fastest of `rows`, verified runs first: what a table that says "fastest" shows. */
  const fastest = (rows) => {
    const pool = rows.some((r) => r.verified) ? rows.filter((r) => r.verified) : rows;
    return pool.reduce((a, b) => (b.median < a.median ? b : a), pool[0]);
  };
  /** Among runs of one configuration (from one or several files), the one a table shows: a run
   *  of the plan's own choices where there is one; of those, the newest (a new run of the protocol
   *  replaces the one before, so a configuration shows one value wherever the book shows it), and
   *  of the newest, the fastest verified. */
  const plain = (rows) => {
    const own = rows.some(planDefault) ? rows.filter(planDefault) : rows;
    const dateOf = (r) => String(byName[r.file]?.date ?? '');
    const newest = own.reduce((d, r) => (dateOf(r) > d ? dateOf(r) : d), '');
    return fastest(own.filter((r) => dateOf(r) === newest));
  };
  const isHost = (r) => r.mode === 'host-arrays';
  const isDefault = (r) => r.pattern === 'uniform' && r.edit === 'none' && isHost(r);
  const stageMs = (row, name) => row.stages.find((s) => s.name === name)?.ms ?? row.host.find((h) => h.name === name)?.ms ?? null;
  const stageOrder = (rows) => [...new Set(rows.flatMap((r) => r.stages.map((s) => s.name)))];
  const hostOrder = (rows) => [...new Set(rows.flatMap((r) => r.host.map((h) => h.name)))];
  const unique = (xs) => [...new Set(xs)];
  const byNumber = (a, b) => a - b;

  /** Per device and curve: one series per limb width (uniform scalars, no shader edit), and the
   *  fastest of them at each n. */
  function scaling(rows) {
    const out = {};
    for (const curve of unique(rows.map((r) => r.curve))) {
      const mine = rows.filter((r) => r.curve === curve && isDefault(r));
      const limbs = unique(mine.map((r) => r.limb)).sort(byNumber);
      const series = limbs.map((limb) => {
        const these = mine.filter((r) => r.limb === limb);
        const points = unique(these.map((r) => r.n)).sort(byNumber).map((n) => plain(these.filter((r) => r.n === n)));
        return { limb, points };
      });
      const ns = unique(mine.map((r) => r.n)).sort(byNumber);
      const best = ns.map((n) => fastest(series.map((s) => s.points.find((p) => p.n === n)).filter(Boolean)));
      if (ns.length) out[curve] = { series, best };
    }
    return out;
  }

  /** The median run split into GPU stages, the GPU phase's time outside the stages, the other host
   *  phases, and whatever the phases do not account for. */
  function breakdown(row) {
    const segments = row.stages.map((s) => ({ label: s.name, kind: 'stage', ms: s.ms }));
    const stagesTotal = sum(row.stages.map((s) => s.ms));
    const gpu = row.host.find((h) => h.name === 'gpu');
    if (gpu) segments.push({ label: 'gpu phase outside the stages', kind: 'gap', ms: Math.max(0, gpu.ms - stagesTotal) });
    for (const h of row.host) if (h.name !== 'gpu') segments.push({ label: `host: ${h.name}`, kind: 'host', ms: h.ms });
    const rest = row.median - sum(segments.map((s) => s.ms));
    segments.push({ label: row.host.length ? 'not accounted for' : 'host and gaps (not split)', kind: 'rest', ms: Math.max(0, rest) });
    return segments;
  }

  // --- published anchors and targets ---
  const anchorsDoc = optionalJson(resolve(root, 'benches/anchors.json')) ?? { sources: {}, figures: [] };
  const sources = anchorsDoc.sources ?? {};
  // A figure the book may show needs a public source: sources marked "published": false stay out.
  // Figures of WebAssembly peers ("platform": "wasm") belong to the CPU tables (msm-wasm-peer).
  const figures = (anchorsDoc.figures ?? []).filter((f) => f.curve && Number.isFinite(f.log_n) && Number.isFinite(f.ms)
    && sources[f.source]?.published !== false && sources[f.source]?.platform !== 'wasm');
  const anchorFigures = figures.filter((f) => f.source !== 'target');
  const targets = figures.filter((f) => f.source === 'target');
  const anchorKey = (f) => `${f.source}|${f.device}`;
  const anchorLabel = (f) => [sources[f.source]?.short ?? sources[f.source]?.name ?? f.source, f.device].filter(Boolean).join(', ');
  const asGiven = (f) => `${f.approximate ? '≈ ' : ''}${f.ms}`;
  const anchorColumns = unique(anchorFigures.map(anchorKey)).map((k) => anchorFigures.find((f) => anchorKey(f) === k));

  const perDevice = devices.map((device) => {
    const rows = current.filter((f) => f.device === device).flatMap((f) => f.rows);
    return { device, rows, files: current.filter((f) => f.device === device), scaling: scaling(rows) };
  });
  const allCurves = unique([...perDevice.flatMap((d) => Object.keys(d.scaling)), ...figures.map((f) => f.curve)]);
  // Captions of the tables the Results chapter includes name their files; commits and dates are
  // in the files and in the ledger's list (gpu-msm-files.md below).
  const provenance = (d) => d.files.map((f) => `${code(`benches/results/${f.file}`)} (`
    + `${f.rows.every((r) => r.verified) ? 'every row verified' : 'NOT every row verified'})`).join('; ');
  const written = {};
  const emit = (name, text) => { written[name] = `${text.trim()}\n`; };
  const noCurrent = '*No current GPU MSM result file (`benches/results/gpu-msm-<device>.json`) is committed yet.*';

  // --- ours beside the anchors ---
  {
    const out = [];
    const cols = ['Curve', 'n', ...perDevice.map((d) => `ours, ${d.device} (ms)`), ...anchorColumns.map((f) => `${anchorLabel(f)} (ms)`), 'target (ms)'];
    const rowsOut = [];
    for (const curve of allCurves) {
      const logNs = unique([...perDevice.flatMap((d) => (d.scaling[curve]?.best ?? []).map((r) => r.logN)),
        ...figures.filter((f) => f.curve === curve).map((f) => f.log_n)]).sort(byNumber);
      for (const logN of logNs) {
        rowsOut.push([curveName(curve), pow2(logN),
          ...perDevice.map((d) => {
            const r = d.scaling[curve]?.best.find((x) => x.logN === logN);
            if (r) note('results/gpu-msm-vs-anchors.md', r.file, r.name);
            return r ? `**${ms(r.median)}** (${r.limb}-bit${r.verified ? '' : ', ✘ not verified'})` : '—';
          }),
          ...anchorColumns.map((a) => {
            const f = anchorFigures.find((x) => anchorKey(x) === anchorKey(a) && x.curve === curve && x.log_n === logN);
            return f ? asGiven(f) : '—';
          }),
          (() => { const t = targets.find((x) => x.curve === curve && x.log_n === logN); return t ? `≤ ${t.ms}` : '—'; })()]);
      }
    }
    out.push(table(cols, rowsOut), '');
    // Each device's verdict against the project's targets (benches/anchors.json, source "target").
    const verdicts = [];
    for (const d of perDevice) {
      for (const t of targets) {
        const r = d.scaling[t.curve]?.best.find((x) => x.logN === t.log_n);
        if (!r) { verdicts.push(`${curveName(t.curve)} at ${pow2(t.log_n)}: no run of ours on the ${d.device} yet (target ≤ ${t.ms} ms).`); continue; }
        const verdict = r.median <= t.ms ? `**met** (${ms(r.median)} ms ≤ ${t.ms} ms)`
          : `**missed** by ${ratio(r.median / t.ms)}× (${ms(r.median)} ms against ≤ ${t.ms} ms)`;
        verdicts.push(`${curveName(t.curve)} at ${pow2(t.log_n)} on the ${d.device}: target ${verdict}.`);
      }
    }
    if (verdicts.length) out.push(verdicts.map((v) => `- ${v}`).join('\n'), '');
    out.push(`*Ours: the fastest limb width at each n, uniform random scalars, median. ${perDevice.length ? `Data: ${perDevice.map(provenance).join('; ')}.` : noCurrent} `
      + `Published figures from ${code('benches/anchors.json')}; ≈ marks an approximate figure.*`);
    emit('gpu-msm-vs-anchors.md', out.join('\n'));
  }

  // --- sppark beside ours: the same GPU, the same inputs, one call (benches/sppark) ---
  {
    const out = [];
    const earlier = [];
    const peers = files.filter((f) => f.doc.suite === 'gpu-msm-sppark');
    // The results chapter shows the newest run beside sppark on each device; the earlier ones are
    // history (the ledger includes them), so that one configuration shows one value.
    const newestPeer = (f) => !peers.some((g) => g.device === f.device && String(g.date) > String(f.date));
    for (const peer of peers) {
      const target = newestPeer(peer) ? out : earlier;
      const tableName = newestPeer(peer) ? 'results/gpu-msm-vs-sppark.md' : 'results/gpu-msm-vs-sppark-earlier.md';
      const ours = current.find((f) => f.device === peer.device && f.date === peer.date);
      const memory = (r) => r.name.split('/').pop();
      const kinds = unique(peer.rows.map(memory));
      const resident = (r) => r.mode === 'resident' && r.copies === 1;
      const withResident = (ours?.rows ?? []).some(resident);
      const withPortable = (ours?.rows ?? []).some((r) => r.limb === 15 && isHost(r) && r.pattern === 'uniform');
      const withPeerResident = kinds.includes('resident');
      const cols = ['Curve', 'n', 'ours, 64-bit products (ms)', ...(withPortable ? ['ours, 15-bit portable (ms)'] : []),
        ...(withResident ? ['ours, bases resident (ms)'] : []),
        ...kinds.map((k) => `sppark, ${k} (ms)`), 'ours ÷ sppark pinned',
        ...(withResident && withPeerResident ? ['resident: ours ÷ sppark'] : [])];
      const rowsOut = [];
      for (const curve of unique(peer.rows.map((r) => r.curve))) {
        for (const logN of unique(peer.rows.filter((r) => r.curve === curve).map((r) => r.logN)).sort(byNumber)) {
          const mine = (ours?.rows ?? []).filter((r) => r.curve === curve && r.logN === logN && r.pattern === 'uniform'
            && r.edit === 'none' && (isHost(r) || resident(r)));
          const pick = (rows) => (rows.length ? plain(rows) : undefined);
          const native = pick(mine.filter((r) => r.limb > 16 && !resident(r)));
          const portable = pick(mine.filter((r) => r.limb === 15 && !resident(r)));
          const kept = pick(mine.filter((r) => r.limb > 16 && resident(r)));
          const theirs = (k) => peer.rows.find((r) => r.curve === curve && r.logN === logN && memory(r) === k);
          const cell = (r) => {
            if (r) note(tableName, r.file, r.name);
            return r ? `${ms(r.median)}${r.verified ? '' : ' ✘'}` : '—';
          };
          const pinned = theirs('pinned');
          const theirsKept = theirs('resident');
          rowsOut.push([curveName(curve), pow2(logN), cell(native), ...(withPortable ? [cell(portable)] : []),
            ...(withResident ? [cell(kept)] : []), ...kinds.map((k) => cell(theirs(k))),
            native && pinned ? `${ratio(native.median / pinned.median)}×` : '—',
            ...(withResident && withPeerResident ? [kept && theirsKept ? `${ratio(kept.median / theirsKept.median)}×` : '—'] : [])]);
        }
      }
      target.push(`**${peer.device}**`, '', table(cols, rowsOut), '',
        `*sppark: ${code(`benches/results/${peer.file}`)} (${peer.doc.build?.sppark ?? 'sppark'}); `
        + `ours: ${ours ? code(`benches/results/${ours.file}`) : 'no run of ours beside it'}, the same day. `
        + 'Median of the timed runs, every run checked against arkworks; ✘ marks a run not verified, — a size not run. '
        + 'Each timed span runs from the host\'s arrays to the affine result, but holds different work. sppark\'s '
        + 'allocates its buckets, histogram and temporaries on the device in every call (stream-ordered, which the CUDA '
        + 'driver may serve from its memory pool) and frees them; with bases resident it keeps its buckets and points and '
        + 'allocates only the scalars\' and digits\' temporaries per call. Ours keeps every device buffer, and a mapped '
        + 'staging buffer it copies the input into, from the call before (the warm-up runs allocated them). With bases '
        + 'resident both keep their points and buckets: the closest to equal footing.*', '');
    }
    if (!out.length) out.push('*No sppark run (`benches/results/gpu-msm-sppark-<device>.json`) is committed yet.*');
    emit('gpu-msm-vs-sppark.md', out.join('\n'));
    emit('gpu-msm-vs-sppark-earlier.md', earlier.length ? earlier.join('\n') : '*No earlier sppark run.*');
  }

  // --- the forms of issue 32 beside the default, from the files that have them: the batch-affine
  // SMVP forms (`edit` affine-…), precomputed resident bases (`copies` > 1) and many MSMs in one
  // run_batch call against one call each ---
  {
    const out = [];
    const mib = (b) => (Number.isFinite(b) ? ms(b / 2 ** 20) : '—');
    // One table row per curve, n and limb width, in that order.
    const configs = (rows) => unique(rows.map((r) => `${r.curve}|${r.logN}|${r.limb}`)).map((k) => k.split('|'))
      .map(([curve, logN, limb]) => ({ curve, logN: Number(logN), limb: Number(limb) }))
      .sort((a, b) => a.curve.localeCompare(b.curve) || a.logN - b.logN || a.limb - b.limb);
    const at = (rows, k) => rows.filter((r) => r.curve === k.curve && r.logN === k.logN && r.limb === k.limb);
    const cell = (r) => {
      if (r) note('results/gpu-msm-forms.md', r.file, r.name);
      return r ? `${ms(r.median)}${r.verified ? '' : ' ✘'}` : '—';
    };
    const against = (r, base) => (r && base ? `${ratio(r.median / base.median)}×` : '—');
    for (const f of current) {
      const host = f.rows.filter((r) => isHost(r) && r.pattern === 'uniform');
      const forms = unique(host.filter((r) => /^affine-/.test(r.edit)).map((r) => r.edit));
      const kept = f.rows.filter((r) => r.mode === 'resident' && r.pattern === 'uniform' && r.edit === 'none');
      const copies = unique(kept.filter((r) => r.copies > 1).map((r) => r.copies)).sort(byNumber);
      const batch = f.rows.filter((r) => /^batch-/.test(r.mode));
      if (!forms.length && !copies.length && !batch.length) continue;
      const caption = `Median of the timed runs, every run checked against the exact MSM; ✘ marks a run not verified, — a configuration not run. Data: ${code(`benches/results/${f.file}`)}.`;
      out.push(`**${f.device}**`, '');
      if (forms.length) {
        const rowsOut = configs(host.filter((r) => forms.includes(r.edit))).map((k) => {
          const these = at(host, k);
          const base = plain(these.filter((r) => r.edit === 'none'));
          return [curveName(k.curve), pow2(k.logN), `${k.limb}`, cell(base),
            ...forms.flatMap((e) => { const r = these.find((x) => x.edit === e); return [cell(r), against(r, base)]; })];
        });
        out.push(table(['Curve', 'n', 'limb bits', 'projective SMVP (ms)', ...forms.flatMap((e) => [`${code(e)} (ms)`, '÷ projective'])], rowsOut), '',
          `*The SMVP's forms from host arrays: the default projective one, and the batch-affine ones (${code('affine-<lanes>')}, ${code('-wg<W>')}: one inversion shared by a workgroup of W invocations, ${code('-by')}: the divstep inversion). ${caption}*`, '');
      }
      if (copies.length) {
        const rowsOut = configs(kept.filter((r) => r.copies > 1)).map((k) => {
          const these = at(kept, k);
          const plainRow = these.find((r) => r.copies === 1);
          return [curveName(k.curve), pow2(k.logN), `${k.limb}`, cell(plainRow), mib(plainRow?.basesBytes),
            ...copies.flatMap((t) => {
              const r = these.find((x) => x.copies === t);
              return [cell(r), against(r, plainRow), mib(r?.basesBytes), r ? ms(r.uploadMs) : '—'];
            })];
        });
        out.push(table(['Curve', 'n', 'limb bits', 'resident (ms)', 'memory (MiB)',
          ...copies.flatMap((t) => [`${t} copies (ms)`, '÷ resident', 'memory (MiB)', 'upload + precompute (ms)'])], rowsOut), '',
        `*Bases resident on the GPU (only the scalars cross per MSM), plain and with T precomputed copies 2^(c·g·t)·P of every base: the memory they take on the device, and the one-off time to upload and precompute them. ${caption}*`, '');
      }
      if (batch.length) {
        const rowsOut = [];
        const key = (r) => `${r.curve}|${r.limb}|${r.msms}|${r.msmPoints}`;
        for (const k of unique(batch.map(key))) {
          const g = batch.filter((r) => key(r) === k);
          const packed = g.find((r) => r.mode === 'batch-packed');
          const sequential = g.find((r) => r.mode === 'batch-sequential');
          const r0 = g[0];
          rowsOut.push([curveName(r0.curve), `${r0.limb}`, `${r0.msms} × ${pow2(Math.log2(r0.msmPoints))}`, cell(packed),
            packed?.perPass ?? '—', cell(sequential), packed && sequential ? `${ratio(sequential.median / packed.median)}×` : '—']);
        }
        out.push(table(['Curve', 'limb bits', 'MSMs', 'one run_batch call (ms)', 'MSMs per pass', 'one call each (ms)', 'throughput gain'], rowsOut), '',
          `*B MSMs of their own points and scalars, from host arrays: one ${code('run_batch')} call, which packs them into one pass of each stage, against one ${code('run_packed')} call after another; each time is for all B. ${caption}*`, '');
      }
    }
    if (!out.length) out.push('*No run of the batch-affine forms, precomputed bases or packed batches is committed yet (`benches/run-gpu-bench.sh speed`).*');
    emit('gpu-msm-forms.md', out.join('\n'));
  }

  // --- time against n, every limb width, and the growth per 4× n ---
  {
    const out = [];
    for (const d of perDevice) {
      for (const [curve, s] of Object.entries(d.scaling)) {
        const ns = unique(s.best.map((r) => r.n)).sort(byNumber);
        const cols = ['n', ...s.series.map((x) => `${x.limb}-bit limbs (ms)`), 'fastest ÷ fastest at n/4'];
        const rowsOut = ns.map((n) => {
          const best = s.best.find((r) => r.n === n);
          const quarter = s.best.find((r) => r.n === n / 4);
          return [pow2(Math.log2(n)), ...s.series.map((x) => {
            const r = x.points.find((p) => p.n === n);
            if (!r) return '—';
            note('results/gpu-msm-scaling.md', r.file, r.name);
            const cell = `${ms(r.median)} (${ms(r.min)}–${ms(r.max)})${r.verified ? '' : ' ✘'}`;
            return r === best ? `**${cell}**` : cell;
          }), quarter ? `${ratio(best.median / quarter.median)}×` : '—'];
        });
        out.push(`**${curveName(curve)}, ${d.device}**: median (min–max) of the timed runs; the fastest width in bold; ✘ marks a run not verified.`, '', table(cols, rowsOut), '');
      }
    }
    if (!perDevice.length) out.push(noCurrent);
    else out.push(`*Uniform random scalars, no shader edits. Data: ${perDevice.map(provenance).join('; ')}.*`);
    emit('gpu-msm-scaling.md', out.join('\n'));
  }

  // --- stage breakdown of the fastest run at each n ---
  {
    const out = [];
    for (const d of perDevice) {
      for (const [curve, s] of Object.entries(d.scaling)) {
        const runs = s.best;
        for (const r of runs) note('results/gpu-msm-stages.md', r.file, r.name);
        const stages = stageOrder(runs);
        const phases = hostOrder(runs);
        const cols = ['', ...runs.map((r) => `${pow2(r.logN)} (${r.limb}-bit, c = ${r.c ?? '?'})`)];
        const line = (label, f) => [label, ...runs.map((r) => { const v = f(r); return v === null ? '—' : ms(v); })];
        const rowsOut = [
          ...stages.map((st) => line(code(st), (r) => stageMs(r, st))),
          line('*GPU stages, sum*', (r) => (r.stages.length ? sum(r.stages.map((x) => x.ms)) : null)),
          ...phases.map((ph) => line(`host phase ${code(ph)}`, (r) => r.host.find((h) => h.name === ph)?.ms ?? null)),
          line('**whole MSM (median run)**', (r) => r.median),
        ];
        out.push(`**${curveName(curve)}, ${d.device}**: milliseconds of the median run.`, '', table(cols, rowsOut), '');
      }
    }
    if (!perDevice.length) out.push(noCurrent);
    else {
      out.push('*GPU stages from GPU timestamps, summed over batches and levels; host phases from the host clock, in '
        + 'the order the host runs them (the `gpu` phase contains the stages). Data: '
        + `${perDevice.map(provenance).join('; ')}.*`);
    }
    emit('gpu-msm-stages.md', out.join('\n'));
  }

  // --- the arithmetic floor: additions × products per addition ÷ measured products per second ---
  {
    const mont = Object.fromEntries(devices.map((device) => {
      const docs = readdirSync(resultsDir).filter((f) => /^wgsl-mont-.*\.json$/.test(f))
        .map((f) => ({ f, doc: optionalJson(resolve(resultsDir, f)) }))
        .filter(({ doc }) => doc?.suite === 'wgsl-mont' && doc.device?.name === device && Array.isArray(doc.results))
        // Not the sweeps over thread counts: the floor takes the rate of a full GPU.
        .filter(({ doc }) => new Set(doc.results.map((r) => r.params?.threads)).size === 1)
        .sort((a, b) => String(b.doc.date).localeCompare(String(a.doc.date)));
      return [device, docs];
    }));
    const out = [];
    for (const d of perDevice) {
      // The newest file that measured this field at this limb width.
      const sources = new Set();
      const rate = (curve, limb) => {
        for (const m of mont[d.device]) {
          const rs = m.doc.results.filter((r) => r.params?.field === `${curve}-fq` && r.params?.limb_bits === limb && r.verified !== false);
          if (rs.length) {
            sources.add(code(`benches/results/${m.f}`));
            const top = rs.reduce((a, b) => (b.median > a.median ? b : a));
            note('results/gpu-msm-floor.md', m.f, top.name);
            return Math.max(...rs.map((r) => r.median));
          }
        }
        return null;
      };
      const rowsOut = [];
      for (const [curve, s] of Object.entries(d.scaling)) {
        for (const r of s.best) {
          note('results/gpu-msm-floor.md', r.file, r.name);
          const b = R_BITS[curve];
          if (!b || !Number.isFinite(r.c)) continue;
          const W = Math.ceil((b + 1) / r.c);
          const B = 2 ** (r.c - 1);
          const adds = r.n * W + 2 * W * B;
          const products = MIXED_ADD_PRODUCTS * r.n * W + GENERAL_ADD_PRODUCTS * 2 * W * B;
          const pr = rate(curve, r.limb);
          const floor = pr ? (products / pr) * 1e3 : null;
          const addStages = r.stages.filter((x) => /^smvp|^reduce$|^fold$/.test(x.name));
          const measured = addStages.length ? sum(addStages.map((x) => x.ms)) : null;
          rowsOut.push([curveName(curve), pow2(r.logN), `${r.limb}`, `${r.c}`, `${W}`, adds.toExponential(2), products.toExponential(2),
            pr ? pr.toExponential(2) : '—', ms(floor), ms(measured),
            floor && measured ? `${ratio(measured / floor)}×` : '—', floor ? `${ratio(r.median / floor)}×` : '—']);
        }
      }
      out.push(`**${d.device}**`, '', table(['Curve', 'n', 'limb bits', 'c', 'W', 'additions nW + 2W·2^(c−1)',
        `products ≥ ${MIXED_ADD_PRODUCTS}·nW + ${GENERAL_ADD_PRODUCTS}·2W·2^(c−1)`, 'products/s (chained benchmark)', 'floor (ms)',
        'addition stages measured (ms)', 'addition stages ÷ floor', 'whole MSM ÷ floor'], rowsOut), '');
      out.push(`*Window c and limb width of the fastest run at each n; W = ⌈(b + 1)/c⌉ with b the bits of r; the rate is the `
        + `best workgroup size of ${sources.size ? [...sources].join(', ') : 'the chained Montgomery benchmark (no file for this device)'} `
        + `at the same limb width; "addition stages" are ${code('smvp')}, ${code('smvp_combine')} where present, ${code('reduce')} and ${code('fold')}.*`, '');
    }
    if (!perDevice.length) out.push(noCurrent);
    emit('gpu-msm-floor.md', out.join('\n'));
  }

  /** Current files first; if none has what `has` asks for, the newest experiment that does. */
  function currentOrNewest(has) {
    const cur = current.filter(has);
    if (cur.length) return { files: cur, fallback: false };
    const exp = files.filter((f) => f.experiment && has(f))
      .sort((a, b) => String(b.date).localeCompare(String(a.date)) || String(b.commit).localeCompare(String(a.commit)));
    return { files: exp.slice(0, 1), fallback: exp.length > 0 };
  }
  const describe = ({ files: fs, fallback }) => `${fallback ? 'The current result files have none of these runs yet; these are from the experiment ' : 'Data: '}`
    + `${fs.map((f) => code(`benches/results/${f.file}`)).join(', ')}.`;

  // --- non-uniform scalars against uniform ones ---
  {
    const pick = currentOrNewest((f) => f.rows.some((r) => r.pattern !== 'uniform' && r.edit === 'none'));
    const out = [];
    const rowsOut = [];
    for (const f of pick.files) {
      const pool = [...f.rows, ...(f.experiment ? [] : current.filter((g) => g.device === f.device).flatMap((g) => g.rows))];
      for (const r of f.rows.filter((x) => x.pattern !== 'uniform' && x.edit === 'none' && isHost(x))) {
        // The uniform run of the same file (the same run) when there is one, else another current file's.
        const match = (u) => u.pattern === 'uniform' && u.edit === 'none' && isHost(u) && u.curve === r.curve && u.n === r.n && u.limb === r.limb;
        const peers = f.rows.some(match) ? f.rows.filter(match) : pool.filter(match);
        const u = peers.length ? plain(peers) : null;
        note('results/gpu-msm-patterns.md', r.file, r.name);
        rowsOut.push([curveName(r.curve), pow2(r.logN), `${r.limb}`, code(r.pattern), `${ms(r.median)}${r.verified ? '' : ' ✘'}`,
          u ? `${ratio(r.median / u.median)}×` : '—',
          u ? (r.median <= PATTERN_BOUND * u.median ? `✔ ≤ ${PATTERN_BOUND}×` : `✘ > ${PATTERN_BOUND}×`) : '—']);
      }
    }
    if (rowsOut.length) {
      out.push(table(['Curve', 'n', 'limb bits', 'scalars', 'median (ms)', '÷ uniform scalars, same run', `within ${PATTERN_BOUND}× of uniform`], rowsOut), '');
      out.push(`*${code('small')}: 90% of the scalars below 2^10, the rest uniform; ${code('equal')}: every scalar drawn from a pool of 64. `
        + `The ratio is against the run with uniform scalars of the same file, at the same n and width. ${describe(pick)}*`);
    } else out.push('*No run with non-uniform scalars is committed yet.*');
    emit('gpu-msm-patterns.md', out.join('\n'));
  }

  // --- SMVP chunk size sweeps (several K at one configuration), one table per file that has one:
  // results/chunks-<file>.md, so that a chapter can cite the sweep of a given experiment ---
  for (const f of files) {
    const groups = {};
    for (const r of f.rows.filter((x) => x.edit === 'none' && isHost(x) && Number.isFinite(x.chunk))) {
      (groups[`${r.curve}|${r.n}|${r.limb}|${r.pattern}|${r.c}`] ??= []).push(r);
    }
    const sweeps = Object.values(groups).filter((g) => unique(g.map((r) => r.chunk)).length > 1);
    if (!sweeps.length) continue;
    const out = [];
    for (const g of sweeps) {
      const r0 = g[0];
      const stages = stageOrder(g).filter((st) => st.startsWith('smvp'));
      for (const r of g) note(`results/chunks-${basename(f.file, '.json')}.md`, r.file, r.name);
      const rowsOut = [...g].sort((a, b) => a.chunk - b.chunk || a.name.length - b.name.length).map((r) => [`${r.chunk}`,
        `${r.levels ?? '—'}`, ...stages.map((st) => ms(stageMs(r, st))), `${ms(r.median)}${r.verified ? '' : ' ✘'}`]);
      out.push(`**${curveName(r0.curve)}, ${pow2(r0.logN)}, ${r0.limb}-bit limbs, ${r0.pattern} scalars, ${f.device}**`, '',
        table(['K (entries per invocation)', 'SMVP passes', ...stages.map((st) => `${code(st)} (ms)`), 'whole MSM (ms)'], rowsOut), '');
    }
    out.push(`*Milliseconds of the median run. Data: ${code(`benches/results/${f.file}`)}.*`);
    emit(`chunks-${basename(f.file, '.json')}.md`, out.join('\n'));
  }

  // --- window size sweeps (several c at one configuration), from the current files, else the
  // newest experiment that has one ---
  {
    const sweeps = (f) => {
      const groups = {};
      for (const r of f.rows.filter((x) => x.edit === 'none' && isHost(x) && Number.isFinite(x.c))) {
        (groups[`${r.curve}|${r.n}|${r.limb}|${r.pattern}`] ??= []).push(r);
      }
      return Object.values(groups).filter((g) => unique(g.map((r) => r.c)).length > 1);
    };
    const pick = currentOrNewest((f) => sweeps(f).length > 0);
    const out = [];
    for (const f of pick.files) {
      for (const g of sweeps(f)) {
        const r0 = g[0];
        const b = R_BITS[r0.curve];
        const byC = unique(g.map((r) => r.c)).sort(byNumber).map((c) => plain(g.filter((r) => r.c === c)));
        // The plan's window: a run without an explicit c (no "/c" in its name) in this sweep, else
        // in a current file of the same device and configuration; the ratios are against it.
        const ruled = (r) => !/\/c\d+/.test(r.name) && r.curve === r0.curve && r.n === r0.n && r.limb === r0.limb
          && r.pattern === r0.pattern && r.edit === 'none' && isHost(r);
        const planC = (g.find(ruled) ?? current.filter((c) => c.device === f.device).flatMap((c) => c.rows).find(ruled))?.c;
        const base = byC.find((r) => r.c === planC) ?? plain(g);
        for (const r of [...byC, base]) note('results/gpu-msm-windows.md', r.file, r.name);
        const rowsOut = byC.map((r) => {
          const W = b ? Math.ceil((b + 1) / r.c) : null;
          const products = W ? MIXED_ADD_PRODUCTS * r.n * W + GENERAL_ADD_PRODUCTS * W * 2 ** r.c : null;
          return [`${r.c}${r === base ? ' (plan)' : ''}`, W ?? '—', products ? products.toExponential(2) : '—',
            ms(stageMs(r, 'smvp')), ms(stageMs(r, 'reduce')), `${ms(r.median)}${r.verified ? '' : ' ✘'}`,
            `${ratio(r.median / base.median)}×`];
        });
        out.push(`**${curveName(r0.curve)}, ${pow2(r0.logN)}, ${r0.limb}-bit limbs, ${r0.pattern} scalars, ${f.device}**`, '',
          table(['window c', 'W', 'products (count above)', `${code('smvp')} (ms)`, `${code('reduce')} (ms)`, 'whole MSM (ms)', '÷ the plan\'s window'], rowsOut), '');
      }
    }
    if (out.length) out.push(`*Milliseconds of the median run; "(plan)" marks the window the plan chose. ${describe(pick)}*`);
    else out.push('*No run with the window size forced to several values is committed yet.*');
    emit('gpu-msm-windows.md', out.join('\n'));
  }

  // --- the ledger: what each change was expected to do and what it did ---
  const ledgerDoc = optionalJson(resolve(root, 'benches/experiments.json')) ?? { entries: [] };
  /** The row a ledger side names, or why there is none. */
  function locate(side, at) {
    if (!side?.file) return { missing: 'not measured yet' };
    const f = byName[side.file];
    if (!f) return { missing: `not measured yet (no ${code(side.file)})` };
    const limb = side.limb_bits ?? at.limb_bits; // a side may name its own limb width (e.g. 13 → 32)
    const rows = f.rows.filter((r) => r.curve === at.curve && r.logN === at.log_n && r.pattern === (side.pattern ?? 'uniform')
      && r.edit === (side.edit ?? 'none') && (limb === undefined || r.limb === limb)
      && (side.batches === undefined || r.batches === side.batches) && (side.chunk === undefined || r.chunk === side.chunk)
      && (side.segments === undefined || r.segments === side.segments)
      && (side.first_batch === undefined || r.firstBatch === side.first_batch)
      && (side.name === undefined || r.name === side.name));
    if (!rows.length) return { missing: `not measured yet (no matching run in ${code(side.file)})` };
    if (side.requires_stage && !rows.some((r) => stageMs(r, side.requires_stage) !== null)) {
      return { missing: `awaiting the next run (${code(side.file)}, commit ${f.commit}, predates this change)` };
    }
    // The plain run of each limb width, then the fastest of those.
    const widths = unique(rows.map((r) => r.limb));
    return { row: fastest(widths.map((w) => plain(rows.filter((r) => r.limb === w)))), file: f };
  }
  const ledger = (ledgerDoc.entries ?? []).map((e) => {
    const at = e.measure ?? {};
    const before = locate(e.before, at);
    const after = locate(e.after, at);
    const where = `${curveName(at.curve)}, ${pow2(at.log_n)}`;
    let measured;
    let change = '—';
    if (after.row) {
      const a = after.row;
      const b = before.row;
      const pair = (x, y) => (b ? `${ms(x)} → ${ms(y)}` : ms(y));
      const parts = [`whole MSM ${pair(b?.median, a.median)} ms`];
      for (const st of at.stages ?? []) {
        const x = b ? stageMs(b, st) : null;
        const y = stageMs(a, st);
        if (x !== null || y !== null) parts.push(`${code(st)} ${b ? `${ms(x)} → ${ms(y)}` : ms(y)} ms`);
      }
      const widths = b && b.limb !== a.limb ? `${b.limb}- → ${a.limb}-bit` : `${a.limb}-bit`;
      measured = `${where}, ${widths}: ${parts.join('; ')} (commit ${after.file.commit}${a.verified ? '' : ', result wrong by design: timing only'})`;
      if (b) {
        const x = b.median / a.median;
        change = Math.abs(x - 1) < 0.03 ? 'unchanged (within 3%)' : x >= 1 ? `${ratio(x)}× faster` : `${ratio(1 / x)}× slower`;
      }
    } else measured = `${where}: ${after.missing}`;
    return { id: e.id, title: e.title, commit: e.commit ?? null, changed: e.changed, expected: e.expected, measured, change,
      paid: e.paid ?? null, kept: e.kept !== false, before: before.row ? { file: before.file.file, median: before.row.median } : null,
      after: after.row ? { file: after.file.file, median: after.row.median, verified: after.row.verified, commit: after.file.commit } : null,
      at };
  });
  {
    const cell = (s) => String(s ?? '—').replaceAll('|', '\\|').replaceAll('\n', ' ');
    const rowsOut = ledger.map((e) => [`**${cell(e.title)}**${e.commit ? ` (${e.commit})` : ''}`, cell(e.changed), cell(e.expected), cell(e.measured), e.change]);
    const out = [table(['Step', 'What changed', 'Expected beforehand', 'Measured (before → after)', 'Whole MSM'], rowsOut), ''];
    const used = unique(ledger.flatMap((e) => [e.before?.file, e.after?.file]).filter(Boolean));
    out.push(`*From ${code('benches/experiments.json')} (steps, expectations) and ${used.map((f) => code(`benches/results/${f}`)).join(', ')}; `
      + 'where a step names no limb width, each side shows its fastest.*');
    emit('gpu-msm-ledger.md', out.join('\n'));
  }

  // --- every result file: its provenance (commit, date, device), which the chapters' captions
  // leave out, and what it is; the ledger appendix includes this table ---
  {
    const cell = (s) => String(s ?? '').replaceAll('|', '\\|').replaceAll('\n', ' ');
    const rowsOut = readdirSync(resultsDir).filter((f) => f.endsWith('.json')).sort().map((file) => {
      const doc = optionalJson(resolve(resultsDir, file)) ?? {};
      const results = Array.isArray(doc.results) ? doc.results : [];
      const role = /-experiment-/.test(file) ? 'experiment' : 'current';
      const verified = doc.suite === 'pipeline-stats' ? '—'
        : results.every((r) => r.verified !== false) ? '✔' : `${results.filter((r) => r.verified === false).length} ✘`;
      const device = [doc.device?.name, doc.device?.browser].filter(Boolean).join(', ');
      return [code(file), doc.suite ?? '—', role, doc.commit ?? '—', String(doc.date ?? '—').slice(0, 10), cell(device) || '—',
        `${results.length}`, verified, cell(doc.experiment ?? doc.note ?? doc.about) || '—'];
    });
    emit('gpu-msm-files.md', table(['File', 'Suite', 'Role', 'Commit', 'Date', 'Device', 'Rows', 'Verified', 'What it is'], rowsOut));
  }

  // --- the data the chapter's charts draw ---
  const chartRow = (r) => ({ n: r.n, log_n: r.logN, ms: r.median, min: r.min, max: r.max, limb_bits: r.limb, window_bits: r.c ?? null, verified: r.verified });
  const timelineAt = ledger.find((e) => e.after)?.at;
  const data = {
    generated_by: 'wasm-demo/bench/tables.js',
    curves: Object.fromEntries(allCurves.map((c) => [c, curveName(c)])),
    devices: perDevice.map((d) => ({
      device: d.device,
      files: d.files.map((f) => ({ file: f.file, commit: f.commit, date: f.date })),
      curves: Object.fromEntries(Object.entries(d.scaling).map(([curve, s]) => [curve, {
        series: s.series.map((x) => ({ label: `ours, ${d.device}, ${x.limb}-bit limbs`, limb_bits: x.limb, points: x.points.map(chartRow) })),
        best: s.best.map((r) => ({ ...chartRow(r), segments: breakdown(r) })),
      }])),
    })),
    anchors: unique(anchorFigures.map(anchorKey)).map((k) => {
      const fs = anchorFigures.filter((f) => anchorKey(f) === k);
      return { source: fs[0].source, device: fs[0].device, label: anchorLabel(fs[0]), url: sources[fs[0].source]?.url ?? null,
        approximate: fs.some((f) => f.approximate), points: fs.map((f) => ({ curve: f.curve, log_n: f.log_n, n: 2 ** f.log_n, ms: f.ms })) };
    }),
    targets: targets.map((t) => ({ curve: t.curve, log_n: t.log_n, n: 2 ** t.log_n, ms: t.ms })),
    // The ledger's steps measured at the configuration of its first measured step, for the history
    // chart; a step not kept (`"kept": false`, an alternative measured and left out) draws no bar.
    timeline: timelineAt ? {
      curve: timelineAt.curve, log_n: timelineAt.log_n,
      // Steps measured by the same run (one file, one median) share one bar.
      steps: ledger.filter((e) => e.after && e.kept && e.at.curve === timelineAt.curve && e.at.log_n === timelineAt.log_n)
        .reduce((acc, e) => {
          const last = acc[acc.length - 1];
          if (last && last.file === e.after.file && last.ms === e.after.median) last.title += ` + ${e.title}`;
          else acc.push({ id: e.id, title: e.title, file: e.after.file, ms: e.after.median, timing_only: !e.after.verified, commit: e.after.commit });
          return acc;
        }, []),
    } : null,
  };
  writeFileSync(resolve(dataDir, 'gpu-msm.json'), `${JSON.stringify(data, null, 1)}\n`);

  // --- the rows the tables picked, by a key the prose can name: {{fig picks KEY FIELD}} reads the
  // same row as the table beside it (best/<device>/<curve>/2^<log n>: the fastest verified run at
  // that n, as the anchors, stages and floor tables show it; width/<…>/w<limb>: the scaling
  // table's run at that width) ---
  const slug = (device) => device.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const original = (r) => byName[r.file].doc.results.find((x) => x.name === r.name);
  const picks = [];
  for (const d of perDevice) {
    for (const [curve, sc] of Object.entries(d.scaling)) {
      for (const r of sc.best) picks.push({ ...original(r), id: `best/${slug(d.device)}/${curve}/2^${r.logN}`, source: { file: r.file, name: r.name } });
      for (const x of sc.series) {
        for (const r of x.points) picks.push({ ...original(r), id: `width/${slug(d.device)}/${curve}/2^${r.logN}/w${x.limb}`, source: { file: r.file, name: r.name } });
      }
    }
  }
  picks.push({ id: 'target/patterns', bound: PATTERN_BOUND });
  writeFileSync(resolve(dataDir, 'picks.json'), `${JSON.stringify({ suite: 'picks', generated_by: 'wasm-demo/bench/tables.js', results: picks }, null, 1)}\n`);
  for (const [name, text] of Object.entries(written)) writeFileSync(resolve(tablesDir, name), text);
}

writeFileSync(resolve(outDir, 'rendered.json'), `${JSON.stringify(rendered, null, 1)}\n`);
