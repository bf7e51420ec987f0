"""Writes a TF1 graph as a MetaGraph and a checkpoint with
tf.compat.v1.train.Saver: DIR/model.ckpt.meta, .index and .data-*.

    meta_graph.py DIR [--ref] [VARIABLE...]

saves only the named variables ("layer/w", "layer/b"; default: both), so a
test can leave one out of the checkpoint. --ref makes them TF1 reference
variables (VariableV2) instead of resource variables."""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def main():
    out, names = sys.argv[1], sys.argv[2:]
    ref = "--ref" in names
    names = [n for n in names if n != "--ref"]
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3], name="x")
        w = tf.compat.v1.get_variable("layer/w", use_resource=not ref,
                                      initializer=np.ones([3, 4], np.float32))
        b = tf.compat.v1.get_variable("layer/b", use_resource=not ref,
                                      initializer=np.zeros([4], np.float32))
        tf.nn.relu(tf.matmul(x, w) + b, name="y")
        saved = [v for v in (w, b) if not names or v.op.name in names]
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            tf.compat.v1.train.Saver(var_list=saved).save(
                sess, os.path.join(out, "model.ckpt"))


if __name__ == "__main__":
    main()
