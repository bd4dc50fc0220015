#!/bin/bash
# Issue 31's browser figures on the NVIDIA machine, each part in one call beside native wgpu at the
# page's width (15-bit limbs, msm_bench from `make gpu-bench-bin`, only .bin/msm_bench and
# .bin/COMMIT needed) on the same GPU. Chromium staged and .site built as for gpu-msm-on-gpu-machine.sh.
#   PART first: a curve's first use, every case in a fresh browser profile: Run pressed as the page
#     opens, Run pressed once the widget has prepared, and as the page opens with wgpu's one-by-one
#     pipeline creation (`pipelines: sequential`), for the three pairing curves.
#   PART speed: the page's MSM at 2^16..2^20 with the upload paths of gpu-msm-page-jobs.json.
#   PART all: both, beside one native run, into one file (about 5 minutes).
#   OUT=DIR DATE=… bash benches/browser/page-vs-native-on-gpu-machine.sh first|speed|all
# writes OUT/<part>.json (gpu-msm-json.py: browser rows beside native ones) and the raw runs.
set -eu
part=${1:?first, speed or all}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
stamp=(--commit "$(cat .bin/COMMIT)" --date "${DATE:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}")
VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json .bin/msm_bench \
  --curves bn254,bls12-377,bls12-381 --log-n 16,18,20 --limb-bits 15 --reps 7 "${stamp[@]}" \
  --out "$OUT/native-$part.json" > "$OUT/native-$part.log" 2>&1
all=$OUT/$part-runs; mkdir -p "$all"
# One run of gpu-msm-on-gpu-machine.sh in a fresh browser profile, its rows added to $all.
page() {
  local name=$1 jobs=$2 limit=$3
  FRESH=1 OUT="$all/$name" BENCH_T=$limit JOBS="$jobs" bash benches/browser/gpu-msm-on-gpu-machine.sh \
    > "$all/$name.log" 2>&1 || echo "$name: exit $?" >&2
  for f in result.jsonl error.jsonl clocks.txt; do
    cat "$all/$name/$f" >> "$all/$f" 2>/dev/null || true
  done
  [ -f "$all/env.txt" ] || cp "$all/$name/env.txt" "$all/" 2>/dev/null || true
  rm -f "$all/$name/chrome.log"
}
if [ "$part" != speed ]; then
  for curve in bn254 bls12-377 bls12-381; do
    for case in at-once after-prepare sequential; do
      click=$case pipelines=parallel
      [ "$case" = sequential ] && click=at-once pipelines=sequential
      page "$curve-$case" '[{"curve":"'$curve'","n":"2^16","repetitions":3,"cpu_check":0,"profile":"auto","first_click":"'$click'","pipelines":"'$pipelines'"}]' 150
    done
  done
fi
if [ "$part" != first ]; then
  page speed "$(cat benches/browser/gpu-msm-page-jobs.json)" 420
fi
PAGE_COMMIT=$(python3 -c "import json; print(json.load(open('.site/generated/build-info.json'))['commit'])" 2>/dev/null || true) \
  python3 benches/browser/gpu-msm-json.py "$all" "$OUT/native-$part.json" "$OUT/$part.json"
