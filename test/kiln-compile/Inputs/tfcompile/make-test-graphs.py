"""Writes three of tfcompile's test graphs as binary GraphDefs.

TensorFlow's build generates test_graph_tfmatmul.pb, test_graph_tfvariable.pb
and test_graph_tfvariable_readonly.pb (tensorflow/compiler/aot/tests); only
their configs are in the corpus. The graphs here have the same nodes:
placeholders x_hold [2,3] and y_hold [3,2] multiplied into x_y_prod; a resource
variable x of shape [1] whose value before and after adding 42 are stacked
into `result`; a scalar variable x read and added to 42 into `result`, beside
an unused variable y.

  python make-test-graphs.py OUT_DIR
"""
import os
import sys

import tensorflow as tf

tf1 = tf.compat.v1


def tfmatmul():
    x = tf1.placeholder(tf.float32, name="x_hold")
    y = tf1.placeholder(tf.float32, name="y_hold")
    tf.linalg.matmul(x, y, name="x_y_prod")


def tfvariable():
    x = tf.Variable([1000.0], name="x", shape=[1])
    before = x.value()
    with tf.control_dependencies([before]):
        after = x.assign_add([42.0])
    tf.stack([before, after], name="result")


def tfvariable_readonly():
    x = tf.Variable(1000.0, name="x")
    tf.Variable(1000.0, name="y")
    before = x.value()
    with tf.control_dependencies([before]):
        after = tf.math.add(before, 42.0)
    tf.identity(after, name="result")


def main(out_dir):
    for build in (tfmatmul, tfvariable, tfvariable_readonly):
        graph = tf.Graph()
        with graph.as_default():
            build()
        path = os.path.join(out_dir, "test_graph_%s.pb" % build.__name__)
        with open(path, "wb") as f:
            f.write(graph.as_graph_def().SerializeToString())


if __name__ == "__main__":
    main(sys.argv[1])
