"""Kiln's backends, run as subprocesses on a frozen GraphDef.

The CPU backend runs `kiln-run --backend=cpu` on the GraphDef with the case's
inputs as .npy files and reads back its outputs; the comparison is done here
(compare.py) so a mismatch and a failure to compile are told apart. When
kiln-run fails, `kiln-compile --dump-dir` is run on the same graph to name the
phase that failed and keep its reproducer."""

import dataclasses
import os
import re
import shlex
import subprocess
import time
from typing import Optional

import numpy as np

KNOWN_BACKENDS = ("cpu", "package", "tf-export", "tf-export-pipeline",
                  "tf-converter")

# Seconds one kiln-run or kiln-compile may take: NASNetMobile at 224
# compiles in 165 to 200 s on two cores shared with other builds.
TIMEOUT = 600


@dataclasses.dataclass
class BackendRun:
    """What one backend did with one case."""

    # None when the backend failed; then `step` and `log` say where and why.
    outputs: Optional[list] = None
    step: str = ""
    log: str = ""
    log_path: str = ""
    compile_ms: Optional[float] = None
    run_ms: Optional[float] = None
    reproducer: str = ""


def _write_config(path, frozen, inputs):
    """The tfcompile config kiln-compile reads: one feed per placeholder (with
    its shape), one fetch per output."""
    lines = []
    for name, array in zip(frozen.feeds, inputs):
        dims = " ".join(f"dim {{ size: {d} }}" for d in array.shape)
        lines.append(f'feed {{\n  id {{ node_name: "{name}" }}\n'
                     f"  shape {{ {dims} }}\n}}")
    for fetch in frozen.fetches:
        node, _, index = fetch.partition(":")
        lines.append(f'fetch {{\n  id {{ node_name: "{node}" '
                     f"output_index: {int(index or 0)} }}\n}}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def _run(command, log_path, cwd, timeout=TIMEOUT):
    """Runs `command`, logging it and its output, and appends it to
    cwd/commands.sh (so the backend's steps can be run again by hand);
    (exit status, output). Exit status "timeout" after `timeout` seconds."""
    script = os.path.join(cwd, "commands.sh")
    new_script = not os.path.exists(script)
    with open(script, "a") as f:
        if new_script:
            f.write("#!/bin/sh\n# What the e2e framework ran, in order.\n")
        f.write(shlex.join(command) + "\n")
    try:
        proc = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              timeout=timeout)
        status, output = proc.returncode, proc.stdout
    except subprocess.TimeoutExpired as e:
        status = "timeout"
        output = (e.stdout or b"").decode(errors="replace") if isinstance(
            e.stdout, bytes) else (e.stdout or "")
        output += f"\n(timed out after {timeout} s)\n"
    with open(log_path, "w") as f:
        f.write("$ " + shlex.join(command) + "\n" + output)
        f.write(f"(exit status {status})\n")
    return status, output


class Backend:
    """What the runner asks of a backend. `run` computes the case's outputs;
    they are compared with `reference(...)` (by default TensorFlow running
    the case's function) within `tolerance(case)` (by default the case's)."""

    name = ""
    # The Kiln tools the backend runs, checked when the session starts.
    tools = ("kiln-run", "kiln-compile")
    # The expected-failure list (test/e2e/xfail/<name>.txt) the backend
    # shares with another that compiles the same way; None: its own.
    xfail_list = None

    def check(self) -> str:
        """Why the backend cannot run here beyond missing tools (checked
        when the session starts), or "" when it can."""
        return ""

    def run(self, frozen, graph_path, input_paths, inputs,
            out_dir) -> BackendRun:
        raise NotImplementedError

    def tolerance(self, case):
        """(rtol, atol) of the comparison with the reference."""
        return case.rtol, case.atol

    def reference(self, case, frozen, inputs, tf_outputs):
        """The outputs this backend must reproduce."""
        return tf_outputs


