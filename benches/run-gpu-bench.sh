#!/usr/bin/env bash
# Runs on the GPU machine, from the project root, after `make gpu-bench-bin` here and a copy of
# .gl/ and .bin/ there. Unpacks the Vulkan loader, points it at NVIDIA's driver, runs the
# benchmarks named by the argument (all|msm|profile|resident|upload|stats|mont|first; default all) and writes
# the results JSON into $OUT (default: benches/results).
set -euo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
out=${OUT:-benches/results}
device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
what=${1:-all}
# `profile`: the default plan from a calibration made in the same process against the plan tuned on
# the H200 (the `h200` device profile), BN254 and BLS12-377 at each width the profile picks.
stamp=(--commit "$(cat .bin/COMMIT)" --date "$(date -u +%Y-%m-%dT%H:%M:%SZ)")
if [[ $what == all || $what == msm ]]; then
  # Uniform scalars at every size on the portable widths (32-bit integers only, what a browser
  # runs: 15 bits, its default, and 13, the width issue 7 names) and on the native default (0:
  # SHADER_INT64, each curve's reduced-radix width; other widths are experiments,
  # gpu-msm-experiment-widths-*.json); then the skewed patterns of issue 7 at 2^20, native.
  ./.bin/msm_bench --curves bls12-377,bn254 --log-n 16,18,20,22 --limb-bits 13,15,0 --reps 7 \
      "${stamp[@]}" --out "$out/gpu-msm-$device.json"
  ./.bin/msm_bench --curves bls12-377,bn254 --log-n 20 --limb-bits 0 --patterns uniform,small,equal --reps 5 \
      "${stamp[@]}" --out "$out/gpu-msm-skewed-$device.json"
fi
if [[ $what == all || $what == profile ]]; then
  ./.bin/msm_bench --curves bls12-377,bn254 --log-n 16,18,20 --limb-bits 0 --profiles calibrated,h200 --reps 7 \
      "${stamp[@]}" --out "$out/gpu-msm-profiles-$device.json"
fi
if [[ $what == all || $what == resident ]]; then
  # Bases resident on the GPU (uploaded and converted once, scalars only per MSM) beside the
  # host-array MSM of the same plan, on the native default width.
  ./.bin/msm_bench --curves bn254,bls12-377 --log-n 16,18,20,22 --limb-bits 0 --resident 1 --reps 7 \
      "${stamp[@]}" --out "$out/gpu-msm-resident-$device.json"
fi
if [[ $what == all || $what == upload ]]; then
  # Host-to-GPU copy of 128 MiB (the packed input of BLS12-377 at n = 2^20), four ways.
  ./.bin/upload_probe --mib 128 --reps 9 --out "$out/upload-probe-$device.json"
fi
if [[ $what == all || $what == stats ]]; then
  # Registers (and whatever else the driver reports) per pipeline, portable and native default.
  ./.bin/pipeline_stats --curves bls12-377 --limb-bits 13,30 "${stamp[@]}" --out "$out/pipeline-stats-$device.json"
  ./.bin/pipeline_stats --curves bn254 --limb-bits 13,29 "${stamp[@]}" --out "$out/pipeline-stats-bn254-$device.json"
fi
if [[ $what == all || $what == first ]]; then
  # A new user's first MSM of every curve, from the process's start, each sample a new process
  # with empty caches (driver shader caches and profile cache), then with the driver's cache a
  # first run left; and one calibration per curve (its default budget).
  ./.bin/first_call --reps 3 "${stamp[@]}" --out "$out/gpu-first-call-$device.json"
fi
[[ $what == all || $what == mont ]] || exit 0
./.bin/wgsl-mont-bench --threads 1048576 --iterations 256 --reps 7 --workgroup-sizes 64,256 \
    "${stamp[@]}" --out "$out/wgsl-mont-$device.json"
