"""The compiled model: a callable over NumPy arrays, with its variables, and
the exceptions the package raises."""

import collections
from typing import Dict, List, Optional, Sequence

import numpy as np

__all__ = ["CompiledModel", "CompileError", "Diagnostic", "KilnError",
           "TensorSpec"]


class KilnError(Exception):
    """Base class of the errors Kiln reports (not of input errors, which are
    TypeError and ValueError)."""


Diagnostic = collections.namedtuple(
    "Diagnostic", ["severity", "location", "node", "message", "notes"])
Diagnostic.__doc__ = """One diagnostic of Kiln: `severity` ("error",
"warning", "note", "remark"), `location` as MLIR prints it (`loc("node")`,
`file.mlir:3:7`; empty for the driver's own messages), `node` (the graph node
it is at, or ""), `message`, and `notes` ("location: message" each)."""


class CompileError(KilnError):
    """Kiln could not import, lower, translate or JIT-compile a model.

    `failure` names the step that failed; `diagnostics` lists what Kiln
    reported, in order, with node names and locations."""

    def __init__(self, failure: str, diagnostics: Sequence[Diagnostic]):
        self.failure = failure
        self.diagnostics = list(diagnostics)
        lines = [failure] if failure else []
        for d in self.diagnostics:
            where = f"{d.location}: " if d.location else ""
            lines.append(f"  {where}{d.severity}: {d.message}")
            lines.extend(f"    note: {note}" for note in d.notes)
        super().__init__("\n".join(lines) or "compilation failed")

    @classmethod
    def from_native(cls, failure, diagnostics):
        return cls(failure, [Diagnostic(**d) for d in diagnostics])


TensorSpec = collections.namedtuple("TensorSpec", ["name", "dtype", "shape"])
TensorSpec.__doc__ = """An input, output or variable: its name, its
numpy.dtype, and its shape (a tuple, None for a size known only at run
time)."""


def _spec(name, dtype, shape):
    return TensorSpec(name, np.dtype(dtype),
                      tuple(None if size < 0 else size for size in shape))


def _array(native) -> np.ndarray:
    """An array from the extension's (dtype name, shape, bytearray)."""
    dtype, shape, data = native
    return np.frombuffer(data, dtype=np.dtype(dtype)).reshape(shape)


def _shape_text(shape):
    return "(" + ", ".join("?" if s is None else str(s) for s in shape) + \
        ("," if len(shape) == 1 else "") + ")"


def _as_input(value, spec: TensorSpec, what: str) -> np.ndarray:
    """`value` as a fresh C-order array of the spec's dtype and shape (a
    copy, so the compiled code never writes into the caller's array);
    TypeError or ValueError when it does not fit."""
    if isinstance(value, (np.ndarray, np.generic)):
        if value.dtype != spec.dtype:
            raise TypeError(f"{what} has dtype {value.dtype}; the model "
                            f"expects {spec.dtype}")
        array = np.array(value, order="C", copy=True)
    else:
        try:
            natural = np.asarray(value)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{what} is not an array: {e}") from None
        if natural.dtype == object or not np.can_cast(
                natural.dtype, spec.dtype, casting="same_kind"):
            raise TypeError(f"{what} holds {natural.dtype} values; the "
                            f"model expects {spec.dtype}")
        array = np.array(natural, dtype=spec.dtype, order="C", copy=True)
    if len(array.shape) != len(spec.shape) or any(
            want is not None and want != got
            for want, got in zip(spec.shape, array.shape)):
        raise ValueError(f"{what} has shape {_shape_text(array.shape)}; the "
                         f"model expects {_shape_text(spec.shape)}")
    return array


