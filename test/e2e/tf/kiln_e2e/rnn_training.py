"""The tfcompile team's recurrent training steps (issue 19): `dynamic_rnn`
over a BasicRNNCell or LSTMCell computation (kiln_e2e/rnn.py's `Cell`, with
TensorFlow's formulas), with or without a `sequence_length` fed at run time
(no maximum_iterations: `dynamic_rnn` bounds its loop by the number of time
steps itself), a dense layer on the final h, softmax cross-entropy, trained
by GradientDescent or Adam. Built as kiln_e2e/training.py builds the other
experiments: TF1 graph mode with TF1 control flow, resource variables under
variable scopes, `add_shapes=True`, the config generated from the graph.

The gradient of the TF1 loop is a second, backward loop; TensorFlow keeps
the forward loop's intermediate values for it on stacks (StackV2 with
max_size -1, StackPushV2 in the forward loop, StackPopV2 in the backward
one), the ops tfcompile could not compile ("XLA compilation requires a fixed
stack size upper bound")."""

import numpy as np

from kiln_e2e import rnn, training

CLASSES = 3


class RNNExperiment:
    """One recurrent training step: cell kind, sequence_length fed or not,
    optimizer ("sgd" or "adam"), and what the dense layer reads: the final
    h ("state"), or the mean of the outputs over time ("outputs", whose
    gradient reaches the loop through the output TensorArray: a
    TensorArrayGradV3 scattered after the loop and read in it)."""

    def __init__(self, kind, sequence_length, optimizer, reads="state"):
        self.kind = kind
        self.sequence_length = sequence_length
        self.optimizer = optimizer
        self.reads = reads
        self.name = "%s%s%s_%s" % (
            kind, "_seqlen" if sequence_length else "",
            "_outputs" if reads == "outputs" else "", optimizer)


EXPERIMENTS = [
    RNNExperiment("basic_rnn", False, "sgd"),
    RNNExperiment("basic_rnn", True, "sgd"),
    RNNExperiment("basic_rnn", True, "adam"),
    RNNExperiment("lstm", False, "sgd"),
    RNNExperiment("lstm", True, "sgd"),
    RNNExperiment("lstm", True, "adam"),
    RNNExperiment("basic_rnn", True, "sgd", reads="outputs"),
    RNNExperiment("lstm", False, "adam", reads="outputs"),
]


def build(tf, experiment):
    """The experiment's graph. Returns (graph, feed names, step fetch
    name); the feeds are x, lengths (with sequence_length) and labels."""
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default(), rnn.tf1_control_flow(tf), v1.variable_scope(
            v1.get_variable_scope(), use_resource=True):
        v1.set_random_seed(7)
        x = v1.placeholder(tf.float32, [rnn.BATCH, rnn.TIME, rnn.FEATURES],
                           name="x")
        feeds = ["x"]
        lengths = None
        if experiment.sequence_length:
            lengths = v1.placeholder(tf.int32, [rnn.BATCH], name="lengths")
            feeds.append("lengths")
        labels = v1.placeholder(tf.float32, [rnn.BATCH, CLASSES],
                                name="labels")
        feeds.append("labels")
        with v1.variable_scope("rnn"):
            outputs, state = v1.nn.dynamic_rnn(
                rnn.Cell(tf, experiment.kind, rnn.UNITS), x,
                sequence_length=lengths, dtype=tf.float32)
        if experiment.reads == "outputs":
            h = tf.reduce_mean(outputs, axis=1)
        else:
            h = state[1] if isinstance(state, tuple) else state
        with v1.variable_scope("dense"):
            w = v1.get_variable("kernel", [rnn.UNITS, CLASSES])
            b = v1.get_variable("bias", [CLASSES],
                                initializer=v1.zeros_initializer())
        logits = tf.matmul(h, w) + b
        loss = tf.reduce_mean(
            tf.nn.softmax_cross_entropy_with_logits(labels=labels,
                                                    logits=logits),
            name="loss")
        if experiment.optimizer == "adam":
            optimizer = v1.train.AdamOptimizer(0.05)
        else:
            optimizer = v1.train.GradientDescentOptimizer(0.5)
        train = optimizer.minimize(loss, name="train")
        with tf.control_dependencies([train]):
            step = tf.identity(loss, name="train/step_loss")
    return graph, feeds, step.op.name


def step_feeds(graph, feeds, rng):
    """Seeded feeds for one step: x standard normal, one-hot labels, and
    lengths in [1, longest] with one of them `longest`, itself drawn from
    [2, TIME]: `dynamic_rnn` runs its loop `longest` times, so the steps run
    the forward and backward loops for different counts, and stop some
    sequences earlier still."""
    values = {}
    for name in feeds:
        shape = graph.get_tensor_by_name(name + ":0").shape.as_list()
        if name == "labels":
            values[name] = np.eye(shape[1], dtype=np.float32)[
                rng.integers(0, shape[1], shape[0])]
        elif name == "lengths":
            longest = int(rng.integers(2, rnn.TIME + 1))
            lengths = rng.integers(1, longest + 1, shape).astype(np.int32)
            lengths[rng.integers(0, shape[0])] = longest
            values[name] = lengths
        else:
            values[name] = rng.standard_normal(shape).astype(np.float32)
    return values


def run_tensorflow(tf, graph, feeds, fetch, steps, seed=0):
    """As training.run_tensorflow, with `step_feeds`. Returns (initial
    variables, feeds per step, losses, variables after each step)."""
    v1 = tf.compat.v1
    rng = np.random.default_rng(seed)
    with graph.as_default():
        tracked = v1.global_variables()
        names = [v.op.name for v in tracked]
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as session:
        session.run(init)
        initial = dict(zip(names, [np.asarray(v)
                                   for v in session.run(tracked)]))
        feed_steps, losses, after = [], [], []
        for _ in range(steps):
            values = step_feeds(graph, feeds, rng)
            loss = session.run(fetch + ":0", {n + ":0": v
                                              for n, v in values.items()})
            feed_steps.append(values)
            losses.append(float(loss))
            after.append(dict(zip(names, [np.asarray(v)
                                          for v in session.run(tracked)])))
    return initial, feed_steps, losses, after
