"""Keras layers as users put them in models: each case is a small Keras
model (one layer, or a layer with the inputs it needs) with random seeded
weights (kiln_e2e.keras_model), frozen and compared with TensorFlow running
the same model in inference mode (training=False).

Inputs are the default uniform [-1, 1) (token ids for Embedding). Tolerance:
the default 1e-4 of each output's scale; each layer is one or two float32
contractions of at most a few hundred terms, or elementwise math."""

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

from kiln_e2e.keras_model import keras_case  # noqa: E402

S = tf.TensorSpec
f32, i32 = tf.float32, tf.int32
L = keras.layers

CASES = []


def sequential(shape, *layers):
    """A builder of keras.Sequential(layers) on inputs of `shape` (without
    the batch)."""
    return lambda: keras.Sequential([keras.Input(shape)] + list(layers))


def add(name, shape, *layers, batch=2, dtype=f32, **options):
    """A case of `layers` in sequence on one input [batch] + shape."""
    CASES.append(keras_case(
        f"keras_{name}", lambda: sequential(shape, *[l() for l in layers])(),
        [S([batch] + list(shape), dtype)], **options))


def add_functional(name, build, *specs, **options):
    CASES.append(keras_case(f"keras_{name}", build, list(specs), **options))


# Dense.
add("dense_relu", [16], lambda: L.Dense(8, activation="relu"), ci=True)
add("dense_3d_input", [5, 7], lambda: L.Dense(6))
add("dense_no_bias_tanh", [12], lambda: L.Dense(4, use_bias=False,
                                                 activation="tanh"))

# Convolutions.
add("conv1d_same", [10, 3], lambda: L.Conv1D(4, 3, padding="same"))
add("conv1d_causal_dilated", [12, 3],
    lambda: L.Conv1D(4, 3, padding="causal", dilation_rate=2))
add("conv1d_valid_s2", [11, 2], lambda: L.Conv1D(5, 4, strides=2))
add("conv2d_same_relu", [9, 9, 3],
    lambda: L.Conv2D(8, 3, padding="same", activation="relu"), ci=True)
add("conv2d_valid_s2_rect", [10, 9, 3], lambda: L.Conv2D(4, (3, 2), strides=2))
add("conv2d_dilated", [10, 10, 2],
    lambda: L.Conv2D(3, 3, dilation_rate=2, padding="same"))
add("conv3d_same", [5, 6, 6, 2], lambda: L.Conv3D(4, 3, padding="same"),
    batch=1)
add("conv3d_valid_s2", [6, 7, 5, 2], lambda: L.Conv3D(3, 2, strides=2),
    batch=1)
add("depthwise_conv2d", [8, 8, 3],
    lambda: L.DepthwiseConv2D(3, depth_multiplier=2, padding="same"))
add("depthwise_conv2d_s2_valid", [9, 9, 4],
    lambda: L.DepthwiseConv2D(3, strides=2))
add("separable_conv2d", [8, 8, 3],
    lambda: L.SeparableConv2D(6, 3, padding="same", activation="relu"))
add("conv2d_transpose_same_s2", [5, 5, 3],
    lambda: L.Conv2DTranspose(4, 3, strides=2, padding="same"))
add("conv2d_transpose_valid", [4, 5, 2],
    lambda: L.Conv2DTranspose(3, (3, 2), strides=(2, 1)))
add("conv1d_transpose", [6, 3],
    lambda: L.Conv1DTranspose(4, 3, strides=2, padding="same"))

# Normalisation (inference: moving statistics).
add("batch_norm_conv", [6, 6, 4], lambda: L.BatchNormalization(), ci=True)
add("batch_norm_dense", [10], lambda: L.BatchNormalization(epsilon=1e-3))
add("layer_norm", [5, 8], lambda: L.LayerNormalization())
add("layer_norm_axes", [4, 6, 3],
    lambda: L.LayerNormalization(axis=[1, 2], epsilon=1e-5))
add("group_norm", [6, 6, 8], lambda: L.GroupNormalization(groups=4))
add("unit_norm", [7], lambda: L.UnitNormalization())

# Pooling.
add("max_pool1d", [10, 3], lambda: L.MaxPooling1D(2))
add("avg_pool1d_same", [9, 3],
    lambda: L.AveragePooling1D(3, strides=2, padding="same"))
