"""Runs one case on one backend and records everything in its artifacts
directory:

    <artifacts>/<case>/graph.pbtxt        the frozen GraphDef given to Kiln
    <artifacts>/<case>/input_<i>.npy      the inputs both sides ran on
    <artifacts>/<case>/tf/output_<i>.npy  TensorFlow's outputs
    <artifacts>/<case>/<backend>/         the backend's outputs, kiln-run.log
                                          (command line first), and on a
                                          compile failure kiln-compile.log and
                                          kiln-compile/ (dumps, reproducer)
    <artifacts>/<case>/<backend>/result.json

A backend may compare with another reference than TensorFlow running the
case's function, and within another tolerance than the case's
(backends.Backend); the round trips through TensorFlow do (roundtrip.py).
"""

import json
import re
import os
import shutil
import time

import numpy as np

from . import case as case_lib
from .compare import compare
from .report import Outcome
from .roundtrip import ReferenceUnavailable


def _save_arrays(directory, prefix, arrays):
    os.makedirs(directory, exist_ok=True)
    paths = []
    for i, array in enumerate(arrays):
        path = os.path.join(directory, f"{prefix}_{i}.npy")
        np.save(path, array)
        paths.append(path)
    return paths


# (case, inputs, input paths, frozen graph, graph path, TensorFlow's outputs,
# TensorFlow's time) per (id(case), case directory): a case run on several
# backends is traced, frozen and run by TensorFlow once. The case itself is
# kept so that its id is not reused.
_PREPARED = {}


def _prepare(case, case_dir):
    """The case's inputs, frozen GraphDef and TensorFlow's outputs, written
    into case_dir the first time."""
    from google.protobuf import text_format

    key = (id(case), case_dir)
    if key not in _PREPARED:
        inputs = case_lib.make_inputs(case)
        input_paths = _save_arrays(case_dir, "input", inputs)
        frozen = case_lib.freeze(case)
        graph_path = os.path.join(case_dir, "graph.pbtxt")
        with open(graph_path, "w") as f:
            f.write(text_format.MessageToString(frozen.graph_def))
        start = time.monotonic()
        expected = case_lib.run_tensorflow(case, inputs)
        tf_ms = (time.monotonic() - start) * 1000
        _save_arrays(os.path.join(case_dir, "tf"), "output", expected)
        _PREPARED[key] = (case, inputs, input_paths, frozen, graph_path,
                          expected, tf_ms)
    return _PREPARED[key]


def run_case(case, backend, artifacts: str) -> Outcome:
    """Compares `backend` with TensorFlow on `case`; never raises for a
    failure of Kiln (the Outcome says what happened)."""
    case_dir = os.path.join(artifacts, case.name)
    backend_dir = os.path.join(case_dir, backend.name)
    shutil.rmtree(backend_dir, ignore_errors=True)
    os.makedirs(backend_dir)
    outcome = Outcome(case=case.name, backend=backend.name, status="error",
                      artifacts=case_dir)

    prepared = _prepare(case, case_dir)
    inputs, input_paths, frozen, graph_path, expected = prepared[1:6]
    outcome.tf_ms = prepared[6]

    try:
        reference = backend.reference(case, frozen, inputs, expected)
    except ReferenceUnavailable as e:
        outcome.step = "reference"
        outcome.detail = str(e)
        return _finish(outcome, backend_dir)
    if reference is not expected:
        _save_arrays(backend_dir, "reference", reference)
        expected = reference
    rtol, atol = backend.tolerance(case)
    run = backend.run(frozen, graph_path, input_paths, inputs, backend_dir)
    outcome.compile_ms, outcome.run_ms = run.compile_ms, run.run_ms
    outcome.log = run.log
    if run.outputs is None:
        outcome.step = run.step
        outcome.detail = _first_error(run.log)
        if run.reproducer:
            outcome.detail += f" (reproducer: {run.reproducer})"
    elif len(run.outputs) != len(expected):
        outcome.status = "fail"
        outcome.detail = (f"{len(run.outputs)} outputs, TensorFlow has "
                          f"{len(expected)}")
    else:
        outcome.status = "pass"
        details = []
        for i, (actual, reference) in enumerate(zip(run.outputs, expected)):
            result = compare(actual, reference, rtol, atol)
            if outcome.max_abs_error is None or \
                    result.max_abs_error > outcome.max_abs_error:
                outcome.max_abs_error = result.max_abs_error
            if outcome.max_rel_error is None or \
                    result.max_rel_error > outcome.max_rel_error:
                outcome.max_rel_error = result.max_rel_error
            if not result.passed:
                outcome.status = "fail"
                if outcome.first_mismatch is None:
                    outcome.first_mismatch = result.first_mismatch
                details.append(f"output {i}: {result.describe()}")
        outcome.detail = "; ".join(details)
    return _finish(outcome, backend_dir)


def _finish(outcome, backend_dir) -> Outcome:
    with open(os.path.join(backend_dir, "result.json"), "w") as f:
        json.dump({k: v for k, v in outcome.__dict__.items() if k != "log"},
                  f, indent=1, default=str)
    return outcome


def _first_error(log: str) -> str:
    """What went wrong, in one line: the first diagnostic ('error:'), else
    the crash's innermost frame outside LLVM's signal handling, else the
    log's last line."""
    lines = [l.strip() for l in log.splitlines()
             if l.strip() and not l.startswith("$ ")]
    for line in lines:
        if "error:" in line or "LLVM ERROR" in line:
            return line[:300]
    if "Stack dump:" in log:
        for line in lines:
            frame = re.match(r"#\d+ 0x[0-9a-f]+ (.*)", line)
            if frame and not re.search(r"llvm::sys::|libc\.so|^\(",
                                       frame.group(1)):
                return "crash in " + frame.group(1)[:250]
        return "crash"
    return lines[-1][:300] if lines else "(no output)"
