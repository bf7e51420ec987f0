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


def summary_markdown(outcomes) -> str:
    """The run in brief, for committing beside the docs: results per
    backend, every case that did not pass with its step and detail, the npm
    models (cases named npm_*) with their errors and times, and the slowest
    compiles. The full table stays in report.md."""
    backends = sorted({o.backend for o in outcomes})
    statuses = sorted({o.status for o in outcomes})
    lines = [f"{len(outcomes)} results: {summary(outcomes)}.", "",
             "| backend | cases | " + " | ".join(statuses) + " |",
             "|---|---|" + "---|" * len(statuses)]
    for backend in backends:
        mine = [o for o in outcomes if o.backend == backend]
        lines.append(f"| {backend} | {len(mine)} | " + " | ".join(
            str(sum(o.status == s for o in mine)) for s in statuses) + " |")
    others = sorted((o for o in outcomes if o.status != "pass"),
                    key=lambda o: (o.case, o.backend))
    lines += ["", "## Cases that did not pass", ""]
    if not others:
        lines.append("None.")
    else:
        lines += ["| case | backend | status | step | detail |",
                  "|---|---|---|---|---|"]
        for o in others:
            lines.append("| " + " | ".join(_md_cell(c) for c in (
                o.case, o.backend, o.status, o.step, o.detail[:300])) + " |")
    npm = sorted((o for o in outcomes if o.case.startswith("npm_")),
                 key=lambda o: o.case)
    if npm:
        lines += ["", "## npm models against TensorFlow", "",
                  "| model | status | max rel err | max abs err | "
                  "compile s | Kiln run ms | export + TensorFlow s |",
                  "|---|---|---|---|---|---|---|"]
        for o in npm:
            lines.append("| " + " | ".join((
                o.case[len("npm_"):], o.status,
                _num(o.max_rel_error, "{:.2g}"),
                _num(o.max_abs_error, "{:.2g}"),
                _num(None if o.compile_ms is None else o.compile_ms / 1000,
                     "{:.1f}"),
                _num(o.run_ms, "{:.1f}"),
                _num(None if o.tf_ms is None else o.tf_ms / 1000,
                     "{:.1f}"))) + " |")
    timed = sorted((o for o in outcomes if o.compile_ms is not None),
                   key=lambda o: -o.compile_ms)[:10]
    if timed:
        lines += ["", "## Slowest compiles", "",
                  "| case | backend | compile s |", "|---|---|---|"]
        for o in timed:
            lines.append(f"| {o.case} | {o.backend} | "
                         f"{o.compile_ms / 1000:.1f} |")
    return "\n".join(lines) + "\n"


def write(outcomes, directory: str) -> str:
    """Writes report.md, report.html and summary.md (summary_markdown);
    returns report.md's path."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "report.md")
    with open(path, "w") as f:
        f.write(markdown(outcomes))
    with open(os.path.join(directory, "summary.md"), "w") as f:
        f.write(summary_markdown(outcomes))
    with open(os.path.join(directory, "report.html"), "w") as f:
        f.write(html_page(outcomes))
    return path
