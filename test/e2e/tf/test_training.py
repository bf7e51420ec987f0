"""The tfcompile team's training-step experiments (issue 19,
kiln_e2e/training.py; docs/from-tfcompile.md walks one through).

Each experiment's TF1 graph (`add_shapes=True`) and its generated tfcompile
config go through `kiln-compile` to an object and a header; a C++ program
written against the header (`var_<name>_data()` to set the variables,
`feed_<name>_data()`, `Run()`, `fetch_loss_data()`) runs STEPS training
steps on the feeds TensorFlow ran, and writes the loss and every variable
after each step. They must equal TensorFlow's within RTOL of each tensor's
scale plus ATOL.

Tolerance, measured: the largest difference over all experiments and
steps, relative to the tensor's largest magnitude, is printed by each test
(`max relative error`, with -s): 1e-7 to 5e-7 for the fully connected and
CNN experiments, up to 4.4e-6 for the CNN with a training batch norm (float32
sums in another order: Kiln's reductions and contractions do not add in
Eigen's order). RTOL = 1e-4 leaves a margin of thirty. Everything lands in <artifacts>/training/<test>/."""

import os
import shutil
import subprocess

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import training  # noqa: E402

STEPS = 5
RTOL, ATOL = 1e-4, 1e-6


def c_identifier(name):
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return "_" + out if out[:1].isdigit() else out


def driver_source(variables, feeds):
    """A C++ program that sets the variables from `in`, runs `steps` steps
    (feeds from `in`), and writes each step's loss and variables to `out`."""
    read_vars = "".join(
        "  if (!read(in, Model::var_%s_data(), Model::var_%s_count())) "
        "return 3;\n" % (v, v) for v in variables)
    read_feeds = "".join(
        "    if (!read(in, model.feed_%s_data(), model.feed_count(%d))) "
        "return 3;\n" % (f, i) for i, f in enumerate(feeds))
    write_vars = "".join(
        "    fwrite(Model::var_%s_data(), sizeof(float), "
        "Model::var_%s_count(), out);\n" % (v, v) for v in variables)
    return """#include "model.h"
#include <cstdio>
#include <cstdlib>

static bool read(FILE *f, float *data, long n) {
  return fread(data, sizeof(float), n, f) == size_t(n);
}

int main(int argc, char **argv) {
  if (argc != 4) return 1;
  FILE *in = fopen(argv[1], "rb");
  FILE *out = fopen(argv[2], "wb");
  int steps = atoi(argv[3]);
  if (!in || !out) return 2;
  Model model;
%s  for (int s = 0; s < steps; ++s) {
%s    if (!model.Run()) return 4;
    fwrite(model.fetch_loss_data(), sizeof(float), 1, out);
%s  }
  fclose(out);
  return 0;
}
""" % (read_vars, read_feeds, write_vars)


def run(command, cwd):
    proc = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        pytest.fail("%s failed (exit %d):\n%s" % (
            " ".join(command), proc.returncode, proc.stdout[-6000:]))
    return proc.stdout


def max_relative_error(actual, expected):
    """The largest difference relative to the tensor's scale, floored at
    ATOL / RTOL so that all-zero tensors do not divide by zero."""
    scale = max(float(np.max(np.abs(expected))), ATOL / RTOL)
    return float(np.max(np.abs(actual - expected))) / scale


@pytest.mark.parametrize("experiment", training.EXPERIMENTS,
                         ids=[e.name for e in training.EXPERIMENTS])
def test_training_step(experiment, pytestconfig):
    artifacts = os.path.realpath(pytestconfig.getoption("artifacts_dir"))
    bin_dir = os.path.realpath(pytestconfig.getoption("kiln_bin_dir"))
    work = os.path.join(artifacts, "training", experiment.name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    graph, feeds, fetch = training.build(tf, experiment)
    gdef = training.graph_def(tf, graph)
    with open(os.path.join(work, "model.pbtxt"), "w") as f:
        f.write(str(gdef))
    with open(os.path.join(work, "model.config.pbtxt"), "w") as f:
        f.write(training.config_text(gdef, feeds, fetch, tf))
    initial, feed_steps, losses, after = training.run_tensorflow(
        tf, graph, feeds, fetch, STEPS)

    run([os.path.join(bin_dir, "kiln-compile"), "model.pbtxt",
         "--config=model.config.pbtxt", "--cpp-class=Model", "-o", "model.o",
         "--dump-dir=dump"], work)
    variables = training.variables(gdef)
    with open(os.path.join(work, "driver.cpp"), "w") as f:
        f.write(driver_source([c_identifier(v) for v in variables], feeds))
    run(["c++", "-std=c++17", "-O1", "driver.cpp", "model.o", "-o", "driver",
         "-lm"], work)

    with open(os.path.join(work, "in.bin"), "wb") as f:
        for name in variables:
            f.write(initial[name].astype(np.float32).tobytes())
        for step in feed_steps:
            for name in feeds:
                f.write(step[name].astype(np.float32).tobytes())
    run(["./driver", "in.bin", "out.bin", str(STEPS)], work)

    data = np.fromfile(os.path.join(work, "out.bin"), dtype=np.float32)
    worst, offset = 0.0, 0
    for step in range(STEPS):
        got = {"loss": data[offset:offset + 1]}
        offset += 1
        for name in variables:
            size = after[step][name].size
            got[name] = data[offset:offset + size].reshape(
                after[step][name].shape)
            offset += size
        expected = dict(after[step], loss=np.float32([losses[step]]))
        for name, value in got.items():
            worst = max(worst, max_relative_error(value, expected[name]))
            np.testing.assert_allclose(
                value, expected[name],
                rtol=0, atol=RTOL * float(np.max(np.abs(expected[name])))
                + ATOL, err_msg="step %d, %s" % (step, name))
    assert offset == data.size
    print("%s: max relative error %.2e over %d steps"
          % (experiment.name, worst, STEPS))
