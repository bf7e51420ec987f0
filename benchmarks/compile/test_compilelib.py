"""Tests of the compile-time benchmark's parts (compilelib.py): the model
list from the e2e suite, the measured compile and its limits, the table and
the doc block. No Kiln binary or model is needed (a fake model cache, a
Python child for the measurement): `python3 -m pytest benchmarks/compile`."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compilelib  # noqa: E402
from compilelib import Measurement, Model  # noqa: E402


def graph_model(path, dims, function_nodes=0):
    """A minimal TF.js graph model.json: one float Placeholder of `dims`
    and a function of `function_nodes` nodes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({
        "format": "graph-model",
        "modelTopology": {"node": [{
            "name": "x", "op": "Placeholder",
            "attr": {"dtype": {"type": "DT_FLOAT"},
                     "shape": {"shape": {"dim": [{"size": str(d)}
                                                 for d in dims]}}}}],
            "library": {"function": [{"nodeDef": [{"name": f"n{i}"} for i
                                                  in range(function_nodes)]}]}}}))


def test_shapes_flag_joins_inputs_as_the_e2e_suite_does():
    assert compilelib.shapes_flag([[1, 64, 64, 3]]) == "1,64,64,3"
    # rvm: an image and five scalars.
    assert compilelib.shapes_flag([[1, 144, 256, 3], [], []]) == \
        "1,144,256,3::"


def test_models_are_the_e2e_suites_with_its_shapes(tmp_path):
    """The list comes from kiln_e2e.npm: a model the e2e suite would find
    is measured, with its batch fixed to 1 and MAXIM at the e2e suite's
    64x64 (npm.SPECS), not at sizes of a copied list."""
    pytest.importorskip("numpy")
    human = tmp_path / "vladmandic__human-models@3.0.4" / "package" / "models"
    graph_model(human / "tiny-net.json", [-1, 8, 8, 3], function_nodes=2)
    (human / "weights.json").write_text('{"not": "a graph model"}')
    graph_model(tmp_path / "upscalerjs__maxim-deblurring@0.1.0" / "models" /
                "model.json", [-1, -1, -1, 3])
    found = compilelib.models(str(tmp_path))
    assert [(m.name, m.shapes, m.nodes) for m in found] == [
        ("maxim_deblurring", "1,64,64,3", 1), ("tiny_net", "1,8,8,3", 3)]
    assert found[1].path == str(human / "tiny-net.json")
    assert [m.name for m in compilelib.models(str(tmp_path), ["tiny_net"])] \
        == ["tiny_net"]
    with pytest.raises(ValueError, match="unknown models: nope"):
        compilelib.models(str(tmp_path), ["tiny_net", "nope"])


def test_labelled_dirs_and_limits():
    assert compilelib.parse_labelled(["before=/a", "/b/bin"], "--bin-dir") == \
        [("before", "/a"), ("/b/bin", "/b/bin")]
    with pytest.raises(ValueError, match="twice"):
        compilelib.parse_labelled(["x=/a", "x=/b"], "--bin-dir")
    limits = compilelib.parse_limits(["600", "maxim_deblurring=1500", "300"])
    assert limits == {None: 300.0, "maxim_deblurring": 1500.0}
    assert compilelib.limit_for(limits, "maxim_deblurring") == 1500.0
    assert compilelib.limit_for(limits, "emotion") == 300.0
    assert compilelib.limit_for({}, "emotion") is None
    for bad in ("x=ten", "0", "m=-1"):
        with pytest.raises(ValueError):
            compilelib.parse_limits([bad])


def test_rotation_lets_each_binary_go_first_in_turn():
    labels = ["before", "after"]
    assert [compilelib.rotation(labels, i) for i in range(3)] == [
        ["before", "after"], ["after", "before"], ["before", "after"]]
    assert compilelib.rotation(["a", "b", "c"], 4) == ["b", "c", "a"]


def test_proc_stat_cpu_counts_user_and_system_after_the_name():
    # Fields 14 and 15 (utime 250, stime 50 ticks); the name holds ") (".
    stat = "123 (kiln ) (x) R 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 5 3 0 99"
    assert compilelib.proc_cpu_seconds(stat, 100) == pytest.approx(3.0)


def run_child(tmp_path, code, **limits):
    return compilelib.measure([sys.executable, "-c", code], "m", "x",
                              tmp_path / "log", poll_s=0.05, **limits)


