"""Per-op conformance at the edges: empty and size-1 dimensions through every
op family, small and unsigned integer types, float64 through the NN ops,
special values (NaN, infinities, division by zero), integer wrap-around and
integer means.

Tolerance: the default (1e-4 of the scale). NaN must match NaN and an
infinity the same infinity (compare.py); integers must be equal."""

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import op_case, uniform  # noqa: E402

S = tf.TensorSpec
f32, f64, i32, i64 = tf.float32, tf.float64, tf.int32, tf.int64
i8, u8, i16, u16 = tf.int8, tf.uint8, tf.int16, tf.uint16

CASES = []


def add(name, fn, *specs, **options):
    CASES.append(op_case(name, fn, *specs, **options))


# Empty dimensions.
add("empty_add_bcast", tf.add, S([0, 3], f32), S([3], f32), ci=True)
add("empty_matmul_m0", tf.linalg.matmul, S([0, 4], f32), S([4, 3], f32))
add("empty_matmul_k0", tf.linalg.matmul, S([2, 0], f32), S([0, 3], f32))
add("empty_conv2d_batch0", lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"),
    S([0, 4, 4, 2], f32), S([3, 3, 2, 2], f32))
add("empty_transpose", lambda x: tf.transpose(x, [1, 0, 2]),
    S([2, 0, 3], f32))
add("empty_tile_multiple0", lambda x: tf.tile(x, [0, 2]), S([2, 3], f32))
add("empty_mean_axis", lambda x: tf.reduce_mean(x, axis=0), S([0, 3], f32))
add("empty_max_axis", lambda x: tf.reduce_max(x, axis=1), S([2, 0], f32))
add("empty_prod_axis", lambda x: tf.reduce_prod(x, axis=0), S([0, 2], f32))
add("empty_sum_all", tf.reduce_sum, S([0], f32))
add("empty_softmax", tf.nn.softmax, S([0, 4], f32))
add("empty_gather_indices", lambda x, i: tf.gather(x, i), S([4, 2], f32),
    S([0], i32), inputs=[np.ones([4, 2], np.float32), np.zeros([0], np.int32)])
add("empty_cast", lambda x: tf.cast(x, tf.int32), S([3, 0], f32))
add("empty_concat_all", lambda a, b: tf.concat([a, b], 0), S([0, 2], f32),
    S([0, 2], f32), ci=True)
add("empty_concat_after_nonempty", lambda a, b: tf.concat([a, b], 0),
    S([3, 2], f32), S([0, 2], f32))
add("empty_strided_slice_input", lambda x: x[:, 1:], S([0, 3], f32))
add("empty_argmax_rows", lambda x: tf.argmax(x, axis=1), S([0, 5], f32))

# Size-1 dimensions everywhere.
add("size1_matmul", tf.linalg.matmul, S([1, 1], f32), S([1, 1], f32))
add("size1_conv2d", lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"),
    S([1, 1, 1, 1], f32), S([1, 1, 1, 1], f32))
add("size1_max_pool_same", lambda x: tf.nn.max_pool2d(x, 3, 2, "SAME"),
    S([1, 1, 1, 2], f32))
add("size1_avg_pool_same", lambda x: tf.nn.avg_pool2d(x, 3, 2, "SAME"),
    S([1, 2, 1, 2], f32))
add("size1_resize_bilinear", lambda x: tf.raw_ops.ResizeBilinear(
    images=x, size=[3, 3]), S([1, 1, 1, 2], f32))
add("size1_top_k", lambda x: tf.math.top_k(x, 1), S([3, 1], f32))

# Small and unsigned integer types.
for name, dt in (("i8", i8), ("u8", u8), ("i16", i16), ("u16", u16)):
    gen = uniform(int_low=0 if name.startswith("u") else -5, int_high=6)
    add(f"int_add_{name}", tf.add, S([2, 5], dt), S([5], dt), inputs=gen,
        ci=name == "u8")
    add(f"int_mul_{name}", tf.multiply, S([7], dt), S([7], dt), inputs=gen)
    add(f"int_max_reduce_{name}", lambda x: tf.reduce_max(x, axis=0),
        S([3, 4], dt), inputs=gen)
    add(f"int_cast_to_f32_{name}", lambda x: tf.cast(x, f32), S([6], dt),
        inputs=gen)
