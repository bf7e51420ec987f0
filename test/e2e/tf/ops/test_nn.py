"""Per-op conformance: MatMul, BatchMatMulV2, Einsum, Conv2D, depthwise
conv, Conv2DBackpropInput, pools, BiasAdd, ResizeBilinear.

Tolerances: the default 1e-4 of the output's scale. A contraction of K terms
in [-1, 1) accumulated in float32 in another order than Eigen's differs by
about sqrt(K) * 2^-24 of its scale; K here is at most 3*3*16 = 144, which
keeps every case three orders of magnitude inside 1e-4."""

import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import op_case  # noqa: E402

S = tf.TensorSpec
f32 = tf.float32

CASES = []

# MatMul with every transpose combination.
for ta in (False, True):
    for tb in (False, True):
        a = [5, 3] if ta else [3, 5]
        b = [4, 5] if tb else [5, 4]
        CASES.append(op_case(
            f"matmul_ta{int(ta)}_tb{int(tb)}",
            lambda x, y, ta=ta, tb=tb: tf.linalg.matmul(
                x, y, transpose_a=ta, transpose_b=tb),
            S(a, f32), S(b, f32), ci=not ta and not tb))
CASES.append(op_case("matmul_vector_like", tf.linalg.matmul, S([1, 64], f32),
                     S([64, 1], f32)))
CASES.append(op_case("batch_matmul_same_batch", tf.linalg.matmul,
                     S([2, 3, 4], f32), S([2, 4, 5], f32), ci=True))
CASES.append(op_case("batch_matmul_bcast_batch", tf.linalg.matmul,
                     S([2, 1, 3, 4], f32), S([3, 4, 5], f32)))
CASES.append(op_case("batch_matmul_adj_y",
                     lambda x, y: tf.linalg.matmul(x, y, adjoint_b=True),
                     S([2, 3, 4], f32), S([2, 5, 4], f32)))
CASES.append(op_case("batch_matmul_rank2_rank3", tf.linalg.matmul,
                     S([3, 4], f32), S([2, 4, 5], f32)))
CASES.append(op_case("einsum_bij_bjk", lambda x, y: tf.einsum(
    "bij,bjk->bik", x, y), S([2, 3, 4], f32), S([2, 4, 5], f32)))
CASES.append(op_case("einsum_transpose_out", lambda x, y: tf.einsum(
    "ij,jk->ki", x, y), S([3, 4], f32), S([4, 5], f32)))
CASES.append(op_case("einsum_bhqd_bhkd", lambda x, y: tf.einsum(
    "bhqd,bhkd->bhqk", x, y), S([1, 2, 3, 4], f32), S([1, 2, 5, 4], f32)))

# Conv2D: padding, strides, dilations, data formats, odd sizes.
CONV = [
    ("valid_s1", [1, 8, 8, 3], [3, 3, 3, 4], dict(strides=1, padding="VALID")),
    ("same_s1", [2, 7, 7, 3], [3, 3, 3, 5], dict(strides=1, padding="SAME")),
    ("same_s2_even", [1, 8, 8, 2], [3, 3, 2, 4], dict(strides=2, padding="SAME")),
    ("same_s2_odd", [1, 9, 9, 2], [3, 3, 2, 4], dict(strides=2, padding="SAME")),
    ("valid_s2x1", [1, 9, 8, 2], [3, 2, 2, 3],
     dict(strides=[1, 2, 1, 1], padding="VALID")),
    ("same_dil2", [1, 9, 9, 2], [3, 3, 2, 3],
     dict(strides=1, padding="SAME", dilations=2)),
    ("valid_dil2x3", [1, 10, 11, 2], [2, 3, 2, 3],
     dict(strides=1, padding="VALID", dilations=[1, 2, 3, 1])),
    ("explicit_pad", [1, 6, 6, 2], [3, 3, 2, 3],
     dict(strides=1, padding=[[0, 0], [1, 2], [0, 1], [0, 0]])),
    ("1x1", [1, 5, 5, 8], [1, 1, 8, 4], dict(strides=1, padding="VALID")),
    ("kernel_eq_input", [1, 4, 4, 3], [4, 4, 3, 2],
     dict(strides=1, padding="VALID")),
    # One output channel: vectors of input channels summed per pixel (a
    # whole block of 16, a whole and a partial one, only a partial one).
    ("f1_valid_2x2_c16", [1, 9, 13, 16], [2, 2, 16, 1],
     dict(strides=1, padding="VALID")),
    ("f1_same_s2_c20", [2, 9, 11, 20], [3, 3, 20, 1],
     dict(strides=2, padding="SAME")),
    ("f1_1x1_c3", [1, 5, 7, 3], [1, 1, 3, 1], dict(strides=1, padding="VALID")),
]
for name, x, w, attrs in CONV:
    CASES.append(op_case(f"conv2d_{name}",
                         lambda a, b, attrs=attrs: tf.nn.conv2d(a, b, **attrs),
                         S(x, f32), S(w, f32), ci=name == "same_s2_odd"))
