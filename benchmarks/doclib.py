"""What the benchmark scripts share for writing their figures into docs/:
the marked block a script owns in a Markdown page, and the machine's name."""

from pathlib import Path


def replace_marked(document, text, begin, end):
    """`document` with the text between the `begin` and `end` marks replaced
    by `text`, or with the marked block appended when it has none."""
    block = f"{begin}\n{text.rstrip()}\n{end}"
    start = document.find(begin)
    stop = document.find(end)
    if start >= 0 and stop > start:
        return document[:start] + block + document[stop + len(end):]
    return document.rstrip("\n") + "\n\n" + block + "\n"


def cpu_model(fallback="unknown CPU"):
    """The CPU's model name from /proc/cpuinfo, or `fallback`."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return fallback
