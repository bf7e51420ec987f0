"""TF1 recurrent graphs over tensor arrays (issue 19): `dynamic_rnn` over
the three TF1 cells and a `tf.while_loop` that writes a TensorArray, built as
TF1 programs build them (graph mode, TF1 control flow: Enter/Exit/Switch/
Merge loops and TensorArrayV3 ops, `add_shapes=True`).

The TF1 cell classes (`tf.compat.v1.nn.rnn_cell.*`) live in `tf-keras`,
which the e2e venv does not install (its pin names the `tensorflow` package);
`Cell` computes what `BasicRNNCell`, `GRUCell` and `LSTMCell` (no peepholes,
no projection, `forget_bias` 1) compute, with their variables (`kernel`,
`bias`, GRU's `gates/` and `candidate/`) under the cell's variable scope, and
`dynamic_rnn` itself is TensorFlow's.

TF1 control flow is a process-wide switch in TensorFlow 2
(`disable_control_flow_v2`); `tf1_control_flow` turns it on only while a
graph is built, so other tests keep TensorFlow 2's loops."""

import contextlib

import numpy as np

# Sizes: small, so that a case compiles and runs in about a second.
TIME, BATCH, FEATURES, UNITS = 6, 3, 4, 5


@contextlib.contextmanager
def tf1_control_flow(tf):
    """TF1 loops (Enter/Exit/NextIteration, TensorArrayV3) while building."""
    v1 = tf.compat.v1
    was_v2 = tf.compat.v1.control_flow_v2_enabled()
    v1.disable_control_flow_v2()
    try:
        yield
    finally:
        if was_v2:
            v1.enable_control_flow_v2()


class Cell:
    """A TF1 RNN cell: kind "basic_rnn", "gru" or "lstm" (LSTM state as the
    tuple (c, h), what LSTMStateTuple is)."""

    def __init__(self, tf, kind, units):
        self.tf, self.kind, self.units = tf, kind, units

    @property
    def state_size(self):
        return (self.units, self.units) if self.kind == "lstm" else self.units

    @property
    def output_size(self):
        return self.units

    def zero_state(self, batch_size, dtype):
        zero = self.tf.zeros([batch_size, self.units], dtype)
        return (zero, zero) if self.kind == "lstm" else zero

    def _dense(self, name, inputs, units, bias=0.0):
        tf, v1 = self.tf, self.tf.compat.v1
        with v1.variable_scope(name, reuse=v1.AUTO_REUSE):
            kernel = v1.get_variable(
                "kernel", [inputs.shape[1], units],
                initializer=v1.glorot_uniform_initializer(seed=1))
            b = v1.get_variable(
                "bias", [units],
                initializer=v1.random_uniform_initializer(-0.5, 0.5, seed=2))
        return tf.matmul(inputs, kernel) + b + bias

    def __call__(self, x, state, scope=None):
        tf, v1 = self.tf, self.tf.compat.v1
        with v1.variable_scope(scope or self.kind + "_cell",
                               reuse=v1.AUTO_REUSE):
            if self.kind == "basic_rnn":
                h = tf.tanh(self._dense("dense", tf.concat([x, state], 1),
                                        self.units))
                return h, h
            if self.kind == "gru":
                gates = tf.sigmoid(self._dense(
                    "gates", tf.concat([x, state], 1), 2 * self.units,
                    bias=1.0))
                r, u = tf.split(gates, 2, 1)
                c = tf.tanh(self._dense("candidate",
                                        tf.concat([x, r * state], 1),
                                        self.units))
                h = u * state + (1 - u) * c
                return h, h
            c, h = state
            i, j, f, o = tf.split(
                self._dense("dense", tf.concat([x, h], 1), 4 * self.units),
                4, 1)
            c = c * tf.sigmoid(f + 1.0) + tf.sigmoid(i) * tf.tanh(j)
            h = tf.tanh(c) * tf.sigmoid(o)
            return h, (c, h)


def dynamic_rnn(tf, kind, sequence_length=False, time_major=False):
    """`dynamic_rnn` over a cell of `kind`. Returns (graph, feeds, fetches):
    feeds `x` ([batch, time, features], or time-major) and, with
    `sequence_length`, `lengths` ([batch] int32, fed at run time); fetches
    the outputs and the final state (h; LSTM: c and h)."""
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default(), tf1_control_flow(tf):
        shape = [TIME, BATCH, FEATURES] if time_major else \
            [BATCH, TIME, FEATURES]
        x = v1.placeholder(tf.float32, shape, name="x")
        feeds = ["x"]
        lengths = None
        if sequence_length:
            lengths = v1.placeholder(tf.int32, [BATCH], name="lengths")
            feeds.append("lengths")
        with v1.variable_scope("rnn"):
            outputs, state = v1.nn.dynamic_rnn(
                Cell(tf, kind, UNITS), x, sequence_length=lengths,
                dtype=tf.float32, time_major=time_major)
        fetches = [tf.identity(outputs, name="outputs")]
        states = state if isinstance(state, tuple) else (state,)
        for i, s in enumerate(states):
            fetches.append(tf.identity(s, name="state_%d" % i))
    return graph, feeds, [f.op.name for f in fetches]


