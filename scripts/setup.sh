#!/usr/bin/env bash
#===- scripts/setup.sh - install everything Kiln needs on Debian 12 -------===//
#
# Idempotent: packages already present are left alone, so running it twice
# costs one `apt-get update` and a few seconds. Needs root (or sudo).
#
# KILN_SETUP_PEERS=1 also installs the benchmark peers (oneDNN, OpenBLAS,
# Eigen, XNNPACK); KILN_SETUP_FUZZ=1 also installs clang 22 with its
# sanitizer runtimes and libFuzzer (the fuzz/ harnesses and the sanitizer
# build, docs/reliability.md); the default install is what building and
# testing need.
#===----------------------------------------------------------------------===//
set -euo pipefail

packages=(
  # Toolchain and build.
  cmake ninja-build ccache g++ git python3
  # LLVM/MLIR 22: libMLIR.so, TableGen, lit, FileCheck, mlir-opt.
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  # The kiln Python package: Python headers and pybind11 (python/).
  python3-dev pybind11-dev
  # Formats and runtime support.
  libprotobuf-dev protobuf-compiler libabsl-dev
  # Checkpoint indexes (TensorBundle) are LevelDB tables.
  libleveldb-dev
  # NPU runtime: CRC-32 of .npub files, target-config JSON.
  zlib1g-dev nlohmann-json3-dev
  # Tests and benchmarks; pkg-config gives the NPU runtime's link line to
  # the tests that link --target=npu objects (kiln-npu-runtime.pc).
  libgtest-dev libgmock-dev libbenchmark-dev pkg-config
  # The TF.js oracle and the npm model packages.
  nodejs
)
if [[ "${KILN_SETUP_PEERS:-0}" == 1 ]]; then
  packages+=(libdnnl-dev libopenblas-dev libeigen3-dev libxnnpack-dev)
fi
if [[ "${KILN_SETUP_FUZZ:-0}" == 1 ]]; then
  packages+=(clang-22 libclang-rt-22-dev libfuzzer-22-dev)
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

# nodejs may come from another source (NodeSource) with npm bundled; accept
# any working node + npm instead of asking apt for Debian's.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}")
  missing=(${missing[@]+"${missing[@]}"})
fi

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
if ! command -v npm >/dev/null; then
  "${sudo[@]}" apt-get install -y -q --no-install-recommends npm
fi
echo "setup: done"
