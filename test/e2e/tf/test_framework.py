"""Tests of the framework itself: comparison, expected-failure lists (strict),
failure reporting with artifacts, backend selection, the report."""

import collections
import glob
import importlib
import os
import subprocess
import sys

import numpy as np
import pytest

from kiln_e2e import compare as compare_lib
from kiln_e2e import report as report_lib
from kiln_e2e import xfail
from kiln_e2e.backends import Backend, BackendRun, make_backend

HERE = os.path.dirname(os.path.abspath(__file__))


def test_compare_passes_within_scale_relative_tolerance():
    expected = np.array([100.0, -50.0, 1.0], np.float32)
    actual = expected + np.float32(0.005)  # 5e-5 of the scale 100
    result = compare_lib.compare(actual, expected, 1e-4, 1e-6)
    assert result.passed
    assert result.scale == 100.0
    assert result.max_rel_error == pytest.approx(5e-5, rel=1e-3)


def test_compare_reports_first_mismatch():
    expected = np.zeros([2, 3], np.float32)
    actual = expected.copy()
    actual[1, 0] = 1.0
    actual[1, 2] = 2.0
    result = compare_lib.compare(actual, expected, 1e-4, 1e-6)
    assert not result.passed
    assert result.first_mismatch == (1, 0)
    assert result.mismatches == 2
    assert result.max_abs_error == 2.0
    assert "[1, 0]" in result.describe()


def test_compare_nan_matches_only_nan_and_infinities_their_sign():
    expected = np.array([np.nan, np.inf, -np.inf, 1.0], np.float32)
    assert compare_lib.compare(expected.copy(), expected, 1e-4, 1e-6).passed
    for i, wrong in enumerate([0.0, -np.inf, np.inf, np.nan]):
        actual = expected.copy()
        actual[i] = wrong
        result = compare_lib.compare(actual, expected, 1e-4, 1e-6)
        assert not result.passed and result.first_mismatch == (i,)


def test_compare_integers_and_bools_exactly():
    expected = np.array([1000000, 2], np.int32)
    actual = np.array([1000001, 2], np.int32)
    assert not compare_lib.compare(actual, expected, 1e-4, 1e-6).passed
    assert not compare_lib.compare(np.array([True]), np.array([False]),
                                   1e-4, 1e-6).passed


def test_compare_dtype_shape_scalar_and_empty():
    assert "dtype" in compare_lib.compare(
        np.zeros(2, np.int64), np.zeros(2, np.int32), 1e-4, 1e-6).problem
    assert "shape" in compare_lib.compare(
        np.zeros([2, 1]), np.zeros([2]), 1e-4, 1e-6).problem
    scalar = compare_lib.compare(np.float32(3.0), np.float32(2.0), 1e-4, 1e-6)
    assert not scalar.passed and scalar.first_mismatch == ()
    assert compare_lib.compare(np.zeros([0, 3]), np.zeros([0, 3]), 0, 0).passed


def test_xfail_parse_requires_reasons_and_unique_names():
    assert xfail.parse("# c\n\na  why not\nb compile: x y\n") == {
        "a": "why not", "b": "compile: x y"}
    with pytest.raises(ValueError, match="has no reason"):
        xfail.parse("lonely\n")
    with pytest.raises(ValueError, match="listed twice"):
        xfail.parse("a x\na y\n")


def _all_case_names():
    names = set()
    for path in glob.glob(os.path.join(HERE, "ops", "test_*.py")) + \
            glob.glob(os.path.join(HERE, "keras_models", "test_*.py")) + [
            os.path.join(HERE, "test_modules.py")]:
        rel = os.path.relpath(path, HERE)[:-3].replace(os.sep, ".")
        names |= {c.name for c in importlib.import_module(rel).CASES}
    return names


def test_xfail_lists_name_existing_cases():
    pytest.importorskip("tensorflow")
    names = _all_case_names()
    for path in glob.glob(os.path.join(xfail.XFAIL_DIR, "*.txt")):
        backend = os.path.basename(path)[:-4]
        if backend == "npm-tensorflow":
            continue  # models, checked by npm_models/test_npm_models.py
        stale = set(xfail.load(backend)) - names
        assert not stale, f"{path} lists cases that do not exist: {stale}"


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown backend 'npu'.*cpu"):
        make_backend("npu", "/nowhere")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--backends=cpu,npu",
         "--collect-only", "-q", "test_framework.py"],
        cwd=HERE, capture_output=True, text=True)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "unknown backend 'npu'" in proc.stderr


