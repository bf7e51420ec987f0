#!/usr/bin/env bash
#===- kiln-npu-sim-test.sh - End-to-end check of kiln-npu-sim -------------===#
#
#   kiln-npu-sim-test.sh <kiln-npu-sim> <scratch dir>
#
# Writes the example stream, runs it with input/output files and a trace,
# disassembles it, and checks that a corrupted file is rejected cleanly.
#===----------------------------------------------------------------------===#
set -euo pipefail
tool=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"

fail() { echo "FAIL: $*"; exit 1; }

"$tool" --help >help.txt 2>&1 || true
grep -q -- "--trace" help.txt || fail "--help does not list --trace"
grep -q "runs an NPU-v1 command stream" help.txt || fail "no usage text"

"$tool" --example=conv.npub --example_input=x.bin >/dev/null
[[ -s conv.npub && $(stat -c %s x.bin) == 65536 ]] || fail "example files"

"$tool" conv.npub --input=x=x.bin --output=y=y.bin --trace=trace.json \
  >stats.txt
grep -q "^total cycles" stats.txt || fail "no total cycles"
grep -q "^MAC utilisation" stats.txt || fail "no MAC utilisation"
grep -Eq "^MAC +8 " stats.txt || fail "MAC did not run 8 commands"
[[ $(stat -c %s y.bin) == 65536 ]] || fail "output y.bin has the wrong size"
python3 - <<'PY' || fail "trace is not Chrome trace-event JSON"
import json
t = json.load(open("trace.json"))
ev = [e for e in t["traceEvents"] if e.get("ph") == "X"]
assert any(e["cat"] == "MAC" for e in ev) and any(e["cat"] == "DMA_IN" for e in ev)
PY

"$tool" conv.npub --disassemble >dis.txt
grep -q "MAC_CONV .*in.dtype=i8" dis.txt || fail "disassembly"
grep -q "; conv2d at example.py:12" dis.txt || fail "debug names"

# A flipped byte in the body: a clear error, exit status 1, no crash.
cp conv.npub bad.npub
printf '\x55' | dd of=bad.npub bs=1 seek=300 conv=notrunc status=none
if "$tool" bad.npub >out.txt 2>err.txt; then fail "corrupted file accepted"; fi
grep -q "CRC mismatch" err.txt || fail "unexpected error: $(cat err.txt)"
echo "kiln-npu-sim: OK"