# A uint8 image resized (the first pass converts each source pixel to f32).
add("u8_resize_bilinear", lambda x: tf.raw_ops.ResizeBilinear(
    images=x, size=[7, 5], half_pixel_centers=True), S([1, 4, 3, 8], u8),
    inputs=uniform(int_low=0, int_high=256))
add("u8_to_f32_full_range", lambda x: tf.cast(x, f32) / 255.0, S([8], u8),
    inputs=[np.array([0, 1, 127, 128, 200, 254, 255, 3], np.uint8)])
add("u8_compare_high_values", tf.less, S([4], u8), S([4], u8),
    inputs=[np.array([200, 5, 255, 128], np.uint8),
            np.array([100, 250, 0, 127], np.uint8)])
add("u8_floordiv_high_values", tf.math.floordiv, S([4], u8), S([4], u8),
    inputs=[np.array([200, 255, 129, 7], np.uint8),
            np.array([3, 16, 2, 200], np.uint8)])
add("u8_reduce_max_high", lambda x: tf.reduce_max(x, axis=0), S([4], u8),
    inputs=[np.array([3, 250, 128, 7], np.uint8)])
add("u8_argmax_high", lambda x: tf.argmax(x), S([4], u8),
    inputs=[np.array([3, 250, 128, 7], np.uint8)])
add("u16_minimum_high", tf.minimum, S([3], u16), S([3], u16),
    inputs=[np.array([40000, 2, 65535], np.uint16),
            np.array([1, 50000, 65534], np.uint16)])
add("i8_sum_wraps", lambda x: tf.reduce_sum(x), S([4], i8),
    inputs=[np.array([100, 100, 27, 1], np.int8)])
add("i32_mul_wraps", tf.multiply, S([2], i32), S([2], i32),
    inputs=[np.array([65536, -65536], np.int32),
            np.array([65536, 65537], np.int32)])
add("i32_mean_truncates", lambda x: tf.reduce_mean(x, axis=-1),
    S([3, 4], i32), inputs=[np.array(
        [[1, 2, 2, 2], [-1, -2, -2, -2], [7, 0, 0, 0]], np.int32)])
add("i32_abs_min", tf.abs, S([2], i32),
    inputs=[np.array([-2147483648, -5], np.int32)])
add("i64_large_values", tf.add, S([2], i64), S([2], i64),
    inputs=[np.array([2**40, -2**50], np.int64),
            np.array([3, 2**33], np.int64)])
add("i32_floordiv_neg_exact", tf.math.floordiv, S([6], i32), S([6], i32),
    inputs=[np.array([-6, 6, -7, 7, 0, -1], np.int32),
            np.array([3, -3, 2, -2, -5, 5], np.int32)])
add("i32_floormod_neg", tf.math.floormod, S([6], i32), S([6], i32),
    inputs=[np.array([-7, 7, -7, 7, 0, -1], np.int32),
            np.array([3, 3, -3, -3, -5, 5], np.int32)])

# float64 through the NN ops.
add("f64_matmul", tf.linalg.matmul, S([3, 4], f64), S([4, 2], f64))
add("f64_conv2d", lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"),
    S([1, 5, 5, 2], f64), S([3, 3, 2, 3], f64))
add("f64_max_pool", lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID"),
    S([1, 4, 4, 2], f64))
add("f64_softmax", tf.nn.softmax, S([2, 5], f64))
add("f64_mean", lambda x: tf.reduce_mean(x, axis=1), S([3, 7], f64))

# Special values.
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -2.5, 1e30],
                   np.float32)
for name, fn in (("relu", tf.nn.relu), ("abs", tf.abs), ("neg", tf.negative),
                 ("exp", tf.exp), ("tanh", tf.tanh), ("sigmoid", tf.sigmoid),
                 ("floor", tf.floor), ("sign", tf.sign),
                 ("square", tf.square), ("relu6", tf.nn.relu6)):
    add(f"special_{name}", fn, S([8], f32), inputs=[SPECIAL],
        ci=name == "relu")
