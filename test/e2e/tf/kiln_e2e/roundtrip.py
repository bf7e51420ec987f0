"""Round trips through TensorFlow, as backends of the e2e framework.

`tf-export`: Kiln imports the case's GraphDef (`kiln-translate
--import-graphdef`) and exports it again (`--export-graphdef
-tf-graph-as-function`); TensorFlow loads the export into a fresh graph
(`tf.compat.v1.import_graph_def`) and runs it, feeding the `_Arg` nodes and
fetching the `_Retval` nodes' inputs. The graph is unchanged, so its outputs
must equal, bit for bit (NaN matching NaN), those of TensorFlow running the
original GraphDef the same way.

`tf-export-pipeline`: the same with `kiln-opt --kiln-tf-graph-pipeline`
between import and export. The graph changes (constants folded by Kiln's
folders, fused ops decomposed, shapes inferred, control flow through
regions and back), so it is compared within the case's own tolerance.

`tf-converter`: TensorFlow's own converter prints the case's graph as
`tf_executor` MLIR (`tf.mlir.experimental.convert_graph_def`; the public
function takes no feeds or fetches, so the module it prints, a `@main` of
no arguments and no results, is only parsed by `kiln-opt`, and the one Kiln
compiles comes from the function behind it, `pywrap_mlir.import_graphdef`,
given the case's feeds, their shapes and the fetches); `kiln-opt` parses
both, `kiln-run` compiles and runs the second, compared with TensorFlow as
the `cpu` backend is.

Kiln runs as subprocesses only: TensorFlow carries its own LLVM
(docs/e2e.md)."""

import os
import time

import numpy as np

from .backends import Backend, BackendRun, KilnCPU, _run


class ReferenceUnavailable(Exception):
    """TensorFlow could not run the original GraphDef."""


def _tensor_name(name: str) -> str:
    """A GraphDef input (`node` or `node:k`) as a tensor name."""
    return name if ":" in name else name + ":0"


def run_graph_def(graph_def, feeds: dict, fetches: list) -> list:
    """Runs `graph_def` in a fresh TensorFlow graph and session, feeding
    tensor names to arrays; the fetched tensors' values."""
    import tensorflow as tf

    with tf.Graph().as_default() as graph:
        tf.compat.v1.import_graph_def(graph_def, name="")
    with tf.compat.v1.Session(graph=graph) as session:
        outputs = session.run(fetches, feeds)
    return [np.asarray(o) for o in outputs]


def graph_as_function_signature(graph_def):
    """The `_Arg` nodes' tensors and the `_Retval` nodes' inputs of a
    GraphDef exported with -tf-graph-as-function, each in index order."""
    def by_index(op):
        nodes = [n for n in graph_def.node if n.op == op]
        return sorted(nodes, key=lambda n: n.attr["index"].i)
    args = [_tensor_name(n.name) for n in by_index("_Arg")]
    rets = [_tensor_name(n.input[0]) for n in by_index("_Retval")]
    return args, rets


# TensorFlow's outputs for each case's original GraphDef, computed once per
# session for both export backends.
_ORIGINAL_OUTPUTS = {}


def original_graph_outputs(case, frozen, inputs) -> list:
    """TensorFlow running the case's frozen GraphDef in a session: what a
    GraphDef Kiln exports must reproduce."""
    if case.name not in _ORIGINAL_OUTPUTS:
        feeds = {_tensor_name(n): a for n, a in zip(frozen.feeds, inputs)}
        try:
            _ORIGINAL_OUTPUTS[case.name] = run_graph_def(
                frozen.graph_def, feeds, list(frozen.fetches))
        except Exception as e:  # noqa: BLE001 - any TensorFlow error
            _ORIGINAL_OUTPUTS[case.name] = e
    result = _ORIGINAL_OUTPUTS[case.name]
    if isinstance(result, Exception):
        raise ReferenceUnavailable(
            "TensorFlow cannot run the original GraphDef: "
            + _one_line(result))
    return result


def _one_line(error: Exception) -> str:
    """The error's type and first line; for TensorFlow's errors, whose first
    line is a heading ("Graph execution error:") followed by a stack, the
    line after "Node: '...'", which says what went wrong."""
    lines = [l.strip() for l in str(error).splitlines() if l.strip()]
    text = lines[0] if lines else ""
    for line, following in zip(lines, lines[1:]):
        if line.startswith("Node: "):
            text += " " + following
            break
    return f"{type(error).__name__}: {text}"[:300]


def _shape_list(inputs) -> list:
    return [",".join(str(d) for d in a.shape) for a in inputs]


