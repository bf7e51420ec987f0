"""Per-op conformance at sizes that reach the CPU pipeline's tiling and
vectorization (kiln-cpu-tile-and-vectorize): dimensions well past one tile,
odd and prime sizes that leave remainders, long reductions.

Tolerance: the default 1e-4 of the scale. The longest contraction here has
K = 3*3*64 = 576 float32 terms; accumulated in a different order than
Eigen's its error is about sqrt(K) * 2^-24 ~ 1.5e-6 of the scale, and the
longest reduction (4096 terms) about 4e-6: well inside 1e-4."""

import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import op_case  # noqa: E402

S = tf.TensorSpec
f32 = tf.float32

CASES = []


def add(name, fn, *specs, **options):
    CASES.append(op_case(name, fn, *specs, **options))


add("large_matmul_odd", tf.linalg.matmul, S([67, 129], f32), S([129, 33], f32),
    ci=True)
add("large_matmul_256", tf.linalg.matmul, S([256, 256], f32),
    S([256, 256], f32))
add("large_matmul_tb", lambda a, b: tf.linalg.matmul(a, b, transpose_b=True),
    S([97, 200], f32), S([61, 200], f32))
add("large_batch_matmul", tf.linalg.matmul, S([3, 65, 70], f32),
    S([3, 70, 17], f32))
add("large_conv2d_same", lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"),
    S([1, 33, 33, 16], f32), S([3, 3, 16, 24], f32), ci=True)
add("large_conv2d_s2_c64", lambda x, w: tf.nn.conv2d(x, w, 2, "SAME"),
    S([1, 57, 57, 64], f32), S([3, 3, 64, 40], f32))
add("large_conv2d_1x1_c96", lambda x, w: tf.nn.conv2d(x, w, 1, "VALID"),
    S([2, 19, 19, 96], f32), S([1, 1, 96, 129], f32))
add("large_depthwise", lambda x, w: tf.nn.depthwise_conv2d(
    x, w, [1, 1, 1, 1], "SAME"), S([1, 31, 31, 37], f32), S([3, 3, 37, 1], f32),
    ci=True)
add("large_depthwise_s2", lambda x, w: tf.nn.depthwise_conv2d(
    x, w, [1, 2, 2, 1], "SAME"), S([1, 64, 64, 32], f32), S([5, 5, 32, 1], f32))
add("large_conv2d_transpose", lambda x, w: tf.nn.conv2d_transpose(
    x, w, [1, 34, 34, 13], 2, "SAME"), S([1, 17, 17, 24], f32),
    S([4, 4, 13, 24], f32))
add("large_max_pool", lambda x: tf.nn.max_pool2d(x, 3, 2, "SAME"),
    S([1, 65, 65, 19], f32))
add("large_avg_pool", lambda x: tf.nn.avg_pool2d(x, 5, 3, "SAME"),
    S([2, 47, 47, 21], f32))
add("large_sum_rows", lambda x: tf.reduce_sum(x, axis=-1),
    S([37, 4096], f32), ci=True)
add("large_sum_cols", lambda x: tf.reduce_sum(x, axis=0), S([1001, 67], f32))
add("large_mean_spatial", lambda x: tf.reduce_mean(x, axis=[1, 2]),
    S([2, 45, 45, 33], f32))
add("large_max_all", tf.reduce_max, S([129, 257], f32))
add("large_argmax", lambda x: tf.argmax(x, axis=-1), S([33, 1001], f32))
add("large_softmax", tf.nn.softmax, S([7, 1001], f32))
add("large_transpose", lambda x: tf.transpose(x, [0, 3, 1, 2]),
    S([2, 33, 65, 17], f32))
add("large_add_bcast", tf.add, S([129, 67, 3], f32), S([67, 1], f32))
add("large_tanh", tf.tanh, S([1023, 65], f32))
add("large_resize_bilinear", lambda x: tf.raw_ops.ResizeBilinear(
    images=x, size=[97, 97], half_pixel_centers=True), S([1, 48, 48, 7], f32))
add("large_bias_relu6", lambda x, b: tf.nn.relu6(tf.nn.bias_add(x, b)),
    S([1, 40, 40, 67], f32), S([67], f32))


def test_op(case, backend, e2e):
    e2e.check(case, backend)
