#!/usr/bin/env bash
# Copies the TableGen-generated dialect and pass docs from a build tree into
# docs/generated/, where they are committed for readers of the repository.
# ctest's docs-up-to-date test fails when the two differ.
#   scripts/update-docs.sh [build dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cmake --build "$build" --target kiln-doc >/dev/null
rm -rf "$root/docs/generated"
mkdir -p "$root/docs/generated"
cp -r "$build/docs/." "$root/docs/generated/"
echo "updated docs/generated from $build/docs"