def while_tensor_array(tf):
    """A `tf.while_loop` that unstacks `x` ([TIME, FEATURES]) into one
    TensorArray, writes the running sum of its rows scaled by the step into
    another (of TIME + 2 elements; the last two never written, read as
    zeros), and stacks it; also gathers elements [TIME - 1, 0] of it (hence
    clear_after_read=False) and fetches its size."""
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default(), tf1_control_flow(tf):
        x = v1.placeholder(tf.float32, [TIME, FEATURES], name="x")
        rows = tf.TensorArray(tf.float32, size=TIME).unstack(x)
        out = tf.TensorArray(tf.float32, size=TIME + 2,
                             element_shape=[FEATURES],
                             clear_after_read=False)

        def body(i, acc, ta):
            acc = acc + rows.read(i)
            return i + 1, acc, ta.write(i, acc * tf.cast(i + 1, tf.float32))

        _, _, out = tf.while_loop(
            lambda i, acc, ta: i < TIME, body,
            [tf.constant(0), tf.zeros([FEATURES]), out])
        stacked = tf.identity(out.stack(), name="stacked")
        picked = tf.identity(out.gather([TIME - 1, 0]), name="picked")
        size = tf.identity(out.size(), name="size")
    return graph, ["x"], [stacked.op.name, picked.op.name, size.op.name]


def freeze(tf, graph, fetches, seed=0):
    """The graph with its variables initialized (seeded) and frozen to
    constants, as `add_shapes=True` GraphDef."""
    v1 = tf.compat.v1
    with graph.as_default():
        v1.set_random_seed(seed)
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as session:
        session.run(init)
        frozen = v1.graph_util.convert_variables_to_constants(
            session, graph.as_graph_def(add_shapes=True), fetches)
    return frozen


def run_graph_def(tf, graph_def, feeds, fetches):
    """Runs a frozen GraphDef in TensorFlow. `feeds`: {name: array}."""
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        v1.import_graph_def(graph_def, name="")
    with v1.Session(graph=graph) as session:
        return session.run([f + ":0" for f in fetches],
                           {n + ":0": v for n, v in feeds.items()})


def inputs(graph_def, feeds, seed=0):
    """Seeded feeds: x standard normal; lengths in [1, TIME], one of them
    TIME and one 1, so that the loop runs to the end and stops early in the
    same batch."""
    rng = np.random.default_rng(seed)
    nodes = {n.name: n for n in graph_def.node}
    values = {}
    for name in feeds:
        dims = [d.size for d in nodes[name].attr["shape"].shape.dim]
        if name == "lengths":
            lengths = rng.integers(1, TIME + 1, dims).astype(np.int32)
            lengths[0], lengths[-1] = TIME, 1
            values[name] = lengths
        else:
            values[name] = rng.standard_normal(dims).astype(np.float32)
    return values


def classifier(tf, kind, classes=3):
    """The tfcompile team's RNN experiment in inference: `dynamic_rnn` over
    a cell of `kind` with the sequence length fed at run time (no
    maximum_iterations), a dense layer on the final h, resource variables
    under variable scopes. Returns (graph, feeds, fetch node name)."""
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default(), tf1_control_flow(tf):
        x = v1.placeholder(tf.float32, [BATCH, TIME, FEATURES], name="x")
        lengths = v1.placeholder(tf.int32, [BATCH], name="lengths")
        with v1.variable_scope("rnn"):
            _, state = v1.nn.dynamic_rnn(
                Cell(tf, kind, UNITS), x, sequence_length=lengths,
                dtype=tf.float32)
        h = state[1] if isinstance(state, tuple) else state
        with v1.variable_scope("dense"):
            w = v1.get_variable("kernel", [UNITS, classes],
                                initializer=v1.glorot_uniform_initializer(
                                    seed=3))
            b = v1.get_variable("bias", [classes],
                                initializer=v1.random_uniform_initializer(
                                    -0.5, 0.5, seed=4))
        logits = tf.identity(tf.matmul(h, w) + b, name="logits")
    return graph, ["x", "lengths"], logits.op.name