def test_a_step_past_its_timeout_is_reported_as_such(tmp_path):
    from kiln_e2e.backends import _run
    log = tmp_path / "step.log"
    status, output = _run(["sleep", "30"], str(log), str(tmp_path), timeout=1)
    assert status == "timeout"
    assert "(timed out after 1 s)" in output
    assert "sleep 30" in log.read_text()
    assert _run(["true"], str(log), str(tmp_path), timeout=1)[0] == 0


def test_npm_specs_justify_tolerances_and_timeouts():
    from kiln_e2e import npm
    from kiln_e2e.backends import TIMEOUT
    for name, spec in npm.SPECS.items():
        if (spec.rtol, spec.atol) != (1e-4, 1e-6):
            assert spec.why, name
        if spec.timeout != TIMEOUT:
            assert spec.timeout > TIMEOUT and spec.why_timeout, name


class FakeBackend(Backend):
    """Returns canned outputs, or fails, without running Kiln."""

    name = "fake"

    def __init__(self, outputs=None, step=""):
        self.outputs, self.step = outputs, step

    def run(self, frozen, graph_path, input_paths, inputs, out_dir):
        return BackendRun(outputs=self.outputs, step=self.step,
                          log="$ fake\nerror: it broke\n", compile_ms=1.0)


class FakeConfig:
    def __init__(self, artifacts, xfails):
        self.artifacts = artifacts
        # Other backends than the fake one expect no failure.
        self.kiln_xfails = collections.defaultdict(dict, {"fake": xfails})
        self.kiln_outcomes = []

    def getoption(self, name):
        assert name == "artifacts_dir"
        return self.artifacts


@pytest.fixture
def negate_case():
    pytest.importorskip("tensorflow")
    import tensorflow as tf
    from kiln_e2e import op_case
    return op_case("fw_negate", tf.negative, tf.TensorSpec([3], tf.float32),
                   inputs=[np.array([1, 2, 3], np.float32)])


def _check(tmp_path, case, backend, xfails):
    from conftest import E2E
    config = FakeConfig(str(tmp_path), xfails)
    E2E(config).check(case, backend)
    return config.kiln_outcomes[-1]


def test_check_passes_and_keeps_artifacts(tmp_path, negate_case):
    outcome = _check(tmp_path, negate_case, FakeBackend(
        [np.array([-1, -2, -3], np.float32)]), {})
    assert outcome.status == "pass"
    case_dir = tmp_path / "fw_negate"
    for name in ("graph.pbtxt", "input_0.npy", "tf/output_0.npy",
                 "fake/result.json"):
        assert (case_dir / name).exists(), name
    assert 'op: "Neg"' in (case_dir / "graph.pbtxt").read_text()


def test_check_fails_on_mismatch_with_index(tmp_path, negate_case):
    with pytest.raises(pytest.fail.Exception, match=r"first at \[2\]"):
        _check(tmp_path, negate_case, FakeBackend(
            [np.array([-1, -2, 3], np.float32)]), {})


def test_check_reports_the_failed_step(tmp_path, negate_case):
    with pytest.raises(pytest.fail.Exception,
                       match="compile \\(linalg\\) failed: error: it broke"):
        _check(tmp_path, negate_case, FakeBackend(step="compile (linalg)"),
               {})


def test_listed_failure_is_xfail(tmp_path, negate_case):
    with pytest.raises(pytest.xfail.Exception, match="known bug"):
        _check(tmp_path, negate_case, FakeBackend(step="run"),
               {"fw_negate": "known bug"})


def test_listed_case_that_passes_fails_strictly(tmp_path, negate_case):
    with pytest.raises(pytest.fail.Exception, match="XPASS\\(strict\\)"):
        _check(tmp_path, negate_case, FakeBackend(
            [np.array([-1, -2, -3], np.float32)]), {"fw_negate": "was bug"})


