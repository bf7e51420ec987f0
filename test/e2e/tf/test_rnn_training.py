"""The tfcompile team's recurrent training steps (issue 19,
kiln_e2e/rnn_training.py): `dynamic_rnn` over BasicRNNCell and LSTMCell,
with and without a sequence length fed at run time, trained by
GradientDescent or Adam. The backward loop's stacks (StackV2 with max_size
-1) are what tfcompile could not compile.

As test_training.py does: the TF1 graph (`add_shapes=True`) and its
generated config go through `kiln-compile` to an object and a header; a C++
program sets the variables through the header, runs STEPS steps on the feeds
TensorFlow ran (new sequence lengths at each step, one compiled object), and
writes the loss and every variable after each step; they must equal
TensorFlow's within RTOL of each tensor's scale plus ATOL.

Tolerance, measured: the largest difference relative to the tensor's largest
magnitude over all steps is printed by each test (`max relative error`, with
-s): 1.4e-7 to 5.2e-7, 1.7e-6 for basic_rnn_sgd and 4.5e-6 for
lstm_outputs_adam (the backward loop's float32 sums in another order);
RTOL = 1e-4 as for the other training steps leaves a margin of twenty.
Everything lands in <artifacts>/rnn-training/<test>/."""

import os
import shutil

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import rnn_training, training  # noqa: E402
from test_training import (  # noqa: E402
    ATOL, RTOL, c_identifier, max_relative_error, run)

STEPS = 5


def driver_source(variables, feeds):
    """A C++ program that sets the variables from `in`, runs `steps` steps
    (feeds from `in`: float32, or int32 for `lengths`), and writes each
    step's loss and variables to `out`."""
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

template <typename T> static bool read(FILE *f, T *data, long n) {
  return fread(data, sizeof(T), n, f) == size_t(n);
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


@pytest.mark.parametrize("experiment", rnn_training.EXPERIMENTS,
                         ids=[e.name for e in rnn_training.EXPERIMENTS])
def test_rnn_training_step(experiment, pytestconfig):
    artifacts = os.path.realpath(pytestconfig.getoption("artifacts_dir"))
    bin_dir = os.path.realpath(pytestconfig.getoption("kiln_bin_dir"))
    work = os.path.join(artifacts, "rnn-training", experiment.name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    graph, feeds, fetch = rnn_training.build(tf, experiment)
    gdef = graph.as_graph_def(add_shapes=True)
    with open(os.path.join(work, "model.pbtxt"), "w") as f:
        f.write(str(gdef))
    with open(os.path.join(work, "model.config.pbtxt"), "w") as f:
        f.write(training.config_text(gdef, feeds, fetch, tf))
    initial, feed_steps, losses, after = rnn_training.run_tensorflow(
        tf, graph, feeds, fetch, STEPS)

    run([os.path.join(bin_dir, "kiln-compile"), "model.pbtxt",
         "--config=model.config.pbtxt", "--cpp-class=Model", "-o", "model.o",
         "--dump-dir=dump"], work)
    variables = training.variables(gdef)
    with open(os.path.join(work, "driver.cpp"), "w") as f:
        f.write(driver_source([c_identifier(v) for v in variables],
                              [c_identifier(f) for f in feeds]))
    run(["c++", "-std=c++17", "-O1", "driver.cpp", "model.o", "-o", "driver",
         "-lm"], work)

    with open(os.path.join(work, "in.bin"), "wb") as f:
        for name in variables:
            f.write(initial[name].astype(np.float32).tobytes())
        for step in feed_steps:
            for name in feeds:
                f.write(step[name].tobytes())
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
    print("%s: max relative error %.2e over %d steps, lengths %s"
          % (experiment.name, worst, STEPS,
             [s["lengths"].tolist() for s in feed_steps if "lengths" in s]))
