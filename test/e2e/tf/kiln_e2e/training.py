"""The tfcompile team's training-step experiments (issue 19), built the way
they built them: TF1 graph mode (`tf.compat.v1`), variable scopes (node names
with `/`), `as_graph_def(add_shapes=True)`, and a tfcompile config generated
from the graph (every Placeholder a feed, the step's loss the fetch, every
variable the step uses a `variable` entry).

A training step is fetched as TF1 programs fetch it: the loss, through an
Identity (`<name>/step_loss`) that has a control edge from the optimizer's
train op, so running the fetch runs the update. Variables are resource
variables (`VarHandleOp`), what `tf.compat.v1.get_variable` makes under
TensorFlow 2; their initial values are given to the compiled program through
the header's `var_<name>_data()`, as tfcompile's users did.

`run_tensorflow` runs the same step in TensorFlow and records, per step, the
fetched loss and every variable after the update."""

import numpy as np

# Layer sizes: small, so that compiling and running a step takes
# milliseconds; the arithmetic is the same at any size.
BATCH, FEATURES, HIDDEN, CLASSES = 4, 6, 5, 3
IMAGE, CHANNELS, FILTERS = 6, 2, 4


class Experiment:
    """One training step: name, model kind, optimizer, batch-norm variant."""

    def __init__(self, name, model, optimizer, batch_norm=None, ref=False):
        self.name = name
        # TF1 reference variables (VariableV2) instead of resource ones.
        self.ref = ref
        self.model = model  # "fc" or "cnn"
        self.optimizer = optimizer  # "sgd" or "adam"
        # None, "train", "inference", or "keras" (Keras BatchNormalization
        # in training mode, its updates captured).
        self.batch_norm = batch_norm


EXPERIMENTS = [
    Experiment("fc_sgd", "fc", "sgd"),
    Experiment("fc_adam", "fc", "adam"),
    Experiment("cnn_fc_sgd", "cnn", "sgd"),
    Experiment("cnn_fc_adam", "cnn", "adam"),
    Experiment("fc_bn_train_sgd", "fc", "sgd", "train"),
    Experiment("fc_bn_train_adam", "fc", "adam", "train"),
    Experiment("cnn_fc_bn_train_sgd", "cnn", "sgd", "train"),
    Experiment("cnn_fc_bn_train_adam", "cnn", "adam", "train"),
    Experiment("fc_bn_inference_sgd", "fc", "sgd", "inference"),
    Experiment("cnn_fc_bn_inference_sgd", "cnn", "sgd", "inference"),
    Experiment("fc_sgd_ref", "fc", "sgd", ref=True),
    Experiment("fc_adam_ref", "fc", "adam", ref=True),
    Experiment("fc_keras_bn_sgd", "fc", "sgd", "keras"),
]

# The collection holding the Keras layers' variables, which TF1's
# global_variables() does not list.
KERAS_VARIABLES = "kiln_keras_variables"


def _keras_batch_norm(tf, v1, h):
    """Keras `BatchNormalization` called with training=True on a TF1 graph,
    its updates captured as tfcompile's users captured them: the moving
    statistics' assignments the call adds to the graph go to UPDATE_OPS,
    which the train op depends on."""
    import keras

    graph = h.graph
    before = {op.name for op in graph.get_operations()}
    layer = keras.layers.BatchNormalization(momentum=0.99, epsilon=1e-3,
                                            name="keras_bn")
    y = layer(h, training=True)
    for op in graph.get_operations():
        if op.name in before or op.type != "AssignVariableOp":
            continue
        if op.name.endswith("/Assign"):  # the variables' initializers
            v1.add_to_collection(KERAS_VARIABLES + "_init", op)
        else:
            v1.add_to_collection(v1.GraphKeys.UPDATE_OPS, op)
    for weight in layer.weights:
        v1.add_to_collection(KERAS_VARIABLES, weight.value)
    return y


def _batch_norm(tf, v1, h, mode, axes):
    """Batch normalization over `axes` with gamma, beta and moving
    statistics, as `tf.compat.v1.layers.batch_normalization` builds it:
    fused (FusedBatchNormV3) for 4-D inputs, moments for 2-D ones; with
    training=True the moving statistics are updated by the step."""
    channels = h.shape[-1]
    gamma = v1.get_variable("gamma", [channels],
                            initializer=v1.ones_initializer())
    beta = v1.get_variable("beta", [channels],
                           initializer=v1.zeros_initializer())
    moving_mean = v1.get_variable("moving_mean", [channels],
                                  initializer=v1.zeros_initializer(),
                                  trainable=False)
    moving_var = v1.get_variable("moving_variance", [channels],
                                 initializer=v1.ones_initializer(),
                                 trainable=False)
    momentum, eps = 0.99, 1e-3
    if mode == "inference":
        if len(axes) == 3:
            y, _, _ = v1.nn.fused_batch_norm(h, gamma, beta, moving_mean,
                                             moving_var, epsilon=eps,
                                             is_training=False)
            return y
        return tf.nn.batch_normalization(h, moving_mean, moving_var, beta,
                                         gamma, eps)
    if len(axes) == 3:
        y, mean, var = v1.nn.fused_batch_norm(h, gamma, beta, epsilon=eps,
                                              is_training=True)
    else:
        mean, var = tf.nn.moments(h, axes)
        y = tf.nn.batch_normalization(h, mean, var, beta, gamma, eps)
    for moving, value in ((moving_mean, mean), (moving_var, var)):
        update = v1.assign_sub(moving, (moving - value) * (1 - momentum))
        v1.add_to_collection(v1.GraphKeys.UPDATE_OPS, update)
    return y


