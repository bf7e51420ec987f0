"""Kiln from Python: compile TensorFlow models for the CPU and run them on
NumPy arrays in this process.

    import kiln
    model = kiln.compile(keras_model)          # or a path, or a tf.function
    outputs = model(x)                         # {"output_0": ndarray}

kiln.compile      a model (path, GraphDef bytes, TensorFlow function, Keras
                  model) to a CompiledModel
kiln.translate    kiln-translate's translations, text in, text out
kiln.run_pipeline kiln-opt's --pass-pipeline on MLIR text
kiln.tensorflow   freezing TensorFlow functions (imports TensorFlow)

docs/python.md is the reference."""

import os as _os
import sys as _sys

# TensorFlow's wheel puts its own LLVM, MLIR and protobuf symbols in the
# process's global scope. Load the extension (and with it libMLIR.so,
# libLLVM.so and libprotobuf.so) with RTLD_DEEPBIND, so their references bind
# to each other before anything global, whichever of `import tensorflow` and
# `import kiln` comes first (test/python/test_coexistence.py).
_flags = _sys.getdlopenflags()
_sys.setdlopenflags(_os.RTLD_NOW | _os.RTLD_LOCAL | _os.RTLD_DEEPBIND)
try:
    from . import _kiln  # noqa: F401
finally:
    _sys.setdlopenflags(_flags)

from ._model import (CompiledModel, CompileError, Diagnostic, KilnError,
                     TensorSpec)
from ._sources import compile, run_pipeline, translate

__all__ = ["CompiledModel", "CompileError", "Diagnostic", "KilnError",
           "TensorSpec", "compile", "run_pipeline", "translate"]
__version__ = "0.1.0"
