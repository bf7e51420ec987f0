"""Cases built from Keras models, the way users build them: a Keras model
(functional or Sequential) with random weights, called in inference mode
(`training=False`) from a tf.function with an input signature, frozen like
every other case (convert_variables_to_constants_v2)."""

import zlib

import numpy as np

from .case import Case


def randomize_weights(model, seed: int):
    """Replaces every weight of `model` with seeded random values, so that
    biases, normalisation scales and offsets and moving statistics are not
    their initial zeros and ones: kernels normal with a standard deviation
    of 1/sqrt(fan-in) (keeping activations of order 1 through the layers;
    a depthwise kernel's fan-in is its window), vectors normal(0, 0.3), and
    variances (moving_variance) uniform in [0.5, 1.5]."""
    rng = np.random.default_rng(seed)
    for weight in model.weights:
        shape = tuple(weight.shape)
        dtype = np.dtype(weight.dtype)
        path = getattr(weight, "path", weight.name)
        if "variance" in path:
            value = rng.uniform(0.5, 1.5, shape)
        elif len(shape) >= 2:
            window = shape[:-2] if "depthwise" in path else shape[:-1]
            fan_in = int(np.prod(window)) or 1
            value = rng.normal(0.0, 1.0 / np.sqrt(fan_in), shape)
        else:
            value = rng.normal(0.0, 0.3, shape)
        weight.assign(value.astype(dtype))


class _LazyKerasFunction:
    """The tf.function of a Keras case, built with its model on first use:
    collecting the suite (or a subset of it) builds no model."""

    def __init__(self, name, build, specs, randomize=None):
        self.name, self.build, self.input_signature = name, build, specs
        self.randomize = randomize or randomize_weights
        self._function = None

    def _get(self):
        if self._function is None:
            import keras
            import tensorflow as tf

            seed = zlib.crc32(self.name.encode())
            keras.utils.set_random_seed(seed % (2**31))
            model = self.build()
            self.randomize(model, seed)

            class KerasModule(tf.Module):
                def __init__(self, name):
                    super().__init__(name=name)
                    self.model = model

                @tf.function(input_signature=self.input_signature,
                             autograph=False)
                def __call__(self, *args):
                    inputs = args[0] if len(args) == 1 else list(args)
                    return self.model(inputs, training=False)

            # The module keeps the model's variables alive.
            self.module = KerasModule(self.name)
            self._function = self.module.__call__
        return self._function

    def get_concrete_function(self, *args, **kwargs):
        return self._get().get_concrete_function(*args, **kwargs)

    def __call__(self, *args):
        return self._get()(*args)


def keras_case(name: str, build, specs, randomize=None, **options) -> Case:
    """A case of the Keras model `build()` returns, called on inputs of
    `specs` (tf.TensorSpec, one per model input) with training=False. The
    model is built when the case first runs, and its weights randomized
    from a seed that depends on `name`, by `randomize(model, seed)`
    (default randomize_weights). `options` are Case's fields (inputs,
    rtol, atol, why, ci)."""
    return Case(name=name,
                function=_LazyKerasFunction(name, build, list(specs),
                                            randomize),
                **options)
