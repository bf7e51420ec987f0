"""TensorFlow's wheel carries its own LLVM, MLIR and protobuf and puts their
symbols in the process's global scope; kiln must work next to it whichever
is imported first. Each order runs in a fresh interpreter, since the order
is fixed once a process has imported either."""

import os
import subprocess
import sys

import pytest

SCRIPT = """
import sys
if sys.argv[1] == "tensorflow-first":
    import tensorflow as tf
    import kiln
else:
    import kiln
    import tensorflow as tf
import numpy as np

graph = sys.argv[2]
model = kiln.compile(graph, inputs=["step"], outputs=["result"])
model(np.ones(2, np.float32))
assert model(np.ones(2, np.float32))["result"].tolist() == [2.0, 2.0]

@tf.function(input_signature=[tf.TensorSpec([4], tf.float32)])
def f(x):
    return tf.math.tanh(x) * 3.0

x = np.linspace(-1, 1, 4).astype(np.float32)
got = kiln.compile(f)(x)["output_0"]
np.testing.assert_allclose(got, f(x).numpy(), rtol=1e-5)
print("ok")
"""


@pytest.mark.parametrize("order", ["tensorflow-first", "kiln-first"])
def test_import_order(tf, order, inputs_dir):
    graph = os.path.join(inputs_dir, "accumulate.pbtxt")
    proc = subprocess.run([sys.executable, "-c", SCRIPT, order, graph],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), \
        proc.stdout[-3000:]