def test_measure_reports_a_finished_compile(tmp_path):
    # 40 MB touched: the peak RSS is the child's, not this process's.
    r = run_child(tmp_path, "b = bytearray(40 << 20)\nfor i in range(0, "
                  "len(b), 4096): b[i] = 1")
    assert (r.status, r.model, r.label, r.detail) == ("ok", "m", "x", "")
    assert 40 <= r.peak_mb < 400
    assert r.cpu_s > 0 and r.wall_s >= r.cpu_s * 0.5


def test_measure_kills_at_the_cpu_limit_with_the_figures_at_the_kill(
        tmp_path):
    r = run_child(tmp_path, "while True: pass", cpu_limit=0.3)
    assert r.status == "killed"
    assert r.detail == "killed at the 0.3 s CPU-time limit"
    assert 0.3 <= r.cpu_s < 5 and r.peak_mb > 0
    r = run_child(tmp_path, "import time\ntime.sleep(30)", wall_limit=0.3)
    assert r.status == "killed" and 0.3 <= r.wall_s < 5
    assert r.detail == "killed at the 0.3 s wall-time limit"


def test_measure_reports_a_failed_compile_with_its_error(tmp_path):
    r = run_child(tmp_path, "import sys\nprint('model.json:3: error: no "
                  "lowering for op')\nprint('noise')\nsys.exit(1)")
    assert r.status == "failed"
    assert r.detail == "model.json:3: error: no lowering for op"
    r = run_child(tmp_path, "import os, signal\nos.kill(os.getpid(), "
                  "signal.SIGSEGV)")
    assert (r.status, r.detail) == ("failed", "killed by SIGSEGV")


def measurement(model, label, status="ok", cpu=1.0, wall=2.0, mb=100.0,
                detail=""):
    return Measurement(model, label, status, wall, cpu, mb, detail, 3.0)


def test_render_table():
    model_list = [Model("a", "/a.json", "1,8,8,3", 1200),
                  Model("b", "/b.json", "1,4,4,3", 5),
                  Model("c", "/c.json", "1,2,2,3:", 7)]
    results = [
        measurement("a", "before", cpu=4.0, wall=8.0, mb=300.0),
        measurement("a", "after", cpu=1.0, wall=2.0, mb=200.0),
        measurement("b", "after", cpu=3.0, wall=4.0, mb=100.0),
        measurement("b", "before", "killed", cpu=600.4, wall=1211.0,
                    mb=2500.0, detail="killed at the 600 s CPU-time limit"),
        measurement("c", "before", "failed", cpu=0.5, wall=0.6, mb=50.0,
                    detail="x.json:1: error: bad"),
    ]
    text = compilelib.render_table(results, ["before", "after"], model_list)
    lines = text.splitlines()
    assert lines[0] == ("| model | nodes | input | before CPU s | before wall s | "
                        "before peak MB | after CPU s | after wall s | "
                        "after peak MB | CPU after ÷ before |")
    assert "| a | 1,200 | 1,8,8,3 | 4.0 | 8.0 | 300 | 1.0 | 2.0 | 200 | 0.25 |" \
        in lines
    # Killed: the figures at the kill as bounds, the ratio as a bound.
    assert ("| b | 5 | 1,4,4,3 | > 600 killed [1] | > 1211 | ≥ 2500 | 3.0 | "
            "4.0 | 100 | < 0.005 |") in lines
    assert "| c | 7 | 1,2,2,3: | failed [2] | 0.6 | 50 | – | – | – | – |" in lines
    # Totals and medians only over the models both binaries finished (a).
    assert "Over the 1 models every binary compiled:" in lines
    assert "| before | 1 of 3 | 4 | 4.0 | 8 | 300 | 300 | 0 |" in lines
    assert "| after | 2 of 2 | 1 | 1.0 | 2 | 200 | 200 | 1 |" in lines
    assert "1. killed at the 600 s CPU-time limit" in lines
    assert "2. x.json:1: error: bad" in lines
    # One binary: no ratio column.
    one = compilelib.render_table(results, ["after"], model_list)
    assert "÷" not in one.splitlines()[0]


def test_replace_block():
    doc = "# Compile time\n\nintro\n"
    once = compilelib.replace_block(doc, "table 1\n")
    assert once == (f"# Compile time\n\nintro\n\n{compilelib.BEGIN_MARK}\n"
                    f"table 1\n{compilelib.END_MARK}\n")
    twice = compilelib.replace_block(once + "\n## Later\n", "table 2")
    assert "table 1" not in twice
    assert twice.count(compilelib.BEGIN_MARK) == 1
    assert twice.endswith(f"table 2\n{compilelib.END_MARK}\n\n## Later\n")
