"""Checks a kiln-npu-sim --layer_report=csv table: no layer, and not the
whole stream, measures fewer cycles than its lower bound. Prints one line
per layer and one for the total; exits 1 on a violation."""

import csv
import re
import sys


def main(path):
    rows, total = [], None
    with open(path) as f:
        lines = [line for line in f if line.strip()]
    for line in lines:
        match = re.match(r"# total cycles (\d+)", line)
        if match:
            total = int(match.group(1))
    body = [line for line in lines if not line.startswith("#")]
    rows = list(csv.DictReader(body))
    ok = True
    bounds = 0
    for row in rows:
        measured, bound = int(row["measured"]), int(row["lower_bound"])
        bounds += bound
        verdict = ">=" if measured >= bound else "<"
        ok &= measured >= bound
        print(f"{row['layer']}: measured {verdict} lower bound "
              f"({measured}, {bound})")
    if total is not None:
        verdict = ">=" if total >= bounds else "<"
        ok &= total >= bounds
        print(f"total: measured {verdict} lower bound ({total}, {bounds})")
    return 0 if ok and rows else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
