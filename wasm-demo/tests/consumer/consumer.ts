// A TypeScript application using every export of the npm package `fastmsm` with its declared
// types: tests/npm.test.js compiles it with `tsc --noEmit --strict` against the installed
// package's index.d.ts (never run; app.js is the page that runs).
import {
  createSession, loadCrossover, measureCrossover, msm, saveCrossover,
  type Backend, type Crossover, type CrossoverMeasurement, type CrossoverOptions, type Curve, type MsmOptions,
  type MsmResult, type Progress, type Session, type SessionOptions,
} from 'fastmsm';

const curve: Curve = 'bls12-377';
const backend: Backend = 'auto';
const onProgress: Progress = (fraction: number, text: string) => console.log(fraction.toFixed(2), text);

async function main(points: Uint8Array, scalars: ArrayBuffer): Promise<string> {
  const options: SessionOptions = { curve, backend, threads: 4, gpuProfile: 'portable', measureCrossover: { to: 12 }, onProgress };
  const session: Session = await createSession(options);
  const input: MsmOptions = { points, scalars, backend: 'gpu' };
  const r: MsmResult = await session.msm(input);
  const where: 'cpu' | 'gpu' = r.backend;
  const sum: string = `${r.point} ${r.bytes.length} ${where} ${r.reason} ${r.source} ${r.ms} ${r.n} ${r.curve}`
    + ` ${r.mode ?? ''} ${r.modeReason ?? ''} ${r.threads ?? 0} ${r.profile?.origin ?? ''} ${r.crossover?.log2_n ?? ''}`;
  const how: CrossoverOptions = { from: 8, to: 14, step: 2, repetitions: 1, seconds: 2, onProgress };
  const m: CrossoverMeasurement = await session.measureCrossover(how);
  const rows: number[] = m.measured.map((row) => row.cpu - (row.gpu ?? 0) + row.cpu_samples.length + row.gpu_samples.length);
  const c: Crossover = m.crossover;
  saveCrossover(c);
  const kept: Crossover | null = loadCrossover(session.curve);
  session.dispose();
  const once: MsmResult = await msm({ curve: 'bn254', points, scalars });
  const alone: CrossoverMeasurement = await measureCrossover({ curve: 'ed-on-bls12-377', seconds: 1 });
  return `${sum} ${rows.length} ${m.verified} ${m.seconds_measuring} ${m.gpu_first_ms} ${m.cpu.mode} ${kept?.date}`
    + ` ${once.point} ${alone.crossover.gpu}`;
}

main(new Uint8Array(96), new ArrayBuffer(32)).then(console.log);
