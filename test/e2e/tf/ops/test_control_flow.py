"""Functional control flow: tf.cond (If / StatelessIf), tf.switch_case
(Case) and tf.while_loop (While), with values captured from outside the
branches and bodies, trip counts and predicates fed at run time, and
nesting. The frozen GraphDef keeps them functional (their branches and
bodies in the function library); Kiln raises them to region ops, and the
round trips export them as functional ops again. Default tolerance: the
arithmetic is a few elementwise ops per iteration."""

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import op_case  # noqa: E402

S = tf.TensorSpec
f32, i32 = tf.float32, tf.int32


def _cond(x, p):
    scale = tf.constant(2.5)
    return tf.cond(p, lambda: x * scale + 1.0, lambda: tf.exp(-x))


def _cond_stateless_two_results(x, y):
    return tf.cond(tf.reduce_sum(x) > tf.reduce_sum(y),
                   lambda: (x - y, tf.reduce_max(x)),
                   lambda: (y - x, tf.reduce_max(y)))


def _switch(x, k):
    return tf.switch_case(k, [lambda: x + 1.0, lambda: x * x,
                              lambda: tf.nn.relu(x)])


def _while_runtime_count(x, n):
    bias = tf.constant([0.5, -0.25, 1.0])
    _, y = tf.while_loop(lambda i, y: i < n,
                         lambda i, y: (i + 1, tf.tanh(y * 1.1 + bias)),
                         (tf.constant(0), x))
    return y


def _cond_in_while(x, n):
    def body(i, y):
        y = tf.cond(i % 2 == 0, lambda: y + x, lambda: y * 0.5)
        return i + 1, y
    return tf.while_loop(lambda i, y: i < n, body,
                         (tf.constant(0), tf.zeros_like(x)))[1]


CASES = [
    op_case("cond_captures_true", _cond, S([4], f32), S([], tf.bool),
            inputs=[np.linspace(-1, 1, 4, dtype=np.float32), np.bool_(True)],
            ci=True),
    op_case("cond_captures_false", _cond, S([4], f32), S([], tf.bool),
            inputs=[np.linspace(-1, 1, 4, dtype=np.float32),
                    np.bool_(False)]),
    op_case("cond_two_results", _cond_stateless_two_results,
            S([2, 3], f32), S([2, 3], f32)),
    op_case("switch_case_1", _switch, S([5], f32), S([], i32),
            inputs=[np.linspace(-2, 2, 5, dtype=np.float32), np.int32(1)],
            ci=True),
    # An index past the last branch runs the last one.
    op_case("switch_case_out_of_range", _switch, S([5], f32), S([], i32),
            inputs=[np.linspace(-2, 2, 5, dtype=np.float32), np.int32(7)]),
    op_case("while_runtime_count", _while_runtime_count, S([3], f32),
            S([], i32), inputs=[np.array([0.1, -0.7, 0.3], np.float32),
                                np.int32(5)], ci=True),
    op_case("while_zero_trips", _while_runtime_count, S([3], f32),
            S([], i32), inputs=[np.array([0.1, -0.7, 0.3], np.float32),
                                np.int32(0)]),
    op_case("cond_in_while", _cond_in_while, S([2, 2], f32), S([], i32),
            inputs=[np.array([[1, 2], [3, 4]], np.float32), np.int32(5)]),
]


def test_op(case, backend, e2e):
    e2e.check(case, backend)
