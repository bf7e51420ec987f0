"""Whole Keras applications with random weights (`weights=None`, then every
weight randomized from a seed, kiln_e2e.keras_model), at a small input size,
compared on their logits (`classifier_activation=None`) at batch 1 and 2.

Tolerance: the default 1e-4 of each output's scale unless a case says
otherwise from a measurement."""

import pytest

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

from kiln_e2e.keras_model import keras_case  # noqa: E402

S = tf.TensorSpec

CASES = []


def mobilenet_v2():
    return keras.applications.MobileNetV2(
        input_shape=(96, 96, 3), alpha=0.35, weights=None,
        classifier_activation=None)


for batch in (1, 2):
    CASES.append(keras_case(f"keras_app_mobilenet_v2_96_a035_b{batch}",
                            mobilenet_v2, [S([batch, 96, 96, 3], tf.float32)]))


def test_application(case, backend, e2e):
    e2e.check(case, backend)