def build(tf, experiment):
    """The experiment's graph. Returns (graph, feed names, step fetch name)."""
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default(), v1.variable_scope(
            v1.get_variable_scope(), use_resource=not experiment.ref):
        v1.set_random_seed(7)
        if experiment.model == "cnn":
            x = v1.placeholder(tf.float32, [BATCH, IMAGE, IMAGE, CHANNELS],
                               name="x")
            with v1.variable_scope("conv1"):
                kernel = v1.get_variable("kernel",
                                         [3, 3, CHANNELS, FILTERS])
                h = tf.nn.conv2d(x, kernel, 1, "SAME")
                if experiment.batch_norm:
                    h = _batch_norm(tf, v1, h, experiment.batch_norm,
                                    [0, 1, 2])
                else:
                    bias = v1.get_variable("bias", [FILTERS],
                                           initializer=v1.zeros_initializer())
                    h = tf.nn.bias_add(h, bias)
                h = tf.nn.max_pool2d(tf.nn.relu(h), 2, 2, "VALID")
            h = tf.reshape(h, [BATCH, -1])
        else:
            x = v1.placeholder(tf.float32, [BATCH, FEATURES], name="x")
            h = x
        labels = v1.placeholder(tf.float32, [BATCH, CLASSES], name="labels")
        with v1.variable_scope("dense1"):
            w = v1.get_variable("kernel", [h.shape[1], HIDDEN])
            h = tf.matmul(h, w)
            if experiment.batch_norm == "keras":
                h = _keras_batch_norm(tf, v1, h)
            elif experiment.batch_norm == "train":
                # No bias before a training batch norm: the normalization
                # cancels it, so its gradient is zero up to rounding, and
                # Adam, which divides by the gradient's magnitude, would
                # turn either side's rounding into a full step.
                h = _batch_norm(tf, v1, h, experiment.batch_norm, [0])
            else:
                b = v1.get_variable("bias", [HIDDEN],
                                    initializer=v1.zeros_initializer())
                h = h + b
                if experiment.batch_norm:
                    h = _batch_norm(tf, v1, h, experiment.batch_norm, [0])
            h = tf.nn.relu(h)
        with v1.variable_scope("dense2"):
            w = v1.get_variable("kernel", [HIDDEN, CLASSES])
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
        with tf.control_dependencies(v1.get_collection(
                v1.GraphKeys.UPDATE_OPS)):
            train = optimizer.minimize(loss, name="train")
        with tf.control_dependencies([train]):
            step = tf.identity(loss, name="train/step_loss")
    return graph, ["x", "labels"], step.op.name


def graph_def(tf, graph):
    return graph.as_graph_def(add_shapes=True)


def config_text(graph_def, feeds, fetch, tf):
    """The tfcompile config generated from the graph: the feeds with their
    shapes, the fetch, and every variable node (VarHandleOp, or VariableV2 for
    reference variables) as a variable, readonly when the step never
    assigns it."""
    nodes = {n.name: n for n in graph_def.node}
    assigned = set()
    for n in graph_def.node:
        if n.op.startswith("ResourceApply") or n.op.startswith("Apply") or \
                n.op.startswith("Assign"):
            assigned.add(n.input[0].split(":")[0])
    lines = []
    for name in feeds:
        dims = " ".join("dim { size: %d }" % d.size
                        for d in nodes[name].attr["shape"].shape.dim)
        lines.append('feed {\n  id { node_name: "%s" }\n  shape { %s }\n'
                     '  name: "%s"\n}' % (name, dims, name))
    lines.append('fetch {\n  id { node_name: "%s" }\n  name: "loss"\n}'
                 % fetch)
    for n in graph_def.node:
        if n.op not in ("VarHandleOp", "VariableV2"):
            continue
        dims = " ".join("dim { size: %d }" % d.size
                        for d in n.attr["shape"].shape.dim)
        readonly = "" if n.name in assigned else "\n  readonly: true"
        lines.append('variable {\n  node_name: "%s"\n  shape { %s }\n'
                     '  type: DT_FLOAT%s\n}' % (n.name, dims, readonly))
    return "\n".join(lines) + "\n"


def variables(graph_def):
    """The variable (VarHandleOp, VariableV2) node names, in graph order."""
    return [n.name for n in graph_def.node
            if n.op in ("VarHandleOp", "VariableV2")]


def run_tensorflow(tf, graph, feeds, fetch, steps, seed=0):
    """Initializes the variables, runs `steps` steps on seeded feeds.
    Returns (initial variables {name: array}, feeds per step [{name:
    array}], losses [float], variables per step [{name: array}])."""
    v1 = tf.compat.v1
    rng = np.random.default_rng(seed)
    with graph.as_default():
        tracked = v1.global_variables() + v1.get_collection(KERAS_VARIABLES)
        names = [v.op.name for v in tracked]
        init = v1.global_variables_initializer()
        keras_init = v1.get_collection(KERAS_VARIABLES + "_init")
    with v1.Session(graph=graph) as session:
        session.run(init)
        if keras_init:
            session.run(keras_init)
        values = session.run(tracked)
        initial = dict(zip(names, [np.asarray(v) for v in values]))
        feed_steps, losses, after = [], [], []
        for _ in range(steps):
            step_feeds = {}
            for name in feeds:
                shape = graph.get_tensor_by_name(name + ":0").shape.as_list()
                if name == "labels":
                    value = np.eye(shape[1], dtype=np.float32)[
                        rng.integers(0, shape[1], shape[0])]
                else:
                    value = rng.standard_normal(shape).astype(np.float32)
                step_feeds[name] = value
            loss = session.run(fetch + ":0", {n + ":0": v for n, v in
                                              step_feeds.items()})
            values = session.run(tracked)
            feed_steps.append(step_feeds)
            losses.append(float(loss))
            after.append(dict(zip(names, [np.asarray(v) for v in values])))
    return initial, feed_steps, losses, after
