#!/usr/bin/env bash
#===- test/python/run-ctest.sh - the kiln package's tests under ctest ----===#
#
#   run-ctest.sh PYTHON_BUILD_DIR [PYTEST_ARGS...]
#
# Runs pytest on test/python with the Python of the venv that
# scripts/setup-python.sh installs (${KILN_VENV:-$HOME/.cache/kiln/venv})
# and PYTHONPATH=PYTHON_BUILD_DIR (build/python, where the package is laid
# out). Exits 77 (ctest: skipped, reason printed) when the venv lacks numpy
# or pytest; tests that need TensorFlow skip themselves without it.
#===------------------------------------------------------------------------===#
set -uo pipefail

if [[ $# -lt 1 ]]; then
  sed -n '4,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
package_dir=$(realpath -m "$1")
shift
venv=${KILN_VENV:-$HOME/.cache/kiln/venv}
python=$venv/bin/python

if ! "$python" -c 'import numpy, pytest' >/dev/null 2>&1; then
  echo "python-kiln: SKIPPED: $python cannot import numpy and pytest" \
       "(run scripts/setup-python.sh)"
  exit 77
fi
cd "$here"
PYTHONPATH=$package_dir PYTHONDONTWRITEBYTECODE=1 TF_CPP_MIN_LOG_LEVEL=2 \
  "$python" -m pytest "$@"
