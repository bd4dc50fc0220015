#!/bin/bash
# The mont-bench widget's task (every Montgomery variant and ark-ff, book/widgets/widgets/mont-bench.js) in
# the staged headless Chromium on a machine with python3 but no node (the NVIDIA H100/H200 machine's
# 16-core host), with WebAssembly's wide arithmetic switched on so that the +wide rows run in the same
# run; then, with MSM_JOBS, the cpu-msm widget's task. Chromium is staged as for
# threads-on-gpu-machine.sh; the site is .site/ (make book, then copy target/book there).
#   OUT=DIR [COUNT=200000 REPS=9] [MSM_JOBS='{"curve":["bn254"],"logn":[16],…}'] bash benches/browser/mont-on-gpu-machine.sh
# Convert what it saved with benches/browser/widget-json.py.
set -eu
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
source benches/browser/chromium.sh
{ nproc; lscpu | grep -E 'Model name|^CPU\(s\)'; "$RT/chromium" --version; } > "$OUT/env.txt" 2>&1 || true
FLAGS=(--headless=new --no-sandbox --no-first-run --disable-background-networking --disable-component-update
  --disable-sync --disable-dev-shm-usage --js-flags=--wasm-wide-arithmetic)
enc() { python3 -c "import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))" "$1"; }
mont="[{\"field\":\"all\",\"variants\":\"all\",\"count\":${COUNT:-200000},\"repetitions\":${REPS:-9}}]"
python3 benches/browser/drive.py --site .site --out "$OUT/mont" --chrome "$RT/chromium" --timeout "${MONT_T:-300}" \
  --page "bench/run.html?widget=mont-bench&jobs=$(enc "$mont")" -- "${FLAGS[@]}" --user-data-dir=/tmp/ud-mont
if [ -n "${MSM_JOBS:-}" ]; then
  python3 benches/browser/drive.py --site .site --out "$OUT/msm" --chrome "$RT/chromium" --timeout "${MSM_T:-240}" \
    --page "bench/run.html?widget=cpu-msm&jobs=$(enc "[$MSM_JOBS]")" -- "${FLAGS[@]}" --user-data-dir=/tmp/ud-msm
fi
