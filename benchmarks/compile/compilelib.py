"""The compile-time benchmark's parts (compile-times.py): the model list
taken from the e2e suite, one measured compile (wall time, the child's CPU
time and peak RSS from wait4, limits that kill it), the Markdown table and
the marked block of a docs file. Plain Python except models(), which imports
the e2e framework (numpy); tests in test_compilelib.py."""

import dataclasses
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
E2E = ROOT / "test" / "e2e" / "tf"

# benchmarks/doclib.py, shared with the peer benchmark.
sys.path.insert(0, str(ROOT / "benchmarks"))
import doclib  # noqa: E402

BEGIN_MARK = ("<!-- compile-times:begin (written by "
              "benchmarks/compile/compile-times.py) -->")
END_MARK = "<!-- compile-times:end -->"

# A compile within this much CPU time meets issue 15's "MobileNetV2-size
# models in <= 2 s"; the table counts them.
TARGET_S = 2.0


@dataclasses.dataclass
class Model:
    """One model to compile: its e2e case name, model.json, the
    --input-shapes value the e2e suite feeds it, and its size in graph
    nodes (the body of its functions included)."""
    name: str
    path: str
    shapes: str
    nodes: int = 0


def count_nodes(model_json):
    """Nodes of a TF.js graph model: its topology's and its functions'."""
    with open(model_json) as f:
        topology = json.load(f).get("modelTopology", {})
    functions = topology.get("library", {}).get("function", [])
    return len(topology.get("node", [])) + sum(
        len(fn.get("nodeDef", [])) for fn in functions)


def shapes_flag(shapes):
    """kiln-compile's --input-shapes value for shapes in signature order:
    dims joined by ',', inputs by ':' (a scalar is empty), as the e2e
    suite passes them to kiln-run."""
    return ":".join(",".join(str(d) for d in shape) for shape in shapes)


def models(cache=None, names=None):
    """The pinned npm graph models the e2e suite runs, with its fixed input
    shapes (kiln_e2e.npm.find_models, so the two lists cannot drift),
    optionally only `names` (ValueError naming the unknown ones)."""
    if str(E2E) not in sys.path:
        sys.path.insert(0, str(E2E))
    from kiln_e2e import npm
    found = [Model(m.name, m.path, shapes_flag(m.shapes),
                   count_nodes(m.path)) for m in npm.find_models(cache)]
    if names:
        unknown = sorted(set(names) - {m.name for m in found})
        if unknown:
            raise ValueError("unknown models: " + ", ".join(unknown))
        found = [m for m in found if m.name in names]
    return found


def parse_labelled(values, what):
    """[LABEL=]DIR arguments as (label, dir) pairs in order; a bare DIR is
    its own label. ValueError on a repeated label."""
    pairs = []
    for value in values:
        label, sep, path = value.partition("=")
        if not sep:
            label, path = value, value
        if not label or not path:
            raise ValueError(f"{what} {value!r}: expected LABEL=DIR")
        if label in (p[0] for p in pairs):
            raise ValueError(f"{what}: label {label!r} given twice")
        pairs.append((label, path))
    return pairs


def parse_limits(values):
    """[MODEL=]SECONDS arguments: {None: default, model: seconds}; later
    values win. ValueError on a non-positive or non-numeric value."""
    limits = {}
    for value in values:
        model, sep, seconds = value.rpartition("=")
        try:
            number = float(seconds)
        except ValueError:
            raise ValueError(f"limit {value!r}: expected [MODEL=]SECONDS")
        if number <= 0:
            raise ValueError(f"limit {value!r}: must be positive")
        limits[model if sep else None] = number
    return limits


def limit_for(limits, model):
    return limits.get(model, limits.get(None))


def rotation(labels, index):
    """The binaries' order for the index-th model: rotated by one per model,
    so each binary goes first as often as the others and load that changes
    during the run falls on all of them alike."""
    k = index % len(labels)
    return list(labels[k:]) + list(labels[:k])


@dataclasses.dataclass
class Measurement:
    """One compile of one model by one binary."""
    model: str
    label: str
    status: str          # ok | failed | killed
    wall_s: float
    cpu_s: float         # user + system of the child
    peak_mb: float       # the child's ru_maxrss
    detail: str = ""     # why it failed or was killed
    load: float = 0.0    # 1-minute load average when it started


def proc_cpu_seconds(stat_text, ticks):
    """utime + stime of a /proc/<pid>/stat line, in seconds (fields 14
    and 15; counted after the command name, which may hold spaces)."""
    fields = stat_text.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks


