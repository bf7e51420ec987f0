#!/usr/bin/env python3
"""Checks that GraphDef -> MLIR -> GraphDef loses nothing, for each input
(a GraphDef or a TF.js model.json), through files and without options:

    graphdef-roundtrip.py KILN_TRANSLATE WORKDIR INPUT...

1. import the input and export it (g1): g1 must be the input's graph
   (graphdef-diff.py's comparison: names, ops, inputs, attributes,
   functions);
2. import g1 and export it again (g2): g2 must be g1, byte for byte
   (export . import is a fixpoint).

Prints one line per input ("<input>: same graph, fixpoint" or the first
difference, by node name) and exits 1 if any input fails. Runs in one
Python process, so TensorFlow starts once (docs/reliability.md)."""

import importlib.util
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "graphdef_diff", os.path.join(here, "graphdef-diff.py"))
graphdef_diff = importlib.util.module_from_spec(spec)
spec.loader.exec_module(graphdef_diff)


def translate(tool, args, out):
    run = subprocess.run([tool] + args + ["-o", out], capture_output=True,
                         text=True)
    if run.returncode != 0:
        return "kiln-translate %s failed: %s" % (" ".join(args),
                                                 run.stderr.strip()[:500])
    return None


def check(tool, workdir, index, path):
    importer = "--import-tfjs" if path.endswith(".json") else "--import-graphdef"
    a, g1, b, g2 = (os.path.join(workdir, "%d.%s" % (index, ext))
                    for ext in ("a.mlir", "g1.pbtxt", "b.mlir", "g2.pbtxt"))
    for args, out in (([importer, path], a), (["--export-graphdef", a], g1)):
        error = translate(tool, args, out)
        if error:
            return False, error
    ok, message = graphdef_diff.compare_files(path, g1)
    if not ok:
        return False, "the export differs from the input: " + message
    for args, out in ((["--import-graphdef", g1], b),
                      (["--export-graphdef", b], g2)):
        error = translate(tool, args, out)
        if error:
            return False, error
    if open(g1, "rb").read() != open(g2, "rb").read():
        ok, message = graphdef_diff.compare_files(g1, g2)
        return False, "not a fixpoint: the second export differs: " + message
    return True, "same graph, fixpoint"


def main():
    if len(sys.argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    tool, workdir, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(workdir, exist_ok=True)
    failed = 0
    for index, path in enumerate(inputs):
        ok, message = check(tool, workdir, index, path)
        print("%s: %s" % (path, message), flush=True)
        failed += not ok
    print("%d of %d inputs round-trip" % (len(inputs) - failed, len(inputs)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