CASES.append(op_case(
    "conv2d_nchw",
    lambda a, b: tf.raw_ops.Conv2D(input=a, filter=b, strides=[1, 1, 1, 1],
                                   padding="SAME", data_format="NCHW"),
    S([1, 3, 6, 6], f32), S([3, 3, 3, 4], f32),
    # TensorFlow's CPU kernel runs only NHWC: the reference transposes.
    reference=lambda a, b: tf.transpose(tf.nn.conv2d(
        tf.transpose(a, [0, 2, 3, 1]), b, 1, "SAME"), [0, 3, 1, 2])))

DEPTHWISE = [
    ("same_s1", [1, 7, 7, 4], [3, 3, 4, 1], dict(strides=[1, 1, 1, 1],
                                               padding="SAME")),
    ("valid_s2", [1, 9, 9, 3], [3, 3, 3, 1], dict(strides=[1, 2, 2, 1],
                                                padding="VALID")),
    ("mult2", [1, 6, 6, 3], [3, 3, 3, 2], dict(strides=[1, 1, 1, 1],
                                             padding="SAME")),
    ("dil2", [1, 9, 9, 2], [3, 3, 2, 1], dict(strides=[1, 1, 1, 1],
                                            padding="SAME", dilations=[2, 2])),
    # kiln-cpu-depthwise's cases: 20 channels (a block of 16 and a masked
    # one of 4), 5x5 at strides 1 and 2, images narrower than the filter.
    ("same_s1_c20", [1, 10, 13, 20], [3, 3, 20, 1],
     dict(strides=[1, 1, 1, 1], padding="SAME")),
    ("same_5x5_s2", [1, 11, 12, 20], [5, 5, 20, 1],
     dict(strides=[1, 2, 2, 1], padding="SAME")),
    ("same_5x5_s1_narrow", [1, 3, 4, 16], [5, 5, 16, 1],
     dict(strides=[1, 1, 1, 1], padding="SAME")),
    ("valid_5x5_s1", [1, 9, 17, 32], [5, 5, 32, 1],
     dict(strides=[1, 1, 1, 1], padding="VALID")),
]
for name, x, w, attrs in DEPTHWISE:
    CASES.append(op_case(
        f"depthwise_conv2d_{name}",
        lambda a, b, attrs=attrs: tf.nn.depthwise_conv2d(a, b, **attrs),
        S(x, f32), S(w, f32), ci=name == "same_s1"))

