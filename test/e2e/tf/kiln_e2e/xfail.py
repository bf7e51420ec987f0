"""Expected-failure lists: test/e2e/xfail/<backend>.txt.

One case per line, its name then its reason:

    conv2d_nchw_f32    compile (linalg): 'tf.Conv2D' with data_format NCHW ...

Blank lines and lines starting with '#' are ignored. A listed case that
passes fails the run (strict), so the list only shrinks."""

import os

XFAIL_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "xfail")


def parse(text: str, source: str = "<string>") -> dict:
    """Case name -> reason; ValueError on a line without a reason or a case
    listed twice."""
    entries = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) < 2:
            raise ValueError(f"{source}:{number}: '{parts[0]}' has no reason")
        if parts[0] in entries:
            raise ValueError(f"{source}:{number}: '{parts[0]}' is listed twice")
        entries[parts[0]] = parts[1]
    return entries


def load(backend: str, directory: str = XFAIL_DIR) -> dict:
    """The expected failures of `backend` (empty when it has no list)."""
    path = os.path.join(directory, f"{backend}.txt")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return parse(f.read(), path)