add("max_pool2d_same", [9, 9, 2],
    lambda: L.MaxPooling2D(3, strides=2, padding="same"))
add("avg_pool2d", [8, 8, 3], lambda: L.AveragePooling2D(2))
add("max_pool3d", [4, 6, 6, 2], lambda: L.MaxPooling3D(2), batch=1, ci=True)
add("avg_pool3d", [4, 6, 6, 2], lambda: L.AveragePooling3D(2), batch=1)
add("global_avg_pool1d", [7, 5], lambda: L.GlobalAveragePooling1D())
add("global_max_pool1d", [7, 5], lambda: L.GlobalMaxPooling1D())
add("global_avg_pool2d", [6, 6, 4], lambda: L.GlobalAveragePooling2D())
add("global_max_pool2d_keepdims", [6, 5, 4],
    lambda: L.GlobalMaxPooling2D(keepdims=True))
add("global_avg_pool3d", [3, 4, 4, 2], lambda: L.GlobalAveragePooling3D(),
    batch=1)

# Resizing, padding, cropping.
add("upsampling1d", [4, 3], lambda: L.UpSampling1D(3))
add("upsampling2d_nearest", [4, 5, 3], lambda: L.UpSampling2D(2))
add("upsampling2d_bilinear", [4, 5, 3],
    lambda: L.UpSampling2D((2, 3), interpolation="bilinear"))
add("zero_padding1d", [5, 2], lambda: L.ZeroPadding1D((1, 2)))
add("zero_padding2d", [5, 4, 2], lambda: L.ZeroPadding2D(((1, 2), (0, 1))))
add("zero_padding3d", [3, 4, 4, 2], lambda: L.ZeroPadding3D(1), batch=1)
add("cropping1d", [8, 2], lambda: L.Cropping1D((1, 2)))
add("cropping2d", [7, 6, 2], lambda: L.Cropping2D(((1, 0), (2, 1))))
add("cropping3d", [5, 5, 5, 1], lambda: L.Cropping3D(1), batch=1)
add("resizing_bilinear", [6, 8, 3], lambda: L.Resizing(9, 5))

# Shapes.
add("reshape", [4, 6], lambda: L.Reshape((3, 8)))
add("flatten", [3, 4, 2], lambda: L.Flatten())
add("permute", [3, 4, 5], lambda: L.Permute((3, 1, 2)))
add("repeat_vector", [6], lambda: L.RepeatVector(3))

# Activations.
add("gelu_exact", [20], lambda: L.Activation("gelu"))
add("gelu_tanh", [20], lambda: L.Activation(
    lambda x: keras.activations.gelu(x, approximate=True)))
add("softmax_layer", [4, 7], lambda: L.Softmax())
add("softmax_axis1", [4, 7], lambda: L.Softmax(axis=1))
add("relu6", [20], lambda: L.ReLU(max_value=6.0), )
add("relu_threshold_negative_slope", [20],
    lambda: L.ReLU(negative_slope=0.1, threshold=0.2))
add("leaky_relu", [20], lambda: L.LeakyReLU(negative_slope=0.2))
add("prelu", [5, 4], lambda: L.PReLU())
add("elu", [20], lambda: L.ELU())
add("activations_mix", [16],
    lambda: L.Dense(16, activation="swish"),
    lambda: L.Dense(16, activation="selu"),
    lambda: L.Dense(16, activation="hard_sigmoid"),
    lambda: L.Dense(16, activation="softplus"),
    lambda: L.Dense(16, activation="sigmoid"),
    lambda: L.Dense(16, activation="mish"))
add("hard_swish", [16], lambda: L.Activation("hard_swish"))

# Inference-only layers: identities at inference.
add("dropout_noise_inference", [10], lambda: L.Dense(8),
    lambda: L.Dropout(0.5), lambda: L.GaussianNoise(0.2),
    lambda: L.GaussianDropout(0.3), lambda: L.Dense(3))


# Merging layers (several inputs).
def merge(layer, n=2, shape=(4, 6)):
    def build():
        inputs = [keras.Input(shape) for _ in range(n)]
        return keras.Model(inputs, layer()(inputs))
    return build


add_functional("concatenate", merge(lambda: L.Concatenate(axis=-1)),
               S([2, 4, 6], f32), S([2, 4, 6], f32))
add_functional("concatenate_axis1", merge(lambda: L.Concatenate(axis=1), 3),
               S([2, 4, 6], f32), S([2, 4, 6], f32), S([2, 4, 6], f32))
