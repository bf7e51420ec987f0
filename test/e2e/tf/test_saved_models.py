"""SavedModels and MetaGraphs as TensorFlow writes them (docs/savedmodel.md):
each test saves a model with TensorFlow, imports one signature with
`kiln-translate --import-saved-model` (or `--import-meta-graph`), runs it with
`kiln-run --backend=cpu` and compares with TensorFlow running the saved model
itself; `kiln-compile` builds the same signature into an object whose header
names the signature's inputs and outputs. A signature that assigns its
variable is compiled, linked into a C program and run three times.

Tolerance: the framework's default, 1e-4 of each output's scale plus 1e-6
(kiln_e2e/compare.py); the models are a few float32 contractions of at most
8 terms. Everything lands in <artifacts>/saved_models/<test>/."""

import os
import re
import shutil
import subprocess

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e.compare import compare  # noqa: E402

RTOL, ATOL = 1e-4, 1e-6


@pytest.fixture
def work(request, pytestconfig):
    """A clean directory for the test's models and outputs, and the tools."""
    artifacts = os.path.realpath(pytestconfig.getoption("artifacts_dir"))
    path = os.path.join(artifacts, "saved_models", request.node.name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return Work(path, os.path.realpath(pytestconfig.getoption("kiln_bin_dir")))


class Work:
    def __init__(self, path, bin_dir):
        self.path = path
        self.bin_dir = bin_dir

    def file(self, *parts):
        return os.path.join(self.path, *parts)

    def tool(self, name, *args):
        """Runs a Kiln tool; fails the test with its output when it fails."""
        command = [os.path.join(self.bin_dir, name), *map(str, args)]
        proc = subprocess.run(command, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              timeout=300)
        if proc.returncode != 0:
            pytest.fail(f"{' '.join(command)} failed "
                        f"({proc.returncode}):\n{proc.stdout}",
                        pytrace=False)
        return proc.stdout

    def check(self, name, import_args, inputs, expected, compile_args=None):
        """Imports with `import_args`, runs on `inputs` (sorted by key) and
        compares with `expected` (sorted by key); then compiles with
        `compile_args` and checks the header's names."""
        out = self.file(name)
        os.makedirs(out, exist_ok=True)
        mlir = os.path.join(out, "model.mlir")
        self.tool("kiln-translate", *import_args, "-o", mlir)
        paths = []
        for i, key in enumerate(sorted(inputs)):
            paths.append(os.path.join(out, f"input_{i}.npy"))
            np.save(paths[-1], inputs[key])
        self.tool("kiln-run", "--backend=cpu", mlir,
                  f"--output-dir={out}", "--input=" + ",".join(paths))
        for i, key in enumerate(sorted(expected)):
            actual = np.load(os.path.join(out, f"output_{i}.npy"))
            result = compare(actual, np.asarray(expected[key]), RTOL, ATOL)
            assert result.passed, f"{name}: output '{key}': " \
                f"{result.describe()}"
        header = os.path.join(out, "model.h")
        self.tool("kiln-compile", *(compile_args or import_args[1:]),
                  "-o", os.path.join(out, "model.o"), "--header", header)
        text = open(header).read()
        for key in list(inputs) + list(expected):
            assert re.search(rf"\b{key}\b", text), \
                f"{name}: the header does not name '{key}'"


def rng(seed):
    return np.random.default_rng(seed)


# (a) A tf.Module with variables and two signatures.
class TwoHeads(tf.Module):
    def __init__(self):
        super().__init__()
        r = rng(1)
        self.w = tf.Variable(r.normal(0, 0.5, [3, 4]).astype(np.float32),
                             name="dense/w")
        self.b = tf.Variable(r.normal(0, 0.5, [4]).astype(np.float32))
        self.scale = tf.Variable(2.5)

    @tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
    def predict(self, features):
        h = tf.nn.relu(tf.matmul(features, self.w) + self.b)
        return {"probabilities": tf.nn.softmax(h),
                "total": tf.reduce_sum(h) * self.scale}

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32),
                                  tf.TensorSpec([4], tf.float32)])
    def blend(self, a, b):
        return {"mixed": a * self.b + b * self.scale}


def test_tf_module_two_signatures(work):
    module = TwoHeads()
    model = work.file("module")
    tf.saved_model.save(module, model, signatures={
        "serving_default": module.predict, "blend": module.blend})
    loaded = tf.saved_model.load(model)
    listing = work.tool("kiln-translate", "--import-saved-model", model,
                        "--list-signatures")
    assert "signature 'blend'" in listing
    assert "input  'features': DT_FLOAT [2,3]" in listing

    features = rng(2).uniform(-1, 1, [2, 3]).astype(np.float32)
    expected = loaded.signatures["serving_default"](
        features=tf.constant(features))
    work.check("serving_default", ["--import-saved-model", model],
               {"features": features}, expected)

    a, b = (rng(3).uniform(-1, 1, [4]).astype(np.float32) for _ in range(2))
    expected = loaded.signatures["blend"](a=tf.constant(a), b=tf.constant(b))
    work.check("blend", ["--import-saved-model", model, "--signature=blend"],
               {"a": a, "b": b}, expected)


