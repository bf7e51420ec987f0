"""TensorFlow-side helpers: freezing a function to the GraphDef Kiln imports.

Importing this module imports TensorFlow; `kiln` itself never does, and
kiln.compile imports this module only when it is handed a TensorFlow
object."""

import dataclasses
from typing import List

import tensorflow as tf
from tensorflow.python.framework import convert_to_constants

__all__ = ["FrozenGraph", "freeze"]


@dataclasses.dataclass
class FrozenGraph:
    """A function frozen to a GraphDef with its variables as constants."""

    # The GraphDef, serialized.
    graph_def: bytes
    # The fed Placeholder nodes and the fetched tensors ("node:k").
    inputs: List[str]
    outputs: List[str]
    # What the compiled model calls them: the function's argument names,
    # and its output keys (a dict's keys, else output_<i>).
    input_names: List[str]
    output_names: List[str]


def _keras_function(model):
    """A ConcreteFunction calling a Keras model on its declared inputs."""
    specs = [tf.TensorSpec(t.shape, t.dtype, name=f"input_{i}")
             for i, t in enumerate(model.inputs)]

    @tf.function(input_signature=specs)
    def call(*args):
        return model(list(args) if len(args) > 1 else args[0],
                     training=False)

    return call.get_concrete_function()


def concrete_function(function) -> "tf.types.experimental.ConcreteFunction":
    """`function` as a ConcreteFunction: a ConcreteFunction as it is; a
    tf.function (or tf.Module method) through its input signature; a Keras
    model through its `inputs`."""
    if isinstance(function, tf.types.experimental.ConcreteFunction):
        return function
    if hasattr(function, "get_concrete_function"):
        if getattr(function, "input_signature", None) is None:
            raise ValueError(
                "kiln.compile needs the tf.function's input signature: "
                "declare input_signature=[tf.TensorSpec(...)] or pass "
                "f.get_concrete_function(tf.TensorSpec(...))")
        return function.get_concrete_function()
    if getattr(function, "inputs", None) and callable(function):
        return _keras_function(function)
    raise TypeError(f"cannot freeze a {type(function).__name__}: pass a "
                    f"ConcreteFunction, a tf.function with an input "
                    f"signature, or a Keras model with defined inputs")


def _output_names(concrete, count: int) -> List[str]:
    structured = concrete.structured_outputs
    if isinstance(structured, dict):
        # tf.nest flattens a dict in sorted key order, as the outputs are.
        keys = sorted(structured)
        if len(keys) == count:
            return [str(k) for k in keys]
    return [f"output_{i}" for i in range(count)]


def freeze(function) -> FrozenGraph:
    """Freezes `function` (see concrete_function) with TensorFlow's own
    convert_variables_to_constants_v2."""
    concrete = concrete_function(function)
    frozen = convert_to_constants.convert_variables_to_constants_v2(concrete)
    feeds = [t for t in frozen.inputs if t.dtype != tf.resource]
    inputs = [t.name.split(":")[0] for t in feeds]
    outputs = [t.name for t in frozen.outputs]
    return FrozenGraph(
        graph_def=frozen.graph.as_graph_def().SerializeToString(),
        inputs=inputs, outputs=outputs, input_names=list(inputs),
        output_names=_output_names(concrete, len(outputs)))
