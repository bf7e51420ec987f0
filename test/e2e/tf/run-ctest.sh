#!/usr/bin/env bash
#===- test/e2e/tf/run-ctest.sh - the TensorFlow e2e tests under ctest -----===#
#
#   run-ctest.sh BIN_DIR ARTIFACTS_DIR [PYTEST_ARGS...]
#
# Runs pytest on test/e2e/tf with the Python of the venv that
# scripts/setup-python.sh installs (${KILN_VENV:-$HOME/.cache/kiln/venv}),
# Kiln's tools from BIN_DIR, the artifacts and report.md in ARTIFACTS_DIR.
# Exits 77 (ctest: skipped, with the reason printed) when the venv or
# TensorFlow is missing, or when pytest selected no test (its exit 5), so
# neither passes silently nor breaks the run; otherwise pytest's status.
#===------------------------------------------------------------------------===#
set -uo pipefail

if [[ $# -lt 2 ]]; then
  sed -n '4,11p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin_dir=$(realpath -m "$1") artifacts=$(realpath -m "$2")
shift 2
venv=${KILN_VENV:-$HOME/.cache/kiln/venv}
python=$venv/bin/python

if [[ ! -x "$python" ]]; then
  echo "e2e-tf: SKIPPED: no venv at $venv (scripts/setup-python.sh installs it)"
  exit 77
fi
if ! "$python" -c 'import tensorflow, numpy, pytest' >/dev/null 2>&1; then
  echo "e2e-tf: SKIPPED: $python cannot import tensorflow, numpy and pytest" \
       "(run scripts/setup-python.sh)"
  exit 77
fi

cd "$here"
PYTHONDONTWRITEBYTECODE=1 "$python" -m pytest --kiln-bin-dir="$bin_dir" \
  --artifacts-dir="$artifacts" "$@"
status=$?
if [[ $status -eq 5 ]]; then
  echo "e2e-tf: SKIPPED: pytest selected no test (exit 5) with: $*"
  exit 77
fi
exit $status