def measure(command, model, label, log_path, wall_limit=None,
            cpu_limit=None, poll_s=0.25):
    """Runs `command` (output to log_path) and measures it with wait4: wall
    time, the child's user+system CPU time and peak RSS. Kills it (SIGKILL)
    once its wall time exceeds wall_limit or its CPU time (read from /proc
    while it runs) exceeds cpu_limit; the rusage of a killed compile is the
    one at the kill."""
    load = os.getloadavg()[0]
    ticks = os.sysconf("SC_CLK_TCK")
    done = []
    with open(log_path, "wb") as log:
        start = time.monotonic()
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)

        def reap():
            _, status, usage = os.wait4(proc.pid, 0)
            done.append((time.monotonic(), status, usage))

        waiter = threading.Thread(target=reap, daemon=True)
        waiter.start()
        killed = ""
        while not done:
            waiter.join(poll_s)
            if done:
                break
            elapsed = time.monotonic() - start
            try:
                with open(f"/proc/{proc.pid}/stat") as f:
                    cpu = proc_cpu_seconds(f.read(), ticks)
            except (OSError, IndexError, ValueError):
                cpu = 0.0
            if wall_limit and elapsed > wall_limit:
                killed = f"killed at the {wall_limit:g} s wall-time limit"
            elif cpu_limit and cpu > cpu_limit:
                killed = f"killed at the {cpu_limit:g} s CPU-time limit"
            if killed:
                try:
                    os.kill(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                waiter.join()
                break
        end, status, usage = done[0]
    proc.returncode = os.waitstatus_to_exitcode(status)
    cpu_s = usage.ru_utime + usage.ru_stime
    peak_mb = usage.ru_maxrss / 1024.0   # KiB on Linux
    wall_s = end - start
    if killed:
        return Measurement(model, label, "killed", wall_s, cpu_s, peak_mb,
                           killed, load)
    if proc.returncode != 0:
        return Measurement(model, label, "failed", wall_s, cpu_s, peak_mb,
                           error_summary(Path(log_path), proc.returncode),
                           load)
    return Measurement(model, label, "ok", wall_s, cpu_s, peak_mb, "", load)


def error_summary(log_path, returncode, limit=200):
    """The last 'error:' line of a failed compile's output (else its last
    line), with the signal that ended it if one did."""
    try:
        lines = [l.strip() for l in log_path.read_text(
            errors="replace").splitlines() if l.strip()]
    except OSError:
        lines = []
    text = next((l for l in reversed(lines) if "error:" in l),
                lines[-1] if lines else "")
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        text = f"killed by {name}" + (f": {text}" if text else "")
    text = text or f"exit status {returncode}"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _find(results, model, label):
    return next((r for r in results
                 if r.model == model and r.label == label), None)


def _cells(result, notes):
    if result is None:
        return ["–", "–", "–"]
    if result.status == "ok":
        return [f"{result.cpu_s:.1f}", f"{result.wall_s:.1f}",
                f"{result.peak_mb:.0f}"]
    if result.detail not in notes:
        notes.append(result.detail)
    mark = f"[{notes.index(result.detail) + 1}]"
    if result.status == "killed":
        return [f"> {result.cpu_s:.0f} killed {mark}",
                f"> {result.wall_s:.0f}", f"≥ {result.peak_mb:.0f}"]
    return [f"failed {mark}", f"{result.wall_s:.1f}",
            f"{result.peak_mb:.0f}"]


def _ratio(first, last):
    """CPU of `last` over `first`: exact when both finished, a bound when
    one was killed, '–' otherwise."""
    if first is None or last is None or first.cpu_s <= 0:
        return "–"
    ratio = last.cpu_s / first.cpu_s
    value = f"{ratio:.2f}" if ratio >= 0.1 else f"{ratio:.1g}"
    if first.status == "ok" and last.status == "ok":
        return value
    if first.status == "killed" and last.status == "ok":
        return f"< {value}"
    if first.status == "ok" and last.status == "killed":
        return f"> {value}"
    return "–"


def render_table(results, labels, model_list):
    """The Markdown table: per model (with its size and input shapes) each
    binary's CPU s, wall s and peak MB, and the last binary's CPU over the
    first's;
    then the totals and medians over the models every binary finished, the
    count within TARGET_S of CPU, and numbered reasons for failed and
    killed compiles."""
    notes = []
    header = "| model | nodes | input |"
    rule = "|---|---:|---|"
    for label in labels:
        header += f" {label} CPU s | {label} wall s | {label} peak MB |"
        rule += "---:|---:|---:|"
    if len(labels) >= 2:
        header += f" CPU {labels[-1]} ÷ {labels[0]} |"
        rule += "---:|"
    lines = [header, rule]
    for model in model_list:
        row = f"| {model.name} | {model.nodes:,} | {model.shapes or '–'} |"
        for label in labels:
            row += " " + " | ".join(
                _cells(_find(results, model.name, label), notes)) + " |"
        if len(labels) >= 2:
            row += " " + _ratio(_find(results, model.name, labels[0]),
                                _find(results, model.name, labels[-1])) + " |"
        lines.append(row)
    complete = [m.name for m in model_list if all(
        (r := _find(results, m.name, l)) is not None and r.status == "ok"
        for l in labels)]
    lines.append("")
    lines.append(f"Over the {len(complete)} models every binary compiled:")
    lines.append("")
    lines.append("| binary | finished | CPU total s | CPU median s | "
                 "wall total s | peak MB median | peak MB max | "
                 f"≤ {TARGET_S:g} s CPU |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label in labels:
        mine = [r for r in results if r.label == label
                and r.model in {m.name for m in model_list}]
        ok = [r for r in mine if r.status == "ok"]
        both = [r for r in ok if r.model in complete]
        within = sum(r.cpu_s <= TARGET_S for r in ok)
        if both:
            figures = (f"{sum(r.cpu_s for r in both):.0f} | "
                       f"{statistics.median(r.cpu_s for r in both):.1f} | "
                       f"{sum(r.wall_s for r in both):.0f} | "
                       f"{statistics.median(r.peak_mb for r in both):.0f} | "
                       f"{max(r.peak_mb for r in both):.0f}")
        else:
            figures = "– | – | – | – | –"
        lines.append(f"| {label} | {len(ok)} of {len(mine)} | {figures} | "
                     f"{within} |")
    if notes:
        lines += ["", "Failed and killed compiles (CPU, wall and peak RSS "
                  "of a killed one are at the kill):", ""]
        lines += [f"{i}. {text}" for i, text in enumerate(notes, 1)]
    return "\n".join(lines) + "\n"


def replace_block(document, block_text):
    """`document` with the text between BEGIN_MARK and END_MARK replaced by
    `block_text`, or with the marked block appended when it has none."""
    return doclib.replace_marked(document, block_text, BEGIN_MARK, END_MARK)
