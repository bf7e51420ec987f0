#!/usr/bin/env python3
"""Compares two GraphDefs semantically and prints the first difference by
node name; exit status 0 when they are the same graph, 1 when they differ,
2 on bad input.

    graphdef-diff.py A B [A2 B2 ...]   (each .pb, .pbtxt or a TF.js model.json)

The same graph means: the same nodes (by name) with the same op, the same
data inputs in order ("x" and "x:0" are one input), the same control inputs
in any order, the same attributes, and the same library functions (their
signatures, nodes and returns, compared the same way). What is not data is
ignored: `_output_shapes` (shape hints TensorFlow recomputes), an empty
`device`, an attribute missing on one side that equals its OpDef default on
the other, and how a tensor's values are spelt (tensor_content or typed
fields, a splat or every value). A TF.js model.json stands for its topology
and library; Consts filled from weight shards have no value in it, so their
`value` is not compared against it.

Needs TensorFlow's Python protobufs (the venv of scripts/setup-python.sh)."""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from google.protobuf import json_format, text_format  # noqa: E402
from tensorflow.core.framework import graph_pb2, types_pb2  # noqa: E402
from tensorflow.python.framework import op_def_registry  # noqa: E402
from tensorflow.python.framework import tensor_util  # noqa: E402

IGNORED_ATTRS = {"_output_shapes"}


class Graph:
    """A GraphDef and the names of the Consts whose values it lacks."""

    def __init__(self, graph, weightless=()):
        self.graph = graph
        self.weightless = set(weightless)


def load(path):
    data = open(path, "rb").read()
    if path.endswith(".json"):
        model = json.loads(data)
        graph = graph_pb2.GraphDef()
        json_format.ParseDict(model["modelTopology"], graph,
                              ignore_unknown_fields=True)
        names = {w["name"] for group in model.get("weightsManifest", [])
                 for w in group["weights"]}
        return Graph(graph, names)
    graph = graph_pb2.GraphDef()
    try:
        graph.ParseFromString(data)
        if path.endswith(".pbtxt"):
            raise ValueError
    except Exception:
        graph = graph_pb2.GraphDef()
        text_format.Parse(data.decode("utf-8"), graph)
    return Graph(graph)


def split_inputs(inputs):
    data, control = [], set()
    for name in inputs:
        if name.startswith("^"):
            control.add(name[1:])
        else:
            data.append(name[:-2] if name.endswith(":0") else name)
    return data, control


def tensor_value(tensor):
    if tensor.dtype == types_pb2.DT_STRING and not tensor.tensor_content:
        # As TensorFlow reads it: missing values repeat the last one, or
        # are empty strings.
        count = 1
        for dim in tensor.tensor_shape.dim:
            count *= dim.size
        values = list(tensor.string_val)
        values += [values[-1] if values else b""] * (count - len(values))
        return ("string", tuple(d.size for d in tensor.tensor_shape.dim),
                tuple(values))
    try:
        array = tensor_util.MakeNdarray(tensor)
    except Exception:  # a dtype NumPy cannot hold: compare the proto
        return ("proto", tensor.SerializeToString(deterministic=True))
    return (str(array.dtype), array.shape, array.tobytes())


def same_attr(a, b):
    if a.WhichOneof("value") != b.WhichOneof("value"):
        return False
    if a.HasField("tensor"):
        return tensor_value(a.tensor) == tensor_value(b.tensor)
    if a.HasField("list") and (a.list.tensor or b.list.tensor):
        return (len(a.list.tensor) == len(b.list.tensor) and
                all(tensor_value(x) == tensor_value(y)
                    for x, y in zip(a.list.tensor, b.list.tensor)))
    return a == b


def default_attr(op, name):
    try:
        op_def = op_def_registry.get(op)
    except Exception:
        op_def = None
    if op_def is None:
        return None
    for attr in op_def.attr:
        if attr.name == name and attr.HasField("default_value"):
            return attr.default_value
    return None


