"""Converts a prepared model for one engine, or times it on that engine.

    engines.py convert ENGINE MODEL_DIR [--kiln-bin DIR]
    engines.py run ENGINE MODEL_DIR --threads N --warmup W --repeat R

`convert` writes the engine's form of the model under MODEL_DIR/<engine>/
(once: it returns at once when that exists) and may load TensorFlow. `run`
times the model in a fresh process that loads only the engine, so thread
settings are the engine's own and no other runtime's threads compete. It
prints one JSON line {"times_ms": [...], "note": ...} and writes the last
run's outputs to MODEL_DIR/outputs/<engine>-t<N>.npz (fetch order). Any
failure is an exception: its message on stderr and a non-zero exit, which
run.py records as the engine's error for that model.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import benchlib  # beside this file: the script's directory is on sys.path

HERE = Path(__file__).resolve().parent


def load_meta(model_dir):
    return json.loads((model_dir / "meta.json").read_text())


def load_inputs(model_dir, meta):
    return [np.load(model_dir / f"input_{i}.npy")
            for i in range(len(meta["feeds"]))]


def time_calls(call, warmup, repeat):
    """Runs `call` warmup times, then times `repeat` calls (ms); returns the
    times and the last call's result."""
    result = None
    for _ in range(warmup):
        result = call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        times.append((time.perf_counter() - start) * 1e3)
    return times, result


def by_fetch_name(named, count):
    """Orders {"y0": a, "y1": b, ...} (possibly with ":0" suffixes or
    prefixes from a converter) as the fetches."""
    out = [None] * count
    for name, value in named.items():
        base = name.split(":")[0].split("/")[-1]
        if base.startswith("y") and base[1:].isdigit() and int(base[1:]) < count:
            out[int(base[1:])] = np.asarray(value)
    if any(o is None for o in out):
        raise RuntimeError(f"cannot match outputs {sorted(named)} to y0..y{count - 1}")
    return out


#===------------------------------------------------------------------------===#
# Conversions (may load TensorFlow)
#===------------------------------------------------------------------------===#

def run_tool(command):
    """Runs a command-line tool; on failure raises RuntimeError with the
    tool's name and its first "error:" line (else its last line), which
    run.py then shows as the reason."""
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True)
    if done.returncode != 0:
        lines = [l.strip() for l in done.stderr.splitlines() if l.strip()]
        first = next((l for l in lines if "error:" in l), lines[-1] if lines else
                     f"exit status {done.returncode}")
        raise RuntimeError(f"{Path(str(command[0])).name}: {first}")
    return done

def convert_kiln(model_dir, kiln_bin):
    out = model_dir / "kiln"
    # Kiln's tools change between runs (the other engines' pinned packages do
    # not): the object is rebuilt whenever kiln-compile, the thread runtime or
    # the timer differ from the ones it was built with.
    threads_lib = Path(kiln_bin).resolve().parent / "lib" / "libkiln-cpu-threads.a"
    stamp = benchlib.build_stamp([Path(kiln_bin).resolve() / "kiln-compile",
                                  threads_lib, HERE / "kiln-timer.c"])
    if (out / "timer").exists() and benchlib.is_current(out / "stamp", stamp):
        return
    out.mkdir(exist_ok=True)
    (out / "stamp").unlink(missing_ok=True)
    run_tool([Path(kiln_bin) / "kiln-compile", model_dir / "model.pb",
              "--config=" + str(model_dir / "kiln.config.pbtxt"),
              "--symbol=kiln_model", "-o", out / "model.o"])
    cc = os.environ.get("CC", "cc")
    run_tool([cc, "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-O2", "-include",
              out / "model.h", HERE / "kiln-timer.c", out / "model.o",
              threads_lib, "-lpthread", "-lm", "-o", out / "timer"])
    (out / "stamp").write_text(stamp + "\n")


def convert_litert(model_dir):
    path = model_dir / "litert" / "model.tflite"
    if path.exists():
        return
    import tensorflow as tf
    converter = tf.lite.TFLiteConverter.from_saved_model(str(model_dir / "saved_model"))
    data = converter.convert()   # float32: no optimizations requested
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data)


def convert_openvino(model_dir):
    path = model_dir / "openvino" / "model.xml"
    if path.exists():
        return
    import openvino as ov
    model = ov.convert_model(str(model_dir / "saved_model"))
    path.parent.mkdir(exist_ok=True)
    ov.save_model(model, str(path), compress_to_fp16=False)


def convert_onnxruntime(model_dir):
    path = model_dir / "onnx" / "model.onnx"
    if path.exists():
        return
    import tensorflow as tf
    import tf2onnx
    meta = load_meta(model_dir)
    graph_def = tf.compat.v1.GraphDef()
    graph_def.ParseFromString((model_dir / "model.pb").read_bytes())
    path.parent.mkdir(exist_ok=True)
    tf2onnx.convert.from_graph_def(
        graph_def, input_names=[f["node"] + ":0" for f in meta["feeds"]],
        output_names=meta["fetches"], opset=17, output_path=str(path))


