"""Tests of the peer benchmark's bookkeeping (benchlib.py): statistics, the
correctness check, the failure path, the tables and the doc section. They
need neither the peers nor numpy: `python3 -m pytest benchmarks/peers`."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402
from benchlib import Result  # noqa: E402


def result(engine, model, threads, times=None, **kwargs):
    return Result(engine, model, threads, times_ms=list(times or []), **kwargs)


def test_median_and_spread():
    r = result("tf", "m", 1, [4.0, 1.0, 3.0, 2.0, 100.0])
    assert r.median == 3.0
    # Quartiles of (1, 2, 3, 4, 100) by the exclusive method: 1.5 and 52.
    assert r.spread == pytest.approx((52.0 - 1.5) / 2 / 3.0)
    assert result("tf", "m", 1, [5.0, 7.0]).spread == 0.0


def test_error_summary_picks_the_exception_line():
    stderr = ("WARNING: something noisy\nTraceback (most recent call last):\n"
              '  File "x.py", line 1\nValueError: NodeDef missing attr\n'
              "I0000 log line after it\n")
    assert benchlib.error_summary(stderr) == "ValueError: NodeDef missing attr"
    assert benchlib.error_summary("x.mlir:2:3: error: cannot export\nnote: see") == \
        "x.mlir:2:3: error: cannot export"
    assert benchlib.error_summary("just the last line\n\n") == "just the last line"
    # TensorFlow's log lines are not the reason; a signal is.
    assert benchlib.error_summary("real reason\nI0000 00:00:17 port.cc:153] oneDNN\n"
                                  "WARNING: All log messages\n") == "real reason"
    assert benchlib.error_summary("I0000 00:00:17 port.cc:153] oneDNN\n", -11) == \
        "killed by SIGSEGV"
    assert benchlib.error_summary("Fatal Python error: x\n", -6) == \
        "killed by SIGABRT: Fatal Python error: x"
    assert benchlib.error_summary("") == "failed with no message"
    long = benchlib.error_summary("RuntimeError: " + "x" * 500, limit=40)
    assert len(long) == 40 and long.endswith("…")


def test_relative_error():
    assert benchlib.relative_error([[1.0, -2.0]], [[1.0, -2.0]]) == 0.0
    # The worst output counts; each is scaled by its own largest |value|.
    assert benchlib.relative_error([[1.1, -2.0], [10.0]], [[1.0, -2.0], [10.0]]) == \
        pytest.approx(0.05)
    assert benchlib.relative_error([[0.0]], [[0.0]]) == 0.0
    # Tiny outputs are compared against SCALE_FLOOR, not their own scale.
    assert benchlib.relative_error([[0.0, 1e-12]], [[2e-11, 1e-12]]) == \
        pytest.approx(2e-11 / benchlib.SCALE_FLOOR)
    assert benchlib.relative_error([[1.1e-11]], [[1e-11]], floor=1e-30) == \
        pytest.approx(0.1)
    # NaN matches only NaN.
    nan = float("nan")
    assert benchlib.relative_error([[nan, 1.0]], [[nan, 1.0]]) == 0.0
    assert benchlib.relative_error([[nan, 1.0]], [[0.5, 1.0]]) == float("inf")
    assert benchlib.relative_error([[0.5, 1.0]], [[nan, 1.0]]) == float("inf")
    with pytest.raises(ValueError, match="2 outputs"):
        benchlib.relative_error([[1.0], [2.0]], [[1.0]])
    with pytest.raises(ValueError, match="output 0 has 1 elements"):
        benchlib.relative_error([[1.0]], [[1.0, 2.0]])


def test_match_by_shape():
    assert benchlib.match_by_shape([(1, 2), (3,)], [(1, 2), (3,)]) == [0, 1]
    assert benchlib.match_by_shape([(1, 384, 16), (1, 512, 16)],
                                   [[1, 512, 16], [1, 384, 16]]) == [1, 0]
    # Equal shapes keep their order.
    assert benchlib.match_by_shape([(2,), (5,), (2,)], [(2,), (2,), (5,)]) == [0, 2, 1]
    assert benchlib.match_by_shape([(2,)], [(3,)]) is None
    assert benchlib.match_by_shape([(2,), (2,)], [(2,)]) is None


def sample():
    return [
        result("kiln", "a", 1, [20.0] * 5, rel_error=1e-6),
        result("tf", "a", 1, [30.0] * 5, rel_error=0.0),
        result("litert", "a", 1, [10.0] * 5, rel_error=0.5),   # fast but wrong
        result("openvino", "a", 1, [15.0] * 5, rel_error=1e-6),
        result("iree", "a", 1, error="converting: ValueError: unsupported op"),
        result("kiln", "a", 2, [20.0] * 5, note="no thread setting: one thread"),
        result("tf", "a", 2, [16.0] * 5),
        result("litert", "a", 2, [5.0] * 5, rel_error=0.5),
        result("openvino", "a", 2, [8.0] * 5),
        result("iree", "a", 2, error="converting: ValueError: unsupported op"),
    ]


def test_fastest_peer_skips_kiln_failures_and_wrong_engines():
    results = sample()
    assert benchlib.fastest_peer(results, "a", 1).engine == "openvino"
    assert benchlib.kiln_ratio(results, "a", 1) == pytest.approx(20.0 / 15.0)
    assert benchlib.kiln_ratio(results, "a", 2) == pytest.approx(20.0 / 8.0)
    assert benchlib.kiln_ratio(results, "b", 1) is None


def test_speedup():
    results = sample()
    assert benchlib.speedup(results, "tf", "a") == pytest.approx(30.0 / 16.0)
    assert benchlib.speedup(results, "kiln", "a") == pytest.approx(1.0)
    assert benchlib.speedup(results, "iree", "a") is None


def test_tables_show_failures_wrong_answers_and_notes():
    engines = ["kiln", "tf", "litert", "openvino", "iree"]
    text = benchlib.render_tables(sample(), engines, ["a"], [1, 2])
    lines = text.splitlines()
    row1 = next(l for l in lines if l.startswith("| a | 20.00"))
    assert "| 15.00 ±0% |" in row1
    assert "10.00 ±0% **wrong** (5.0e-01)" in row1
    assert row1.endswith("| OpenVINO CPU | 1.33× |")
    # The failed engine is in the table with a numbered reason, not dropped.
    assert "failed [1]" in row1
    assert "1. IREE llvm-cpu: converting: ValueError: unsupported op" in lines
    assert "2. Kiln (linked object): no thread setting: one thread" in lines
    speed = next(l for l in lines if l.startswith("| a | 1.00×"))
    assert speed == "| a | 1.00× | 1.88× | 2.00× | 1.88× | – |"
    # A model whose preparation failed: one footnote naming every engine.
    failed = [result(e, "b", 1, error="preparing the model: boom") for e in engines]
    text = benchlib.render_tables(failed, engines, ["b"], [1])
    assert ("1. Kiln (linked object), TensorFlow, LiteRT (XNNPACK), OpenVINO CPU, "
            "IREE llvm-cpu: preparing the model: boom") in text.splitlines()
    assert "| b | failed [1] | failed [1] |" in text


def test_replace_section():
    doc = "# Performance\n\nintro\n"
    once = benchlib.replace_section(doc, "table 1\n")
    assert once == (f"# Performance\n\nintro\n\n{benchlib.BEGIN_MARK}\ntable 1\n"
                    f"{benchlib.END_MARK}\n")
    twice = benchlib.replace_section(once + "\n## Later section\n", "table 2")
    assert "table 1" not in twice
    assert twice.count(benchlib.BEGIN_MARK) == 1
    assert twice.endswith(f"table 2\n{benchlib.END_MARK}\n\n## Later section\n")


def test_build_stamp_marks_a_conversion_stale_when_a_tool_changes(tmp_path):
    tool = tmp_path / "kiln-compile"
    tool.write_bytes(b"old compiler")
    stamp_file = tmp_path / "stamp"
    assert not benchlib.is_current(stamp_file, benchlib.build_stamp([tool]))
    stamp_file.write_text(benchlib.build_stamp([tool]) + "\n")
    assert benchlib.is_current(stamp_file, benchlib.build_stamp([tool]))
    tool.write_bytes(b"new compiler")
    assert not benchlib.is_current(stamp_file, benchlib.build_stamp([tool]))
