#!/bin/bash
# The same-page comparison of book/bench/peer-yrrid.html (Yrrid Software + Snarkify's ZPrize 2023
# WebAssembly MSM, our npm package and the threads widget's pool, T threads each, on one input,
# every result checked against arkworks) in a headless Chromium on a many-core machine with
# python3 but no node (the NVIDIA H200 machine's 16-core host). It needs, beside the project:
# the staged Chromium (.chrome/ or /root/stage/, and .chrome2/: benches/browser/chromium.sh) and
# .site/, a copy of the built book with the npm package's dist/ in .site/npm-dist/ and the entry's
# two files in .site/peer-yrrid/ (benches/README.md, "Yrrid's entry beside us", says how to stage
# them: fetched code, never committed). Writes OUT/msm-wasm-peer-yrrid-<browser>-<cpu>.json.
#   OUT=DIR LOGN=16,18 THREADS=1,2,4,8,16 REPS=5 bash benches/browser/peer-yrrid-on-gpu-machine.sh
set -eu
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
python3 benches/browser/peer-yrrid-json.py --check-peer .site/peer-yrrid
source benches/browser/chromium.sh
{ nproc; lscpu | grep -E 'Model name|^CPU\(s\)'; "$RT/chromium" --version; echo "load before: $(cat /proc/loadavg)"; } > "$OUT/env.txt" 2>&1 || true
q="logn=${LOGN:-16,18}&threads=${THREADS:-1,2,4,8,16}&reps=${REPS:-5}&peer=../peer-yrrid/&npm=../npm-dist/&post=1"
python3 benches/browser/drive.py --site .site --out "$OUT/saved" --chrome "$RT/chromium" --isolate --timeout "${BENCH_T:-540}" \
  --page "bench/peer-yrrid.html?$q" -- --headless=new --no-sandbox --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --disable-dev-shm-usage --user-data-dir=/tmp/ud-peer
echo "load after: $(cat /proc/loadavg)" >> "$OUT/env.txt"
python3 benches/browser/peer-yrrid-json.py "$OUT/saved" "$OUT" --env "$OUT/env.txt" --cpu-note "the GPU machine's host" --commit "${COMMIT:-}"
