"""Per-op conformance: less common attribute combinations of ops the other
suites cover (asymmetric explicit padding with strides, strides larger than
the window, Einsum reductions and ellipses, masks with negative strides,
gathers on the last axis, empty results of Where and NonMaxSuppression,
rank-0 and rank-5 operands).

Tolerance: the default 1e-4 of the scale; contractions are at most 3*3*4
terms and the other ops move values or do one operation."""

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import op_case, uniform  # noqa: E402

S = tf.TensorSpec
f32, i32, i64 = tf.float32, tf.int32, tf.int64

CASES = []


def add(name, fn, *specs, **options):
    CASES.append(op_case(name, fn, *specs, **options))


add("conv2d_explicit_pad_s2", lambda x, w: tf.nn.conv2d(
    x, w, 2, [[0, 0], [2, 0], [1, 3], [0, 0]]), S([1, 7, 8, 3], f32),
    S([3, 3, 3, 4], f32), ci=True)
add("conv2d_stride_gt_kernel", lambda x, w: tf.nn.conv2d(x, w, 3, "VALID"),
    S([1, 10, 10, 2], f32), S([2, 2, 2, 3], f32))
add("conv2d_same_s3_dil2", lambda x, w: tf.nn.conv2d(
    x, w, [1, 1, 1, 1], "SAME", dilations=[1, 3, 2, 1]),
    S([1, 11, 10, 2], f32), S([3, 2, 2, 2], f32))
add("depthwise_explicit_pad", lambda x, w: tf.nn.depthwise_conv2d(
    x, w, [1, 2, 2, 1], [[0, 0], [1, 2], [2, 1], [0, 0]]),
    S([1, 7, 7, 3], f32), S([3, 3, 3, 1], f32))
add("max_pool_stride_gt_kernel", lambda x: tf.nn.max_pool2d(
    x, 2, 3, "VALID"), S([1, 11, 11, 2], f32))
add("avg_pool_stride_gt_kernel_same", lambda x: tf.nn.avg_pool2d(
    x, 2, 3, "SAME"), S([1, 10, 10, 2], f32))
add("avg_pool_rect_strides", lambda x: tf.nn.avg_pool2d(
    x, [3, 2], [2, 1], "SAME"), S([2, 7, 6, 3], f32))
add("resize_bilinear_align_down", lambda x: tf.raw_ops.ResizeBilinear(
    images=x, size=[3, 4], align_corners=True), S([1, 7, 9, 2], f32))
add("resize_bilinear_half_pixel_down", lambda x: tf.raw_ops.ResizeBilinear(
    images=x, size=[3, 2], half_pixel_centers=True), S([2, 8, 5, 1], f32))

add("einsum_row_sum", lambda x: tf.einsum("ij->i", x), S([3, 5], f32))
add("einsum_total", lambda x: tf.einsum("ij->", x), S([3, 5], f32))
add("einsum_outer", lambda a, b: tf.einsum("i,j->ij", a, b), S([3], f32),
    S([4], f32))
add("einsum_ellipsis", lambda a, b: tf.einsum("...ij,...jk->...ik", a, b),
    S([2, 3, 4, 5], f32), S([2, 3, 5, 2], f32))
add("einsum_ellipsis_one_side",
    lambda a, b: tf.einsum("...ij,jk->...ik", a, b),
    S([2, 3, 4, 5], f32), S([5, 2], f32))
add("einsum_ellipsis_middle", lambda a, b: tf.einsum("b...i,bi->b...", a, b),
    S([2, 3, 4, 5], f32), S([2, 5], f32))
add("einsum_dot", lambda a, b: tf.einsum("i,i->", a, b), S([7], f32),
    S([7], f32))
add("einsum_bilinear", lambda a, w, b: tf.einsum("bi,ij,bj->b", a, w, b),
    S([2, 3], f32), S([3, 4], f32), S([2, 4], f32))

add("strided_slice_neg_strides_2d", lambda x: x[::-1, ::-2],
    S([4, 7], f32), ci=True)
add("strided_slice_newaxis_first", lambda x: x[tf.newaxis, ..., 1],
    S([2, 3, 4], f32))
add("strided_slice_shrink_neg_rank1", lambda x: x[-1], S([5], f32))
add("strided_slice_neg_stride_from_end", lambda x: x[-2:-6:-1],
    S([8], f32))
add("strided_slice_neg_stride_masks",
    lambda x: tf.raw_ops.StridedSlice(
        input=x, begin=[0, 4], end=[0, 0], strides=[-1, -2],
        begin_mask=0b11, end_mask=0b01),
    S([3, 6], f32))
