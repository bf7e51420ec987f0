#!/usr/bin/env bash
#===- kiln-npu-sim-test.sh - End-to-end check of kiln-npu-sim -------------===#
#
#   kiln-npu-sim-test.sh <kiln-npu-sim> <scratch dir>
#
# Writes the example stream, runs it with input/output files and a trace,
# disassembles it, writes tiled layers for --config, and checks that a
# corrupted file, a tile that does not fit and bad options are rejected.
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

grep -q "^MAC utilisation .*(useful MACs)" stats.txt || fail "no useful MACs"
grep -q "^padded utilisation" stats.txt || fail "no padded utilisation"
grep -q -- "--config" help.txt || fail "--help does not list --config"
"$tool" conv.npub --timing_only >timing.txt
grep -q "^MAC utilisation .*n/a (timing-only run)" timing.txt ||
  fail "a timing-only run claims useful MACs"

# --config and a tiled layer: the realistic TARGET section, a correct run.
"$tool" --example=tiled.npub --example_conv=conv3x3:13x13x19x35 \
  --config=realistic --example_input=tx.bin >/dev/null
"$tool" tiled.npub --disassemble >tiled.dis
grep -q "MAC_CONV .*pt=1" tiled.dis || fail "tiled example has no padded band"
grep -q "^# target: .*LMEM 704 KiB" tiled.dis ||
  fail "--config=realistic did not reach the TARGET section"
"$tool" tiled.npub --input=x=tx.bin >tiled.txt || fail "tiled example run"
grep -q "^DRAM r3 .*written 5915 B" tiled.txt || fail "tiled output bytes"
"$tool" --example=f.npub --example_conv=dwconv3x3:13x13x35x35 \
  --example_schedule=fenced >/dev/null
"$tool" f.npub --disassemble | grep -Eq "^ *[0-9]+: NOP" ||
  fail "fenced has no NOP"
echo '{"lmem.act_kib": 8}' >small.json
if "$tool" --example=s.npub --example_conv=conv3x3:112x112x64x64 \
  --config=small.json 2>err.txt; then fail "an unfitting tile was accepted"; fi
grep -q "does not fit LMEM" err.txt || fail "unexpected error: $(cat err.txt)"
if "$tool" --example=s.npub --config=nosuch 2>err.txt; then
  fail "an unknown --config was accepted"; fi
grep -q "not a preset" err.txt || fail "unexpected error: $(cat err.txt)"
if "$tool" --example=s.npub --example_conv=conv5x5:1x1x1x1 2>err.txt; then
  fail "a bad --example_conv was accepted"; fi

"$tool" conv.npub --disassemble >dis.txt
grep -q "MAC_CONV .*in.dtype=i8" dis.txt || fail "disassembly"
grep -q "; conv2d at example.py:12" dis.txt || fail "debug names"

# A flipped byte in the body: a clear error, exit status 1, no crash.
cp conv.npub bad.npub
printf '\x55' | dd of=bad.npub bs=1 seek=300 conv=notrunc status=none
if "$tool" bad.npub >out.txt 2>err.txt; then fail "corrupted file accepted"; fi
grep -q "CRC mismatch" err.txt || fail "unexpected error: $(cat err.txt)"
echo "kiln-npu-sim: OK"
