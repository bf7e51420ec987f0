"""The peer benchmark's bookkeeping: statistics, correctness, tables, the
section of docs/performance.md. Plain Python (no numpy, no engine), so its
tests run anywhere (test_benchlib.py)."""

import dataclasses
import hashlib
import math
import re
import signal
import statistics
import sys
from pathlib import Path

# benchmarks/doclib.py, shared with the compile-time benchmark.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import doclib  # noqa: E402

KILN = "kiln"
# The references every engine's outputs are compared with: the first that
# ran on the model (TensorFlow, or its XLA path when TensorFlow failed).
REFERENCES = ("tf", "tf-xla")
# Engines in table order, with the name a reader knows them by.
ENGINE_TITLES = {
    "kiln": "Kiln (linked object)",
    "tf": "TensorFlow",
    "tf-xla": "TF XLA (jit_compile)",
    "litert": "LiteRT (XNNPACK)",
    "openvino": "OpenVINO CPU",
    "onnxruntime": "ONNX Runtime",
    "iree": "IREE llvm-cpu",
    "tfjs-wasm": "TF.js wasm",
}
# Largest error relative to the output's scale that still counts as the same
# answer: far above fp32 reordering (1e-6..1e-4), far below a wrong padding,
# layout or activation.
TOLERANCE = 1e-2
# Outputs of the npm models whose largest |value| is below this are compared
# absolutely: a sigmoid far in its tail (selfie's mask on a random image is
# ~1e-11) is the same answer at 2e-11 and 0, though the relative difference is
# large. The Keras models' logits (random weights: ~1e-11 to 1e-7) are
# compared relative to their own scale (prepare.py sets their floor to ~0).
SCALE_FLOOR = 1e-6

BEGIN_MARK = "<!-- peer-benchmark:begin (written by benchmarks/peers/run.py) -->"
END_MARK = "<!-- peer-benchmark:end -->"


@dataclasses.dataclass
class Result:
    """One engine on one model at one thread count: its timings, or why it
    did not run."""
    engine: str
    model: str
    threads: int
    times_ms: list = dataclasses.field(default_factory=list)
    error: str = ""
    note: str = ""
    # Largest |engine - reference| / max(max|reference|, SCALE_FLOOR) over the
    # outputs; None when there was nothing to compare with.
    rel_error: float = None

    @property
    def ok(self):
        return not self.error and bool(self.times_ms)

    @property
    def correct(self):
        return self.ok and (self.rel_error is None or self.rel_error <= TOLERANCE)

    @property
    def median(self):
        return statistics.median(self.times_ms)

    @property
    def spread(self):
        """Half the interquartile range relative to the median (0.05 = ±5%)."""
        if len(self.times_ms) < 4:
            return 0.0
        q1, _, q3 = statistics.quantiles(self.times_ms, n=4)
        return (q3 - q1) / 2 / self.median


