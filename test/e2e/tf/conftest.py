"""pytest plumbing of the TensorFlow end-to-end tests (docs/e2e.md).

A test module lists its cases in `CASES` (kiln_e2e.Case) and has a test
function taking `case`, `backend` and `e2e`; every case is run on every
backend of `--backends`, with the id `<case>-<backend>`, so
`pytest -k <case>` runs one case."""

import os

# TensorFlow's plain kernels are the reference, not oneDNN's fused ones, and
# its start-up chatter stays out of the logs. Set before anything imports it.
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import pytest  # noqa: E402

from kiln_e2e import backends as backends_lib  # noqa: E402
from kiln_e2e import report as report_lib  # noqa: E402
from kiln_e2e import runner, xfail  # noqa: E402

REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..",
                                     ".."))


def pytest_addoption(parser):
    group = parser.getgroup("kiln", "Kiln end-to-end tests")
    group.addoption("--backends", default="cpu",
                    help="comma-separated Kiln backends to compare with "
                    "TensorFlow (known: %s; default cpu)"
                    % ", ".join(backends_lib.KNOWN_BACKENDS))
    group.addoption("--kiln-bin-dir",
                    default=os.environ.get("KILN_BIN_DIR",
                                           os.path.join(REPO, "build", "bin")),
                    help="where kiln-run and kiln-compile are (default: "
                    "$KILN_BIN_DIR or build/bin)")
    group.addoption("--artifacts-dir",
                    default=os.environ.get(
                        "KILN_E2E_ARTIFACTS",
                        os.path.join(REPO, "build", "e2e-tf")),
                    help="where each case's graph, inputs, outputs, logs and "
                    "the report go (default: $KILN_E2E_ARTIFACTS or "
                    "build/e2e-tf)")
    group.addoption("--subset", choices=("all", "ci"), default="all",
                    help="'ci': only the cases marked ci=True (what ctest "
                    "runs); default all")


def pytest_configure(config):
    names = [b.strip() for b in config.getoption("backends").split(",")
             if b.strip()]
    if not names:
        raise pytest.UsageError("--backends names no backend")
    bin_dir = os.path.realpath(config.getoption("kiln_bin_dir"))
    try:
        config.kiln_backends = [backends_lib.make_backend(n, bin_dir)
                                for n in names]
    except ValueError as e:
        raise pytest.UsageError(f"--backends: {e}")
    tools = {t for b in config.kiln_backends for t in b.tools}
    for tool in sorted(tools):
        if not os.access(os.path.join(bin_dir, tool), os.X_OK):
            raise pytest.UsageError(
                f"no {tool} in {bin_dir}: build Kiln (./build.sh build) or "
                "pass --kiln-bin-dir")
    for backend in config.kiln_backends:
        problem = backend.check()
        if problem:
            raise pytest.UsageError(f"--backends={backend.name}: {problem}")
    config.kiln_xfails = {b.name: xfail.load(b.xfail_list or b.name)
                          for b in config.kiln_backends}
    config.kiln_outcomes = []
    config.addinivalue_line("markers", "kiln_case: a Kiln e2e case")


def pytest_generate_tests(metafunc):
    if "case" not in metafunc.fixturenames:
        return
    cases = getattr(metafunc.module, "CASES", [])
    if metafunc.config.getoption("subset") == "ci":
        cases = [c for c in cases if c.ci]
    params = [pytest.param(c, b, id=f"{c.name}-{b.name}")
              for c in cases for b in metafunc.config.kiln_backends]
    metafunc.parametrize(("case", "backend"), params)


def pytest_collection_modifyitems(session, config, items):
    seen = {}
    for item in items:
        callspec = getattr(item, "callspec", None)
        if not callspec or "case" not in callspec.params:
            continue
        key = (callspec.params["case"].name, callspec.params["backend"].name)
        if key in seen and seen[key] != item.nodeid:
            raise pytest.UsageError(f"case '{key[0]}' is defined twice: "
                                    f"{seen[key]} and {item.nodeid}")
        seen[key] = item.nodeid


class E2E:
    """The `e2e` fixture: runs a case and turns its outcome into pass, fail,
    xfail (listed in test/e2e/xfail/<backend>.txt) or a strict XPASS."""

    def __init__(self, config):
        self.config = config
        self.artifacts = os.path.realpath(config.getoption("artifacts_dir"))

    def check(self, case, backend):
        self.judge(runner.run_case(case, backend, self.artifacts), backend)

    def judge(self, outcome, backend):
        """Records an outcome (report.Outcome) of `backend` and passes,
        fails or xfails the test from it and the expected-failure list."""
        name = outcome.case
        reason = self.config.kiln_xfails[backend.name].get(name)
        self.config.kiln_outcomes.append(outcome)
        where = f"\nartifacts: {outcome.artifacts}"
        if outcome.status == "pass":
            listed = backend.xfail_list or backend.name
            if reason is not None:
                outcome.status = "xpass"
                pytest.fail(f"XPASS(strict): '{name}' passes on "
                            f"{backend.name}; remove it from "
                            f"test/e2e/xfail/{listed}.txt (listed as: "
                            f"{reason})", pytrace=False)
            return
        if reason is not None:
            outcome.status = "xfail"
            pytest.xfail(f"{reason} [now: {outcome.step or 'compare'}: "
                         f"{outcome.detail}]")
        if outcome.status == "fail":
            pytest.fail(f"{name} on {backend.name} does not match "
                        f"TensorFlow: {outcome.detail}{where}", pytrace=False)
        pytest.fail(f"{name} on {backend.name}: {outcome.step} failed: "
                    f"{outcome.detail}{where}\n"
                    f"{report_lib._tail(outcome.log)}", pytrace=False)


@pytest.fixture(scope="session")
def e2e(pytestconfig):
    return E2E(pytestconfig)


def pytest_sessionfinish(session, exitstatus):
    outcomes = getattr(session.config, "kiln_outcomes", None)
    if not outcomes:
        return
    artifacts = os.path.realpath(session.config.getoption("artifacts_dir"))
    path = report_lib.write(outcomes, artifacts)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter:
        reporter.write_sep("-", f"kiln e2e: {report_lib.summary(outcomes)};"
                           f" report: {path}")
