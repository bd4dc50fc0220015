#!/usr/bin/env bash
# Builds .bin/sppark-bench: supranational's sppark MSM (the `sppark` crate's CUDA sources) for
# BLS12-377, BLS12-381 and BN254 behind our Rust driver, for NVIDIA sm_90/sm_90a (H100, H200), with the CUDA
# runtime linked statically so that the GPU machine needs only its driver (libcuda.so.1).
#
# No CUDA toolkit is assumed: nvcc, the runtime's headers and libcudart_static.a come from NVIDIA's
# PyPI wheels, installed at pinned versions into a virtual environment under target/ (once; later
# runs reuse it). The 13.0 wheels match the GPU machine's driver (580 = CUDA 13.0): a binary built
# with a newer runtime than the driver may refuse to start. Run from anywhere; needs python3, cargo
# and a host C++ compiler (installed from Debian when missing). `build.sh test` runs the driver's
# tests instead of building the binary.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${SPPARK_CUDA_VENV:-$root/target/sppark/cuda-venv}
wheels=(nvidia-cuda-nvcc==13.0.88 nvidia-cuda-crt==13.0.88 nvidia-nvvm==13.0.88
        nvidia-cuda-runtime==13.0.96 nvidia-cuda-cccl==13.0.85)

if ! command -v g++ >/dev/null; then
  echo "build.sh: no g++ (nvcc's host compiler); installing Debian's" >&2
  apt-get update -qq && apt-get install -y -qq g++
fi

stamp="$venv/.installed"
if [[ ! -f $stamp || $(cat "$stamp") != "${wheels[*]}" ]]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${wheels[@]}"
  echo "${wheels[*]}" > "$stamp"
fi
cuda=$("$venv/bin/python" -c 'import nvidia, os; print(os.path.join(nvidia.__path__[0], "cu13"))')
[[ -x $cuda/bin/nvcc ]] || { echo "build.sh: no nvcc under $cuda" >&2; exit 1; }

# NVCC=off: the sppark crate's own build script then compiles nothing (its GPU table is compiled
# into our harness); ours takes the compiler from NVCC_PATH.
export NVCC=off NVCC_PATH=$cuda/bin/nvcc
"$NVCC_PATH" --version | tail -2
# Own target directory: the driver is not a member of the main workspace.
export CARGO_TARGET_DIR=$root/target/sppark
if [[ ${1:-} == test ]]; then
  # The driver's own tests (no GPU needed): sppark's host arithmetic against arkworks, the loop.
  exec nice -n 5 cargo test --release --manifest-path "$root/benches/sppark/Cargo.toml"
fi
nice -n 5 cargo build --release --manifest-path "$root/benches/sppark/Cargo.toml"

mkdir -p "$root/.bin"
cp "$root/target/sppark/release/sppark-bench" "$root/.bin/sppark-bench"
strip "$root/.bin/sppark-bench"
git -C "$root" rev-parse --short HEAD > "$root/.bin/SPPARK_COMMIT" 2>/dev/null || echo unknown > "$root/.bin/SPPARK_COMMIT"
ls -l "$root/.bin/sppark-bench"
