"""Per-op conformance: Sum, Mean, Max, Min, Prod, ArgMax, Softmax over axes
(negative, several, all), keep_dims, dtypes and size-1 / empty dims.

Tolerances: the default 1e-4 of the output's scale. Kiln may sum in another
order than Eigen's tree reduction; over at most a few hundred float32 terms
of [-1, 1) that moves the result by ~1e-6 of the scale, far inside it. Prod
gets inputs in [0.5, 1.5) so the product neither vanishes nor overflows."""

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import op_case, uniform  # noqa: E402

S = tf.TensorSpec
f32, i32 = tf.float32, tf.int32

CASES = []

REDUCE = [("sum", tf.reduce_sum), ("mean", tf.reduce_mean),
          ("max", tf.reduce_max), ("min", tf.reduce_min),
          ("prod", tf.reduce_prod)]
AXES = [("axis0", 0), ("axis_neg1", -1), ("axes_0_2", [0, 2]),
        ("all", None), ("axis1", 1)]
near_one = uniform(0.5, 1.5)
for name, fn in REDUCE:
    gen = near_one if name == "prod" else None
    for axes_name, axes in AXES:
        for keep in (False, True):
            keep_name = "_keep" if keep else ""
            CASES.append(op_case(
                f"{name}_f32_{axes_name}{keep_name}",
                lambda x, fn=fn, axes=axes, keep=keep: fn(
                    x, axis=axes, keepdims=keep),
                S([3, 4, 5], f32), inputs=gen,
                ci=(name, axes_name, keep) in (("sum", "axis_neg1", False),
                                               ("max", "axes_0_2", True))))
    CASES.append(op_case(f"{name}_i32_axis1", lambda x, fn=fn: fn(x, axis=1),
                         S([4, 6], i32),
                         inputs=uniform(int_low=-3, int_high=4)))
    CASES.append(op_case(f"{name}_f32_size1_axis",
                         lambda x, fn=fn: fn(x, axis=1), S([4, 1, 3], f32),
                         inputs=gen))
CASES.append(op_case("sum_f32_empty_axis", lambda x: tf.reduce_sum(x, axis=1),
                     S([3, 0, 2], f32)))
CASES.append(op_case("mean_f32_nhwc_spatial_keep",
                     lambda x: tf.reduce_mean(x, axis=[1, 2], keepdims=True),
                     S([2, 7, 7, 8], f32), ci=True))
CASES.append(op_case("sum_f32_long_row", lambda x: tf.reduce_sum(x, axis=-1),
                     S([2, 1000], f32)))
CASES.append(op_case("sum_f32_axis_tensor_input",
                     lambda x, a: tf.reduce_sum(x, axis=a), S([3, 4], f32),
                     S([], i32), inputs=lambda rng, s: [
                         uniform()(rng, s[:1])[0], np.int32(1)]))

for axis in (0, 1, -1):
    CASES.append(op_case(f"argmax_f32_axis{axis}".replace("-", "neg"),
                         lambda x, axis=axis: tf.argmax(x, axis=axis),
                         S([4, 5, 6], f32), ci=axis == -1))
CASES.append(op_case("argmax_f32_out_i32",
                     lambda x: tf.argmax(x, axis=1, output_type=tf.int32),
                     S([3, 7], f32)))
CASES.append(op_case("argmax_i32_ties",
                     lambda x: tf.argmax(x, axis=1), S([4, 6], i32),
                     inputs=uniform(int_low=0, int_high=3)))

CASES.append(op_case("softmax_f32_last", tf.nn.softmax, S([3, 10], f32),
                     inputs=uniform(-5.0, 5.0), ci=True))
CASES.append(op_case("softmax_f32_rank3", tf.nn.softmax, S([2, 3, 4], f32)))
CASES.append(op_case("softmax_f32_axis1",
                     lambda x: tf.nn.softmax(x, axis=1), S([2, 5, 3], f32)))
CASES.append(op_case("softmax_f32_large_logits", tf.nn.softmax,
                     S([2, 6], f32), inputs=uniform(50.0, 100.0)))
CASES.append(op_case("softmax_f32_size1", tf.nn.softmax, S([4, 1], f32)))


def test_op(case, backend, e2e):
    e2e.check(case, backend)
