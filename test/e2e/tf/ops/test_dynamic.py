"""Per-op conformance with values known only at run time: shape, size,
multiples, begin/end, k and axis operands fed as graph inputs instead of
constants, and signatures with unknown sizes (None), which kiln-run fixes
from the inputs' shapes at import (--input-shapes).

Shape operands are generated in range (a generator per case); the data is
uniform. Tolerance: the default; these ops move values or do one add."""

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import op_case, uniform  # noqa: E402

S = tf.TensorSpec
f32, i32 = tf.float32, tf.int32

CASES = []


def add(name, fn, *specs, **options):
    CASES.append(op_case(name, fn, *specs, **options))


def data_and(*values):
    """The first input uniform, the others these fixed int32 values."""

    def generate(rng, specs):
        return [uniform()(rng, specs[:1])[0]] + [
            np.asarray(v, np.int32) for v in values]

    return generate


# Unknown sizes in the signature.
add("unknown_dims_add", tf.add, S([None, 3], f32), S([None, 3], f32),
    inputs=[np.ones([4, 3], np.float32), np.arange(12, dtype=np.float32)
            .reshape(4, 3)], ci=True)
add("unknown_dims_shape_op", lambda x: tf.shape(x), S([None, None], f32),
    inputs=[np.zeros([2, 5], np.float32)])
add("unknown_dims_size_op", lambda x: tf.size(x), S([None, 4], f32),
    inputs=[np.zeros([3, 4], np.float32)])
add("unknown_dims_zeros_like", lambda x: tf.raw_ops.ZerosLike(x=x),
    S([None], f32), inputs=[np.ones([5], np.float32)])
add("unknown_dims_reshape_from_shape",
    lambda x, y: tf.reshape(x, tf.shape(y)), S([None], f32),
    S([None, None], f32), inputs=[np.arange(6, dtype=np.float32),
                                  np.zeros([2, 3], np.float32)])
add("unknown_dims_softmax", tf.nn.softmax, S([None, None], f32),
    inputs=[np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)])
add("unknown_batch_conv2d", lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"),
    S([None, 5, 5, 2], f32), S([3, 3, 2, 2], f32),
    inputs=lambda rng, s: [rng.uniform(-1, 1, [2, 5, 5, 2]).astype(np.float32),
                           rng.uniform(-1, 1, [3, 3, 2, 2]).astype(np.float32)])
add("raw_add", lambda a, b: tf.raw_ops.Add(x=a, y=b), S([2, 3], f32),
    S([3], f32))

# Shape-like operands fed at run time.
add("runtime_reshape_shape", lambda x, s: tf.reshape(x, s), S([2, 6], f32),
    S([3], i32), inputs=data_and([3, 2, 2]))
add("runtime_fill_dims", lambda v, d: tf.fill(d, v), S([], f32), S([2], i32),
    inputs=data_and([2, 3]))
add("runtime_broadcast_to", lambda x, s: tf.broadcast_to(x, s), S([3], f32),
    S([2], i32), inputs=data_and([4, 3]))
add("runtime_tile_multiples", lambda x, m: tf.tile(x, m), S([2, 2], f32),
    S([2], i32), inputs=data_and([2, 3]))
add("runtime_slice_begin", lambda x, b: tf.slice(x, b, [2, 2]),
    S([4, 4], f32), S([2], i32), inputs=data_and([1, 2]))
add("runtime_strided_slice_begin",
    lambda x, b: tf.strided_slice(x, b, [4, 4], [1, 1]), S([4, 4], f32),
    S([2], i32), inputs=data_and([2, 1]))
add("runtime_gather_axis", lambda x, i, a: tf.gather(x, i, axis=a),
    S([3, 4], f32), S([2], i32), S([], i32), inputs=data_and([1, 0], 1))
add("runtime_range_limit", lambda n: tf.range(n), S([], i32),
    inputs=[np.int32(7)])
add("runtime_range_float", lambda a, b: tf.range(a, b, 0.5), S([], f32),
    S([], f32), inputs=[np.float32(-1.0), np.float32(2.0)])
add("runtime_pad_paddings", lambda x, p: tf.pad(x, p), S([2, 3], f32),
    S([2, 2], i32), inputs=data_and([[1, 0], [0, 2]]))