add_functional("add", merge(lambda: L.Add(), 3), S([2, 4, 6], f32),
               S([2, 4, 6], f32), S([2, 4, 6], f32), ci=True)
add_functional("multiply", merge(lambda: L.Multiply()), S([2, 4, 6], f32),
               S([2, 4, 6], f32))
def subtract_average_max():
    a, b = keras.Input((5,)), keras.Input((5,))
    out = L.Concatenate()([L.Subtract()([a, b]), L.Average()([a, b]),
                           L.Maximum()([a, b]), L.Minimum()([a, b])])
    return keras.Model([a, b], out)


add_functional("subtract_average_max", subtract_average_max, S([2, 5], f32),
               S([2, 5], f32))
add_functional("dot_normalize", merge(lambda: L.Dot(axes=2, normalize=True)),
               S([2, 4, 6], f32), S([2, 4, 6], f32))



# Embedding: token ids in [0, 20).
add("embedding", [5], lambda: L.Embedding(20, 6), dtype=i32,
    inputs=lambda rng, s: [rng.integers(0, 20, [2, 5]).astype(np.int32)])
add("embedding_pooled_dense", [7], lambda: L.Embedding(30, 8),
    lambda: L.GlobalAveragePooling1D(), lambda: L.Dense(3), dtype=i32,
    inputs=lambda rng, s: [rng.integers(0, 30, [2, 7]).astype(np.int32)])


# Attention.
def attention(**kwargs):
    def build():
        q, v = keras.Input((4, 8)), keras.Input((6, 8))
        return keras.Model([q, v], L.Attention(**kwargs)([q, v]))
    return build


add_functional("attention_dot", attention(), S([2, 4, 8], f32),
               S([2, 6, 8], f32))
add_functional("attention_scaled", attention(use_scale=True,
                                             score_mode="concat"),
               S([2, 4, 8], f32), S([2, 6, 8], f32))
def additive_attention():
    q, v = keras.Input((4, 8)), keras.Input((6, 8))
    return keras.Model([q, v], L.AdditiveAttention()([q, v]))


add_functional("additive_attention", additive_attention,
               S([2, 4, 8], f32), S([2, 6, 8], f32))



def _mha(causal):
    def build():
        x = keras.Input((5, 8))
        y = L.MultiHeadAttention(num_heads=2, key_dim=4)(
            x, x, use_causal_mask=causal)
        return keras.Model(x, y)
    return build


add_functional("multi_head_attention", _mha(False), S([2, 5, 8], f32),
               ci=True)
add_functional("multi_head_attention_causal", _mha(True), S([2, 5, 8], f32))


def _mha_cross():
    q, kv = keras.Input((3, 8)), keras.Input((6, 10))
    y = L.MultiHeadAttention(num_heads=3, key_dim=4, value_dim=5)(q, kv)
    return keras.Model([q, kv], y)


add_functional("multi_head_attention_cross", _mha_cross, S([2, 3, 8], f32),
               S([2, 6, 10], f32))

# Recurrent layers: fixed sequence length, not stateful.
add("simple_rnn", [6, 4], lambda: L.SimpleRNN(5))
add("gru", [6, 4], lambda: L.GRU(5))
add("gru_sequences", [6, 4], lambda: L.GRU(5, return_sequences=True,
                                           reset_after=False))
add("lstm", [6, 4], lambda: L.LSTM(5), ci=True)
add("lstm_sequences", [6, 4], lambda: L.LSTM(5, return_sequences=True))
add("lstm_unrolled", [6, 4], lambda: L.LSTM(5, unroll=True))
add("gru_unrolled", [6, 4], lambda: L.GRU(5, unroll=True))
add("bidirectional_lstm", [6, 4], lambda: L.Bidirectional(L.LSTM(3)))
add("bidirectional_gru_unrolled", [6, 4],
    lambda: L.Bidirectional(L.GRU(3, unroll=True, return_sequences=True)))
add("conv_lstm1d", [5, 6, 2],
    lambda: L.ConvLSTM1D(3, 3, padding="same"), batch=1)

# Time-distributed dense, a common sequence head.
add("time_distributed_dense", [5, 4],
    lambda: L.TimeDistributed(L.Dense(3)))


def test_layer(case, backend, e2e):
    e2e.check(case, backend)
