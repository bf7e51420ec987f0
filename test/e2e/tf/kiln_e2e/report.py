"""The run's report: case x backend -> outcome, errors and times, written as
report.md and report.html into the artifacts directory."""

import dataclasses
import html
import os
from typing import Optional


@dataclasses.dataclass
class Outcome:
    """One case on one backend."""

    case: str
    backend: str
    # pass, fail, error, xfail (failed as listed), xpass (listed, passed),
    # skip.
    status: str
    detail: str = ""
    max_abs_error: Optional[float] = None
    max_rel_error: Optional[float] = None
    first_mismatch: Optional[tuple] = None
    step: str = ""
    log: str = ""
    compile_ms: Optional[float] = None
    run_ms: Optional[float] = None
    tf_ms: Optional[float] = None
    artifacts: str = ""


def _num(value, fmt="{:.3g}"):
    return "" if value is None else fmt.format(value)


def _rows(outcomes):
    for o in sorted(outcomes, key=lambda o: (o.case, o.backend)):
        yield [o.case, o.backend, o.status, _num(o.max_abs_error),
               _num(o.max_rel_error),
               "" if o.first_mismatch is None else str(list(o.first_mismatch)),
               o.step, _num(o.compile_ms, "{:.0f}"), _num(o.run_ms, "{:.3f}"),
               o.detail]


HEADER = ["case", "backend", "status", "max abs err", "max rel err",
          "first mismatch", "failed step", "compile ms", "run ms", "detail"]


def summary(outcomes) -> str:
    counts = {}
    for o in outcomes:
        counts[o.status] = counts.get(o.status, 0) + 1
    return ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(outcomes) -> str:
    lines = ["# Kiln end-to-end report (TensorFlow reference)", "",
             f"{len(outcomes)} results: {summary(outcomes)}.", "",
             "| " + " | ".join(HEADER) + " |",
             "|" + "---|" * len(HEADER)]
    for row in _rows(outcomes):
        lines.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
    failed = [o for o in outcomes if o.status in ("error", "xfail", "fail")
              and o.log]
    if failed:
        lines += ["", "## Logs of failures", ""]
        for o in sorted(failed, key=lambda o: (o.case, o.backend)):
            lines += [f"### {o.case} on {o.backend}: {o.status} "
                      f"({o.step or 'compare'})", "",
                      f"Artifacts: `{o.artifacts}`", "", "```",
                      _tail(o.log), "```", ""]
    return "\n".join(lines) + "\n"


def _tail(log: str, lines: int = 30) -> str:
    kept = log.rstrip().splitlines()
    if len(kept) > lines:
        kept = [f"... ({len(kept) - lines} lines above)"] + kept[-lines:]
    return "\n".join(kept)


def html_page(outcomes) -> str:
    colors = {"pass": "#d4f7d4", "fail": "#f7d4d4", "error": "#f7c4a4",
              "xfail": "#f7f0c4", "xpass": "#f7a4f0", "skip": "#e8e8e8"}
    out = ["<!doctype html><meta charset=utf-8>",
           "<title>Kiln e2e report</title>",
           "<style>td,th{border:1px solid #aaa;padding:2px 6px;"
           "font:12px monospace}table{border-collapse:collapse}</style>",
           "<h1>Kiln end-to-end report (TensorFlow reference)</h1>",
           f"<p>{len(outcomes)} results: {html.escape(summary(outcomes))}.",
           "<table><tr>" + "".join(f"<th>{h}</th>" for h in HEADER) + "</tr>"]
    for o, row in zip(sorted(outcomes, key=lambda o: (o.case, o.backend)),
                      _rows(outcomes)):
        color = colors.get(o.status, "white")
        cells = "".join(f"<td>{html.escape(c)}</td>" for c in row)
        out.append(f"<tr style='background:{color}' title="
                   f"'{html.escape(_tail(o.log, 15), quote=True)}'>"
                   f"{cells}</tr>")
    out.append("</table>")
    return "\n".join(out) + "\n"


def write(outcomes, directory: str) -> str:
    """Writes report.md and report.html; returns the Markdown's path."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "report.md")
    with open(path, "w") as f:
        f.write(markdown(outcomes))
    with open(os.path.join(directory, "report.html"), "w") as f:
        f.write(html_page(outcomes))
    return path
