#!/usr/bin/env bash
# Runs on the GPU machine, from the project root, after `make gpu-bench-bin` here and a copy of
# .gl/ and .bin/ there. Unpacks the Vulkan loader, points it at NVIDIA's driver, runs the
# benchmarks named by the argument (all|msm|profile|resident|upload|stats|mont|first; default all;
# `speed`, or its halves `speed-ours` and `speed-sppark`, not part of all; `speed` and
# `speed-sppark` need .bin/sppark-bench from `make sppark-bin` too) and writes the results JSON
# into $OUT (default: benches/results).
set -euo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
out=${OUT:-benches/results}
device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
what=${1:-all}
# `profile`: the default plan from a calibration made in the same process against the plan tuned on
# the H200 (the `h200` device profile), BN254 and BLS12-377 at each width the profile picks.
# DATE: the stamp of runs made by separate calls that belong together (speed-ours, speed-sppark).
stamp=(--commit "$(cat .bin/COMMIT)" --date "${DATE:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}")
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
if [[ $what == speed* ]]; then
  # Issue 32 in one call (or two, speed-ours then speed-sppark, with the same DATE), ours and sppark
  # with the same date stamp, which the results chapter pairs them by: three curves at 2^16..2^24
  # on the native default width, the default projective SMVP beside two batch-affine forms (16
  # lanes per invocation, inversions shared by a workgroup of 256: Fermat's and the divstep one),
  # bases resident plain and with 2 and 4 precomputed copies, and 32 MSMs of 2^14 in one run_batch
  # call against 32 calls; 2^22 and 2^24 again with c = 16 and 19 beside the rule's 17 (an
  # experiment file: the windows' effect alone); then sppark
  # from pageable, pinned and resident memory on the same inputs. Ours runs with the named profile
  # of the H100 or H200 (the same plans), not a calibration, which would take minutes per curve. A
  # run that does not verify, or a configuration the device refuses, fails the suite after the
  # others have run.
  if [[ $what != speed-ours && ! -x .bin/sppark-bench ]]; then
    echo "run-gpu-bench.sh: no .bin/sppark-bench (make sppark-bin)" >&2; exit 1
  fi
  profile=h100; [[ $device == *h200* ]] && profile=h200
  status=0
  if [[ $what == speed || $what == speed-ours ]]; then
    ./.bin/msm_bench --curves bn254,bls12-377,bls12-381 --log-n 16,18,20,22,24 --limb-bits 0 \
        --profiles $profile --smvp none,affine-16-wg256,affine-16-wg256-by --resident 1 --precompute 2,4 \
        --batch-msms 32 --batch-log-n 14 --reps 5 \
        "${stamp[@]}" --out "$out/gpu-msm-speed-$device.json" || status=1
    ./.bin/msm_bench --curves bn254,bls12-377,bls12-381 --log-n 22,24 --limb-bits 0 --profiles $profile \
        --windows 16,19 --reps 5 "${stamp[@]}" --out "$out/gpu-msm-experiment-window-cap-$device.json" || status=1
  fi
  if [[ $what == speed || $what == speed-sppark ]]; then
    ./.bin/sppark-bench --curves bn254,bls12-377,bls12-381 --log-n 16,18,20,22,24 \
        --memory pageable,pinned,resident --reps 5 \
        "${stamp[@]}" --out "$out/gpu-msm-sppark-speed-$device.json" || status=1
  fi
  exit $status
fi
[[ $what == all || $what == mont ]] || exit 0
./.bin/wgsl-mont-bench --threads 1048576 --iterations 256 --reps 7 --workgroup-sizes 64,256 \
    "${stamp[@]}" --out "$out/wgsl-mont-$device.json"
