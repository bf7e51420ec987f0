"""Writes TF1 graphs as MetaGraphs with checkpoints, as
tf.compat.v1.train.Saver does (DIR/<variant>/model.ckpt.meta, .index,
.data-*), in one TensorFlow start:

    meta_graph.py DIR

A placeholder x [2,3] feeds y = relu(x @ layer/w + layer/b). Variants:
  all      resource variables, both saved
  partial  only layer/w saved (layer/b missing from the checkpoint)
  ref      TF1 reference variables (VariableV2)
  double   float64 instead of float32
  wide     5 units instead of 4"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def write(out, saved_names=None, ref=False, dtype=np.float32, units=4):
    os.makedirs(out, exist_ok=True)
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(dtype, [2, 3], name="x")
        w = tf.compat.v1.get_variable("layer/w", use_resource=not ref,
                                      initializer=np.ones([3, units], dtype))
        b = tf.compat.v1.get_variable("layer/b", use_resource=not ref,
                                      initializer=np.zeros([units], dtype))
        tf.nn.relu(tf.matmul(x, w) + b, name="y")
        saved = [v for v in (w, b)
                 if saved_names is None or v.op.name in saved_names]
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            tf.compat.v1.train.Saver(var_list=saved).save(
                sess, os.path.join(out, "model.ckpt"))


def main():
    root = sys.argv[1]
    write(os.path.join(root, "all"))
    write(os.path.join(root, "partial"), saved_names=["layer/w"])
    write(os.path.join(root, "ref"), ref=True)
    write(os.path.join(root, "double"), dtype=np.float64)
    write(os.path.join(root, "wide"), units=5)


if __name__ == "__main__":
    main()
