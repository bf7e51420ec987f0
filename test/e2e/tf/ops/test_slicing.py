"""Per-op conformance: Slice, StridedSlice (begin/end/ellipsis/new-axis/
shrink masks, negative strides and indices), GatherV2 (axis, batch_dims),
GatherNd, TopKV2, Where, NonMaxSuppression.

All of them select values without arithmetic, so they must match exactly (the
default tolerance is kept as the framework's default). Index inputs are
generated in range, since out-of-range indices are an error in TensorFlow and
undefined in a compiled model."""

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import op_case, uniform  # noqa: E402

S = tf.TensorSpec
f32, i32, i64 = tf.float32, tf.int32, tf.int64

CASES = []


def add(name, fn, *specs, **options):
    CASES.append(op_case(name, fn, *specs, **options))


add("slice_2d", lambda x: tf.slice(x, [1, 0], [2, 3]), S([4, 5], f32),
    ci=True)
add("slice_size_minus1", lambda x: tf.slice(x, [0, 2, 1], [-1, -1, 2]),
    S([2, 5, 4], f32))
add("slice_empty", lambda x: tf.slice(x, [1, 0], [0, 3]), S([3, 3], f32))

STRIDED = [
    ("basic", [4, 6], lambda x: x[1:3, 2:5]),
    ("step2", [8, 6], lambda x: x[::2, 1::2]),
    ("negative_index", [5, 6], lambda x: x[-3:-1, -4:]),
    ("reverse", [5, 4], lambda x: x[::-1]),
    ("reverse_step2", [7, 3], lambda x: x[5:0:-2, :]),
    ("shrink", [4, 5, 6], lambda x: x[1, :, 2]),
    ("shrink_last_neg", [4, 5], lambda x: x[:, -1]),
    ("new_axis", [3, 4], lambda x: x[:, tf.newaxis, 1:3]),
    ("ellipsis", [2, 3, 4, 5], lambda x: x[..., 1:4]),
    ("ellipsis_shrink", [2, 3, 4, 5], lambda x: x[0, ..., 2]),
    ("begin_end_masks", [6, 6], lambda x: x[:4, 2:]),
    ("out_of_range_clamped", [4, 4], lambda x: x[1:100, -100:2]),
    ("empty_result", [4, 4], lambda x: x[3:1, :]),
    ("to_scalar", [3, 3], lambda x: x[1, 2]),
]
for name, shape, fn in STRIDED:
    add(f"strided_slice_{name}", fn, S(shape, f32),
        ci=name in ("shrink", "reverse_step2"))
add("strided_slice_i32_step3", lambda x: x[1::3], S([10], i32))
add("strided_slice_raw_masks",
    lambda x: tf.raw_ops.StridedSlice(
        input=x, begin=[0, 1, 0], end=[0, 3, 2], strides=[1, 1, 1],
        begin_mask=0b101, end_mask=0b001, shrink_axis_mask=0b100),
    S([3, 4, 5], f32))


def indices(limit, shape, dtype=np.int32):
    """An index generator: the data input uniform, the indices in
    [0, limit)."""

    def generate(rng, specs):
        data = uniform()(rng, specs[:1])[0]
        return [data, rng.integers(0, limit, shape).astype(dtype)]

    return generate


add("gather_axis0", lambda x, i: tf.gather(x, i), S([5, 3], f32),
    S([4], i32), inputs=indices(5, [4]), ci=True)
add("gather_axis1_2d_indices", lambda x, i: tf.gather(x, i, axis=1),
    S([2, 6, 3], f32), S([2, 2], i32), inputs=indices(6, [2, 2]))
add("gather_axis_neg1", lambda x, i: tf.gather(x, i, axis=-1),
    S([3, 4], f32), S([5], i32), inputs=indices(4, [5]))
add("gather_i64_indices", lambda x, i: tf.gather(x, i), S([6], f32),
    S([3], i64), inputs=indices(6, [3], np.int64))
add("gather_scalar_index", lambda x, i: tf.gather(x, i), S([4, 3], f32),
    S([], i32), inputs=indices(4, []))
add("gather_batch_dims1",
    lambda x, i: tf.gather(x, i, axis=1, batch_dims=1), S([2, 5, 3], f32),
    S([2, 4], i32), inputs=indices(5, [2, 4]))
add("gather_int_data", lambda x, i: tf.gather(x, i), S([6], i32),
    S([4], i32), inputs=lambda rng, s: [
        rng.integers(-9, 9, [6]).astype(np.int32),
        rng.integers(0, 6, [4]).astype(np.int32)])
