#!/usr/bin/env bash
#===- scripts/setup-python.sh - the Python environment of the e2e tests ---===//
#
# Creates a virtual environment outside the source tree and installs
# TensorFlow (tensorflow-cpu), numpy and pytest into it from
# python/requirements-e2e.lock with `pip install --require-hashes`:
#
#   ${KILN_VENV:-$HOME/.cache/kiln/venv}
#
# Idempotent: the lock file's SHA-256 is recorded in the venv's .installed
# once the install succeeded, and a later run with the same lock only checks
# that the venv's Python starts. KILN_PYTHON picks the interpreter the venv is
# made from (default: python3; the lock is resolved for Python 3.11).
# Prints the venv's path on stdout; progress goes to stderr.
#===----------------------------------------------------------------------===//
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lock=$root/python/requirements-e2e.lock
venv=$(realpath -m "${KILN_VENV:-$HOME/.cache/kiln/venv}")
python=${KILN_PYTHON:-python3}

case "$venv/" in
  "$root"/*)
    echo "setup-python: the venv ($venv) must be outside the source tree" >&2
    exit 1 ;;
esac

lock_sum=$(sha256sum "$lock" | cut -d' ' -f1)
if [[ -f "$venv/.installed" && "$(cat "$venv/.installed")" == "$lock_sum" ]] &&
   "$venv/bin/python" -c 'import numpy, pytest' 2>/dev/null; then
  echo "setup-python: $venv already matches $(basename "$lock")" >&2
  echo "$venv"
  exit 0
fi

# Debian splits venv (and ensurepip) out of python3.
if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
  echo "setup-python: installing python3-venv" >&2
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q \
    --no-install-recommends python3-venv >&2
fi

echo "setup-python: installing $(basename "$lock") into $venv" >&2
start=$SECONDS
rm -f "$venv/.installed"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check \
  --no-input --require-hashes --only-binary=:all: -r "$lock" >&2
echo "$lock_sum" > "$venv/.installed"
echo "setup-python: done in $((SECONDS - start)) s" >&2
echo "$venv"
