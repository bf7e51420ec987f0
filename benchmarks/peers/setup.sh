#!/usr/bin/env bash
#===- benchmarks/peers/setup.sh - install the peers of the CPU benchmark ---===#
#
# Installs the engines run.py measures Kiln against, each pinned with hashes,
# outside the source tree:
#
#   ${KILN_PEERS_VENV:-$HOME/.cache/kiln/peers-venv}
#       TensorFlow 2.21 (tensorflow-cpu), LiteRT (ai-edge-litert), OpenVINO,
#       ONNX Runtime with tf2onnx, IREE (iree-base-compiler,
#       iree-base-runtime, iree-tools-tf) from requirements-peers.lock, with
#       `pip install --require-hashes --only-binary=:all:`. They all resolve
#       against TensorFlow 2.21, so one venv holds them.
#   ${KILN_PEERS_TFJS_DIR:-$HOME/.cache/kiln/peers-tfjs}/node_modules
#       TF.js 4.22.0 with its WebAssembly backend, from tfjs/package-lock.json
#       with `npm ci --ignore-scripts`.
#
# Idempotent: each lock file's SHA-256 is recorded in an .installed file once
# its install succeeded; a later run with the same locks only checks that the
# environment starts. KILN_PYTHON picks the interpreter (default python3, the
# lock is resolved for Python 3.11 on x86-64 Linux). Prints the venv's path on
# stdout, then the TF.js directory; progress goes to stderr.
#===------------------------------------------------------------------------===#
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
lock=$here/requirements-peers.lock
venv=$(realpath -m "${KILN_PEERS_VENV:-$HOME/.cache/kiln/peers-venv}")
tfjs=$(realpath -m "${KILN_PEERS_TFJS_DIR:-$HOME/.cache/kiln/peers-tfjs}")
python=${KILN_PYTHON:-python3}

for dir in "$venv" "$tfjs"; do
  case "$dir/" in
    "$root"/*)
      echo "setup.sh: $dir must be outside the source tree" >&2
      exit 1 ;;
  esac
done

#--- Python peers ----------------------------------------------------------#
lock_sum=$(sha256sum "$lock" | cut -d' ' -f1)
if [[ -f "$venv/.installed" && "$(cat "$venv/.installed")" == "$lock_sum" ]] &&
   "$venv/bin/python" -c 'import numpy, onnxruntime, openvino' 2>/dev/null; then
  echo "setup.sh: $venv already matches $(basename "$lock")" >&2
else
  if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
    sudo=()
    if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
    echo "setup.sh: installing python3-venv" >&2
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q \
      --no-install-recommends python3-venv >&2
  fi
  echo "setup.sh: installing $(basename "$lock") into $venv" >&2
  start=$SECONDS
  rm -f "$venv/.installed"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    --no-input --require-hashes --only-binary=:all: -r "$lock" >&2
  echo "$lock_sum" > "$venv/.installed"
  echo "setup.sh: Python peers installed in $((SECONDS - start)) s" >&2
fi

#--- TF.js with the WebAssembly backend ------------------------------------#
for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "setup.sh: $tool is required for the TF.js peer (apt-get install nodejs npm)" >&2
    exit 1
  fi
done
npm_sum=$(sha256sum "$here/tfjs/package-lock.json" | cut -d' ' -f1)
if [[ -f "$tfjs/.installed" && "$(cat "$tfjs/.installed")" == "$npm_sum" ]] &&
   [[ -f "$tfjs/node_modules/@tensorflow/tfjs-backend-wasm/package.json" ]]; then
  echo "setup.sh: $tfjs already matches tfjs/package-lock.json" >&2
else
  echo "setup.sh: installing TF.js (wasm) into $tfjs" >&2
  mkdir -p "$tfjs"
  rm -f "$tfjs/.installed"
  cp "$here/tfjs/package.json" "$here/tfjs/package-lock.json" "$tfjs/"
  (cd "$tfjs" && npm ci --ignore-scripts --no-audit --no-fund --silent >&2)
  echo "$npm_sum" > "$tfjs/.installed"
fi

echo "$venv"
echo "$tfjs"
