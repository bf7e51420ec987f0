#!/usr/bin/env python3
"""Compile time and peak memory of kiln-compile on every pinned npm model
the e2e suite runs (issue 15), for one or more builds side by side.

    nice -n 5 benchmarks/compile/compile-times.py \\
        --bin-dir before=/work/wt/before-15/build/bin --bin-dir after=build/bin \\
        --cpu-limit 180 --cpu-limit maxim_deblurring=600 \\
        --timeout 600 --timeout maxim_deblurring=1500 \\
        --doc docs/performance-compile.md

The models and their input shapes are the e2e suite's own
(test/e2e/tf/kiln_e2e/npm.py: find_models and SPECS, MAXIM at 1x64x64x3;
the pinned packages in ~/.cache/kiln/models, test/models/fetch-models.sh).
Each model is compiled once by each binary,

    kiln-compile MODEL.json --input-shapes=SHAPES -o TMP/model.o

the binaries taking turns going first from one model to the next, so a load
that changes during the run falls on all of them alike. Per compile it
records the wall time, the child's CPU time (user + system) and its peak RSS
(ru_maxrss), both from wait4; a compile over its --timeout (wall) or
--cpu-limit (CPU, read from /proc while it runs) is killed and reported with
its figures at the kill. On a shared machine CPU time and peak RSS are the
figures to compare; the 1-minute load average is recorded per compile.

Prints a Markdown table; with --doc, writes it with the date, CPU, the
binaries' commits, the load and this command into the marked block of that
file. Results go to --results (JSON) after every compile; --resume skips the
compiles already there, --render only renders them. Runs itself under the
e2e venv (~/.cache/kiln/venv, KILN_VENV) when started elsewhere.
"""

import argparse
import dataclasses
import datetime
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compilelib  # noqa: E402

VENV = Path(os.environ.get("KILN_VENV", Path.home() / ".cache/kiln/venv"))


def ensure_venv():
    """Re-executes under the e2e venv (numpy, for the e2e model list) when
    the current Python lacks numpy."""
    try:
        import numpy  # noqa: F401
        return
    except ImportError:
        pass
    python = VENV / "bin" / "python"
    if not python.exists() or Path(sys.prefix).resolve() == VENV.resolve():
        sys.exit(f"compile-times.py: needs numpy; no venv at {VENV} "
                 "(scripts/setup-python.sh)")
    os.execv(str(python), [str(python), __file__, *sys.argv[1:]])


def cpu_model():
    return compilelib.doclib.cpu_model()


def commit_of(bin_dir):
    """The commit of the git tree a bin dir lies in (its build's source),
    or '?'."""
    out = subprocess.run(["git", "-C", str(bin_dir), "rev-parse", "--short",
                          "HEAD"], capture_output=True, text=True)
    return out.stdout.strip() or "?"


