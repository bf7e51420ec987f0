"""Every pinned npm graph model (48 model.json files of the packages
test/models/fetch-models.sh fetches) compiled by Kiln from its model.json
and compared with TensorFlow running the same graph, Kiln's exported frozen
GraphDef (kiln_e2e/npm.py, docs/e2e.md). One case per model,
`npm_<model>-cpu`; they run when `cpu` is among --backends, and are skipped
when the models are not fetched.

Tolerance: the default 1e-4 of each output's scale unless the model's
kiln_e2e.npm.SPECS entry gives another with its measured reason.
TensorFlow's own failures to run a graph (ops only TF.js defines) are
listed with its error in test/e2e/xfail/npm-tensorflow.txt, strictly: a
listed model that passes fails the run.

The CI subset is emotion and liveness (about 4 s each); the full run is
`run-ctest.sh build/bin build/e2e-tf npm_models` (docs/e2e.md)."""

import os

import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import npm, xfail  # noqa: E402

MODELS = npm.find_models()  # empty when the models are not fetched

EXPECTED = xfail.load("npm-tensorflow")


def pytest_generate_tests(metafunc):
    if "model" not in metafunc.fixturenames:
        return
    models = MODELS
    if metafunc.config.getoption("subset") == "ci":
        models = [m for m in models if m.name in npm.CI_MODELS]
    metafunc.parametrize("model", models, ids=[f"npm_{m.name}-cpu"
                                               for m in models])


def test_expected_failures_name_models():
    """Every line of npm-tensorflow.txt names a model of the packages."""
    if not MODELS:
        pytest.skip("the npm models are not fetched (test/models/"
                    "fetch-models.sh)")
    names = {f"npm_{m.name}" for m in MODELS}
    assert not set(EXPECTED) - names, set(EXPECTED) - names


def test_npm_model(model, pytestconfig):
    names = [b.name for b in pytestconfig.kiln_backends]
    if "cpu" not in names:
        pytest.skip("the npm models run on the cpu backend only")
    artifacts = os.path.realpath(pytestconfig.getoption("artifacts_dir"))
    bin_dir = os.path.realpath(pytestconfig.getoption("kiln_bin_dir"))
    outcome = npm.run_model(model, bin_dir, artifacts)
    pytestconfig.kiln_outcomes.append(outcome)
    reason = EXPECTED.get(outcome.case)
    if outcome.status == "pass":
        if reason is not None:
            outcome.status = "xpass"
            pytest.fail(f"XPASS(strict): '{outcome.case}' passes; remove it "
                        "from test/e2e/xfail/npm-tensorflow.txt (listed as: "
                        f"{reason})", pytrace=False)
        return
    if reason is not None:
        outcome.status = "xfail"
        pytest.xfail(f"{reason} [now: {outcome.step or 'compare'}: "
                     f"{outcome.detail}]")
    pytest.fail(f"{outcome.case}: {outcome.step or 'compare'}: "
                f"{outcome.detail}\nartifacts: {outcome.artifacts}",
                pytrace=False)
