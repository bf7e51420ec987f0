"""TF1 recurrent graphs over tensor arrays (issue 19, kiln_e2e/rnn.py):
`dynamic_rnn` over the BasicRNNCell, GRUCell and LSTMCell computations, with
and without a `sequence_length` fed at run time, and a `tf.while_loop` that
unstacks, reads, writes, stacks and gathers TensorArrays. Each graph is built
in TF1 graph mode with TF1 control flow (TensorArrayV3 ops inside
Enter/Exit/Switch/Merge loops), frozen, compiled and run by `kiln-run` on
seeded inputs, and compared with TensorFlow running the same GraphDef.

Tolerance, measured: the largest difference relative to each output's
largest magnitude is printed by each test (`max relative error`, with -s):
at most 3.3e-7 here (float32 matmuls and tanh/sigmoid in another order);
RTOL = 1e-5 leaves a margin of thirty. Artifacts land in
<artifacts>/tensor-arrays/<test>/."""

import os
import shutil
import subprocess

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import rnn  # noqa: E402

RTOL = 1e-5


def run(command, cwd):
    proc = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        pytest.fail("%s failed (exit %d):\n%s" % (
            " ".join(command), proc.returncode, proc.stdout[-6000:]))
    return proc.stdout


def compile_and_compare(pytestconfig, name, graph_def, feeds, fetches):
    """Runs the frozen `graph_def` in TensorFlow and with kiln-run on the
    same seeded feeds; returns the largest relative error."""
    artifacts = os.path.realpath(pytestconfig.getoption("artifacts_dir"))
    bin_dir = os.path.realpath(pytestconfig.getoption("kiln_bin_dir"))
    work = os.path.join(artifacts, "tensor-arrays", name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    with open(os.path.join(work, "model.pbtxt"), "w") as f:
        f.write(str(graph_def))
    values = rnn.inputs(graph_def, feeds)
    expected = rnn.run_graph_def(tf, graph_def, values, fetches)
    command = [os.path.join(bin_dir, "kiln-run"), "model.pbtxt",
               "--tf-input-arrays=" + ",".join(feeds),
               "--tf-output-arrays=" + ",".join(fetches),
               "--output-dir=out"]
    for i, feed in enumerate(feeds):
        np.save(os.path.join(work, "input_%d.npy" % i), values[feed])
        command.append("--input=input_%d.npy" % i)
    for i, value in enumerate(expected):
        np.save(os.path.join(work, "expected_%d.npy" % i), value)
    with open(os.path.join(work, "command.txt"), "w") as f:
        f.write(" ".join(command) + "\n")
    run(command, work)
    worst = 0.0
    for i, (fetch, want) in enumerate(zip(fetches, expected)):
        got = np.load(os.path.join(work, "out", "output_%d.npy" % i))
        want = np.asarray(want)
        assert got.shape == want.shape and got.dtype == want.dtype, fetch
        scale = max(float(np.max(np.abs(want))), 1e-6) if want.size else 1.0
        error = float(np.max(np.abs(got.astype(np.float64) - want))) / scale \
            if want.size else 0.0
        worst = max(worst, error)
        np.testing.assert_allclose(got, want, rtol=0, atol=RTOL * scale,
                                   err_msg=fetch)
    print("%s: max relative error %.2e" % (name, worst))
    return worst


@pytest.mark.parametrize("sequence_length", [False, True],
                         ids=["full", "sequence_length"])
@pytest.mark.parametrize("kind", ["basic_rnn", "gru", "lstm"])
def test_dynamic_rnn(kind, sequence_length, pytestconfig):
    graph, feeds, fetches = rnn.dynamic_rnn(tf, kind, sequence_length)
    frozen = rnn.freeze(tf, graph, fetches)
    compile_and_compare(pytestconfig, "dynamic_rnn_%s%s" % (
        kind, "_sequence_length" if sequence_length else ""), frozen, feeds,
        fetches)


def test_dynamic_rnn_time_major(pytestconfig):
    graph, feeds, fetches = rnn.dynamic_rnn(tf, "lstm", time_major=True)
    frozen = rnn.freeze(tf, graph, fetches)
    compile_and_compare(pytestconfig, "dynamic_rnn_lstm_time_major", frozen,
                        feeds, fetches)


def test_while_loop_tensor_array(pytestconfig):
    graph, feeds, fetches = rnn.while_tensor_array(tf)
    graph_def = graph.as_graph_def(add_shapes=True)
    compile_and_compare(pytestconfig, "while_loop_tensor_array", graph_def,
                        feeds, fetches)


CLASSIFIER_DRIVER = """#include "model.h"
#include <cstdio>
#include <cstdlib>

template <typename T> static bool read(FILE *f, T *data, long n) {
  return fread(data, sizeof(T), n, f) == size_t(n);
}

int main(int argc, char **argv) {
  if (argc != 4) return 1;
  FILE *in = fopen(argv[1], "rb");
  FILE *out = fopen(argv[2], "wb");
  int runs = atoi(argv[3]);
  if (!in || !out) return 2;
  Model model;
%s  for (int r = 0; r < runs; ++r) {
    if (!read(in, model.feed_x_data(), model.feed_count(0))) return 3;
    if (!read(in, model.feed_lengths_data(), model.feed_count(1))) return 3;
    if (!model.Run()) return 4;
    fwrite(model.fetch_logits_data(), sizeof(float), model.fetch_count(0),
           out);
  }
  fclose(out);
  return 0;
}
"""


@pytest.mark.parametrize("kind", ["basic_rnn", "lstm"])
def test_tfcompile_rnn_classifier(kind, pytestconfig):
    """The tfcompile team's `dynamic_rnn` experiment in inference, as they
    compiled it: the GraphDef with its resource variables and a generated
    config (feeds x and lengths, fetch logits, every variable readonly), one
    object for any sequence lengths; a C++ program sets the variables
    through the header and runs it on three batches of different lengths."""
    from kiln_e2e import training

    artifacts = os.path.realpath(pytestconfig.getoption("artifacts_dir"))
    bin_dir = os.path.realpath(pytestconfig.getoption("kiln_bin_dir"))
    work = os.path.join(artifacts, "tensor-arrays", "tfcompile_rnn_" + kind)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    graph, feeds, fetch = rnn.classifier(tf, kind)
    graph_def = graph.as_graph_def(add_shapes=True)
    with open(os.path.join(work, "model.pbtxt"), "w") as f:
        f.write(str(graph_def))
    config = training.config_text(graph_def, feeds, fetch, tf).replace(
        'name: "loss"', 'name: "logits"')
    with open(os.path.join(work, "model.config.pbtxt"), "w") as f:
        f.write(config)
    variables = training.variables(graph_def)

    v1 = tf.compat.v1
    with graph.as_default():
        init = v1.global_variables_initializer()
        tracked = {v.op.name: v for v in v1.global_variables()}
    batches, expected = [], []
    with v1.Session(graph=graph) as session:
        session.run(init)
        initial = session.run({n: tracked[n] for n in variables})
        for seed in range(3):
            values = rnn.inputs(graph_def, feeds, seed)
            batches.append(values)
            expected.append(session.run(fetch + ":0", {
                n + ":0": v for n, v in values.items()}))

    run([os.path.join(bin_dir, "kiln-compile"), "model.pbtxt",
         "--config=model.config.pbtxt", "--cpp-class=Model", "-o", "model.o",
         "--dump-dir=dump"], work)
    set_vars = "".join(
        "  if (!read(in, Model::var_%s_data(), Model::var_%s_count())) "
        "return 3;\n" % ((training_identifier(v),) * 2) for v in variables)
    with open(os.path.join(work, "driver.cpp"), "w") as f:
        f.write(CLASSIFIER_DRIVER % set_vars)
    run(["c++", "-std=c++17", "-O1", "driver.cpp", "model.o", "-o", "driver",
         "-lm"], work)
    with open(os.path.join(work, "in.bin"), "wb") as f:
        for name in variables:
            f.write(initial[name].astype(np.float32).tobytes())
        for values in batches:
            f.write(values["x"].astype(np.float32).tobytes())
            f.write(values["lengths"].astype(np.int32).tobytes())
    run(["./driver", "in.bin", "out.bin", str(len(batches))], work)

    got = np.fromfile(os.path.join(work, "out.bin"), dtype=np.float32)
    want = np.stack(expected)
    assert got.size == want.size
    got = got.reshape(want.shape)
    scale = float(np.max(np.abs(want)))
    print("tfcompile_rnn_%s: max relative error %.2e over lengths %s" % (
        kind, float(np.max(np.abs(got - want))) / scale,
        [b["lengths"].tolist() for b in batches]))
    np.testing.assert_allclose(got, want, rtol=0, atol=RTOL * scale)


def training_identifier(name):
    """A variable's name in the header: its node name made an identifier."""
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return "_" + out if out[:1].isdigit() else out