def test_compile_failure_keeps_a_reproducer(tmp_path, pytestconfig):
    """A real kiln-run on a graph whose lowering fails: the step, the log and
    kiln-compile's dumps land in the artifacts."""
    tf = pytest.importorskip("tensorflow")
    from kiln_e2e import op_case
    from kiln_e2e.runner import run_case
    # Lgamma: an op type no backend lowers.
    case = op_case("fw_no_lowering", tf.math.lgamma,
                   tf.TensorSpec([3], tf.float32),
                   inputs=[np.ones([3], np.float32)])
    backend = make_backend("cpu", pytestconfig.getoption("kiln_bin_dir"))
    outcome = run_case(case, backend, str(tmp_path))
    assert outcome.status == "error"
    assert outcome.step == "compile (linalg)"
    backend_dir = tmp_path / "fw_no_lowering" / backend.name
    assert "kiln-run --backend=cpu" in (backend_dir / "kiln-run.log").read_text()
    assert (backend_dir / "kiln-compile.log").exists()
    assert (backend_dir / "config.pbtxt").exists()
    commands = (backend_dir / "commands.sh").read_text().splitlines()
    assert "kiln-run --backend=cpu" in commands[2]
    assert "kiln-compile" in commands[3] and "--dump-dir=" in commands[3]


def test_report_lists_every_outcome(tmp_path):
    outcomes = [
        report_lib.Outcome("a", "cpu", "pass", max_abs_error=0.0,
                           compile_ms=12, run_ms=0.5),
        report_lib.Outcome("b", "cpu", "error", step="compile (linalg)",
                           detail="boom | bang", log="error: boom"),
    ]
    path = report_lib.write(outcomes, str(tmp_path))
    text = open(path).read()
    assert "2 results: 1 error, 1 pass." in text
    assert "| b | cpu | error |" in text and "boom \\| bang" in text
    assert "### b on cpu: error (compile (linalg))" in text
    assert "<td>compile (linalg)</td>" in (tmp_path / "report.html").read_text()


def test_summary_counts_backends_and_lists_npm_models(tmp_path):
    outcomes = [
        report_lib.Outcome("a", "cpu", "pass", compile_ms=1200),
        report_lib.Outcome("a", "tf-export", "xfail", step="reference",
                           detail="cannot run"),
        report_lib.Outcome("npm_emotion", "cpu", "pass", max_rel_error=1.3e-7,
                           max_abs_error=1.2e-7, compile_ms=3400, run_ms=0.5,
                           tf_ms=2100),
    ]
    report_lib.write(outcomes, str(tmp_path))
    text = (tmp_path / "summary.md").read_text()
    assert "3 results: 2 pass, 1 xfail." in text
    assert "| cpu | 2 | 2 | 0 |" in text
    assert "| tf-export | 1 | 0 | 1 |" in text
    assert "| a | tf-export | xfail | reference | cannot run |" in text
    assert "| emotion | pass | 1.3e-07 | 1.2e-07 | 3.4 | 0.5 | 2.1 |" in text
    assert "| npm_emotion | cpu | 3.4 |" in text


def test_package_backend_without_the_package_is_a_usage_error(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--backends=package",
         "--collect-only", "-q", "test_framework.py"],
        cwd=HERE, capture_output=True, text=True,
        env=dict(os.environ, KILN_PYTHON_DIR=str(tmp_path)))
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert f"no kiln package in {tmp_path}" in proc.stderr


def _package_backend(request):
    from kiln_e2e.package import KilnPackage
    backend = KilnPackage(os.path.realpath(
        request.config.getoption("kiln_bin_dir")))
    if backend.check():
        pytest.skip(backend.check())
    return backend


def test_package_backend_shares_the_cpu_expected_failures(request):
    assert _package_backend(request).xfail_list == "cpu"


def test_package_backend_reports_compile_errors_by_node(request, tmp_path):
    from kiln_e2e.case import FrozenGraph
    graph = tmp_path / "graph.pbtxt"
    graph.write_text('node { name: "x" op: "Placeholder" '
                     'attr { key: "dtype" value { type: DT_FLOAT } } }\n'
                     'node { name: "odd" op: "NoSuchOp" input: "x" }\n')
    frozen = FrozenGraph(graph_def=None, feeds=["x"],
                         feed_types=["DT_FLOAT"], fetches=["odd:0"])
    out_dir = tmp_path / "package"
    run = _package_backend(request).run(
        frozen, str(graph), [], [np.zeros([2], np.float32)], str(out_dir))
    assert run.outputs is None
    assert run.step.startswith(("import", "compile")), run.step
    assert "NoSuchOp" in run.log and "odd" in run.log, run.log
    assert (out_dir / "package.log").read_text() == run.log


def test_package_backend_runs_a_case(request, tmp_path, negate_case):
    outcome = _check(tmp_path, negate_case, _package_backend(request), {})
    assert outcome.status == "pass"
    assert outcome.compile_ms is not None and outcome.run_ms is not None
    log = (tmp_path / "fw_negate" / "package" / "package.log").read_text()
    assert "kiln.compile(" in log and "ran in" in log
