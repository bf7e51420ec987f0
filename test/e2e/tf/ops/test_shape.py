"""Per-op conformance: shape ops (Reshape, Transpose, ExpandDims, Squeeze,
ConcatV2, Pack, Unpack, Split, SplitV, Tile, Pad, PadV2, MirrorPad,
BroadcastTo, Fill, Range, Shape, Size, DepthToSpace, SpaceToBatchND,
BatchToSpaceND, Identity, IdentityN).

They move values without arithmetic, so every case must match exactly; the
default tolerance (1e-4 of the scale) is kept only because it is the
framework's default, and any difference would be a bug."""

import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import op_case  # noqa: E402

S = tf.TensorSpec
f32, i32, i64 = tf.float32, tf.int32, tf.int64

CASES = []


def add(name, fn, *specs, **options):
    CASES.append(op_case(name, fn, *specs, **options))


add("reshape_flatten", lambda x: tf.reshape(x, [-1]), S([2, 3, 4], f32),
    ci=True)
add("reshape_infer_middle", lambda x: tf.reshape(x, [2, -1, 3]),
    S([4, 3, 2], f32))
add("reshape_to_scalar", lambda x: tf.reshape(x, []), S([1, 1], f32))
add("reshape_i32", lambda x: tf.reshape(x, [3, 4]), S([12], i32))
add("reshape_empty", lambda x: tf.reshape(x, [0, 4]), S([2, 0, 2], f32))
add("transpose_2d", tf.transpose, S([3, 5], f32), ci=True)
add("transpose_nhwc_to_nchw", lambda x: tf.transpose(x, [0, 3, 1, 2]),
    S([2, 3, 4, 5], f32))
add("transpose_rank5", lambda x: tf.transpose(x, [4, 2, 0, 3, 1]),
    S([2, 1, 3, 2, 4], f32))
add("transpose_i64", lambda x: tf.transpose(x, [1, 0, 2]), S([2, 3, 2], i64))
add("expand_dims_0", lambda x: tf.expand_dims(x, 0), S([3, 4], f32))
add("expand_dims_neg1", lambda x: tf.expand_dims(x, -1), S([3, 4], f32))
add("expand_dims_scalar", lambda x: tf.expand_dims(x, 0), S([], f32))
add("squeeze_all", tf.squeeze, S([1, 3, 1, 4, 1], f32))
add("squeeze_axis_neg", lambda x: tf.squeeze(x, axis=[-1]), S([1, 3, 1], f32))
add("squeeze_to_scalar", tf.squeeze, S([1, 1], f32))

add("concat_axis0", lambda a, b: tf.concat([a, b], 0), S([2, 3], f32),
    S([4, 3], f32))
add("concat_axis_neg1_three",
    lambda a, b, c: tf.concat([a, b, c], -1),
    S([2, 2, 1], f32), S([2, 2, 3], f32), S([2, 2, 2], f32), ci=True)
add("concat_with_empty", lambda a, b: tf.concat([a, b], 1), S([2, 0], f32),
    S([2, 3], f32))
add("concat_i32", lambda a, b: tf.concat([a, b], 1), S([2, 3], i32),
    S([2, 1], i32))
add("concat_single", lambda a: tf.concat([a], 0), S([2, 3], f32))
add("stack_axis0", lambda a, b: tf.stack([a, b]), S([3, 4], f32),
    S([3, 4], f32), ci=True)
add("stack_axis_neg1", lambda a, b, c: tf.stack([a, b, c], axis=-1),
    S([2, 3], f32), S([2, 3], f32), S([2, 3], f32))
add("stack_scalars", lambda a, b: tf.stack([a, b]), S([], f32), S([], f32))
add("unstack_axis0", lambda x: tf.unstack(x, axis=0), S([3, 4], f32))
add("unstack_axis_neg1", lambda x: tf.unstack(x, axis=-1), S([2, 3, 2], f32))
add("split_even", lambda x: tf.split(x, 3, axis=1), S([2, 6, 2], f32),
    ci=True)
