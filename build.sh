#!/usr/bin/env bash
#===- build.sh - install, build, demo and test Kiln -----------------------===//
#
#   ./build.sh demo    install packages, build, run the demo
#   ./build.sh test    install packages, build, run every test (ctest)
#   ./build.sh build   configure and build only
#   ./build.sh setup   install packages only (scripts/setup.sh)
#
# Environment: KILN_BUILD_DIR (default: build), KILN_JOBS (default: nproc),
# KILN_BUILD_TYPE (default: Release; assertions stay on in Kiln's code),
# KILN_SKIP_SETUP=1 to skip the package check, KILN_SKIP_PYTHON=1 to skip
# installing TensorFlow's venv for test/e2e/tf (scripts/setup-python.sh).
# KILN_CC / KILN_CXX (compilers of a new build directory, e.g.
# /usr/lib/llvm-22/bin/clang++), KILN_SANITIZE (e.g. "address;undefined"),
# KILN_ENABLE_FUZZING=1 (libFuzzer harnesses, clang): docs/reliability.md.
#===----------------------------------------------------------------------===//
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${KILN_BUILD_DIR:-$root/build}
jobs=${KILN_JOBS:-$(nproc)}
llvm=/usr/lib/llvm-22

setup() {
  if [[ "${KILN_SKIP_SETUP:-0}" != 1 ]]; then
    bash "$root/scripts/setup.sh"
  fi
}

configure() {
  local launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
              -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  local compilers=() extra=()
  if [[ -n "${KILN_CC:-}" ]]; then compilers+=(-DCMAKE_C_COMPILER="$KILN_CC"); fi
  if [[ -n "${KILN_CXX:-}" ]]; then compilers+=(-DCMAKE_CXX_COMPILER="$KILN_CXX"); fi
  if [[ -n "${KILN_SANITIZE:-}" ]]; then extra+=(-DKILN_SANITIZE="$KILN_SANITIZE"); fi
  if [[ "${KILN_ENABLE_FUZZING:-0}" == 1 ]]; then extra+=(-DKILN_ENABLE_FUZZING=ON); fi
  if [[ ! -f "$build/build.ninja" ]]; then
    cmake -G Ninja -S "$root" -B "$build" \
      -DCMAKE_BUILD_TYPE="${KILN_BUILD_TYPE:-Release}" \
      -DMLIR_DIR="$llvm/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$llvm/bin/lit" \
      "${launcher[@]}" ${compilers[@]+"${compilers[@]}"} \
      ${extra[@]+"${extra[@]}"}
  elif [[ ${#extra[@]} -gt 0 ]]; then
    # Compilers are fixed at the first configure; sanitizers and fuzzing
    # can change (everything rebuilds).
    cmake "$build" ${extra[@]+"${extra[@]}"}
  fi
}

build() {
  configure
  cmake --build "$build" -j "$jobs"
}

demo() {
  local model=$root/examples/classify/model.pbtxt
  echo "== kiln-compile $model --config=${model%.pbtxt}.config.pbtxt -o classifier.o (at build time)"
  echo "== classify: examples/classify/classify.cpp linked with classifier.o"
  "$build/bin/classify"
  local input=$root/examples/demo/scale-add.mlir
  echo
  echo "== kiln-opt --kiln-linalg-to-llvm-pipeline $input | kiln-translate --mlir-to-llvmir"
  "$build/bin/kiln-opt" "$input" --kiln-linalg-to-llvm-pipeline |
    "$build/bin/kiln-translate" --mlir-to-llvmir
}

run_tests() {
  if [[ "${KILN_SKIP_MODELS:-0}" != 1 ]]; then
    bash "$root/test/models/fetch-models.sh" >/dev/null
    # TF.js, the numerical oracle the end-to-end tests compare against.
    bash "$root/test/e2e/tfjs-oracle/install.sh" >/dev/null
  fi
  if [[ "${KILN_SKIP_PYTHON:-0}" != 1 ]]; then
    # TensorFlow, the reference of test/e2e/tf (docs/e2e.md).
    bash "$root/scripts/setup-python.sh" >/dev/null
  fi
  ctest --test-dir "$build" -j "$jobs" --output-on-failure --timeout 1800
}

case "${1:-}" in
  setup) setup ;;
  build) setup; build ;;
  demo)  setup; build; demo ;;
  test)  setup; build; run_tests ;;
  *) sed -n '4,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