class KilnCPU(Backend):
    """`kiln-run --backend=cpu` (JIT on this machine)."""

    name = "cpu"

    def __init__(self, bin_dir: str):
        self.kiln_run = os.path.join(bin_dir, "kiln-run")
        self.kiln_compile = os.path.join(bin_dir, "kiln-compile")

    def run(self, frozen, graph_path, input_paths, inputs,
            out_dir) -> BackendRun:
        """Runs the GraphDef at `graph_path`, or an .mlir module whose
        @main's arguments are the feeds and results the fetches."""
        os.makedirs(out_dir, exist_ok=True)
        is_mlir = graph_path.endswith(".mlir")
        command = [self.kiln_run, "--backend=cpu", graph_path,
                   f"--output-dir={out_dir}"]
        if is_mlir:
            command += ["--input=" + ",".join(input_paths)] if inputs else []
        else:
            command += ["--tf-output-arrays=" + ",".join(frozen.fetches)]
        if frozen.feeds and not is_mlir:
            command += [
                "--tf-input-arrays=" + ",".join(frozen.feeds),
                "--tf-input-data-types=" + ",".join(frozen.feed_types),
                "--input-shapes=" + ":".join(
                    ",".join(str(d) for d in a.shape) for a in inputs),
                "--input=" + ",".join(input_paths)]
        log_path = os.path.join(out_dir, "kiln-run.log")
        start = time.monotonic()
        status, output = _run(command, log_path, out_dir)
        wall_ms = (time.monotonic() - start) * 1000
        result = BackendRun(log=output, log_path=log_path)
        compiled = re.search(r"compiled in (\d+) ms", output)
        ran = re.search(r"ran in ([\d.]+) ms", output)
        result.compile_ms = float(compiled.group(1)) if compiled else wall_ms
        result.run_ms = float(ran.group(1)) if ran else None
        if status != 0:
            result.step = self._failed_step(frozen, graph_path, inputs,
                                            out_dir, output, result)
            return result
        outputs = []
        for i in range(len(frozen.fetches)):
            path = os.path.join(out_dir, f"output_{i}.npy")
            if not os.path.exists(path):
                result.step = "run"
                result.log += f"\nkiln-run wrote no {path}\n"
                return result
            outputs.append(np.load(path))
        result.outputs = outputs
        return result

    def _failed_step(self, frozen, graph_path, inputs, out_dir, output,
                     result) -> str:
        """Names the step kiln-run failed in; for a compilation failure,
        keeps kiln-compile's dumps and reproducer in out_dir/kiln-compile."""
        if "timed out after" in output:
            return "timeout"
        if "compiled in" in output:
            return "run"
        if "cannot load" in output:
            return "import"
        dump = os.path.join(out_dir, "kiln-compile")
        command = [self.kiln_compile, graph_path, f"--dump-dir={dump}",
                   "-o", os.path.join(out_dir, "model.o")]
        if not graph_path.endswith(".mlir"):
            config = os.path.join(out_dir, "config.pbtxt")
            _write_config(config, frozen, inputs)
            command.insert(2, f"--config={config}")
        status, compile_output = _run(
            command, os.path.join(out_dir, "kiln-compile.log"), out_dir)
        reproducers = sorted(p for p in os.listdir(dump)
                             if p.startswith("reproducer")) if \
            os.path.isdir(dump) else []
        if reproducers:
            result.reproducer = os.path.join(dump, reproducers[0])
        phase = re.search(r"the (\w+) phase failed", compile_output)
        if phase:
            return f"compile ({phase.group(1)})"
        # kiln-compile can stop before its phases (an unranked fetch, say);
        # kiln-run's diagnostics still name what failed.
        if re.search(r"has no lowering on any backend|cannot be lowered to "
                     r"linalg|failed to legalize", output):
            return "compile (linalg)"
        if status != 0:
            return "compile"
        return "compile (kiln-run only; kiln-compile succeeds)"


def make_backend(name: str, bin_dir: str):
    """The backend called `name`; ValueError for an unknown one."""
    from . import package, roundtrip
    if name == "cpu":
        return KilnCPU(bin_dir)
    if name == "package":
        return package.KilnPackage(bin_dir)
    if name == "tf-export":
        return roundtrip.TFExport(bin_dir, pipeline=False)
    if name == "tf-export-pipeline":
        return roundtrip.TFExport(bin_dir, pipeline=True)
    if name == "tf-converter":
        return roundtrip.TFConverter(bin_dir)
    raise ValueError(f"unknown backend '{name}'; known backends: "
                     + ", ".join(KNOWN_BACKENDS))