def _iree_compile(mlir, vmfb, extra):
    bindir = Path(sys.executable).parent
    run_tool([bindir / "iree-compile", mlir, *extra, "--iree-hal-target-device=local",
              "--iree-hal-local-target-device-backends=llvm-cpu",
              "--iree-llvmcpu-target-cpu=host", "-o", vmfb])


def convert_iree(model_dir):
    """iree-import-tf on the SavedModel, then iree-compile for llvm-cpu. When
    the TensorFlow importer fails, the ONNX export (tf2onnx) goes through
    iree-import-onnx instead, and note.txt says why."""
    out = model_dir / "iree"
    if (out / "model.vmfb").exists():
        return
    out.mkdir(exist_ok=True)
    bindir = Path(sys.executable).parent
    tf_import = subprocess.run(
        [str(bindir / "iree-import-tf"), "--tf-import-type=savedmodel_v1",
         "--tf-savedmodel-exported-names=serving_default",
         str(model_dir / "saved_model"), "-o", str(out / "model-tf.mlir")],
        capture_output=True, text=True)
    if tf_import.returncode == 0:
        _iree_compile(out / "model-tf.mlir", out / "model.vmfb",
                      ["--iree-input-type=stablehlo"])
        (out / "note.txt").write_text("iree-import-tf")
        return
    error = (tf_import.stderr.strip().splitlines() or ["(no message)"])[-1]
    convert_onnxruntime(model_dir)
    run_tool([bindir / "iree-import-onnx", model_dir / "onnx/model.onnx",
              "--opset-version=17", "-o", out / "model-onnx.mlir"])
    _iree_compile(out / "model-onnx.mlir", out / "model.vmfb", [])
    (out / "note.txt").write_text(f"via ONNX: iree-import-tf failed: {error[:300]}")


#===------------------------------------------------------------------------===#
# Runs (one engine per process)
#===------------------------------------------------------------------------===#

def run_kiln(model_dir, meta, inputs, threads, warmup, repeat):
    out = model_dir / "kiln" / f"out-t{threads}"
    out.mkdir(exist_ok=True)
    feeds = [f"{model_dir}/input_{i}.bin:" + ",".join(map(str, f["shape"]))
             for i, f in enumerate(meta["feeds"])]
    result = run_tool(["env", f"KILN_TIMER_THREADS={threads}",
                       model_dir / "kiln" / "timer", warmup, repeat, out, *feeds])
    times, outputs = [], []
    types = {"float": np.float32, "int32_t": np.int32, "int64_t": np.int64,
             "bool": np.bool_, "double": np.float64}
    for line in result.stdout.splitlines():
        words = line.split()
        if words[0] == "times_ms":
            times = [float(w) for w in words[1:]]
        elif words[0] == "fetch":
            shape = [int(d) for d in words[3].split(",")] if len(words) > 3 else []
            data = np.fromfile(out / f"output_{words[1]}.bin", types[words[2]])
            outputs.append(data.reshape(shape))
    return times, outputs, ""


def _tf_setup(threads):
    import tensorflow as tf
    tf.config.threading.set_intra_op_parallelism_threads(threads)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    return tf


def run_tf(model_dir, meta, inputs, threads, warmup, repeat, jit=False):
    tf = _tf_setup(threads)
    loaded = tf.saved_model.load(str(model_dir / "saved_model"))
    fn = loaded.serve
    if jit:
        fn = tf.function(lambda *a: loaded.serve(*a), jit_compile=True)
    args = [tf.constant(x) for x in inputs]
    times, result = time_calls(lambda: fn(*args), warmup, repeat)
    outputs = by_fetch_name({k: v.numpy() for k, v in result.items()},
                            len(meta["fetches"]))
    return times, outputs, ""


def run_tf_xla(model_dir, meta, inputs, threads, warmup, repeat):
    return run_tf(model_dir, meta, inputs, threads, warmup, repeat, jit=True)


def run_litert(model_dir, meta, inputs, threads, warmup, repeat):
    from ai_edge_litert.interpreter import Interpreter
    interpreter = Interpreter(model_path=str(model_dir / "litert/model.tflite"),
                              num_threads=threads)
    interpreter.allocate_tensors()
    runner = interpreter.get_signature_runner("serving_default")
    feed = {f"x{i}": x for i, x in enumerate(inputs)}
    times, result = time_calls(lambda: runner(**feed), warmup, repeat)
    return times, by_fetch_name(result, len(meta["fetches"])), ""


