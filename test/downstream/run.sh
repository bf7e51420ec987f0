#!/usr/bin/env bash
# Installs the Kiln build tree into a scratch prefix, configures and builds
# test/downstream against it with find_package(Kiln), and runs the tool.
#   run.sh <kiln build dir> <scratch dir> <MLIR_DIR>
set -euo pipefail
build=$1 work=$2 mlir_dir=$3
here=$(cd "$(dirname "$0")" && pwd)

rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -G Ninja -S "$here" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DKiln_DIR="$work/prefix/lib/cmake/kiln" -DMLIR_DIR="$mlir_dir" \
  "${launcher[@]}" >"$work/configure.log"
cmake --build "$work/build" >"$work/build.log"

tool=$work/build/downstream-opt
# (Through a file: with pipefail, grep -q closing the pipe early would fail
# the pipeline.)
"$tool" --help >"$work/help.txt"
grep -q -- '--kiln-verify-llvm-contract' "$work/help.txt" || {
  echo "FAIL: downstream-opt does not list --kiln-verify-llvm-contract"; exit 1; }
if "$tool" "$here/input.mlir" --kiln-verify-llvm-contract \
     >"$work/out.mlir" 2>"$work/err.txt"; then
  echo "FAIL: the contract pass accepted arith.constant"; exit 1
fi
grep -q "'arith.constant' is not in the llvm dialect" "$work/err.txt" || {
  echo "FAIL: unexpected diagnostics:"; cat "$work/err.txt"; exit 1; }
models=$work/build/run-models
"$models" >"$work/models.txt" || {
  echo "FAIL: run-models"; cat "$work/models.txt"; exit 1; }
grep -q "npu vs cpu" "$work/models.txt" || {
  echo "FAIL: run-models printed:"; cat "$work/models.txt"; exit 1; }
echo "downstream: find_package(Kiln) build, pass run and compiled models OK"
