// Turns the native criterion MSM bench (crates/msm/benches/msm.rs) into a results file in the
// schema of benches/README.md: benches/results/msm-native-<cpu>.json. Run after
//   cargo bench -p fastmsm-msm --bench msm
// Each row is one criterion benchmark: median, min and max of its per-iteration sample times in ms,
// the speed-up over arkworks at the same curve and n, and `verified`: the bench checks each of ours
// against arkworks before timing it (a mismatch aborts the bench, so no file exists to convert).
//
//   node bench/criterion-msm.js [--criterion DIR] [--out FILE]
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { execSync } from 'node:child_process';
import { dirname, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { round, summary } from '../../book/widgets/core/stats.js';
import { cpuModel, sanitize } from '../lib/machine.js';

const root = resolve(import.meta.dirname, '../..');
const { values: args } = parseArgs({
  options: { criterion: { type: 'string' }, out: { type: 'string' } },
});
// criterion writes to <target dir>/criterion (give --criterion when CARGO_TARGET_DIR is set)
const dir = resolve(args.criterion ?? resolve(root, 'target/criterion'));
if (!existsSync(dir)) throw new Error(`${dir} is missing: run cargo bench -p fastmsm-msm --bench msm first`);

const VARIANT = { arkworks: 'arkworks', 'ours-projective': 'projective', 'ours-batch-affine': 'batch-affine',
  'ours-all-affine': 'all-affine' };

const results = [];
for (const group of readdirSync(dir).filter((g) => g.startsWith('msm_')).sort()) {
  const curve = group.slice('msm_'.length);
  for (const id of readdirSync(resolve(dir, group)).filter((i) => VARIANT[i])) {
    for (const n of readdirSync(resolve(dir, group, id)).filter((x) => /^\d+$/.test(x))) {
      const sample = JSON.parse(readFileSync(resolve(dir, group, id, n, 'new/sample.json'), 'utf8'));
      const ms = sample.times.map((t, i) => t / sample.iters[i] / 1e6);
      results.push({
        name: `${curve}/n=2^${Math.log2(Number(n))}/${VARIANT[id]}`,
        params: { curve, n: Number(n), log2_n: Math.log2(Number(n)), variant: VARIANT[id], limb_bits: 64,
          glv: false, window: null, bench: `criterion msm/${curve}/${id}/${n}` },
        unit: 'ms',
        ...summary(ms),
        verified: true,
      });
    }
  }
}
for (const r of results) {
  const ark = results.find((a) => a.params.curve === r.params.curve && a.params.n === r.params.n && a.params.variant === 'arkworks');
  r.params.speedup_vs_arkworks = ark ? round(ark.median / r.median, 3) : null;
}
const order = ['arkworks', 'projective', 'batch-affine', 'all-affine'];
results.sort((a, b) => a.params.curve.localeCompare(b.params.curve) || a.params.n - b.params.n
  || order.indexOf(a.params.variant) - order.indexOf(b.params.variant));

const cpu = cpuModel();
const doc = {
  suite: 'msm-native',
  device: { name: sanitize(`native-${cpu}`), backend: 'native x86-64, one thread (criterion)', cpu, cores: cpus().length },
  commit: execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim(),
  date: new Date().toISOString(),
  params: { runner: 'cargo bench -p fastmsm-msm --bench msm; wasm-demo/bench/criterion-msm.js',
    samples_per_benchmark: 10 },
  results,
  verified: results.length > 0,
};
const out = resolve(args.out ?? resolve(root, `benches/results/msm-native-${sanitize(cpu)}.json`));
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
for (const r of results) console.log(`${r.name.padEnd(36)} ${r.median.toFixed(1).padStart(8)} ms [${r.min}–${r.max}] ${r.params.speedup_vs_arkworks}×`);
console.log(`wrote ${relative(process.cwd(), out)}`);
