// The machine a benchmark ran on, as the results files name it (benches/README.md).
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** The CPU's model name (Linux's /proc/cpuinfo, else node's report). */
export function cpuModel() {
  try {
    const m = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m);
    if (m) return m[1].trim();
  } catch { /* not Linux */ }
  return cpus()[0]?.model?.trim() || 'unknown-cpu';
}

/** `s` as a file-name part: lowercase, (R) and (TM) dropped, runs of other characters as one '-'. */
export const sanitize = (s) => s.toLowerCase().replace(/\((r|tm)\)/g, '').replace(/[^a-z0-9.]+/g, '-')
  .replace(/^-+|-+$/g, '');