add("gather_last_axis_batch_dims",
    lambda x, i: tf.gather(x, i, axis=-1, batch_dims=1), S([3, 5], f32),
    S([3, 2], i32), inputs=lambda rng, s: [
        uniform()(rng, s[:1])[0], rng.integers(0, 5, [3, 2]).astype(np.int32)])
add("gather_nd_int_data_rank3", tf.gather_nd, S([2, 3, 4], i32),
    S([5, 3], i32), inputs=lambda rng, s: [
        rng.integers(-50, 50, [2, 3, 4]).astype(np.int32),
        np.stack([rng.integers(0, 2, 5), rng.integers(0, 3, 5),
                  rng.integers(0, 4, 5)], -1).astype(np.int32)])
add("gather_nd_int64_indices", tf.gather_nd, S([4, 3], f32), S([2, 1], i64),
    inputs=lambda rng, s: [uniform()(rng, s[:1])[0],
                           np.array([[3], [0]], np.int64)])
add("top_k_int32", lambda x: tf.math.top_k(x, 3), S([2, 6], i32),
    inputs=lambda rng, s: [np.stack([rng.permutation(6), rng.permutation(6)])
                           .astype(np.int32) - 3])
add("argmax_rank1_to_scalar", lambda x: tf.argmax(x), S([9], f32))
add("argmax_i64_out_axis0", lambda x: tf.argmax(x, axis=0), S([5, 3], f32))
add("sum_scalar_input", lambda x: tf.reduce_sum(x), S([], f32))
add("max_i32_negative", lambda x: tf.reduce_max(x, axis=1), S([3, 4], i32),
    inputs=uniform(int_low=-100, int_high=-50))
add("min_keep_all_rank3", lambda x: tf.reduce_min(x, keepdims=True),
    S([2, 3, 4], f32))
add("softmax_rank1", tf.nn.softmax, S([6], f32))
add("leaky_relu_alpha_gt1", lambda x: tf.nn.leaky_relu(x, alpha=1.5),
    S([8], f32))
add("relu6_i32", tf.nn.relu6, S([8], i32), inputs=uniform(int_low=-9,
                                                          int_high=12))
add("where_rank3_all_false", lambda x: tf.where(x > 2.0), S([2, 2, 3], f32))
add("where_rank3", lambda c: tf.where(c), S([2, 3, 2], tf.bool))
add("nms_all_below_threshold",
    lambda b, s: tf.image.non_max_suppression(b, s, 4, 0.5, 0.99),
    S([6, 4], f32), S([6], f32), inputs=[
        np.array([[0, 0, 1, 1]] * 6, np.float32) * np.arange(
            1, 7, dtype=np.float32)[:, None] / 6,
        np.linspace(0.1, 0.6, 6, dtype=np.float32)])
add("bias_add_rank5", tf.nn.bias_add, S([2, 2, 3, 2, 4], f32), S([4], f32))
add("select_v2_all_broadcast", tf.where, S([2, 1, 1], tf.bool),
    S([1, 3, 1], f32), S([1, 1, 4], f32))
add("split_num1", lambda x: tf.split(x, 1, axis=0), S([3, 2], f32))
add("unstack_num1", lambda x: tf.unstack(x, axis=1), S([3, 1], f32))
add("stack_axis1_rank1", lambda a, b: tf.stack([a, b], axis=1), S([4], f32),
    S([4], f32))
add("floordiv_f32_neg_divisor", tf.math.floordiv, S([6], f32), S([6], f32),
    inputs=[np.array([7, -7, 7, -7, 0.5, -0.5], np.float32),
            np.array([-2, -2, 2, 2, -1, 1], np.float32)])
add("floormod_f32_neg_divisor", tf.math.floormod, S([6], f32), S([6], f32),
    inputs=[np.array([7, -7, 7, -7, 0.5, -0.5], np.float32),
            np.array([-2, -2, 2, 2, -1, 1], np.float32)])
add("cast_f32_to_i32_truncates", lambda x: tf.cast(x, i32), S([6], f32),
    inputs=[np.array([-2.7, -0.5, 0.5, 2.7, -3.0, 1e6], np.float32)])
add("cast_f32_to_u8_in_range", lambda x: tf.cast(x, tf.uint8), S([4], f32),
    inputs=[np.array([0.0, 254.9, 128.5, 1.2], np.float32)])
add("cast_i32_to_bool", lambda x: tf.cast(x, tf.bool), S([5], i32),
    inputs=[np.array([0, 1, -1, 2, 0], np.int32)])
add("cast_i64_to_f32_large", lambda x: tf.cast(x, f32), S([3], i64),
    inputs=[np.array([2**40 + 1, -2**33, 7], np.int64)])


def test_op(case, backend, e2e):
    e2e.check(case, backend)