class CompiledModel:
    """A model compiled for the CPU and loaded into this process.

    Call it with NumPy arrays, positionally in input order or by input name
    (keywords, or one dict): `model(x)`, `model(x=x)`, `model({"x": x})`. It
    returns a dict of arrays by output name. Compilation happened once, in
    kiln.compile; calls only run the compiled code.

    Variables (a graph's VarHandleOp/AssignVariableOp state) persist between
    calls: `read_variable`, `variable_values`, `assign_variable` and
    `reset_variables` reach them."""

    def __init__(self, native, input_names: Optional[List[str]] = None,
                 output_names: Optional[List[str]] = None):
        self._native = native
        self.inputs = [_spec(*s) for s in native.inputs]
        self.outputs = [_spec(*s) for s in native.outputs]
        self.variables = [_spec(*s) for s in native.variables]
        if input_names:
            self.inputs = [s._replace(name=n)
                           for s, n in zip(self.inputs, input_names)]
        if output_names:
            self.outputs = [s._replace(name=n)
                            for s, n in zip(self.outputs, output_names)]

    def __repr__(self):
        def specs(items):
            return ", ".join(f"{s.name}: {s.dtype}{_shape_text(s.shape)}"
                             for s in items)
        return (f"<kiln.CompiledModel ({specs(self.inputs)}) -> "
                f"({specs(self.outputs)})>")

    def _order(self, args, kwargs) -> list:
        if len(args) == 1 and isinstance(args[0], dict) and not kwargs:
            kwargs, args = dict(args[0]), ()
        if len(args) > len(self.inputs):
            raise ValueError(f"the model takes {len(self.inputs)} inputs; "
                             f"got {len(args) + len(kwargs)}")
        values: list = list(args) + [None] * (len(self.inputs) - len(args))
        given = [True] * len(args) + [False] * (len(self.inputs) - len(args))
        index = {spec.name: i for i, spec in enumerate(self.inputs)}
        for name, value in kwargs.items():
            if name not in index:
                known = ", ".join(repr(s.name) for s in self.inputs)
                raise ValueError(f"the model has no input {name!r}; its "
                                 f"inputs are {known}")
            if given[index[name]]:
                raise ValueError(f"input {name!r} is given twice")
            values[index[name]], given[index[name]] = value, True
        missing = [s.name for s, g in zip(self.inputs, given) if not g]
        if missing:
            raise ValueError("missing inputs: " +
                             ", ".join(repr(n) for n in missing))
        return [_as_input(v, s, f"input {s.name!r}")
                for v, s in zip(values, self.inputs)]

    def __call__(self, *args, **kwargs) -> Dict[str, np.ndarray]:
        arrays = self._order(args, kwargs)
        results = self._native.run([(a.dtype.name, a) for a in arrays])
        return {spec.name: _array(result)
                for spec, result in zip(self.outputs, results)}

    def _variable_index(self, name: str) -> int:
        for i, spec in enumerate(self.variables):
            if spec.name == name:
                return i
        known = ", ".join(repr(s.name) for s in self.variables) or "none"
        raise KeyError(f"the model has no variable {name!r}; its variables: "
                       f"{known}")

    def read_variable(self, name: str) -> np.ndarray:
        """A copy of the variable's current value."""
        return _array(self._native.read_variable(self._variable_index(name)))

    def variable_values(self) -> Dict[str, np.ndarray]:
        """Every variable's current value, by name."""
        return {s.name: _array(self._native.read_variable(i))
                for i, s in enumerate(self.variables)}

    def assign_variable(self, name: str, value) -> None:
        """Overwrites the variable (same dtype and shape)."""
        i = self._variable_index(name)
        spec = self.variables[i]
        array = _as_input(value, spec, f"the value of variable {name!r}")
        self._native.write_variable(i, array.dtype.name, array)

    def reset_variables(self) -> None:
        """Puts every variable back to its value before the first call."""
        self._native.reset_variables()

    @property
    def threads(self) -> int:
        """How many threads a call runs on: its parallel loops (the outer
        loops of convolutions, matmuls, pooling and large elementwise ops)
        are split over a pool of Kiln's CPU thread runtime of this many
        threads, the calling one included. 1 (the default) runs everything
        on the calling thread. The results are the same for any count."""
        return self._native.threads

    @threads.setter
    def threads(self, count: int) -> None:
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"threads must be an int; got "
                            f"{type(count).__name__}")
        if not 1 <= count <= 1024:
            raise ValueError(f"threads must be between 1 and 1024; got "
                             f"{count}")
        self._native.threads = count
