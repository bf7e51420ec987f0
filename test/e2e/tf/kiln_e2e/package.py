"""The `package` backend: Kiln's Python package (python/, docs/python.md) in
the test's own process, beside TensorFlow, instead of the tools.

It compiles the same frozen GraphDef the `cpu` backend gives kiln-run, with
`kiln.compile` (same feeds, fetches, shapes and dtypes), calls the compiled
model on the case's arrays and returns its outputs in fetch order. A compile
error is `kiln.CompileError`, whose diagnostics go to the log the way
kiln-run's do; a wrong input raises `ValueError`/`TypeError`. Both are a
failed step, never a failed session.

The package is looked up next to the tools: `<bin_dir>/../python` in a build
tree (`build/bin`, `build/python`), or `$KILN_PYTHON_DIR`. TensorFlow is
already loaded when it is imported; the package isolates its LLVM from
TensorFlow's (python/kiln/__init__.py, test/python/test_coexistence.py).
"""

import importlib
import os
import re
import sys
import time

from .backends import Backend, BackendRun


def package_dir(bin_dir: str) -> str:
    """Where the `kiln` package of the tools in `bin_dir` is laid out."""
    return os.environ.get("KILN_PYTHON_DIR") or os.path.join(
        os.path.dirname(bin_dir), "python")


class KilnPackage(Backend):
    """`kiln.compile` and a call of the compiled model, in process."""

    name = "package"
    tools = ()
    # The package runs kiln-run's pipeline: the same cases fail.
    xfail_list = "cpu"

    def __init__(self, bin_dir: str):
        self.package_dir = package_dir(bin_dir)
        self._kiln = None

    def check(self) -> str:
        """Why the package cannot be used, or "" when it can."""
        if not os.path.isfile(os.path.join(self.package_dir, "kiln",
                                           "__init__.py")):
            return (f"no kiln package in {self.package_dir}: build Kiln with "
                    f"the package (docs/python.md) or set KILN_PYTHON_DIR")
        return ""

    def _module(self):
        if self._kiln is None:
            if self.package_dir not in sys.path:
                sys.path.insert(0, self.package_dir)
            self._kiln = importlib.import_module("kiln")
            loaded = os.path.dirname(os.path.dirname(self._kiln.__file__))
            if os.path.realpath(loaded) != os.path.realpath(self.package_dir):
                raise ImportError(f"imported kiln from {loaded}, not from "
                                  f"{self.package_dir}")
        return self._kiln

    def run(self, frozen, graph_path, input_paths, inputs,
            out_dir) -> BackendRun:
        os.makedirs(out_dir, exist_ok=True)
        kiln = self._module()
        if graph_path.endswith(".mlir"):
            call = f"kiln.compile({graph_path!r}, entry='main')"
            options = {"entry": "main"}
        else:
            options = {
                "inputs": list(frozen.feeds),
                "outputs": list(frozen.fetches),
                "input_shapes": [list(a.shape) for a in inputs],
                "input_types": list(frozen.feed_types),
            }
            call = (f"kiln.compile({graph_path!r}, "
                    + ", ".join(f"{k}={v!r}" for k, v in options.items())
                    + ")")
        log_path = os.path.join(out_dir, "package.log")
        result = BackendRun(log_path=log_path)
        log = [f"$ python: model = {call}"]
        start = time.monotonic()
        try:
            model = kiln.compile(graph_path, **options)
        except kiln.CompileError as e:
            result.compile_ms = (time.monotonic() - start) * 1000
            phase = re.search(r"the (\w+) phase", e.failure)
            result.step = f"compile ({phase.group(1)})" if phase else (
                "import" if "import" in e.failure else "compile")
            log.append(str(e))
            self._keep_reproducer(kiln, graph_path, options, out_dir, result,
                                  log)
            return self._finish(result, log)
        result.compile_ms = (time.monotonic() - start) * 1000
        log.append(f"compiled in {result.compile_ms:.0f} ms: {model!r}")
        log.append("$ python: outputs = model(*inputs)")
        start = time.monotonic()
        try:
            outputs = model(*inputs)
        except (ValueError, TypeError, RuntimeError) as e:
            result.step = "run"
            log.append(f"error: {type(e).__name__}: {e}")
            return self._finish(result, log)
        result.run_ms = (time.monotonic() - start) * 1000
        log.append(f"ran in {result.run_ms:.3f} ms")
        result.outputs = list(outputs.values())
        return self._finish(result, log)

    @staticmethod
    def _keep_reproducer(kiln, graph_path, options, out_dir, result, log):
        """Compiles again with a dump directory, as the cpu backend reruns
        kiln-compile, to keep each phase's IR and the failing phase's
        reproducer in out_dir/dumps."""
        dump_dir = os.path.join(out_dir, "dumps")
        log.append(f"$ python: kiln.compile(..., dump_dir={dump_dir!r})")
        try:
            kiln.compile(graph_path, dump_dir=dump_dir, **options)
            log.append("(compiled with dumps: the failure did not repeat)")
        except kiln.CompileError:
            pass
        reproducers = sorted(p for p in os.listdir(dump_dir)
                             if p.startswith("reproducer")) if \
            os.path.isdir(dump_dir) else []
        if reproducers:
            result.reproducer = os.path.join(dump_dir, reproducers[0])

    @staticmethod
    def _finish(result: BackendRun, log: list) -> BackendRun:
        result.log = "\n".join(log) + "\n"
        with open(result.log_path, "w") as f:
            f.write(result.log)
        return result
