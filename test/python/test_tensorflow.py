"""kiln.compile on TensorFlow objects, frozen in Python, against TensorFlow's
own results."""

import numpy as np
import pytest

import kiln


def test_tf_function_with_dict_outputs(tf):
    @tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32, name="x")])
    def f(x):
        return {"relu": tf.nn.relu(x) * 2.0, "total": tf.reduce_sum(x)}

    model = kiln.compile(f)
    assert [s.name for s in model.inputs] == ["x"]
    assert [s.name for s in model.outputs] == ["relu", "total"]
    x = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    got, want = model(x), f(x)
    for name in ("relu", "total"):
        np.testing.assert_allclose(got[name], want[name].numpy(), rtol=1e-5)


def test_concrete_function_and_module_method(tf):
    class Scale(tf.Module):
        def __init__(self):
            self.w = tf.Variable([[2.0], [3.0]])

        @tf.function(input_signature=[tf.TensorSpec([1, 2], tf.float32)])
        def __call__(self, x):
            return tf.matmul(x, self.w)

    module = Scale()
    x = np.array([[1.0, 1.0]], np.float32)
    for source in (module.__call__, module.__call__.get_concrete_function()):
        result = kiln.compile(source)(x)
        np.testing.assert_allclose(result["output_0"], [[5.0]])


def test_tf_function_needs_a_signature(tf):
    @tf.function
    def f(x):
        return x + 1.0

    with pytest.raises(ValueError, match="input signature"):
        kiln.compile(f)


def test_keras_model_matches_tensorflow(tf):
    keras = tf.keras
    keras.utils.set_random_seed(1)
    model = keras.Sequential([
        keras.Input((8, 8, 3)),
        keras.layers.Conv2D(4, 3, activation="relu"),
        keras.layers.MaxPooling2D(),
        keras.layers.Flatten(),
        keras.layers.Dense(5, activation="softmax"),
    ])
    compiled = kiln.compile(model)
    assert compiled.inputs[0].shape == (None, 8, 8, 3)
    rng = np.random.default_rng(2)
    for batch in (2, 3):
        x = rng.random((batch, 8, 8, 3), dtype=np.float32)
        (got,) = compiled(x).values()
        want = model(x, training=False).numpy()
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)
    fixed = kiln.compile(model, input_shapes=[(1, 8, 8, 3)])
    assert fixed.inputs[0].shape == (1, 8, 8, 3)
    with pytest.raises(ValueError, match="expects"):
        fixed(np.zeros((2, 8, 8, 3), np.float32))


def test_frozen_graph_is_a_plain_graphdef(tf):
    from kiln import tensorflow as kiln_tf

    @tf.function(input_signature=[tf.TensorSpec([3], tf.int32, name="n")])
    def f(n):
        return n * 2

    frozen = kiln_tf.freeze(f)
    assert frozen.inputs == ["n"] and len(frozen.outputs) == 1
    model = kiln.compile(frozen.graph_def, inputs=frozen.inputs,
                         outputs=frozen.outputs)
    (got,) = model(np.array([1, 2, 3], np.int32)).values()
    np.testing.assert_array_equal(got, [2, 4, 6])
    with pytest.raises(TypeError, match="cannot freeze"):
        kiln_tf.freeze(object())


def test_saved_model_directory(tf, tmp_path):
    class Affine(tf.Module):
        def __init__(self):
            self.w = tf.Variable([[1.0, -2.0], [0.5, 3.0]])
            self.b = tf.Variable([0.25, -0.5])

        @tf.function(input_signature=[tf.TensorSpec([3, 2], tf.float32,
                                                    name="x")])
        def __call__(self, x):
            return {"y": tf.nn.relu(tf.matmul(x, self.w) + self.b)}

    module = Affine()
    path = str(tmp_path / "affine")
    tf.saved_model.save(module, path,
                        signatures={"serving_default": module.__call__})
    model = kiln.compile(path)
    x = np.random.default_rng(3).standard_normal((3, 2)).astype(np.float32)
    (got,) = model(x).values()
    np.testing.assert_allclose(got, module(x)["y"].numpy(), rtol=1e-5)
    with pytest.raises(kiln.CompileError, match="nope"):
        kiln.compile(path, signature="nope")
