"""Stateful recurrent models stepped one sample per call (issue 19), as
SavedModels with two signatures: `init` assigns the zero state, `step` takes
one sample ([1, FEATURES]), updates the state and returns the output
([1, OUTPUTS]). `kiln-compile --entries=init,step` makes them one object.

- `keras_model(tf, kind)`: a Keras 3 `GRU` or `LSTM` layer with
  `stateful=True` (its state lives in variables) and a `Dense` head, in a
  `tf.Module` whose `init` calls the layer's `reset_state()`; the
  reference steps the Keras model itself, one sample per call.
- `tf1_model(tf, kind)`: the same cells as TF1 graphs (`kiln_e2e.rnn.Cell`,
  what `GRUCell` and `LSTMCell` compute; the TF1 cell classes need tf-keras)
  with the state in resource variables, saved with
  `tf.compat.v1.saved_model.Builder` and two SignatureDefs; the reference
  runs the graph's init and step in a `Session`.

Each returns (saved model directory, reference), where
`reference(samples, resets)` gives the outputs of stepping TensorFlow over
`samples` ([steps, FEATURES]), running init before step 0 and before each
step in `resets`."""

import numpy as np

from kiln_e2e.rnn import Cell

FEATURES, UNITS, OUTPUTS = 4, 6, 3


def keras_model(tf, kind, path, seed=3):
    keras = tf.keras
    keras.utils.set_random_seed(seed)
    layer_cls = {"gru": keras.layers.GRU, "lstm": keras.layers.LSTM}[kind]
    inputs = keras.Input(batch_shape=(1, 1, FEATURES))
    layer = layer_cls(UNITS, stateful=True)
    model = keras.Model(inputs, keras.layers.Dense(OUTPUTS)(layer(inputs)))

    class Stateful(tf.Module):
        def __init__(self):
            super().__init__()
            self.model, self.layer = model, layer

        @tf.function(input_signature=[])
        def init(self):
            self.layer.reset_state()
            return {"done": tf.constant(0)}

        @tf.function(input_signature=[tf.TensorSpec([1, FEATURES],
                                                    tf.float32)])
        def step(self, x):
            return {"y": self.model(tf.reshape(x, [1, 1, FEATURES]))}

    module = Stateful()
    tf.saved_model.save(module, path,
                        signatures={"init": module.init, "step": module.step})

    def reference(samples, resets):
        outputs = []
        for t, sample in enumerate(samples):
            if t == 0 or t in resets:
                layer.reset_state()
            outputs.append(model(sample.reshape(1, 1, FEATURES)).numpy()[0])
        return np.array(outputs)

    return path, reference


def tf1_model(tf, kind, path, seed=5):
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        v1.set_random_seed(seed)
        x = v1.placeholder(tf.float32, [1, FEATURES], name="x")
        cell = Cell(tf, kind, UNITS)
        names = ["c", "h"] if kind == "lstm" else ["h"]
        with v1.variable_scope("state"):
            state_vars = [v1.get_variable(
                n, [1, UNITS], initializer=v1.zeros_initializer(),
                trainable=False, use_resource=True) for n in names]
        state = [v.read_value() for v in state_vars]
        with v1.variable_scope("rnn"):
            h, new_state = cell(x, tuple(state) if kind == "lstm"
                                else state[0])
        new_state = new_state if kind == "lstm" else (new_state,)
        with v1.variable_scope("head"):
            w = v1.get_variable("kernel", [UNITS, OUTPUTS], use_resource=True)
            b = v1.get_variable("bias", [OUTPUTS], use_resource=True,
                                initializer=v1.random_uniform_initializer(
                                    -0.5, 0.5))
        updates = [v.assign(s) for v, s in zip(state_vars, new_state)]
        with tf.control_dependencies(updates):
            y = tf.identity(tf.matmul(h, w) + b, name="y")
        resets = [v.assign(tf.zeros([1, UNITS])) for v in state_vars]
        with tf.control_dependencies(resets):
            done = tf.identity(tf.constant(0), name="done")
        info = v1.saved_model.utils.build_tensor_info
        signatures = {
            "init": v1.saved_model.signature_def_utils.build_signature_def(
                outputs={"done": info(done)}),
            "step": v1.saved_model.signature_def_utils.build_signature_def(
                inputs={"x": info(x)}, outputs={"y": info(y)}),
        }
        session = v1.Session(graph=graph)
        session.run(v1.global_variables_initializer())
        builder = v1.saved_model.Builder(path)
        builder.add_meta_graph_and_variables(
            session, ["serve"], signature_def_map=signatures)
        builder.save()

    def reference(samples, resets):
        outputs = []
        for t, sample in enumerate(samples):
            if t == 0 or t in resets:
                session.run(done)
            outputs.append(session.run(y, {x: sample.reshape(1, FEATURES)})[0])
        return np.array(outputs)

    return path, reference