add("special_log_zero_negative", tf.math.log, S([4], f32),
    inputs=[np.array([0.0, -1.0, np.inf, 1.0], np.float32)])
add("special_sqrt_negative", tf.sqrt, S([3], f32),
    inputs=[np.array([-1.0, 0.0, np.inf], np.float32)])
add("special_rsqrt_zero", tf.math.rsqrt, S([3], f32),
    inputs=[np.array([0.0, np.inf, 4.0], np.float32)])
add("special_div_by_zero", tf.math.truediv, S([4], f32), S([4], f32),
    inputs=[np.array([1.0, -1.0, 0.0, 2.0], np.float32),
            np.array([0.0, 0.0, 0.0, -0.0], np.float32)])
add("special_maximum_nan", tf.maximum, S([4], f32), S([4], f32),
    inputs=[np.array([np.nan, 1.0, np.nan, -np.inf], np.float32),
            np.array([1.0, np.nan, np.nan, 3.0], np.float32)])
add("special_minimum_nan", tf.minimum, S([4], f32), S([4], f32),
    inputs=[np.array([np.nan, 1.0, np.nan, np.inf], np.float32),
            np.array([1.0, np.nan, np.nan, 3.0], np.float32)])
add("special_reduce_max_nan", lambda x: tf.reduce_max(x, axis=1),
    S([2, 3], f32), inputs=[np.array(
        [[1.0, np.nan, 3.0], [-np.inf, -np.inf, -np.inf]], np.float32)])
add("special_argmax_nan", lambda x: tf.argmax(x, axis=1), S([2, 3], f32),
    inputs=[np.array([[1.0, np.nan, 3.0], [2.0, 5.0, np.nan]], np.float32)])
add("special_softmax_neg_inf", tf.nn.softmax, S([2, 3], f32),
    inputs=[np.array([[0.0, -np.inf, 1.0], [-1e30, 0.0, 1e30]], np.float32)])
add("special_max_pool_neg_inf", lambda x: tf.nn.max_pool2d(x, 2, 2, "SAME"),
    S([1, 3, 3, 1], f32), inputs=[np.full([1, 3, 3, 1], -np.inf, np.float32)])
add("special_equal_nan", tf.equal, S([3], f32), S([3], f32),
    inputs=[np.array([np.nan, 1.0, 0.0], np.float32),
            np.array([np.nan, 1.0, -0.0], np.float32)])
add("special_floormod_f32_zero", tf.math.floormod, S([3], f32), S([3], f32),
    inputs=[np.array([5.0, -5.0, 0.5], np.float32),
            np.array([0.0, 3.0, -0.25], np.float32)])
add("special_cast_f32_to_bool_nan", lambda x: tf.cast(x, tf.bool),
    S([4], f32), inputs=[np.array([np.nan, 0.0, -0.0, 1e-30], np.float32)])
# TensorFlow's CPU threads flush denormals to zero (FTZ/DAZ), so a denormal
# input is 0 to every TensorFlow kernel.
add("denormal_cast_f32_to_bool", lambda x: tf.cast(x, tf.bool),
    S([3], f32), inputs=[np.array([1e-40, -1e-42, 1.0], np.float32)])

add("special_softmax_all_neg_inf", tf.nn.softmax, S([2, 3], f32),
    inputs=[np.array([[-np.inf] * 3, [0.0, 1.0, 2.0]], np.float32)])
add("i8_mean_overflowing_sum", lambda x: tf.reduce_mean(x), S([2], i8),
    inputs=[np.array([100, 100], np.int8)])
add("u8_mean_high", lambda x: tf.reduce_mean(x, axis=0), S([3, 2], u8),
    inputs=[np.array([[200, 255], [250, 1], [100, 3]], np.uint8)])
add("addn_single", lambda a: tf.add_n([a]), S([3], f32))


def test_op(case, backend, e2e):
    e2e.check(case, backend)
