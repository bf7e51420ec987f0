"""TF.js-only ops rewritten into TensorFlow's, so that TensorFlow can run a
TF.js graph model (kiln_e2e/npm.py).

TF.js's converter fuses ops TensorFlow has no kernel for: a depthwise
convolution with its bias and activation (`FusedDepthwiseConv2dNative`), a
PReLU activation (`Prelu`, alone or as the activation of `_FusedConv2D` and
`_FusedMatMul`). Each is replaced by the plain TensorFlow ops it fuses, as
TF.js's kernels define them (tfjs-converter's `fusedDepthwiseConv2d`,
`fusedConv2d`, `fusedMatMul` and `prelu`):

    fused op    = activation(BiasAdd(op(x, w), args[0]))  (each part optional)
    prelu(x, a) = Relu(x) + a * Minimum(x, 0)
    leakyrelu   = LeakyRelu(x, alpha = leakyrelu_alpha)

`fused_ops` lists "BiasAdd" (reading args[0]) and then the activation
("Relu", "Relu6", "Elu", "LeakyRelu", "Sigmoid", "Tanh" or "Prelu", whose
alpha is the next argument). The last op of each replacement keeps the
fused node's name, so its consumers are unchanged. This is independent of
Kiln's own decomposition (tf-decompose-fused-ops), which is what the
comparison tests."""

import copy

_ACTIVATIONS = {"relu": "Relu", "relu6": "Relu6", "elu": "Elu",
                "leakyrelu": "LeakyRelu", "sigmoid": "Sigmoid",
                "tanh": "Tanh"}

# The TF.js fused op -> the TensorFlow op it starts with and the attributes
# that op keeps.
_BASE = {
    "FusedDepthwiseConv2dNative": ("DepthwiseConv2dNative",
                                   ("T", "strides", "padding", "dilations",
                                    "data_format", "explicit_paddings")),
    "_FusedConv2D": ("Conv2D", ("T", "strides", "padding", "dilations",
                                "data_format", "explicit_paddings",
                                "use_cudnn_on_gpu")),
    "_FusedMatMul": ("MatMul", ("T", "transpose_a", "transpose_b")),
}


def _needs_rewrite(node) -> bool:
    if node.op in ("Prelu", "FusedDepthwiseConv2dNative"):
        return True
    if node.op in _BASE:
        return any(op.decode().lower() == "prelu"
                   for op in node.attr["fused_ops"].list.s)
    return False


def _node(graph_def, name, op, inputs, dtype_attr):
    node = graph_def.node.add()
    node.name, node.op = name, op
    node.input.extend(inputs)
    node.attr["T"].CopyFrom(dtype_attr)
    return node


def _prelu(graph_def, name, x, alpha, dtype_attr, device):
    """Relu(x) + alpha * Minimum(x, 0), the last node named `name`."""
    zero = graph_def.node.add()
    zero.name, zero.op, zero.device = f"{name}/prelu_zero", "Const", device
    zero.attr["dtype"].type = dtype_attr.type
    zero.attr["value"].tensor.dtype = dtype_attr.type
    zero.attr["value"].tensor.tensor_shape.SetInParent()
    zero.attr["value"].tensor.float_val.append(0.0)
    relu = _node(graph_def, f"{name}/prelu_relu", "Relu", [x], dtype_attr)
    negative = _node(graph_def, f"{name}/prelu_negative", "Minimum",
                     [x, zero.name], dtype_attr)
    scaled = _node(graph_def, f"{name}/prelu_scaled", "Mul",
                   [alpha, negative.name], dtype_attr)
    _node(graph_def, name, "AddV2", [relu.name, scaled.name], dtype_attr)


def _float32():
    from tensorflow.core.framework import attr_value_pb2, types_pb2
    return attr_value_pb2.AttrValue(type=types_pb2.DT_FLOAT)


def rewrite_tfjs_only_ops(graph_def) -> list:
    """Rewrites, in place, every node of `graph_def` TensorFlow cannot run
    because only TF.js defines it; returns the rewritten nodes' op types
    (empty when the graph is TensorFlow's already). ValueError for a fused
    op this does not know."""
    rewritten = []
    originals = [n for n in graph_def.node if _needs_rewrite(n)]
    for original in originals:
        node = copy.deepcopy(original)
        graph_def.node.remove(original)
        rewritten.append(node.op)
        data = [i for i in node.input if not i.startswith("^")]
        control = [i for i in node.input if i.startswith("^")]
        # TF.js's Prelu has no `T`; its models compute in float32.
        dtype_attr = copy.deepcopy(node.attr["T"]) if "T" in node.attr \
            else _float32()
        if node.op == "Prelu":
            _prelu(graph_def, node.name, data[0], data[1], dtype_attr,
                   node.device)
            continue
        base_op, kept = _BASE[node.op]
        fused = [op.decode().lower() for op in node.attr["fused_ops"].list.s]
        args = data[2:]
        steps = []  # (op, extra input or None)
        if fused and fused[0] == "biasadd":
            steps.append(("BiasAdd", args.pop(0)))
            fused = fused[1:]
        if len(fused) > 1:
            raise ValueError(f"{node.name}: fused_ops {fused} not supported")
        if fused:
            if fused[0] == "prelu":
                steps.append(("Prelu", args.pop(0)))
            elif fused[0] in _ACTIVATIONS:
                steps.append((_ACTIVATIONS[fused[0]], None))
            else:
                raise ValueError(f"{node.name}: activation {fused[0]} not "
                                 "supported")
        names = [f"{node.name}/{base_op}"] + [
            f"{node.name}/{op}" for op, _ in steps[:-1]] + [node.name]
        if not steps:
            names = [node.name]
        base = _node(graph_def, names[0], base_op, data[:2] + control,
                     dtype_attr)
        base.device = node.device
        for key in kept:
            if key in node.attr and key != "T":
                base.attr[key].CopyFrom(node.attr[key])
        previous = base.name
        for (op, extra), name in zip(steps, names[1:]):
            if op == "Prelu":
                _prelu(graph_def, name, previous, extra, dtype_attr,
                       node.device)
            else:
                step = _node(graph_def, name, op,
                             [previous] + ([extra] if extra else []),
                             dtype_attr)
                step.device = node.device
                if op == "BiasAdd" and "data_format" in node.attr:
                    step.attr["data_format"].CopyFrom(
                        node.attr["data_format"])
                if op == "LeakyRelu" and "leakyrelu_alpha" in node.attr:
                    step.attr["alpha"].CopyFrom(node.attr["leakyrelu_alpha"])
            previous = name
    return rewritten
