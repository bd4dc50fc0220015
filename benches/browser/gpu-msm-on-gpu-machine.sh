#!/bin/bash
# The book's GPU MSM widget task (book/widgets/widgets/gpu-msm.js, run in the page's own widget worker) in a
# headless Chromium on the NVIDIA GPU machine, WebGPU on Vulkan. Chromium staged as for
# threads-on-gpu-machine.sh; the built site in .site/; .gl/ unpacked (the Vulkan loader).
#   OUT=DIR JOBS='[{…gpu-msm params…}, …]' bash benches/browser/gpu-msm-on-gpu-machine.sh
# Job params beyond the widget's form: "upload" may list several paths (one row each, same page),
# "wait_after_upload": true adds a wait until the GPU has the input (diagnostic). Each row carries
# the host timeline of its median run (host_trace_of_median_run); the end of this script prints it
# summed by kind (benches/browser/host-trace.py --brief), the full timelines go to OUT/host-trace.txt.
# The first use (a fresh profile, as a reader's first visit): FRESH=1 deletes the browser profile
# (UD, default /tmp/ud-gpu-msm) first, and a job with "first_click": "at-once" or "after-prepare"
# prepares the GPU as the page does when it opens and presses Run at once or after it is ready
# (book/bench/run.html); the result's first_use gives both waits. One curve per call: the GPU
# process keeps compiled pipelines for the browser's life.
# PAGE='bench/upload-probe.html?mb=128&reps=5' runs that page instead (no JOBS): the browser's upload
# paths alone, apart from any MSM; its result is printed.
# Flags (benches/README.md): ANGLE composites on SwiftShader, which has the headless
# surface extension, so Chrome counts GL as hardware and Dawn's high-performance adapter is the GPU.
set -eu
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
source benches/browser/chromium.sh
NV=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export VK_DRIVER_FILES=$NV:$RT/vk_swiftshader_icd.json VK_ICD_FILENAMES=$NV:$RT/vk_swiftshader_icd.json
export ANGLE_PREFERRED_DEVICE='SwiftShader Device (Subzero)'
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; "$RT/chromium" --version; } > "$OUT/env.txt" 2>&1 || true
# The SM clock falls to a fraction within ~1.5 s of idle; sample it every 100 ms while the page
# runs, with the time of each sample, so that gpu-msm-json.py gives each row the samples taken
# during its timed runs (the row's timed_epoch_ms).
nvidia-smi --query-gpu=timestamp,clocks.sm --format=csv,noheader -lms 100 > "$OUT/clocks.txt" 2>&1 &
clocks=$!
if [ -z "${PAGE:-}" ]; then
  jobs=$(python3 -c "import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))" "$JOBS")
fi
page=${PAGE:-"bench/run.html?widget=gpu-msm&jobs=$jobs"}
UD=${UD:-/tmp/ud-gpu-msm}
if [ "${FRESH:-0}" = 1 ]; then rm -rf "$UD"; fi
status=0
python3 benches/browser/drive.py --site .site --out "$OUT" --chrome "$RT/chromium" --timeout "${BENCH_T:-540}" \
  --page "$page" -- --headless=new --no-sandbox --no-first-run \
  --enable-unsafe-webgpu --ignore-gpu-blocklist --enable-webgpu-developer-features --enable-features=Vulkan \
  --use-angle=vulkan --disable-vulkan-surface --disable-background-networking --disable-component-update \
  --disable-sync --disable-dev-shm-usage --user-data-dir="$UD" || status=$?
kill $clocks 2>/dev/null || true
if [ -n "${PAGE:-}" ]; then
  cat "$OUT/result.jsonl" 2>/dev/null || true
elif [ -s "$OUT/result.jsonl" ]; then
  python3 benches/browser/host-trace.py "$OUT" > "$OUT/host-trace.txt" || true
  python3 benches/browser/host-trace.py --brief "$OUT" || true
fi
exit $status