TRANSPOSED = [
    ("same_s2", [1, 4, 4, 3], [3, 3, 2, 3], [1, 8, 8, 2], 2, "SAME"),
    ("valid_s2", [1, 4, 4, 3], [3, 3, 2, 3], [1, 9, 9, 2], 2, "VALID"),
    ("same_s1", [1, 5, 5, 2], [3, 3, 4, 2], [1, 5, 5, 4], 1, "SAME"),
    ("valid_s2_k2", [2, 3, 3, 2], [2, 2, 3, 2], [2, 6, 6, 3], 2, "VALID"),
    # selfie's last layer: 2x2 stride 2 to one channel.
    ("selfie_k2_s2_f1", [1, 16, 16, 16], [2, 2, 1, 16], [1, 32, 32, 1], 2,
     "SAME"),
]
for name, x, w, out, stride, padding in TRANSPOSED:
    CASES.append(op_case(
        f"conv2d_transpose_{name}",
        lambda a, b, out=out, stride=stride, padding=padding:
            tf.nn.conv2d_transpose(a, b, out, stride, padding),
        S(x, f32), S(w, f32), ci=name == "same_s2"))

POOLS = [
    ("k2_s2_valid", [1, 8, 8, 3], 2, 2, "VALID"),
    ("k3_s2_same", [1, 9, 9, 2], 3, 2, "SAME"),
    ("k3_s2_same_even", [1, 8, 8, 2], 3, 2, "SAME"),
    ("k3_s1_same", [2, 5, 5, 2], 3, 1, "SAME"),
    ("k2x3_s1_valid", [1, 6, 7, 2], [2, 3], 1, "VALID"),
    ("global", [1, 7, 7, 4], 7, 1, "VALID"),
]
for kind, fn in (("max_pool", tf.nn.max_pool2d), ("avg_pool", tf.nn.avg_pool2d)):
    for name, x, k, s, padding in POOLS:
        CASES.append(op_case(
            f"{kind}_{name}",
            lambda a, fn=fn, k=k, s=s, padding=padding: fn(a, k, s, padding),
            S(x, f32), ci=name == "k3_s2_same"))

CASES.append(op_case("bias_add_nhwc", tf.nn.bias_add, S([2, 3, 3, 4], f32),
                     S([4], f32), ci=True))
CASES.append(op_case("bias_add_rank2", tf.nn.bias_add, S([3, 5], f32),
                     S([5], f32)))
CASES.append(op_case(
    "bias_add_nchw",
    lambda a, b: tf.nn.bias_add(a, b, data_format="NCHW"),
    S([2, 4, 3, 3], f32), S([4], f32)))

RESIZE = [
    ("up2", [1, 4, 4, 3], [8, 8], {}),
    ("up_odd", [1, 3, 5, 2], [7, 9], {}),
    ("down", [1, 8, 8, 2], [3, 5], {}),
    ("align_corners", [1, 4, 4, 2], [7, 7], dict(align_corners=True)),
    ("half_pixel", [1, 4, 5, 2], [8, 7], dict(half_pixel_centers=True)),
    # Static resizes are two passes (along W, then H) vectorized over the
    # channels: one channel, an odd count with a partial vector, several
    # whole vectors, a batch of two, and downscales that skip source rows.
    ("c1_half_pixel", [1, 5, 6, 1], [10, 12], dict(half_pixel_centers=True)),
    ("c13_batch2", [2, 6, 7, 13], [11, 5], {}),
    ("c24_align_down", [2, 9, 9, 24], [4, 6], dict(align_corners=True)),
    ("c8_half_pixel_down", [1, 12, 10, 8], [3, 4],
     dict(half_pixel_centers=True)),
    ("c3_down_up", [1, 9, 4, 3], [2, 9], {}),
    # selfie's decoder: 2x up-sampling of 16 and 128 channels.
    ("selfie_c16", [1, 64, 64, 16], [128, 128], dict(half_pixel_centers=True)),
    ("selfie_c128", [1, 16, 16, 128], [32, 32], dict(half_pixel_centers=True)),
]
for name, x, size, attrs in RESIZE:
    CASES.append(op_case(
        f"resize_bilinear_{name}",
        lambda a, size=size, attrs=attrs: tf.raw_ops.ResizeBilinear(
            images=a, size=size, **attrs),
        S(x, f32), ci=name == "half_pixel"))


def test_op(case, backend, e2e):
    e2e.check(case, backend)
