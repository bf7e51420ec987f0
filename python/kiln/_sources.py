"""kiln.compile, kiln.translate and kiln.run_pipeline: what a model is, and
the options the native module takes."""

import os
import sys
from typing import Optional, Sequence, Union

from . import _kiln
from ._model import CompiledModel, CompileError

__all__ = ["compile", "translate", "run_pipeline"]

# Where a path's kind is read from: its suffix, or a directory's contents.
_SUFFIXES = {".pb": "graphdef", ".pbtxt": "graphdef", ".json": "tfjs",
             ".mlir": "mlir"}

PathLike = Union[str, "os.PathLike[str]"]


def _names(value) -> list:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def _shapes(shapes) -> str:
    """input_shapes as the importers take them: "1,4:2" (`?` dynamic)."""
    if shapes is None:
        return ""
    if isinstance(shapes, str):
        return shapes
    parts = []
    for shape in shapes:
        if shape is None:
            raise ValueError("input_shapes: give every input's shape (use "
                             "None or -1 for one unknown size)")
        parts.append(",".join("?" if s is None or s == -1 else str(int(s))
                              for s in shape))
    return ":".join(parts)


def _is_tensorflow_object(model) -> bool:
    """A tf.function, ConcreteFunction, tf.Module method or Keras model,
    without importing TensorFlow (a user who passed one has imported it)."""
    if "tensorflow" not in sys.modules:
        return False
    module = type(model).__module__ or ""
    return module.split(".")[0] in ("tensorflow", "keras", "tf_keras")


def _classify(model):
    """(kind, path, contents) of a path or bytes."""
    if isinstance(model, (bytes, bytearray, memoryview)):
        return "graphdef", "", bytes(model)
    if not isinstance(model, (str, os.PathLike)):
        raise TypeError(
            f"kiln.compile takes a path (GraphDef .pb/.pbtxt, TF.js "
            f"model.json, .mlir), GraphDef bytes, or a TensorFlow function "
            f"or Keras model; got {type(model).__name__}")
    path = os.fspath(model)
    if os.path.isdir(path):
        if os.path.exists(os.path.join(path, "model.json")):
            return "tfjs", os.path.join(path, "model.json"), b""
        if any(os.path.exists(os.path.join(path, name))
               for name in ("saved_model.pb", "saved_model.pbtxt")):
            return "savedmodel", path, b""
        raise ValueError(f"{path}: a directory holding neither model.json "
                         f"nor saved_model.pb")
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    kind = _SUFFIXES.get(os.path.splitext(path)[1])
    if kind is None:
        raise ValueError(f"{path}: unknown model kind; Kiln reads .pb, "
                         f".pbtxt, TF.js model.json and .mlir files")
    return kind, path, b""


def compile(model, target: str = "cpu", *,
            inputs: Optional[Sequence[str]] = None,
            outputs: Optional[Sequence[str]] = None,
            input_shapes=None,
            input_types: Optional[Sequence[str]] = None,
            graph_as_function: bool = False,
            signature: str = "serving_default",
            tags: str = "serve",
            entry: str = "main",
            dump_dir: Optional[PathLike] = None,
            threads: Optional[int] = None,
            opt_level: int = 2,
            cpu: str = "host",
            features: str = "",
            shared_libs: Sequence[PathLike] = ()) -> CompiledModel:
    """Compiles a model for the CPU and loads it into this process.

    `model` is a path (GraphDef `.pb`/`.pbtxt`, TF.js `model.json` or its
    directory, `.mlir`, a SavedModel directory: its `signature` from the
    MetaGraph tagged `tags`), GraphDef bytes, or (with TensorFlow imported) a
    ConcreteFunction, a tf.function with an input signature, a tf.Module
    method, or a Keras model, which is frozen first (kiln.tensorflow.freeze).

    GraphDefs need `outputs` (fetched tensors, `node` or `node:k`) and
    `inputs` (fed nodes), unless `graph_as_function`; `input_types`
    (`DT_FLOAT`, ...) override the fed nodes' dtypes. `input_shapes` is one
    shape per input (a sequence of sizes, None or -1 for an unknown one), or
    kiln-run's text form `"1,4:2"`. `entry` is the function of an `.mlir`
    model to run. `dump_dir` receives the IR after every phase and, on
    failure, a reproducer. `threads` is how many threads the compiler may
    use (None: all cores, 1: the calling thread) and how many the compiled
    code runs on (None: the calling thread alone; N: a pool of N threads,
    the caller's included, which CompiledModel.threads changes later; the
    results are the same for any count). `cpu` ("host" or an LLVM CPU name such as
    "x86-64-v2") and `features` ("+avx2,-avx512f") choose the code, as
    kiln-compile's --cpu and --features; the JIT runs it here, so they must
    fit this machine. Raises CompileError with Kiln's diagnostics."""
    if target != "cpu":
        raise ValueError(f"unknown target {target!r}; Kiln compiles for "
                         f"'cpu' from Python")
    if threads is not None and not 1 <= threads <= 1024:
        raise ValueError("threads must be at least 1 (or None for all cores) "
                         "and at most 1024")
    if not 0 <= opt_level <= 3:
        raise ValueError("opt_level must be 0, 1, 2 or 3")
    input_names = output_names = None
    if _is_tensorflow_object(model):
        from . import tensorflow as kiln_tf
        frozen = kiln_tf.freeze(model)
        kind, path, contents = "graphdef", "", frozen.graph_def
        inputs, outputs = frozen.inputs, frozen.outputs
        input_names, output_names = frozen.input_names, frozen.output_names
    else:
        kind, path, contents = _classify(model)
    if kind == "graphdef" and not graph_as_function and not outputs:
        raise ValueError("a GraphDef needs outputs=[...] (the fetched "
                         "tensors, 'node' or 'node:k') and inputs=[...] "
                         "(the fed nodes), or graph_as_function=True")
    native, diagnostics, failure = _kiln.compile(
        kind=kind, path=path, contents=contents, inputs=_names(inputs),
        input_types=_names(input_types), outputs=_names(outputs),
        input_shapes=_shapes(input_shapes),
        graph_as_function=graph_as_function, tags=tags, signature=signature,
        entry=entry, opt_level=opt_level, cpu=cpu, features=features,
        dump_dir=os.fspath(dump_dir) if dump_dir is not None else "",
        threads=threads or 0,
        shared_libs=[os.fspath(p) for p in shared_libs])
    if native is None:
        raise CompileError.from_native(failure, diagnostics)
    compiled = CompiledModel(native, input_names, output_names)
    if threads is not None:
        compiled.threads = threads
    return compiled