add("split_neg_axis", lambda x: tf.split(x, 2, axis=-1), S([3, 4], f32))
add("splitv_sizes", lambda x: tf.split(x, [1, 3, 2], axis=0), S([6, 2], f32))
add("splitv_inferred", lambda x: tf.split(x, [2, -1], axis=1),
    S([2, 5], f32))
add("tile_2d", lambda x: tf.tile(x, [2, 3]), S([2, 3], f32), ci=True)
add("tile_ones", lambda x: tf.tile(x, [1, 1, 4]), S([2, 1, 3], f32))
add("tile_i32", lambda x: tf.tile(x, [3]), S([4], i32))

add("pad_constant", lambda x: tf.pad(x, [[1, 2], [0, 3]]), S([2, 3], f32),
    ci=True)
add("pad_nhwc", lambda x: tf.pad(x, [[0, 0], [1, 1], [2, 0], [0, 0]]),
    S([1, 3, 3, 2], f32))
add("padv2_value", lambda x: tf.pad(x, [[1, 1], [1, 1]], constant_values=-2.5),
    S([2, 2], f32))
add("pad_i32", lambda x: tf.pad(x, [[2, 1]]), S([3], i32))
add("mirror_pad_reflect",
    lambda x: tf.pad(x, [[1, 1], [2, 2]], mode="REFLECT"), S([3, 4], f32),
    ci=True)
add("mirror_pad_symmetric",
    lambda x: tf.pad(x, [[1, 0], [2, 1]], mode="SYMMETRIC"), S([3, 4], f32))

add("broadcast_to_rank_up", lambda x: tf.broadcast_to(x, [2, 3, 4]),
    S([3, 1], f32), ci=True)
add("broadcast_to_same", lambda x: tf.broadcast_to(x, [2, 3]), S([2, 3], f32))
add("fill_const", lambda x: x + tf.fill([2, 3], 1.5), S([2, 3], f32))
add("fill_dynamic_value", lambda v: tf.fill([3, 2], v), S([], f32))
add("range_const", lambda x: x + tf.range(0, 10, 2, dtype=tf.float32),
    S([5], f32))
add("range_i32_negative_delta", lambda x: x + tf.range(10, 0, -3),
    S([4], i32))
add("shape_of", lambda x: tf.shape(x), S([2, 3, 4], f32), ci=True)
add("shape_of_i64", lambda x: tf.shape(x, out_type=tf.int64), S([5, 1], f32))
add("size_of", lambda x: tf.size(x), S([2, 3, 4], f32))
add("zeros_like_i32", tf.zeros_like, S([2, 2], i32))

add("depth_to_space_2", lambda x: tf.nn.depth_to_space(x, 2),
    S([1, 2, 3, 8], f32), ci=True)
add("depth_to_space_3", lambda x: tf.nn.depth_to_space(x, 3),
    S([2, 2, 2, 9], f32))
add("space_to_batch_nd",
    lambda x: tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]]),
    S([1, 4, 4, 3], f32))
add("space_to_batch_nd_padded",
    lambda x: tf.space_to_batch_nd(x, [2, 2], [[1, 1], [2, 0]]),
    S([1, 4, 4, 1], f32))
add("batch_to_space_nd",
    lambda x: tf.batch_to_space(x, [2, 2], [[0, 0], [0, 0]]),
    S([4, 2, 2, 3], f32))
add("batch_to_space_nd_cropped",
    lambda x: tf.batch_to_space(x, [2, 2], [[1, 1], [0, 2]]),
    S([4, 3, 3, 1], f32))
add("dilated_conv_pattern",
    lambda x, w: tf.batch_to_space(tf.nn.conv2d(
        tf.space_to_batch_nd(x, [2, 2], [[2, 2], [2, 2]]), w, 1, "VALID"),
        [2, 2], [[0, 0], [0, 0]]),
    S([1, 8, 8, 2], f32), S([3, 3, 2, 2], f32))
add("identity", tf.identity, S([2, 3], f32))
add("identity_n", lambda a, b: tf.identity_n([a, b]), S([2], f32),
    S([3], i32))


def test_op(case, backend, e2e):
    e2e.check(case, backend)
