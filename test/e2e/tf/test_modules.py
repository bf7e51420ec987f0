"""Whole tf.Modules, as a model's author writes them: variables (frozen into
constants), several methods, several outputs. Every method with an input
signature is a case named <module>_<method>.

Tolerance: the default 1e-4 of each output's scale; the layers are a few
float32 contractions of at most 48 terms."""

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import cases_from_module  # noqa: E402

S = tf.TensorSpec


class TinyConvNet(tf.Module):
    """Conv, bias, ReLU, pool, dense, softmax: a classifier's usual chain."""

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(7)
        self.filters = tf.Variable(
            rng.normal(0, 0.3, [3, 3, 3, 8]).astype(np.float32))
        self.bias = tf.Variable(rng.normal(0, 0.1, [8]).astype(np.float32))
        self.dense = tf.Variable(
            rng.normal(0, 0.3, [8, 5]).astype(np.float32))

    @tf.function(input_signature=[S([2, 12, 12, 3], tf.float32)])
    def classify(self, images):
        x = tf.nn.conv2d(images, self.filters, 1, "SAME")
        x = tf.nn.relu(tf.nn.bias_add(x, self.bias))
        x = tf.nn.max_pool2d(x, 2, 2, "VALID")
        x = tf.reduce_mean(x, axis=[1, 2])
        return tf.nn.softmax(tf.matmul(x, self.dense))

    @tf.function(input_signature=[S([2, 12, 12, 3], tf.float32)])
    def features_and_argmax(self, images):
        x = tf.nn.relu(tf.nn.conv2d(images, self.filters, 2, "VALID"))
        logits = tf.matmul(tf.reduce_max(x, axis=[1, 2]), self.dense)
        return logits, tf.argmax(logits, axis=-1)

    def not_a_case(self, x):
        """A plain method: not traced, not a case."""
        return x


class Normalizer(tf.Module):
    """Per-channel standardization with variables, as a preprocessing
    step."""

    def __init__(self):
        super().__init__()
        self.mean = tf.Variable([0.5, 0.25, -0.5])
        self.inv_std = tf.Variable([2.0, 4.0, 0.5])

    @tf.function(input_signature=[S([4, 3], tf.float32)])
    def __call__(self, x):
        return (x - self.mean) * self.inv_std

    @tf.function(input_signature=[S([4, 3], tf.float32),
                                  S([4, 3], tf.float32)])
    def squared_distance(self, a, b):
        d = (a - b) * self.inv_std
        return tf.reduce_sum(d * d, axis=-1)


CASES = (cases_from_module("tiny_convnet", TinyConvNet(), ci=True) +
         cases_from_module("normalizer", Normalizer()))


def test_module(case, backend, e2e):
    e2e.check(case, backend)
