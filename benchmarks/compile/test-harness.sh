#!/usr/bin/env bash
#===- benchmarks/compile/test-harness.sh - the benchmark's tests (ctest) --===#
#
# Runs test_compilelib.py (the compile-time benchmark's model list, measured
# compile, table and doc block; no Kiln binary or model needed) with pytest
# from the e2e venv (${KILN_VENV:-$HOME/.cache/kiln/venv},
# scripts/setup-python.sh), else from python3. Exits 77 (ctest: skipped,
# reason printed) when neither has pytest.
#===------------------------------------------------------------------------===#
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python=${KILN_VENV:-$HOME/.cache/kiln/venv}/bin/python
[[ -x "$python" ]] || python=python3
if ! "$python" -c 'import pytest' >/dev/null 2>&1; then
  echo "compile-times-harness: SKIPPED: no pytest (run scripts/setup-python.sh)"
  exit 77
fi
PYTHONDONTWRITEBYTECODE=1 exec "$python" -m pytest -p no:cacheprovider -q \
  "$here/test_compilelib.py"
