#!/usr/bin/env python3
"""Joins one run of gpu-msm-on-gpu-machine.sh (OUT/result.jsonl, env.txt, clocks.txt) and the native
msm_bench JSON of the same call into one results file: the page's MSM in the browser beside native
wgpu at the same limb width on the same GPU.

usage: gpu-msm-json.py OUT_DIR NATIVE_JSON RESULT_JSON
"""
import datetime
import json
import os
import statistics
import sys

FIRST_USE = (' Rows ending in /first-click=…: each in a browser profile of its own, new, the widget\'s '
             'preparation started as the page opened (device, profile, pipelines), Run pressed at once '
             '(at-once) or once the preparation was done (after-prepare); first_use holds page_open_to_ready_ms '
             'and click_to_msm_start_ms, and /pipelines=sequential marks wgpu\'s one-by-one pipeline creation '
             'instead of every stage compiled at once first. Profile auto in a new profile: the adapter\'s '
             'named profile, unmeasured.')

out, native_path, dest = sys.argv[1:4]
runs = [json.loads(line) for line in open(f'{out}/result.jsonl') if line.strip()]
errors = []
try:
    errors = [json.loads(line) for line in open(f'{out}/error.jsonl') if line.strip()]
except FileNotFoundError:
    pass
env = open(f'{out}/env.txt').read().splitlines()


def sample(line):
    """(unix seconds or None, MHz) of a line of clocks.txt: `2026/11/27 20:24:00.123, 1980 MHz` (nvidia-smi's
    timestamp is the machine's local time, as the page's clock is), or `1980 MHz` from older runs."""
    parts = [p.strip() for p in line.split(',')]
    try:
        if len(parts) == 1:
            return None, int(parts[0].split()[0])
        when = datetime.datetime.strptime(parts[0], '%Y/%m/%d %H:%M:%S.%f').timestamp()
        return when, int(parts[1].split()[0])
    except (ValueError, IndexError):
        return None


try:
    clocks = [s for s in map(sample, open(f'{out}/clocks.txt')) if s]
except FileNotFoundError:
    clocks = []


def clocks_while_timed(row):
    """The SM clock samples taken between the start of the row's first timed run and the end of its last."""
    window = row['params'].get('timed_epoch_ms')
    if not window:
        return None
    mhz = [c for t, c in clocks if t is not None and window[0] / 1e3 <= t <= window[1] / 1e3]
    return {'samples': len(mhz), 'min': min(mhz, default=None), 'median': statistics.median(mhz) if mhz else None,
            'max': max(mhz, default=None)}


native = json.load(open(native_path))
browser = next((line for line in env if 'Chromium' in line or 'Chrome' in line), 'Chromium')
rows = []
for run in runs:
    r = run['result']
    for row in r['results']:
        # One name per row: the widget's own name plus the product form and the profile asked for.
        name = f"{row['name']}/{row['params'].get('kernel_form')}/{run['job'].get('profile', 'auto')}"
        # A device requested with WebGPU's default limits only: a row of its own.
        if run['job'].get('limits') == 'default':
            name += '/limits=default'
        # A first-use job (book/bench/run.html: preparation at page open, Run pressed at once or
        # after it) and the sequential pipeline creation it is compared with: rows of their own.
        if run['job'].get('first_click'):
            name += f"/first-click={run['job']['first_click']}"
        if run['job'].get('pipelines') == 'sequential':
            name += '/pipelines=sequential'
        rows.append({**row, 'name': name, 'side': 'browser', 'job': run['job'], 'job_wall_s': run['wall_s'],
                     'profile': r.get('profile'), 'adapter': r.get('device'), 'first_use': r.get('first_use'),
                     'gpu_clock_mhz_while_timed': clocks_while_timed(row)})
doc = {
    'suite': 'gpu-msm-browser',
    'protocol': 'the book\'s gpu-msm widget task in its own Web Worker (wasm + WebGPU), timed from the packed '
                'input in memory to the affine result, median of the repetitions, each run verified by discrete '
                'logs; compile_ms is the first compile of the curve in a fresh browser profile. The timed '
                'repetitions run back to back after warmup_s seconds of untimed runs, and every check runs after '
                'them, so the GPU never idles between them for more than the host part of one run; the SM clock '
                'is sampled every 100 ms by nvidia-smi (gpu_clock_mhz: all samples of the call; '
                'gpu_clock_mhz_while_timed: those between the start of the first timed run and the end of the '
                'last). native: msm_bench in the same call on the same GPU at the same limb width.'
                + (FIRST_USE if any('/first-click=' in r['name'] for r in rows) else ''),
    'device': {'name': native['device']['name'], 'driver': native['device'].get('driver'), 'browser': browser},
    'gpu_clock_mhz': {'samples': len(clocks), 'min': min((c for _, c in clocks), default=None),
                      'max': max((c for _, c in clocks), default=None)},
    # The page's build (its build-info.json, PAGE_COMMIT) beside the native binary's.
    'commit': f"page {os.environ['PAGE_COMMIT']}, native {native.get('commit')}" if os.environ.get('PAGE_COMMIT')
              else native.get('commit'),
    'date': native.get('date'),
    # Native rows beside the browser's, named native/<msm_bench's name>.
    'results': rows + [{**r, 'name': f"native/{r['name']}", 'side': 'native'} for r in native['results']],
    'errors': errors,
}
json.dump(doc, open(dest, 'w'), indent=1)
print(f'{len(rows)} browser rows, {len(native["results"])} native rows, {len(errors)} errors -> {dest}')
