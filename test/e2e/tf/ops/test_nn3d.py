"""Per-op conformance of the 3-D window ops: Conv3D, MaxPool3D, AvgPool3D
over padding (SAME with even and odd totals, VALID), strides (equal and
per-dimension), dilations, window shapes and channel counts, in NDHWC (the
only layout TensorFlow's CPU kernels run).

Tolerances: the default 1e-4 of the output's scale. A Conv3D output is a
contraction of K = kd*kh*kw*C terms in [-1, 1); summed in float32 in another
order than Eigen's it differs by about sqrt(K) * 2^-24 of its scale, and K
is at most 3*3*3*8 = 216 here, three orders of magnitude inside 1e-4. Max
pooling is exact; an average differs from TensorFlow's by the rounding of
one division and of a sum of at most 27 terms.

TensorFlow's CPU Conv3D kernel refuses dilations other than 1 ("CPU
implementation of Conv3D currently only supports dilated rates of 1"), so
the dilated cases give Kiln the dilated op and take TensorFlow's reference
from the same op with the filter dilated explicitly (zeros between its
taps), which is the definition of a dilated convolution. They keep the
height and width dilations equal: TensorFlow's Conv3D shape function
applies the height's to the width and the width's to the height
(dilations [1, 2, 1, 3, 1] over a [1, 20, 21, 22, 2] input and a 2x3x3
filter give it [1, 18, 15, 20, 2], measured with TensorFlow 2.21), so an
unequal pair would not trace."""

import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import op_case  # noqa: E402

S = tf.TensorSpec
f32 = tf.float32

CASES = []


def dilate_filter(w, rates):
    """`w` ([D, H, W, C, F]) with rates[i] - 1 zeros between its taps in
    spatial dimension i."""
    for axis, rate in enumerate(rates):
        if rate == 1:
            continue
        size = w.shape[axis]
        stacked = tf.stack([w] + [tf.zeros_like(w)] * (rate - 1),
                           axis=axis + 1)
        shape = w.shape.as_list()
        shape[axis] = size * rate
        w = tf.reshape(stacked, shape)
        w = tf.gather(w, tf.range((size - 1) * rate + 1), axis=axis)
    return w


# name, input shape, filter shape, strides (D, H, W), padding, dilations,
# in the CI subset.
CONV3D = [
    ("valid_s1", [1, 5, 6, 7, 2], [3, 3, 3, 2, 4], [1, 1, 1], "VALID",
     [1, 1, 1], False),
    ("same_s1", [2, 5, 5, 5, 3], [3, 3, 3, 3, 5], [1, 1, 1], "SAME",
     [1, 1, 1], True),
    ("same_s2_odd", [1, 7, 7, 7, 2], [3, 3, 3, 2, 3], [2, 2, 2], "SAME",
     [1, 1, 1], False),
    ("same_s2_even", [1, 6, 8, 4, 2], [2, 3, 3, 2, 2], [2, 2, 2], "SAME",
     [1, 1, 1], True),
    ("valid_s2x1x3", [1, 7, 5, 9, 2], [3, 2, 3, 2, 3], [2, 1, 3], "VALID",
     [1, 1, 1], False),
    ("same_s3_k2", [1, 8, 7, 5, 1], [2, 2, 2, 1, 2], [3, 3, 3], "SAME",
     [1, 1, 1], False),
    ("1x1x1_c8", [1, 3, 4, 5, 8], [1, 1, 1, 8, 4], [1, 1, 1], "VALID",
     [1, 1, 1], False),
    ("c1_to_1", [1, 4, 4, 4, 1], [2, 2, 2, 1, 1], [1, 1, 1], "SAME",
     [1, 1, 1], False),
    ("c8_to_6", [1, 4, 5, 4, 8], [3, 3, 3, 8, 6], [1, 1, 1], "SAME",
     [1, 1, 1], False),
    ("kernel_eq_input", [1, 3, 4, 2, 2], [3, 4, 2, 2, 3], [1, 1, 1],
     "VALID", [1, 1, 1], False),
    ("same_dil2", [1, 7, 7, 7, 2], [3, 3, 3, 2, 3], [1, 1, 1], "SAME",
     [2, 2, 2], True),
    ("valid_dil2x3x3", [1, 8, 9, 10, 2], [2, 3, 3, 2, 2], [1, 1, 1],
     "VALID", [2, 3, 3], False),
]
for name, x, w, strides, padding, dilations, ci in CONV3D:
    s5, d5 = [1] + strides + [1], [1] + dilations + [1]
    reference = None
    if dilations != [1, 1, 1]:
        reference = (lambda a, b, s5=s5, padding=padding, dilations=dilations:
                     tf.nn.conv3d(a, dilate_filter(b, dilations), s5,
                                  padding))
    CASES.append(op_case(
        f"conv3d_{name}",
        lambda a, b, s5=s5, padding=padding, d5=d5: tf.raw_ops.Conv3D(
            input=a, filter=b, strides=s5, padding=padding, dilations=d5),
        S(x, f32), S(w, f32), reference=reference, ci=ci))

# name, input shape, window (D, H, W), strides (D, H, W), padding.
POOLS3D = [
    ("k2_s2_valid", [1, 4, 6, 6, 3], [2, 2, 2], [2, 2, 2], "VALID"),
    ("k3_s2_same_odd", [1, 7, 5, 9, 2], [3, 3, 3], [2, 2, 2], "SAME"),
    ("k3_s2_same_even", [1, 6, 8, 4, 2], [3, 3, 3], [2, 2, 2], "SAME"),
    ("k3_s1_same", [2, 4, 5, 5, 2], [3, 3, 3], [1, 1, 1], "SAME"),
    ("k1x2x3_s1x2x1_valid", [1, 3, 6, 7, 2], [1, 2, 3], [1, 2, 1], "VALID"),
    ("k2x3x2_s3_same", [1, 7, 8, 5, 4], [2, 3, 2], [3, 3, 3], "SAME"),
    ("global", [1, 3, 4, 5, 6], [3, 4, 5], [1, 1, 1], "VALID"),
]
for kind, fn in (("max_pool3d", tf.nn.max_pool3d),
                 ("avg_pool3d", tf.nn.avg_pool3d)):
    for name, x, k, s, padding in POOLS3D:
        CASES.append(op_case(
            f"{kind}_{name}",
            lambda a, fn=fn, k=k, s=s, padding=padding: fn(a, k, s, padding),
            S(x, f32), ci=name == "k3_s2_same_odd"))


def test_op(case, backend, e2e):
    e2e.check(case, backend)