def _text(source, what: str) -> str:
    """MLIR text: `source` itself, or the file a PathLike names."""
    if isinstance(source, os.PathLike):
        with open(source, encoding="utf-8") as f:
            return f.read()
    if isinstance(source, bytes):
        return source.decode("utf-8")
    if not isinstance(source, str):
        raise TypeError(f"{what} takes MLIR text or a path; got "
                        f"{type(source).__name__}")
    return source


_TRANSLATIONS = ("import-graphdef", "import-tfjs", "export-graphdef",
                 "mlir-to-llvmir")


def translate(source, translation: str, *,
              inputs: Optional[Sequence[str]] = None,
              outputs: Optional[Sequence[str]] = None,
              input_shapes=None,
              input_types: Optional[Sequence[str]] = None,
              graph_as_function: bool = False) -> str:
    """What `kiln-translate --<translation>` does, text in and text out.

    - "import-graphdef": a GraphDef (path, or bytes in binary or text form)
      to tf_executor MLIR; `inputs`, `outputs`, `input_shapes`,
      `input_types`, `graph_as_function` as in kiln.compile.
    - "import-tfjs": a TF.js model.json path to MLIR (`input_shapes`).
    - "export-graphdef": tf_executor MLIR to a GraphDef in protobuf text
      form (`graph_as_function` writes _Arg/_Retval nodes).
    - "mlir-to-llvmir": an LLVM-dialect module to LLVM IR.

    MLIR sources are text (str) or an os.PathLike to read. Raises
    CompileError with Kiln's diagnostics."""
    if translation not in _TRANSLATIONS:
        raise ValueError(f"unknown translation {translation!r}; known: "
                         + ", ".join(_TRANSLATIONS))
    if translation in ("import-graphdef", "import-tfjs"):
        if isinstance(source, (bytes, bytearray)):
            kind, path, contents = "graphdef", "", bytes(source)
        else:
            kind, path, contents = _classify(source)
        expected = translation.split("-")[1]
        if kind != expected:
            raise ValueError(f"{translation} reads a {expected} model; "
                             f"{path or 'the source'} is {kind}")
        text, diagnostics = _kiln.import_model(
            kind=kind, path=path, contents=contents, inputs=_names(inputs),
            input_types=_names(input_types), outputs=_names(outputs),
            input_shapes=_shapes(input_shapes),
            graph_as_function=graph_as_function)
    elif translation == "export-graphdef":
        text, diagnostics = _kiln.export_graphdef(
            _text(source, "translate"), graph_as_function)
    else:
        text, diagnostics = _kiln.mlir_to_llvmir(_text(source, "translate"))
    if text is None:
        raise CompileError.from_native(f"{translation} failed", diagnostics)
    return text


def run_pipeline(mlir, pipeline: str) -> str:
    """Runs a textual pass pipeline on MLIR and returns the result, as
    `kiln-opt --pass-pipeline=...` does: `"builtin.module(canonicalize,cse)"`
    or `"canonicalize,cse"`; every upstream and Kiln pass and pipeline
    (kiln-tf-to-cpu-pipeline, ...) is known. `mlir` is text or an
    os.PathLike. Raises CompileError with the diagnostics."""
    text, diagnostics = _kiln.run_pipeline(_text(mlir, "run_pipeline"),
                                           pipeline)
    if text is None:
        raise CompileError.from_native(f"the pipeline {pipeline!r} failed",
                                       diagnostics)
    return text
