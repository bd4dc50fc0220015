#!/bin/bash
# The threads benchmark (book/widgets/widgets/cpu-threads.js) in a headless Chromium on a many-core machine
# with python3 but no node (the NVIDIA H100/H200 machine: 16 cores). Chromium comes staged as
# .chrome/chromium.xz.part1 (or /root/stage/…) + .chrome2/ (chromium.xz.part2, chromium.sha256,
# rtlibs.tar.xz) beside the built site in .site/; the part files are the @sparticuz/chromium
# headless build, split to fit the machine's transfer limit.
#   OUT=DIR CURVES=bls12-377,bn254 LOGN=16,18 REPS=5 bash benches/browser/threads-on-gpu-machine.sh
set -eu
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
source benches/browser/chromium.sh
{ nproc; lscpu | grep -E 'Model name|^CPU\(s\)'; "$RT/chromium" --version; } > "$OUT/env.txt" 2>&1 || true
jobs=$(python3 -c "
import json, os, urllib.parse
curves = os.environ.get('CURVES', 'bls12-377,bn254').split(',')
logn = [int(x) for x in os.environ.get('LOGN', '16').split(',')]
print(urllib.parse.quote(json.dumps([dict(curve=c, logn=l, mode='both', repetitions=int(os.environ.get('REPS', '5')), glv='no') for c in curves for l in logn])))")
python3 benches/browser/drive.py --site .site --out "$OUT" --chrome "$RT/chromium" --isolate --timeout "${BENCH_T:-420}" \
  --page "bench/run.html?widget=cpu-threads&jobs=$jobs" -- --headless=new --no-sandbox --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --disable-dev-shm-usage --user-data-dir=/tmp/ud-threads