# (b) A Keras model exported with model.export().
def test_keras_export(work):
    keras = tf.keras
    tf.keras.utils.set_random_seed(4)
    inputs = keras.Input((6,), name="pixels")
    x = keras.layers.Dense(8, activation="tanh")(inputs)
    outputs = keras.layers.Dense(3, activation="softmax")(x)
    model = keras.Model(inputs, outputs)
    path = work.file("keras")
    model.export(path, verbose=False)
    serve = tf.saved_model.load(path).signatures["serving_default"]
    batch = rng(5).uniform(-1, 1, [2, 6]).astype(np.float32)
    key = next(iter(serve.structured_input_signature[1]))
    expected = serve(**{key: tf.constant(batch)})
    # The batch is dynamic in the signature; kiln-run takes the .npy's.
    work.check("serve", ["--import-saved-model", path], {key: batch},
               expected)


# (c) A TF1 SavedModel with two SignatureDefs.
def _tf1_graph():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3], name="x")
        w = tf.compat.v1.get_variable(
            "layer/w", initializer=rng(6).normal(0, 1, [3, 4]).astype(
                np.float32))
        b = tf.compat.v1.get_variable(
            "layer/b", initializer=np.arange(4, dtype=np.float32) / 4)
        y = tf.nn.relu(tf.matmul(x, w) + b, name="y")
        s = tf.reduce_sum(y * b, axis=1, name="s")
    return graph, x, y, s


def test_tf1_signature_defs(work):
    graph, x, y, s = _tf1_graph()
    path = work.file("tf1")
    feed = rng(7).uniform(-1, 1, [2, 3]).astype(np.float32)
    with graph.as_default(), tf.compat.v1.Session() as sess:
        sess.run(tf.compat.v1.global_variables_initializer())
        builder = tf.compat.v1.saved_model.Builder(path)
        signatures = {
            "serving_default": tf.compat.v1.saved_model.predict_signature_def(
                {"input": x}, {"activation": y, "score": s}),
            "score_only": tf.compat.v1.saved_model.predict_signature_def(
                {"input": x}, {"score": s}),
        }
        builder.add_meta_graph_and_variables(
            sess, ["serve", "train"], signature_def_map=signatures)
        builder.save()
        activation, score = sess.run([y, s], {x: feed})
    work.check("serving_default",
               ["--import-saved-model", path, "--tags=train,serve"],
               {"input": feed}, {"activation": activation, "score": score})
    work.check("score_only",
               ["--import-saved-model", path, "--tags=serve,train",
                "--signature=score_only"],
               {"input": feed}, {"score": score})


# (d) A MetaGraph and its checkpoint from tf.compat.v1.train.Saver.
def test_meta_graph_and_checkpoint(work):
    graph, x, y, s = _tf1_graph()
    prefix = work.file("ckpt", "model.ckpt")
    feed = rng(8).uniform(-1, 1, [2, 3]).astype(np.float32)
    with graph.as_default(), tf.compat.v1.Session() as sess:
        sess.run(tf.compat.v1.global_variables_initializer())
        # Trained values differ from the initializers the graph holds.
        for v in tf.compat.v1.global_variables():
            sess.run(v.assign(v * 3 - 1))
        tf.compat.v1.train.Saver().save(sess, prefix)
        score = sess.run(s, {x: feed})
    # No SignatureDef: the outputs are the nodes no node reads ("s").
    work.check("meta", ["--import-meta-graph", prefix + ".meta"],
               {"x": feed}, {"s": score})


# A variable the signature assigns stays state, starting from its checkpoint
# value: the compiled object, linked into a C program and run three times,
# gives what three calls of the loaded SavedModel give.
class Accumulator(tf.Module):
    def __init__(self):
        super().__init__()
        self.total = tf.Variable([1.0, 2.0, 3.0])

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def add(self, x):
        self.total.assign(self.total + x)
        return {"doubled": self.total.read_value() * 2}


STEP_PROGRAM = r"""
#include <stdio.h>
#include "model.h"
int main(void) {
  float x[3] = {0.5f, -1.0f, 2.0f};
  model_tensor feeds[1] = {{x, NULL, {3}}};
  for (int step = 0; step < 3; ++step) {
    model_tensor fetches[1];
    if (model_run(feeds, fetches)) return 1;
    const float *y = (const float *)fetches[0].data;
    printf("%.9g %.9g %.9g\n", y[0], y[1], y[2]);
    model_free_fetches(fetches);
  }
  return 0;
}
"""


def test_assigned_variable_keeps_state(work):
    cc = shutil.which(os.environ.get("CC", "cc"))
    if not cc:
        pytest.skip("no C compiler to link the model with")
    module = Accumulator()
    path = work.file("accumulator")
    tf.saved_model.save(module, path,
                        signatures={"serving_default": module.add})
    serve = tf.saved_model.load(path).signatures["serving_default"]
    x = tf.constant([0.5, -1.0, 2.0])
    expected = [serve(x=x)["doubled"].numpy() for _ in range(3)]

    work.tool("kiln-compile", path, "-o", work.file("model.o"))
    assert "model_var_" in open(work.file("model.h")).read()
    with open(work.file("step.c"), "w") as f:
        f.write(STEP_PROGRAM)
    program = work.file("step")
    subprocess.run([cc, "-I", work.path, work.file("step.c"),
                    work.file("model.o"), "-lm", "-o", program], check=True)
    lines = subprocess.run([program], check=True, stdout=subprocess.PIPE,
                           text=True).stdout.split("\n")
    for step, reference in enumerate(expected):
        actual = np.array(lines[step].split(), np.float32)
        result = compare(actual, reference, RTOL, ATOL)
        assert result.passed, f"step {step}: {result.describe()}"