def run_openvino(model_dir, meta, inputs, threads, warmup, repeat):
    import openvino as ov
    core = ov.Core()
    compiled = core.compile_model(str(model_dir / "openvino/model.xml"), "CPU", {
        "PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": threads,
        "INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()
    feed = {i: x for i, x in enumerate(inputs)}
    times, _ = time_calls(lambda: request.infer(feed), warmup, repeat)
    named = {}
    for i, port in enumerate(compiled.outputs):
        names = port.get_names() or {f"y{i}"}
        name = sorted(names, key=lambda n: (not n.startswith("y"), n))[0]
        named[name] = request.get_output_tensor(i).data.copy()
    return times, by_fetch_name(named, len(meta["fetches"])), ""


def run_onnxruntime(model_dir, meta, inputs, threads, warmup, repeat):
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(str(model_dir / "onnx/model.onnx"), options,
                                   providers=["CPUExecutionProvider"])
    feed = {i.name: x for i, x in zip(session.get_inputs(), inputs)}
    times, result = time_calls(lambda: session.run(None, feed), warmup, repeat)
    return times, [np.asarray(r) for r in result], ""


def run_iree(model_dir, meta, inputs, threads, warmup, repeat):
    import iree.runtime as ireert
    ireert.flags.parse_flags(f"--task_topology_max_group_count={threads}")
    config = ireert.Config("local-task")
    module = ireert.VmModule.mmap(config.vm_instance, str(model_dir / "iree/model.vmfb"))
    context = ireert.SystemContext(config=config, vm_modules=[module])
    # iree-import-tf exports the signature by its name (and an initializer);
    # iree-import-onnx exports the graph's name.
    names = [n for n in module.function_names
             if not n.startswith("__") and n != "session_initializer"]
    name = "serving_default" if "serving_default" in names else names[0]
    fn = context.modules[module.name][name]
    times, result = time_calls(lambda: fn(*inputs), warmup, repeat)
    if not isinstance(result, (list, tuple)):
        result = [result]
    outputs = [r.to_host() if hasattr(r, "to_host") else np.asarray(r) for r in result]
    note = (model_dir / "iree/note.txt").read_text()
    return times, outputs, "" if note == "iree-import-tf" else note


def run_tfjs_wasm(model_dir, meta, inputs, threads, warmup, repeat):
    if "tfjs_model" not in meta:
        raise RuntimeError("no TF.js graph model: this model was built in Keras and "
                           "the tensorflowjs converter is not among the peers")
    tfjs_dir = os.environ.get("KILN_PEERS_TFJS_DIR",
                              str(Path.home() / ".cache/kiln/peers-tfjs"))
    out = model_dir / f"tfjs-out-t{threads}"
    out.mkdir(exist_ok=True)
    feeds = [f"{model_dir}/input_{i}.bin:{f['dtype']}:" + ",".join(map(str, f["shape"]))
             for i, f in enumerate(meta["feeds"])]
    os.environ["KILN_PEERS_TFJS_DIR"] = tfjs_dir
    result = run_tool(["node", HERE / "tfjs-wasm.mjs", meta["tfjs_model"], threads,
                       warmup, repeat, out, *feeds])
    report = json.loads(result.stdout.strip().splitlines()[-1])
    outputs = []
    for i, (dtype, shape) in enumerate(report["fetches"]):
        data = np.fromfile(out / f"output_{i}.bin", {"float32": np.float32,
                                                     "int32": np.int32}[dtype])
        outputs.append(data.reshape(shape))
    note = ""
    if report["threads"] != threads:
        note = f"ran on {report['threads']} thread(s)"
    return report["times_ms"], outputs, note


CONVERT = {"kiln": convert_kiln, "litert": convert_litert,
           "openvino": convert_openvino, "onnxruntime": convert_onnxruntime,
           "iree": convert_iree}
RUN = {"kiln": run_kiln, "tf": run_tf, "tf-xla": run_tf_xla, "litert": run_litert,
       "openvino": run_openvino, "onnxruntime": run_onnxruntime, "iree": run_iree,
       "tfjs-wasm": run_tfjs_wasm}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["convert", "run"])
    parser.add_argument("engine", choices=sorted(RUN))
    parser.add_argument("model_dir", type=Path)
    parser.add_argument("--kiln-bin", default="")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    if args.action == "convert":
        if args.engine == "kiln":
            convert_kiln(args.model_dir, args.kiln_bin)
        elif args.engine in CONVERT:
            CONVERT[args.engine](args.model_dir)
        return 0
    meta = load_meta(args.model_dir)
    inputs = load_inputs(args.model_dir, meta)
    times, outputs, note = RUN[args.engine](args.model_dir, meta, inputs, args.threads,
                                            args.warmup, args.repeat)
    (args.model_dir / "outputs").mkdir(exist_ok=True)
    np.savez(args.model_dir / "outputs" / f"{args.engine}-t{args.threads}.npz",
             *[np.asarray(o) for o in outputs])
    print(json.dumps({"times_ms": times, "note": note}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
