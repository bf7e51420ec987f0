"""Runs the cycle a new user would, with no options, through files:
import (TF.js model.json or GraphDef) -> export -> import -> export, and
fails with the diff when the two GraphDefs differ.
Usage: export-cycle.py KILN_TRANSLATE WORKDIR INPUT..."""
import difflib
import os
import subprocess
import sys

translate, workdir, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
os.makedirs(workdir, exist_ok=True)
failed = 0
for i, path in enumerate(inputs):
    importer = "--import-tfjs" if path.endswith(".json") else "--import-graphdef"
    files = [os.path.join(workdir, "%d.%s" % (i, ext))
             for ext in ("a.mlir", "g1.pbtxt", "b.mlir", "g2.pbtxt")]
    steps = [[importer, path], ["--export-graphdef", files[0]],
             ["--import-graphdef", files[1]], ["--export-graphdef", files[2]]]
    for step, out in zip(steps, files):
        run = subprocess.run([translate] + step + ["-o", out],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print("%s: kiln-translate %s failed:\n%s" % (
                path, " ".join(step), run.stderr))
            failed += 1
            break
    else:
        first, second = (open(f).read().splitlines() for f in files[1::2])
        if first != second:
            print("%s: the second GraphDef differs from the first:" % path)
            print("\n".join(list(difflib.unified_diff(
                first, second, "first", "second", lineterm=""))[:60]))
            failed += 1
        else:
            print("%s: fixpoint (%d lines)" % (path, len(first)))
sys.exit(1 if failed else 0)