def compare_nodes(where, nodes_a, nodes_b, weightless=()):
    """The first difference between two node lists, or None."""
    by_name_a = {n.name: n for n in nodes_a}
    by_name_b = {n.name: n for n in nodes_b}
    for node in nodes_a:
        if node.name not in by_name_b:
            return "%snode '%s' (%s) is missing from the second graph" % (
                where, node.name, node.op)
    for node in nodes_b:
        if node.name not in by_name_a:
            return "%snode '%s' (%s) is new in the second graph" % (
                where, node.name, node.op)
    for a in nodes_a:
        b = by_name_b[a.name]
        what = "%snode '%s' (%s)" % (where, a.name, a.op)
        if a.op != b.op:
            return "%s: op %s became %s" % (what, a.op, b.op)
        data_a, control_a = split_inputs(a.input)
        data_b, control_b = split_inputs(b.input)
        if data_a != data_b:
            return "%s: data inputs %s became %s" % (what, data_a, data_b)
        if control_a != control_b:
            return "%s: control inputs %s became %s" % (
                what, sorted(control_a), sorted(control_b))
        if (a.device or "") != (b.device or ""):
            return "%s: device '%s' became '%s'" % (what, a.device, b.device)
        for key in sorted(set(a.attr) | set(b.attr)):
            if key in IGNORED_ATTRS:
                continue
            if key == "value" and a.op == "Const" and a.name in weightless:
                continue
            x = a.attr[key] if key in a.attr else default_attr(a.op, key)
            y = b.attr[key] if key in b.attr else default_attr(b.op, key)
            if x is None or y is None:
                side = "second" if x is not None else "first"
                return "%s: attribute '%s' is missing from the %s graph" % (
                    what, key, side)
            if not same_attr(x, y):
                return "%s: attribute '%s' differs:\n  first:  %s\n  second: %s" % (
                    what, key, text_format.MessageToString(x, as_one_line=True)[:300],
                    text_format.MessageToString(y, as_one_line=True)[:300])
    return None


def compare_functions(a, b):
    fa = {f.signature.name: f for f in a.library.function}
    fb = {f.signature.name: f for f in b.library.function}
    for name in sorted(set(fa) | set(fb)):
        if name not in fb:
            return "function '%s' is missing from the second graph" % name
        if name not in fa:
            return "function '%s' is new in the second graph" % name
        x, y = fa[name], fb[name]
        if x.signature != y.signature:
            return "function '%s': signature differs:\n  first:  %s\n  second: %s" % (
                name, text_format.MessageToString(x.signature, as_one_line=True),
                text_format.MessageToString(y.signature, as_one_line=True))
        diff = compare_nodes("function '%s': " % name, x.node_def, y.node_def)
        if diff:
            return diff
        if dict(x.ret) != dict(y.ret):
            return "function '%s': returns %s became %s" % (
                name, dict(x.ret), dict(y.ret))
        if dict(x.control_ret) != dict(y.control_ret):
            return "function '%s': control returns %s became %s" % (
                name, dict(x.control_ret), dict(y.control_ret))
    ga = {g.function_name: g.gradient_func for g in a.library.gradient}
    gb = {g.function_name: g.gradient_func for g in b.library.gradient}
    if ga != gb:
        return "gradients %s became %s" % (ga, gb)
    return None


def compare(first, second):
    diff = compare_nodes("", first.graph.node, second.graph.node,
                         first.weightless | second.weightless)
    return diff or compare_functions(first.graph, second.graph)


def compare_files(a, b):
    """(ok, message) for the GraphDefs in files a and b."""
    first, second = load(a), load(b)
    diff = compare(first, second)
    if diff:
        return False, diff
    return True, "same graph (%d nodes, %d functions)" % (
        len(first.graph.node), len(first.graph.library.function))


def main():
    if len(sys.argv) < 3 or len(sys.argv) % 2 == 0:
        sys.stderr.write(__doc__)
        return 2
    status = 0
    pairs = list(zip(sys.argv[1::2], sys.argv[2::2]))
    for a, b in pairs:
        try:
            ok, message = compare_files(a, b)
        except Exception as e:  # a file that is not a GraphDef
            sys.stderr.write("graphdef-diff: %s\n" % e)
            return 2
        print(message if len(pairs) == 1 else "%s: %s" % (a, message))
        status = status or (0 if ok else 1)
    return status


if __name__ == "__main__":
    sys.exit(main())
