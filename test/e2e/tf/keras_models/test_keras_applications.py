"""Whole Keras applications with random weights (`weights=None`, then every
weight randomized from a seed, kiln_e2e.keras_model), compared on their
pre-softmax logits (`classifier_activation=None`): a softmax over 1000
classes of random-weight logits puts almost all of its mass on one class and
compresses every other output towards 0, so an error in the logits would
hardly show after it.

Each application runs at batch 1 and at a larger batch, at its default input
size (224, or 299 for InceptionV3 and Xception); those cases are the full
run. The CI subset has MobileNetV3Small at its smallest legal input size,
32 (EfficientNetB0 at 32 is in the full run only), where compiling and
running takes seconds. MobileNetV2 keeps its 96x96, alpha 0.35 cases.

Tolerance: the default 1e-4 of each output's scale, from a measurement:
every case is within 3.1e-5 of its logits' scale (InceptionV3 at 299, the
deepest; most are within 1e-5; docs/e2e.md lists each), and the logits of
two inputs differ by 16% to 34% of that scale, so a wrong lowering anywhere
on the input's path shows far above 1e-4."""

import pytest

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

import numpy as np  # noqa: E402

from kiln_e2e.keras_model import keras_case, randomize_weights  # noqa: E402

S = tf.TensorSpec
A = keras.applications

CASES = []


def randomize_and_calibrate(model, seed):
    """randomize_weights, then batch normalisation made to normalise again:
    with every normalisation scale drawn around 0 and its statistics unrelated
    to the activations, each of the tens of batch normalisations of an
    application shrinks the input's part of the signal, and the logits end up
    the same for every input (measured: the two images of a batch-2 case
    differed by 1e-7 to 7e-5 of the logits' scale), so the comparison would
    test little but the biases. Here the scales are uniform in [0.5, 1.5],
    the offsets normal(0, 0.3), and the moving statistics those of a seeded
    calibration batch of 4 uniform images in [-1, 1) (one forward pass in
    training mode with momentum 0), as training would leave them."""
    import keras

    randomize_weights(model, seed)
    rng = np.random.default_rng(seed + 1)
    norms = [l for l in _layers(model)
             if isinstance(l, keras.layers.BatchNormalization)]
    for layer in norms:
        if layer.gamma is not None:
            layer.gamma.assign(rng.uniform(0.5, 1.5, layer.gamma.shape)
                               .astype(np.float32))
        layer.momentum_saved, layer.momentum = layer.momentum, 0.0
    shape = (4,) + tuple(model.inputs[0].shape[1:])
    model(rng.uniform(-1, 1, shape).astype(np.float32), training=True)
    for layer in norms:
        layer.momentum = layer.momentum_saved


def _layers(model):
    for layer in model.layers:
        if hasattr(layer, "layers"):
            yield from _layers(layer)
        yield layer


def mobilenet_v2():
    return A.MobileNetV2(
        input_shape=(96, 96, 3), alpha=0.35, weights=None,
        classifier_activation=None)


for batch in (1, 2):
    CASES.append(keras_case(f"keras_app_mobilenet_v2_96_a035_b{batch}",
                            mobilenet_v2, [S([batch, 96, 96, 3], tf.float32)],
                            randomize=randomize_and_calibrate))


def _application(constructor, size):
    def build():
        return constructor(input_shape=(size, size, 3), weights=None,
                           classifier_activation=None)
    return build


def add_application(name, constructor, size, batches, ci=False, **options):
    """Cases `keras_app_<name>_<size>_b<batch>`, one per batch."""
    for batch in batches:
        CASES.append(keras_case(
            f"keras_app_{name}_{size}_b{batch}", _application(constructor,
                                                              size),
            [S([batch, size, size, 3], tf.float32)], ci=ci,
            randomize=randomize_and_calibrate, **options))


# The full run: default input sizes, batch 1 and a larger batch.
add_application("mobilenet_v3_small", A.MobileNetV3Small, 224, (1, 4))
add_application("efficientnet_b0", A.EfficientNetB0, 224, (1, 2))
add_application("resnet50", A.ResNet50, 224, (1, 2))
add_application("densenet121", A.DenseNet121, 224, (1, 2))
add_application("inception_v3", A.InceptionV3, 299, (1, 2))
add_application("xception", A.Xception, 299, (1, 2))
add_application("nasnet_mobile", A.NASNetMobile, 224, (1, 2))

# The smallest legal input size: MobileNetV3Small is the CI subset's
# application (about 16 s on the four backends of ctest's e2e-tf);
# EfficientNetB0 there took 40 s more, so it is only in the full run.
add_application("mobilenet_v3_small", A.MobileNetV3Small, 32, (2,), ci=True)
add_application("efficientnet_b0", A.EfficientNetB0, 32, (1,))


def test_application(case, backend, e2e):
    e2e.check(case, backend)
