#!/usr/bin/env bash
# Runs on the GPU machine, from the project root, after `make gpu-bench-bin` here and a copy of
# .gl/ and .bin/ there. Unpacks the Vulkan loader, points it at NVIDIA's driver, runs every
# benchmark and writes the results JSON into $OUT (default: benches/results).
set -euo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
out=${OUT:-benches/results}
device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
./.bin/wgsl-mont-bench --threads 1048576 --iterations 256 --reps 7 --workgroup-sizes 64,256 \
    --commit "$(cat .bin/COMMIT)" --date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --out "$out/wgsl-mont-$device.json"