def build_stamp(paths):
    """A digest of the files a converted model was built with (for Kiln:
    kiln-compile, the thread runtime, the timer's source). A cached
    conversion whose stamp differs is stale and is redone, so a run never
    times an object that an older compiler made."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path).encode() + b"\0")
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def is_current(stamp_file, stamp):
    """Whether a cached conversion was made with the files of `stamp`."""
    try:
        with open(stamp_file) as f:
            return f.read().strip() == stamp
    except FileNotFoundError:
        return False


def error_summary(stderr, returncode=1, limit=240):
    """What went wrong in a failed step: "killed by SIGSEGV" when a signal
    ended it, and the last exception line ("SomeError: ...") or "error:"
    diagnostic of its stderr, else its last line that is not a log message
    (TensorFlow's "I0000 ..." and "WARNING: ..."), shortened to `limit`
    characters."""
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    pattern = re.compile(r"^([\w.]+(Error|Exception)\b|.*\berror: )")
    noise = re.compile(r"^([IW]\d{4} |WARNING|INFO:)")
    chosen = next((l for l in reversed(lines) if pattern.match(l)), None)
    if chosen is None:
        chosen = next((l for l in reversed(lines) if not noise.match(l)), "")
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        chosen = f"killed by {name}" + (f": {chosen}" if chosen else "")
    chosen = chosen or "failed with no message"
    return chosen if len(chosen) <= limit else chosen[:limit - 1] + "…"


def relative_error(outputs, reference, floor=SCALE_FLOOR):
    """Largest |a - r| / max(max|r|, floor) over paired outputs (lists of
    numbers); a NaN against a number is an infinite error. Raises
    ValueError on a count or size mismatch."""
    if len(outputs) != len(reference):
        raise ValueError(f"{len(outputs)} outputs, the reference has {len(reference)}")
    worst = 0.0
    for i, (a, r) in enumerate(zip(outputs, reference)):
        a, r = list(a), list(r)
        if len(a) != len(r):
            raise ValueError(f"output {i} has {len(a)} elements, the reference {len(r)}")
        scale = max(max((abs(x) for x in r if x == x), default=0.0), floor)
        for x, y in zip(a, r):
            if x != x or y != y:
                if not (x != x and y != y):
                    return math.inf
                continue
            worst = max(worst, abs(x - y) / scale)
    return worst


def match_by_shape(shapes, reference_shapes):
    """A permutation p with shapes[p[i]] == reference_shapes[i], taking equal
    shapes in their order, or None when the shapes are not a reordering of
    the reference's. Some engines (IREE from a SavedModel signature) return a
    model's outputs in another order than its fetches."""
    shapes = [tuple(s) for s in shapes]
    used = [False] * len(shapes)
    order = []
    for want in reference_shapes:
        found = next((i for i, s in enumerate(shapes) if not used[i] and s == tuple(want)),
                     None)
        if found is None or len(shapes) != len(reference_shapes):
            return None
        used[found] = True
        order.append(found)
    return order


def find(results, engine, model, threads):
    for r in results:
        if (r.engine, r.model, r.threads) == (engine, model, threads):
            return r
    return None


def fastest_peer(results, model, threads):
    """The fastest correct non-Kiln result for a model and thread count, or
    None."""
    peers = [r for r in results if r.model == model and r.threads == threads
             and r.engine != KILN and r.correct]
    return min(peers, key=lambda r: r.median, default=None)


def kiln_ratio(results, model, threads):
    """Kiln's median over the fastest peer's (above 1: Kiln is slower), or
    None when either is missing."""
    kiln = find(results, KILN, model, threads)
    peer = fastest_peer(results, model, threads)
    if not kiln or not kiln.correct or not peer:
        return None
    return kiln.median / peer.median


def speedup(results, engine, model, one=1, two=2):
    """Median at `one` thread over median at `two` threads, or None."""
    a, b = find(results, engine, model, one), find(results, engine, model, two)
    if not a or not b or not a.ok or not b.ok:
        return None
    return a.median / b.median


def _cell(result, footnotes):
    if result is None:
        return "–"
    if not result.ok:
        return f"failed [{footnotes.add(result)}]"
    text = f"{result.median:.2f} ±{result.spread * 100:.0f}%"
    if not result.correct:
        text += f" **wrong** ({result.rel_error:.1e})"
    if result.note:
        text += f" [{footnotes.add(result)}]"
    return text


class Footnotes:
    """Numbers each distinct error or note once, naming every engine it
    concerns, so a table cell stays short and the reason is printed in full
    below it."""

    def __init__(self):
        self.texts = []     # error or note, in order of first use
        self.engines = {}   # text -> engine titles

    def add(self, result):
        text = result.error or result.note
        if text not in self.texts:
            self.texts.append(text)
            self.engines[text] = []
        title = ENGINE_TITLES.get(result.engine, result.engine)
        if title not in self.engines[text]:
            self.engines[text].append(title)
        return self.texts.index(text) + 1

    def lines(self):
        return [f"{i}. {', '.join(self.engines[t])}: {t}"
                for i, t in enumerate(self.texts, 1)]


def render_tables(results, engines, models, threads_list):
    """The Markdown tables: latency per model and engine for each thread
    count with Kiln's ratio to the fastest peer, the speed-up from 1 to 2
    threads, the largest error against TensorFlow, and the numbered reasons
    (failures and notes)."""
    notes = Footnotes()
    titles = [ENGINE_TITLES.get(e, e) for e in engines]
    lines = []
    for threads in threads_list:
        lines += [f"**{threads} thread{'s' if threads > 1 else ''}**: median ms "
                  "±half the interquartile range",
                  "",
                  "| model | " + " | ".join(titles) + " | fastest peer | Kiln ÷ fastest |",
                  "|---|" + "---:|" * len(engines) + "---|---:|"]
        for model in models:
            cells = [_cell(find(results, e, model, threads), notes) for e in engines]
            peer = fastest_peer(results, model, threads)
            ratio = kiln_ratio(results, model, threads)
            lines.append(f"| {model} | " + " | ".join(cells) + " | "
                         + (ENGINE_TITLES.get(peer.engine, peer.engine) if peer else "–")
                         + " | " + (f"{ratio:.2f}×" if ratio else "–") + " |")
        lines.append("")
    if len(threads_list) >= 2:
        one, two = threads_list[0], threads_list[1]
        lines += [f"**Speed-up from {one} to {two} threads** (median at {one} ÷ "
                  f"median at {two})", "",
                  "| model | " + " | ".join(titles) + " |",
                  "|---|" + "---:|" * len(engines)]
        for model in models:
            cells = []
            for e in engines:
                s = speedup(results, e, model, one, two)
                cells.append(f"{s:.2f}×" if s else "–")
            lines.append(f"| {model} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += ["**Largest error against TensorFlow** (|engine − TF| ÷ max|TF| over "
              f"the outputs, at least {SCALE_FLOOR:g} for the npm models; {threads_list[0]} "
              f"thread{'s' if threads_list[0] > 1 else ''}; TF XLA where TensorFlow "
              f"failed; above {TOLERANCE:g} counts as wrong)", "",
              "| model | " + " | ".join(titles) + " |",
              "|---|" + "---:|" * len(engines)]
    for model in models:
        cells = []
        for e in engines:
            r = find(results, e, model, threads_list[0])
            cells.append("–" if not r or r.rel_error is None else f"{r.rel_error:.1e}")
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    lines.append("")
    if notes.texts:
        lines += ["Failures and notes:", ""]
        lines += notes.lines()
        lines.append("")
    return "\n".join(lines)


def replace_section(document, section):
    """`document` with the text between BEGIN_MARK and END_MARK replaced by
    `section`, or with the marked section appended when it has none."""
    return doclib.replace_marked(document, section, BEGIN_MARK, END_MARK)
