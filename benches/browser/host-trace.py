#!/usr/bin/env python3
"""Prints the host timeline of each row of a gpu-msm page run (OUT/result.jsonl, written by
gpu-msm-on-gpu-machine.sh or drive.py): per row, the median MSM's time, its GPU stage sum, and each
traced span (writeBuffer calls, submits, waits, the read-back's map) with its start, end and
length in ms from the MSM's start, then the time the trace leaves unaccounted for (gaps: the host
encoding passes, or idle in the page between awaits).

usage: host-trace.py [--brief] OUT_DIR [ROW_NAME_SUBSTRING]
--brief: one line per row, the traced time summed by kind (what the GPU machine's script prints).
"""
import json
import sys

args = sys.argv[1:]
brief = args[:1] == ['--brief']
args = args[brief:]
out = args[0]
pick = args[1] if len(args) > 1 else ''
# --brief: the kinds of span, by the start of their `what`, summed per row.
KINDS = [('write_buffer', 'writeBuffer'), ('staging', 'staging'), ('wait until', 'wait-after-upload'),
         ('submit', 'submit'), ('read-back: copy', 'readback-copy'), ('read-back: map', 'readback-map'),
         ('read-back: wait', 'map-wait'),
         ('error scope', 'error-scope'), ('combine', 'combine'), ('wait for', 'stage-waits')]
rows = []
for line in open(f'{out}/result.jsonl'):
    if line.strip():
        rows += json.loads(line)['result']['results']
for row in rows:
    if pick not in row['name']:
        continue
    p = row['params']
    trace = p.get('host_trace_of_median_run') or []
    stages = sum(s['ms'] for s in p['stages_ms_of_median_run'])
    host = ', '.join(f"{h['phase']} {h['ms']}" for h in p['host_ms_of_median_run'])
    print(f"\n{row['name']}: median {row['median']} ms (min {row['min']}), verified {row['verified']}; "
          f"GPU stages sum {stages:.2f} ms; host phases: {host}")
    if not trace:
        print('  (no host trace in this row)')
        continue
    if brief:
        sums = {}
        for t in trace:
            kind = next((k for prefix, k in KINDS if t['what'].startswith(prefix)), 'other')
            sums[kind] = sums.get(kind, 0) + t['end_ms'] - t['start_ms']
        end = max(t['end_ms'] for t in trace)
        print('  ms: ' + ', '.join(f'{k} {v:.2f}' for k, v in sums.items())
              + f'; untraced {end - sum(sums.values()):.2f} of {end:.2f}')
        continue
    print(f"  {'start':>9} {'end':>9} {'ms':>8}  what")
    covered = 0.0
    last_end = 0.0
    for t in trace:
        length = t['end_ms'] - t['start_ms']
        # Spans nest only where one wait holds another (none today): count the union of time.
        covered += max(0.0, t['end_ms'] - max(t['start_ms'], last_end))
        last_end = max(last_end, t['end_ms'])
        print(f"  {t['start_ms']:9.3f} {t['end_ms']:9.3f} {length:8.3f}  {t['what']}")
    print(f"  traced {covered:.3f} ms of the last span's end at {last_end:.3f} ms; "
          f"{last_end - covered:.3f} ms between spans")
