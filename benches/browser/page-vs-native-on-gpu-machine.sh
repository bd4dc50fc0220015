#!/bin/bash
# Issue 31's browser figures on the NVIDIA machine, each part in one call beside native wgpu at the
# page's width (15-bit limbs, msm_bench from `make gpu-bench-bin`, only .bin/msm_bench and
# .bin/COMMIT needed) on the same GPU. Chromium staged and .site built as for gpu-msm-on-gpu-machine.sh.
#   PART first: a curve's first use, every case in a fresh browser profile: Run pressed as the page
#     opens, Run pressed once the widget has prepared, and as the page opens with wgpu's one-by-one
#     pipeline creation (`pipelines: sequential`), for the three pairing curves.
#   PART speed: the page's MSM at 2^16..2^20 with the upload paths of gpu-msm-page-jobs.json.
#   OUT=DIR DATE=… bash benches/browser/page-vs-native-on-gpu-machine.sh first|speed
# writes OUT/<part>.json (gpu-msm-json.py: browser rows beside native ones) and the raw runs.
set -eu
part=${1:?first or speed}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
stamp=(--commit "$(cat .bin/COMMIT)" --date "${DATE:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}")
VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json .bin/msm_bench \
  --curves bn254,bls12-377,bls12-381 --log-n 16,18,20 --limb-bits 15 --reps 7 "${stamp[@]}" \
  --out "$OUT/native-$part.json" > "$OUT/native-$part.log" 2>&1
if [ "$part" = first ]; then
  all=$OUT/first-runs; mkdir -p "$all"
  for curve in bn254 bls12-377 bls12-381; do
    for case in at-once after-prepare sequential; do
      click=$case pipelines=parallel
      [ "$case" = sequential ] && click=at-once pipelines=sequential
      job='[{"curve":"'$curve'","n":"2^16","repetitions":3,"cpu_check":0,"profile":"auto","first_click":"'$click'","pipelines":"'$pipelines'"}]'
      FRESH=1 OUT="$all/$curve-$case" BENCH_T=150 JOBS="$job" bash benches/browser/gpu-msm-on-gpu-machine.sh \
        > "$all/$curve-$case.log" 2>&1 || echo "first use $curve $case: exit $?" >&2
      cat "$all/$curve-$case"/result.jsonl >> "$all/result.jsonl" 2>/dev/null || true
      cat "$all/$curve-$case"/error.jsonl >> "$all/error.jsonl" 2>/dev/null || true
      cat "$all/$curve-$case"/clocks.txt >> "$all/clocks.txt" 2>/dev/null || true
      [ -f "$all/env.txt" ] || cp "$all/$curve-$case/env.txt" "$all/" 2>/dev/null || true
    done
  done
  python3 benches/browser/gpu-msm-json.py "$all" "$OUT/native-first.json" "$OUT/first.json"
else
  FRESH=1 OUT="$OUT/speed-runs" BENCH_T=420 JOBS="$(cat benches/browser/gpu-msm-page-jobs.json)" \
    bash benches/browser/gpu-msm-on-gpu-machine.sh > "$OUT/speed-runs.log" 2>&1 || echo "page: exit $?" >&2
  python3 benches/browser/gpu-msm-json.py "$OUT/speed-runs" "$OUT/native-speed.json" "$OUT/speed.json"
fi