def load_results(path):
    """(the command that measured them, when it started, the binaries'
    commits then, the measurements) from --results."""
    if not path.exists():
        return "", None, {}, []
    data = json.loads(path.read_text())
    return (data["command"],
            datetime.datetime.fromisoformat(data["started"]),
            data.get("commits", {}),
            [compilelib.Measurement(**r) for r in data["results"]])


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin-dir", action="append", metavar="[LABEL=]DIR",
                        help="a directory with kiln-compile, repeatable "
                        "(default: kiln=build/bin)")
    parser.add_argument("--models", help="comma-separated e2e names "
                        "(default: all; --list shows them)")
    parser.add_argument("--list", action="store_true",
                        help="print the models and their input shapes")
    parser.add_argument("--timeout", action="append", default=[],
                        metavar="[MODEL=]S", help="wall-time limit per "
                        "compile, repeatable per model (default 600)")
    parser.add_argument("--cpu-limit", action="append", default=[],
                        metavar="[MODEL=]S", help="CPU-time limit per "
                        "compile, repeatable per model (default none)")
    parser.add_argument("--results", type=Path,
                        default=Path(tempfile.gettempdir()) /
                        "kiln-compile-times.json",
                        help="JSON of the measurements, written after each")
    parser.add_argument("--resume", action="store_true",
                        help="keep the measurements in --results and run "
                        "only the missing ones")
    parser.add_argument("--render", action="store_true",
                        help="only render --results (no compile)")
    parser.add_argument("--doc", type=Path, help="write the table into the "
                        "marked block of this file")
    parser.add_argument("--note", default="", help="a sentence added to the "
                        "doc block (e.g. what else ran)")
    args = parser.parse_args()

    names = args.models.split(",") if args.models else None
    try:
        model_list = compilelib.models(names=names)
        bins = compilelib.parse_labelled(args.bin_dir or ["kiln=build/bin"],
                                         "--bin-dir")
        timeouts = compilelib.parse_limits(["600"] + args.timeout)
        cpu_limits = compilelib.parse_limits(args.cpu_limit)
    except ValueError as e:
        parser.error(str(e))
    if not model_list:
        sys.exit("compile-times.py: no models; run test/models/fetch-models.sh")
    if args.list:
        print("\n".join(f"{m.name:32} {m.shapes:24} {m.path}"
                        for m in model_list))
        return 0
    labels = [label for label, _ in bins]
    compilers = {label: Path(d).resolve() / "kiln-compile"
                 for label, d in bins}
    for label, tool in compilers.items():
        if not os.access(tool, os.X_OK):
            sys.exit(f"compile-times.py: no {tool} ({label})")

    command = "benchmarks/compile/compile-times.py " + " ".join(
        shlex.quote(a) for a in sys.argv[1:])
    started = datetime.datetime.now(datetime.timezone.utc)
    # The commits of the binaries' trees when the run starts (a tree may
    # move on while it runs).
    commits = {label: commit_of(tool.parent)
               for label, tool in compilers.items()}
    results = []
    if args.resume or args.render:
        # The table's command, date and commits are the measuring run's.
        command, started, stored, results = load_results(args.results)
        started = started or datetime.datetime.now(datetime.timezone.utc)
        commits.update(stored)
    if not args.render:
        with tempfile.TemporaryDirectory(prefix="kiln-compile-times-") as tmp:
            for index, model in enumerate(model_list):
                for label in compilelib.rotation(labels, index):
                    if any(r.model == model.name and r.label == label
                           for r in results):
                        continue
                    out = Path(tmp) / "model.o"
                    argv = [str(compilers[label]), model.path,
                            f"--input-shapes={model.shapes}", "-o", str(out)]
                    result = compilelib.measure(
                        argv, model.name, label, Path(tmp) / "log",
                        compilelib.limit_for(timeouts, model.name),
                        compilelib.limit_for(cpu_limits, model.name))
                    for leftover in Path(tmp).iterdir():
                        leftover.unlink()
                    results.append(result)
                    args.results.write_text(json.dumps(
                        {"command": command, "commits": commits,
                         "started": started.isoformat(), "results":
                         [dataclasses.asdict(r) for r in results]},
                        indent=1))
                    print(f"{model.name:32} {label:8} {result.status:6} "
                          f"cpu {result.cpu_s:7.1f} s  wall "
                          f"{result.wall_s:7.1f} s  {result.peak_mb:6.0f} MB"
                          f"  load {result.load:.1f}  {result.detail}",
                          file=sys.stderr, flush=True)

    table = compilelib.render_table(results, labels, model_list)
    print(table)
    if not args.doc:
        return 0
    loads = sorted(r.load for r in results if r.model in
                   {m.name for m in model_list})
    load = (f"the 1-minute load average was {loads[0]:.1f} to {loads[-1]:.1f}"
            f" (median {loads[len(loads) // 2]:.1f}) at the compiles' starts"
            if loads else "")
    block = "\n".join([
        f"Measured {started.date().isoformat()} on {cpu_model()} "
        f"({os.cpu_count()} cores); {load}. "
        + ", ".join(f"`{label}`: {commits[label]} "
                    f"(`{compilers[label]}`)" for label in labels)
        + "." + (f" {args.note}" if args.note else ""),
        "", "```", command, "```", "", table])
    doc = args.doc.read_text() if args.doc.exists() else ""
    args.doc.write_text(compilelib.replace_block(doc, block))
    print(f"compile-times.py: wrote the table into {args.doc}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    ensure_venv()
    sys.exit(main())