add("gather_const_table", lambda i: tf.gather(
    tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), i), S([4], i32),
    inputs=lambda rng, s: [rng.integers(0, 3, [4]).astype(np.int32)])

# Gathers from a slice of the last axis: the slice is a strided buffer (rows
# 3 apart, 2 wide), which the vectorizer's gather read as if it were
# contiguous until kiln-cpu-strided-gathers (facemesh-attention-pinto: its
# landmark gathers from x[:, :, 0:2] of a (1, 468, 3) reshape).
add("gather_of_last_axis_slice",
    lambda x, i: tf.gather(x[:, :, 0:2], i, axis=1), S([1, 8, 3], f32),
    S([5], i32), inputs=indices(8, [5]), ci=True)
add("gather_const_indices_of_slice", lambda x: tf.gather(
    (tf.reshape(x, [1, 468, 3]) * 0.25)[:, :, 0:2],
    [61, 146, 91, 181, 84, 17, 314, 405, 0, 467], axis=1),
    S([1, 1404], f32))
add("gather_nd_of_slice", lambda x, i: tf.gather_nd(x[:, 1:3, 0:2], i),
    S([6, 4, 3], f32), S([5, 3], i32),
    inputs=lambda rng, s: [uniform()(rng, s[:1])[0], np.stack(
        [rng.integers(0, 6, [5]), rng.integers(0, 2, [5]),
         rng.integers(0, 2, [5])], -1).astype(np.int32)])


def nd_indices(limits, count):
    def generate(rng, specs):
        data = uniform()(rng, specs[:1])[0]
        idx = np.stack([rng.integers(0, l, count) for l in limits], -1)
        return [data, idx.astype(np.int32)]

    return generate


add("gather_nd_full", tf.gather_nd, S([4, 5], f32), S([3, 2], i32),
    inputs=nd_indices([4, 5], 3), ci=True)
add("gather_nd_partial", tf.gather_nd, S([4, 5, 2], f32), S([3, 1], i32),
    inputs=nd_indices([4], 3))
add("gather_nd_batched_idx", tf.gather_nd, S([3, 4], f32), S([2, 2, 2], i32),
    inputs=lambda rng, s: [uniform()(rng, s[:1])[0], np.stack(
        [rng.integers(0, 3, [2, 2]), rng.integers(0, 4, [2, 2])],
        -1).astype(np.int32)])


def distinct(rng, specs):
    """A permutation of distinct values, so TopK has no ties."""
    shape = specs[0].shape.as_list()
    return [rng.permutation(np.prod(shape)).reshape(shape).astype(
        np.float32) / 10]


add("top_k_rank1", lambda x: tf.math.top_k(x, 3), S([10], f32),
    inputs=distinct, ci=True)
add("top_k_rank2_values", lambda x: tf.math.top_k(x, 2).values,
    S([3, 6], f32), inputs=distinct)
add("top_k_k_equals_n", lambda x: tf.math.top_k(x, 5), S([2, 5], f32),
    inputs=distinct)
add("top_k_ties_indices", lambda x: tf.math.top_k(x, 4).indices,
    S([8], f32), inputs=lambda rng, s: [
        rng.integers(0, 3, [8]).astype(np.float32)])
add("where_bool_coords", lambda c: tf.where(c), S([3, 4], tf.bool))
add("where_f32_nonzero", lambda x: tf.where(x > 0.0), S([6], f32))


def boxes(rng, specs):
    n = specs[0].shape[0]
    y, x = rng.uniform(0, 0.8, n), rng.uniform(0, 0.8, n)
    h, w = rng.uniform(0.05, 0.3, n), rng.uniform(0.05, 0.3, n)
    b = np.stack([y, x, y + h, x + w], -1).astype(np.float32)
    return [b, rng.permutation(n).astype(np.float32) / n]


add("non_max_suppression_v3",
    lambda b, s: tf.image.non_max_suppression(b, s, 5, 0.3, 0.1),
    S([12, 4], f32), S([12], f32), inputs=boxes)
add("non_max_suppression_v5_padded",
    lambda b, s: tf.raw_ops.NonMaxSuppressionV5(
        boxes=b, scores=s, max_output_size=6, iou_threshold=0.4,
        score_threshold=0.0, soft_nms_sigma=0.0, pad_to_max_output_size=True)[
            0:2],
    S([10, 4], f32), S([10], f32), inputs=boxes)


def test_op(case, backend, e2e):
    e2e.check(case, backend)
