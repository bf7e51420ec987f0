"""Test cases: a tf.function with an input signature, its inputs and its
tolerances; tracing and freezing it into a GraphDef for Kiln; running it in
TensorFlow for the reference outputs."""

import dataclasses
import re
import zlib
from typing import Callable, Optional, Sequence, Union

import numpy as np

# A generator gets a seeded numpy Generator and the function's input specs
# (tf.TensorSpec) and returns one array per input.
InputGenerator = Callable[[np.random.Generator, list], list]

_NAME = re.compile(r"^[A-Za-z0-9_]+$")


@dataclasses.dataclass
class Case:
    """One function to compare, named so `pytest -k NAME` runs it alone."""

    name: str
    # A tf.function with an input_signature (usually a tf.Module's method).
    function: object
    # None: seeded uniform inputs (`uniform()`); a callable: an
    # InputGenerator; a sequence: the fixed arrays themselves.
    inputs: Union[None, InputGenerator, Sequence[np.ndarray]] = None
    rtol: float = 1e-4
    atol: float = 1e-6
    # Why the tolerance is what it is; required when it differs from the
    # default.
    why: str = ""
    # The tf.Module holding `function`, kept alive for its variables.
    module: object = None
    # TensorFlow computes the reference with this function instead of
    # `function` (same arguments), for graphs TensorFlow's CPU kernels do not
    # run, such as Conv2D in NCHW.
    reference: Optional[Callable] = None
    # Part of the CI subset (`--subset=ci`, what ctest runs).
    ci: bool = False

    def __post_init__(self):
        if not _NAME.match(self.name):
            raise ValueError(
                f"case name '{self.name}' must be letters, digits and '_'")
        if (self.rtol, self.atol) != (1e-4, 1e-6) and not self.why:
            raise ValueError(
                f"case '{self.name}' changes the tolerance without saying why")

    @property
    def seed(self) -> int:
        """A seed that depends only on the case's name."""
        return zlib.crc32(self.name.encode())


def uniform(low=-1.0, high=1.0, int_low=-10, int_high=10) -> InputGenerator:
    """Uniform floats in [low, high), integers in [int_low, int_high), bools
    with probability 1/2; the default inputs of every case."""

    def generate(rng: np.random.Generator, specs: list) -> list:
        arrays = []
        for spec in specs:
            dtype = np.dtype(spec.dtype.as_numpy_dtype)
            shape = tuple(spec.shape.as_list())
            if None in shape:
                raise ValueError(
                    f"input '{spec.name}' has unknown sizes {shape}; give "
                    "the case fixed inputs or a generator")
            if dtype == np.bool_:
                arrays.append(rng.integers(0, 2, shape).astype(np.bool_))
            elif np.issubdtype(dtype, np.integer):
                lo = max(int_low, np.iinfo(dtype).min)
                arrays.append(rng.integers(lo, int_high, shape).astype(dtype))
            else:
                arrays.append(rng.uniform(low, high, shape).astype(dtype))
        return arrays

    return generate


def op_case(name: str, fn, *specs, **options) -> Case:
    """A case of one function `fn` over inputs `specs` (tf.TensorSpec),
    wrapped as a one-method tf.Module the way a test module would write it.
    `options` are Case's fields (inputs, rtol, atol, why)."""
    import tensorflow as tf

    class OpModule(tf.Module):
        @tf.function(input_signature=list(specs), autograph=False)
        def __call__(self, *args):
            return fn(*args)

    module = OpModule(name=name)
    return Case(name=name, function=module.__call__, module=module, **options)


def cases_from_module(prefix: str, module, **options) -> list:
    """A case per tf.function of `module` that has an input signature, named
    `<prefix>_<method>`; `options` apply to every case, or map a method's name
    to its own options with `per_method={...}`."""
    import tensorflow as tf

    per_method = options.pop("per_method", {})
    cases = []
    for attr in sorted(dir(type(module))):
        function = getattr(module, attr, None)
        if not isinstance(function, tf.types.experimental.PolymorphicFunction):
            continue
        if function.input_signature is None:
            continue
        method_options = dict(options, **per_method.get(attr, {}))
        cases.append(Case(name=f"{prefix}_{attr.strip('_')}",
                          function=function, module=module, **method_options))
    if not cases:
        raise ValueError(f"{module!r} has no tf.function with an "
                         "input_signature")
    return cases


def make_inputs(case: Case) -> list:
    """The case's input arrays, checked against its signature."""
    specs = list(case.function.input_signature)
    if case.inputs is None or callable(case.inputs):
        generate = case.inputs or uniform()
        arrays = generate(np.random.default_rng(case.seed), specs)
    else:
        arrays = list(case.inputs)
    arrays = [np.asarray(a) for a in arrays]
    if len(arrays) != len(specs):
        raise ValueError(f"case '{case.name}': {len(arrays)} inputs for "
                         f"{len(specs)} arguments")
    for array, spec in zip(arrays, specs):
        if (array.dtype != np.dtype(spec.dtype.as_numpy_dtype) or
                not spec.shape.is_compatible_with(array.shape)):
            raise ValueError(f"case '{case.name}': input {array.dtype} "
                             f"{array.shape} does not fit {spec}")
    return arrays


@dataclasses.dataclass
class FrozenGraph:
    """A case's function as a GraphDef with its feeds and fetches."""

    graph_def: object
    # Placeholder node names, in argument order, and their DT_ type names.
    feeds: list
    feed_types: list
    # Fetched tensors, "node:index", in result order.
    fetches: list


def freeze(case: Case) -> FrozenGraph:
    """Traces the case's function and folds its variables into constants
    (convert_variables_to_constants_v2). Control flow stays functional
    (While, If with their bodies in the graph's function library), as a
    SavedModel or a GraphDef exported from TF2 has it: by default the
    conversion lowers it to TF1 frames (Enter, Exit, Switch, Merge,
    NextIteration) with placeholders for unused loop inputs, which Kiln's
    importer does not take; Keras' recurrent layers loop with While."""
    import tensorflow as tf
    from tensorflow.core.framework import types_pb2
    from tensorflow.python.framework import convert_to_constants

    concrete = case.function.get_concrete_function()
    frozen = convert_to_constants.convert_variables_to_constants_v2(
        concrete, lower_control_flow=False)
    feeds = [t.name.split(":")[0] for t in frozen.inputs
             if t.dtype != tf.resource]
    feed_types = [tf.dtypes.as_dtype(t.dtype).as_datatype_enum
                  for t in frozen.inputs if t.dtype != tf.resource]
    return FrozenGraph(
        graph_def=frozen.graph.as_graph_def(),
        feeds=feeds,
        feed_types=[types_pb2.DataType.Name(t) for t in feed_types],
        fetches=[t.name for t in frozen.outputs])


def run_tensorflow(case: Case, inputs: list) -> list:
    """The reference: the case's function run by TensorFlow."""
    import tensorflow as tf

    function = case.reference or case.function
    results = function(*[tf.constant(a) for a in inputs])
    if isinstance(results, (list, tuple)):
        return [np.asarray(r) for r in results]
    if isinstance(results, dict):
        return [np.asarray(results[k]) for k in sorted(results)]
    return [np.asarray(results)]