add("runtime_top_k_k", lambda x, k: tf.math.top_k(x, k).values,
    S([8], f32), S([], i32), inputs=lambda rng, s: [
        rng.permutation(8).astype(np.float32), np.int32(3)])
add("runtime_expand_dims_axis", lambda x, a: tf.expand_dims(x, a),
    S([2, 3], f32), S([], i32), inputs=data_and(1))
add("runtime_concat_axis", lambda a, b, ax: tf.concat([a, b], ax),
    S([2, 2], f32), S([2, 2], f32), S([], i32), inputs=lambda rng, s: [
        uniform()(rng, s[:1])[0], uniform()(rng, s[1:2])[0], np.int32(1)])
add("runtime_transpose_perm", lambda x, p: tf.transpose(x, p),
    S([2, 3, 4], f32), S([3], i32), inputs=data_and([2, 0, 1]))
add("runtime_conv2d_transpose_sizes",
    lambda x, w, s: tf.nn.conv2d_transpose(x, w, s, 2, "SAME"),
    S([1, 3, 3, 2], f32), S([3, 3, 1, 2], f32), S([4], i32),
    inputs=lambda rng, s: [rng.uniform(-1, 1, [1, 3, 3, 2]).astype(np.float32),
                           rng.uniform(-1, 1, [3, 3, 1, 2]).astype(np.float32),
                           np.array([1, 6, 6, 1], np.int32)])
add("runtime_resize_size",
    lambda x, s: tf.raw_ops.ResizeBilinear(images=x, size=s),
    S([1, 3, 3, 1], f32), S([2], i32), inputs=data_and([5, 4]))

# More values of the runtime axes, permutations and multiples above: each is
# lowered as a switch over (or a gather by) the value, so other values and
# negative ones take other paths.
add("runtime_sum_axis_negative_keepdims",
    lambda x, a: tf.reduce_sum(x, axis=a, keepdims=True), S([2, 3, 4], f32),
    S([], i32), inputs=data_and(-2))
add("runtime_mean_axis_vector", lambda x, a: tf.reduce_mean(x, axis=a),
    S([2, 3, 4], f32), S([1], i32), inputs=data_and([2]))
add("runtime_max_axis0", lambda x, a: tf.reduce_max(x, axis=a),
    S([3, 5], f32), S([], i32), inputs=data_and(0))
add("runtime_gather_axis0_2d_indices", lambda x, i, a: tf.gather(x, i, axis=a),
    S([4, 3], f32), S([2, 2], i32), S([], i32),
    inputs=data_and([[3, 0], [1, 1]], 0))
add("runtime_gather_axis_batch_dims",
    lambda x, i, a: tf.gather(x, i, axis=a, batch_dims=1),
    S([2, 3, 4], f32), S([2, 2], i32), S([], i32),
    inputs=data_and([[3, 0], [1, 2]], -1))
add("runtime_concat_axis_negative_three",
    lambda a, b, c, ax: tf.concat([a, b, c], ax), S([2, 1, 3], f32),
    S([2, 2, 3], f32), S([2, 3, 3], f32), S([], i32),
    inputs=lambda rng, s: uniform()(rng, s[:3]) + [np.int32(-2)])
add("runtime_expand_dims_negative", lambda x, a: tf.expand_dims(x, a),
    S([2, 3], f32), S([], i32), inputs=data_and(-1))
add("runtime_transpose_perm_4d", lambda x, p: tf.transpose(x, p),
    S([2, 3, 4, 5], f32), S([4], i32), inputs=data_and([3, 1, 0, 2]))
add("runtime_tile_multiples_3d", lambda x, m: tf.tile(x, m),
    S([2, 1, 3], f32), S([3], i32), inputs=data_and([2, 3, 1]))
# From 2**24 by 1: TensorFlow 2.21 computes start + i * delta (0, 0, 2, 4
# after subtracting start); an accumulation would stay at 2**24.
add("runtime_range_float_rounding", lambda a, b: tf.range(a, b, 1.0) - a,
    S([], f32), S([], f32), inputs=[np.float32(2**24), np.float32(2**24 + 4)])
add("runtime_range_float_negative_delta", lambda a, b, d: tf.range(a, b, d),
    S([], f32), S([], f32), S([], f32),
    inputs=[np.float32(2.0), np.float32(-1.3), np.float32(-0.7)])


def test_op(case, backend, e2e):
    e2e.check(case, backend)