class TFExport(Backend):
    """Kiln's import → [kiln-tf-graph-pipeline →] export, run by
    TensorFlow."""

    tools = ("kiln-translate", "kiln-opt")

    def __init__(self, bin_dir: str, pipeline: bool):
        self.pipeline = pipeline
        self.name = "tf-export-pipeline" if pipeline else "tf-export"
        self.kiln_translate = os.path.join(bin_dir, "kiln-translate")
        self.kiln_opt = os.path.join(bin_dir, "kiln-opt")

    def tolerance(self, case):
        if self.pipeline:
            return case.rtol, case.atol
        return 0.0, 0.0

    def reference(self, case, frozen, inputs, tf_outputs):
        return original_graph_outputs(case, frozen, inputs)

    def _step(self, result, name, command, out_dir, log_name):
        status, output = _run(command, os.path.join(out_dir, log_name),
                              out_dir)
        result.log += f"$ {' '.join(command)}\n{output}"
        if status != 0:
            result.step = "timeout" if status == "timeout" else name
            return False
        return True

    def run(self, frozen, graph_path, input_paths, inputs,
            out_dir) -> BackendRun:
        from google.protobuf import text_format
        from tensorflow.core.framework import graph_pb2

        os.makedirs(out_dir, exist_ok=True)
        result = BackendRun(log_path=os.path.join(out_dir, "import.log"))
        start = time.monotonic()
        imported = os.path.join(out_dir, "imported.mlir")
        command = [self.kiln_translate, "--import-graphdef", graph_path,
                   "--mlir-print-debuginfo", "-o", imported,
                   "--tf-output-arrays=" + ",".join(frozen.fetches)]
        if frozen.feeds:
            command += ["--tf-input-arrays=" + ",".join(frozen.feeds),
                        "--tf-input-data-types=" + ",".join(frozen.feed_types)]
            if self.pipeline:
                # Static shapes, as kiln-run imports the graph for the CPU.
                command += ["--tf-input-shapes=" + ":".join(
                    _shape_list(inputs))]
        if not self._step(result, "import", command, out_dir, "import.log"):
            return result
        module = imported
        if self.pipeline:
            module = os.path.join(out_dir, "pipeline.mlir")
            command = [self.kiln_opt, imported, "--kiln-tf-graph-pipeline",
                       "--mlir-print-debuginfo", "-o", module]
            if not self._step(result, "graph pipeline", command, out_dir,
                              "pipeline.log"):
                return result
        exported = os.path.join(out_dir, "exported.pbtxt")
        command = [self.kiln_translate, "--export-graphdef", module,
                   "-tf-graph-as-function", "-o", exported]
        if not self._step(result, "export", command, out_dir, "export.log"):
            return result
        result.compile_ms = (time.monotonic() - start) * 1000

        start = time.monotonic()
        try:
            with open(exported) as f:
                graph_def = text_format.Parse(f.read(), graph_pb2.GraphDef())
            args, rets = graph_as_function_signature(graph_def)
            if len(args) != len(inputs) or len(rets) != len(frozen.fetches):
                raise ValueError(
                    f"the export has {len(args)} _Arg and {len(rets)} "
                    f"_Retval nodes; the case has {len(inputs)} inputs and "
                    f"{len(frozen.fetches)} outputs")
            with_graph = run_graph_def(graph_def, dict(zip(args, inputs)),
                                       rets)
        except Exception as e:  # noqa: BLE001 - any TensorFlow error
            result.step = "run in TensorFlow"
            result.log += f"error: {_one_line(e)}\n"
            return result
        result.run_ms = (time.monotonic() - start) * 1000
        result.outputs = with_graph
        return result


class TFConverter(Backend):
    """TensorFlow's GraphDef → tf_executor converter, compiled and run by
    Kiln."""

    name = "tf-converter"
    tools = ("kiln-opt", "kiln-run", "kiln-compile")

    def __init__(self, bin_dir: str):
        self.kiln_opt = os.path.join(bin_dir, "kiln-opt")
        self.cpu = KilnCPU(bin_dir)

    def run(self, frozen, graph_path, input_paths, inputs,
            out_dir) -> BackendRun:
        import tensorflow as tf
        from tensorflow.python import pywrap_mlir

        os.makedirs(out_dir, exist_ok=True)
        result = BackendRun(log="")
        unfed = os.path.join(out_dir, "tf-converter-unfed.mlir")
        fed = os.path.join(out_dir, "tf-converter.mlir")
        try:
            text = tf.mlir.experimental.convert_graph_def(
                frozen.graph_def, pass_pipeline="")
            with open(unfed, "w") as f:
                f.write(text)
            text = pywrap_mlir.import_graphdef(
                frozen.graph_def, "", True, input_names=list(frozen.feeds),
                input_data_types=list(frozen.feed_types),
                input_data_shapes=_shape_list(inputs),
                output_names=list(frozen.fetches))
            with open(fed, "w") as f:
                f.write(text)
        except Exception as e:  # noqa: BLE001 - any TensorFlow error
            result.step = "TensorFlow's converter"
            result.log = f"error: {_one_line(e)}\n"
            return result
        for path in (unfed, fed):
            command = [self.kiln_opt, path, "-o", os.devnull]
            log = os.path.join(out_dir, "kiln-opt.log")
            status, output = _run(command, log, out_dir)
            result.log += f"$ {' '.join(command)}\n{output}"
            if status != 0:
                result.step = "parse (kiln-opt)"
                result.log_path = log
                return result
        run = self.cpu.run(frozen, fed, input_paths, inputs, out_dir)
        run.log = result.log + run.log
        return run
