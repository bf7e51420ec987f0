"""Running compiled models on several threads (issue 21): the threads=
option of kiln.compile and CompiledModel.threads, the same bits for any
count, and the GIL released while the pool works."""

import threading

import numpy as np
import pytest

import kiln

# A 3x3 convolution big enough for kiln-cpu-parallelize-loops (its rows run
# in parallel), with a bias and a ReLU fused into it.
CONV = """
func.func @main(%x: tensor<1x48x48x16xf32>) -> tensor<1x48x48x32xf32>
    attributes {tf.entry_function = {inputs = "x", outputs = "y"}} {
  %w = "tf.Const"() {value = dense<%WEIGHTS%> : tensor<3x3x16x32xf32>} : () -> tensor<3x3x16x32xf32>
  %b = "tf.Const"() {value = dense<0.25> : tensor<32xf32>} : () -> tensor<32xf32>
  %c = "tf.Conv2D"(%x, %w) {strides = [1, 1, 1, 1], padding = "SAME", data_format = "NHWC", dilations = [1, 1, 1, 1]} : (tensor<1x48x48x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x48x48x32xf32>
  %s = "tf.BiasAdd"(%c, %b) : (tensor<1x48x48x32xf32>, tensor<32xf32>) -> tensor<1x48x48x32xf32>
  %y = "tf.Relu"(%s) : (tensor<1x48x48x32xf32>) -> tensor<1x48x48x32xf32>
  return %y : tensor<1x48x48x32xf32>
}
"""


@pytest.fixture(scope="module")
def conv_path(tmp_path_factory):
    rng = np.random.default_rng(0)
    weights = rng.uniform(-1, 1, (3, 3, 16, 32)).astype(np.float32)
    path = tmp_path_factory.mktemp("threads") / "conv.mlir"
    path.write_text(CONV.replace("%WEIGHTS%", repr(weights.tolist())))
    return path, weights


def reference(x, weights):
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((1, 48, 48, 32), np.float64)
    for ky in range(3):
        for kx in range(3):
            out += np.einsum("nhwc,cf->nhwf",
                             padded[:, ky:ky + 48, kx:kx + 48, :],
                             weights[ky, kx].astype(np.float64))
    return np.maximum(out + 0.25, 0)


def test_threads_give_the_same_bits(conv_path):
    path, weights = conv_path
    x = np.random.default_rng(1).uniform(-1, 1, (1, 48, 48, 16)).astype(
        np.float32)
    one = kiln.compile(path)
    assert one.threads == 1
    expected = one(x)["y"]
    np.testing.assert_allclose(expected, reference(x, weights), rtol=1e-4,
                               atol=1e-4)
    two = kiln.compile(path, threads=2)
    assert two.threads == 2
    for _ in range(5):
        np.testing.assert_array_equal(two(x)["y"], expected)
    # The count can change between calls, back to one thread too.
    two.threads = 3
    assert two.threads == 3
    np.testing.assert_array_equal(two(x)["y"], expected)
    two.threads = 1
    np.testing.assert_array_equal(two(x)["y"], expected)


def test_bad_thread_counts(conv_path):
    model = kiln.compile(conv_path[0])
    for bad, error in ((0, ValueError), (-1, ValueError), (1025, ValueError),
                       (2.0, TypeError), (True, TypeError)):
        with pytest.raises(error, match="threads must be"):
            model.threads = bad
    assert model.threads == 1
    with pytest.raises(ValueError, match="at most 1024"):
        kiln.compile(conv_path[0], threads=2000)


def test_calls_release_the_gil_with_threads(conv_path):
    model = kiln.compile(conv_path[0], threads=2)
    x = np.ones((1, 48, 48, 16), np.float32)
    done = threading.Event()

    def work():
        for _ in range(40):
            model(x)
        done.set()

    thread = threading.Thread(target=work)
    ticks = 0
    thread.start()
    while not done.is_set():
        ticks += 1
    thread.join()
    # Holding the GIL through 40 runs would leave this loop a few switch
    # intervals (5 ms each) at most.
    assert ticks > 10000, ticks


def test_python_threads_share_a_model_with_a_pool(conv_path):
    model = kiln.compile(conv_path[0], threads=2)
    x = np.random.default_rng(2).uniform(-1, 1, (1, 48, 48, 16)).astype(
        np.float32)
    expected = kiln.compile(conv_path[0])(x)["y"]
    results = []

    def work():
        results.extend(model(x)["y"] for _ in range(5))

    callers = [threading.Thread(target=work) for _ in range(3)]
    for t in callers:
        t.start()
    for t in callers:
        t.join()
    assert len(results) == 15
    for result in results:
        np.testing.assert_array_equal(result, expected)
