#!/usr/bin/env python3
# ===- collect_model_ops.py - op types the tf dialect must cover -----------===#
#
# Prints, one per line and sorted, the TensorFlow op types used by
#   * the real models: every `model.json` under the model cache that
#     test/models/fetch-models.sh fills (modelTopology.node[].op and
#     modelTopology.library.function[].nodeDef[].op), and
#   * the TensorFlow corpus (../shared/corpus/tensorflow/{graphdef,tfcompile,
#     mlir}): GraphDef text `op: "X"` and MLIR `"tf.X"` / `tf.X`,
# minus the node types that become tf_executor ops (Switch, Merge, ...) and
# names that are not TensorFlow ops (test placeholders such as `foo`).
#
# Usage:
#   python3 dialects/TF/utils/collect_model_ops.py [--models DIR]
#       [--corpus DIR] [--counts] [--missing OPS_TXT]
# --counts prints "<op> <uses> <sources>" instead of bare names; --missing
# prints the collected ops that OPS_TXT (the checked-in op list) lacks and
# exits 1 if there are any.
#
# Python 3 standard library only.
# ===----------------------------------------------------------------------===#

import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))

# Node types that the executor import turns into tf_executor ops.
EXECUTOR_OPS = {
    "Switch", "RefSwitch", "_SwitchN", "Merge", "RefMerge", "Enter",
    "RefEnter", "Exit", "RefExit", "NextIteration", "RefNextIteration",
    "LoopCond", "ControlTrigger",
}
# Graph-function pseudo ops that the importer turns into function arguments
# and results; TensorFlow's tf dialect does not define them.
PSEUDO_OPS = {"_Arg", "_Retval", "_DeviceArg", "_DeviceRetval"}
# Names in the corpus that are test placeholders, not TensorFlow ops.
NOT_TF_OPS = {"foo", "bar", "func_name", "test_func_name", "SomeUnknownOp",
              "UnknownOp"}
# `tf.X` occurrences in MLIR that are attribute names, not ops.
MLIR_NON_OPS = {
    "_implements", "aliasing_output", "device", "entry_function", "gradient",
    "versions", "shape", "resource", "variant", "string", "f32ref",
    "int32ref", "_input_shapes", "signature", "resource_name",
    "_output_shapes", "_user_specified_name", "_noinline", "_disable_call_shape_inference",
    "_XlaMustCompile", "_tpu_replicate", "_class",
}

GRAPHDEF_OP = re.compile(r'\bop\s*:\s*"([A-Za-z0-9_]+)"')
MLIR_OP = re.compile(r'"tf\.([A-Za-z0-9_]+)"|\btf\.([A-Z_][A-Za-z0-9_]*)\b')


def default_models():
    return os.environ.get("KILN_MODEL_CACHE",
                          os.path.join(os.path.expanduser("~"), ".cache",
                                       "kiln", "models"))


def default_corpus():
    return os.path.normpath(os.path.join(REPO, "..", "shared", "corpus",
                                         "tensorflow"))


def add(found, op, source):
    found.setdefault(op, [0, set()])
    found[op][0] += 1
    found[op][1].add(source)


def model_ops(root, found):
    """Adds the node ops of every model.json under root."""
    count = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(".json"):
                continue
            path = os.path.join(dirpath, name)
            try:
                with open(path, encoding="utf-8") as f:
                    model = json.load(f)
            except (ValueError, UnicodeDecodeError):
                continue
            if not isinstance(model, dict):
                continue
            topo = model.get("modelTopology")
            if not isinstance(topo, dict):
                continue
            count += 1
            source = os.path.relpath(path, root)
            for node in topo.get("node", []) or []:
                add(found, node.get("op", ""), source)
            library = topo.get("library") or {}
            for fn in library.get("function", []) or []:
                for node in fn.get("nodeDef", []) or []:
                    add(found, node.get("op", ""), source)
    return count


def corpus_ops(root, found):
    """Adds the op types of the GraphDef and MLIR files of the corpus."""
    for sub in ("graphdef", "tfcompile", "mlir"):
        base = os.path.join(root, sub)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                source = os.path.relpath(path, root)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                if name.endswith(".pbtxt"):
                    for m in GRAPHDEF_OP.finditer(text):
                        add(found, m.group(1), source)
                elif name.endswith(".mlir"):
                    for m in MLIR_OP.finditer(text):
                        op = m.group(1) or m.group(2)
                        if op not in MLIR_NON_OPS:
                            add(found, op, source)


def listed_ops(ops_txt):
    """The op names of the checked-in op list (lines `op <Name>`)."""
    names = set()
    with open(ops_txt, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"op\s+([A-Za-z0-9_]+)\b", line)
            if m:
                names.add(m.group(1))
    return names


def main():
    parser = argparse.ArgumentParser(description="Prints the TensorFlow op types the tf dialect must cover.")
    parser.add_argument("--models", default=default_models(),
                        help="model cache (test/models/fetch-models.sh)")
    parser.add_argument("--corpus", default=default_corpus(),
                        help="TensorFlow corpus folder")
    parser.add_argument("--counts", action="store_true",
                        help="print use counts and sources too")
    parser.add_argument("--missing", metavar="OPS_TXT",
                        help="print collected ops missing from OPS_TXT")
    args = parser.parse_args()

    found = {}
    if os.path.isdir(args.models):
        n = model_ops(args.models, found)
        print(f"# {n} model.json files under {args.models}", file=sys.stderr)
    else:
        print(f"# no model cache at {args.models} "
              "(run test/models/fetch-models.sh)", file=sys.stderr)
    if os.path.isdir(args.corpus):
        corpus_ops(args.corpus, found)
    else:
        print(f"# no corpus at {args.corpus}", file=sys.stderr)

    skip = EXECUTOR_OPS | PSEUDO_OPS | NOT_TF_OPS | {""}
    ops = sorted(op for op in found if op not in skip)
    if args.missing:
        missing = [op for op in ops if op not in listed_ops(args.missing)]
        for op in missing:
            print(op)
        return 1 if missing else 0
    for op in ops:
        if args.counts:
            uses, sources = found[op]
            print(f"{op} {uses} {len(sources)}")
        else:
            print(op)
    print(f"# {len(ops)} op types", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
