#!/usr/bin/env python3
"""Kiln against the CPU engines users would pick instead, on the same
machine, models and inputs, batch 1 (issue 21's peer benchmark).

    benchmarks/peers/setup.sh          # once: the peers, pinned
    benchmarks/peers/run.py --threads 1,2 [--models a,b] [--engines x,y]

For each model (prepare.py: a frozen GraphDef every engine reads, its
SavedModel, seeded inputs), each engine converts it once (engines.py
convert), then for each thread count each engine runs in a fresh process
(engines.py run): WARMUP untimed runs, REPEAT timed ones. Every engine's last
outputs are compared with TensorFlow's. A step that fails is recorded with
its error and shown in the tables, never dropped. Prints Markdown tables and,
unless --no-doc, writes them with the date, CPU, versions and this command
into docs/performance.md. Runs itself under the peers' venv.
"""

import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

import benchlib  # noqa: E402

VENV = Path(os.environ.get("KILN_PEERS_VENV", Path.home() / ".cache/kiln/peers-venv"))
ENGINES = list(benchlib.ENGINE_TITLES)
PYTHON_PACKAGES = ["tensorflow-cpu", "ai-edge-litert", "openvino", "onnxruntime",
                   "tf2onnx", "iree-base-compiler", "iree-base-runtime",
                   "iree-tools-tf"]


def ensure_venv():
    """Re-executes under the peers' venv when started elsewhere."""
    python = VENV / "bin" / "python"
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    if not python.exists():
        sys.exit(f"run.py: no peers venv at {VENV}; run benchmarks/peers/setup.sh")
    os.execv(str(python), [str(python), __file__, *sys.argv[1:]])


def step(args, timeout, log, extra_env=None):
    """Runs a subprocess; returns (stdout, error text or "")."""
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONPATH": str(HERE), **(extra_env or {})}
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                              env=env)
    except subprocess.TimeoutExpired:
        return "", f"timed out after {timeout} s"
    log.write(f"$ {shlex.join(map(str, args))}\n{done.stdout}{done.stderr}\n")
    log.flush()
    if done.returncode != 0:
        return done.stdout, benchlib.error_summary(done.stderr, done.returncode)
    return done.stdout, ""


def cpu_model():
    return benchlib.doclib.cpu_model(platform.processor() or "unknown")


def versions(kiln_bin):
    out = {}
    for package in PYTHON_PACKAGES:
        try:
            out[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            out[package] = "not installed"
    lock = json.loads((HERE / "tfjs/package-lock.json").read_text())
    out["@tensorflow/tfjs-backend-wasm"] = lock["packages"].get(
        "node_modules/@tensorflow/tfjs-backend-wasm", {}).get("version", "?")
    try:
        out["node"] = subprocess.run(["node", "--version"], capture_output=True,
                                     text=True).stdout.strip()
    except OSError:
        out["node"] = "not installed"
    # The commit of the tree the Kiln tools were built from.
    commit = subprocess.run(["git", "-C", str(kiln_bin), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    out["kiln"] = f"{commit or '?'} ({kiln_bin})"
    return out


def compare(model_dir, engine, threads, reference_file):
    """The engine's largest relative error against the reference, and a note
    when its outputs had to be matched to the fetches by shape."""
    import numpy as np
    mine = np.load(model_dir / "outputs" / f"{engine}-t{threads}.npz")
    ref = np.load(reference_file)
    # savez names arrays arr_0, arr_1, ...: sort by number, not as text.
    mine = [mine[k] for k in sorted(mine.files, key=lambda k: int(k.split("_")[1]))]
    ref = [ref[k] for k in sorted(ref.files, key=lambda k: int(k.split("_")[1]))]
    note = ""
    if [m.shape for m in mine] != [r.shape for r in ref]:
        order = benchlib.match_by_shape([m.shape for m in mine], [r.shape for r in ref])
        if order is not None:
            mine = [mine[i] for i in order]
            note = "outputs come in another order; matched to the fetches by shape"
    floor = json.loads((model_dir / "meta.json").read_text()).get(
        "scale_floor", benchlib.SCALE_FLOOR)
    return benchlib.relative_error([m.astype(np.float64).ravel().tolist() for m in mine],
                                   [r.astype(np.float64).ravel().tolist() for r in ref],
                                   floor), note


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default=",".join(
        ["mobilenet_v2", "mobilenet_v3_small", "efficientnet_b0", "resnet50",
         "blazeface", "mobilefacenet", "movenet-lightning", "selfie"]),
                        help="comma-separated (default: all eight)")
    parser.add_argument("--engines", default=",".join(ENGINES),
                        help=f"comma-separated of {','.join(ENGINES)} (default: all; "
                        "tf is always added as the reference)")
    parser.add_argument("--threads", default="1,2",
                        help="thread counts; the speed-up compares the first two")
    parser.add_argument("--warmup", type=int, default=5, help="untimed runs first")
    parser.add_argument("--repeat", type=int, default=30, help="timed runs per cell")
    parser.add_argument("--kiln-bin", type=Path, default=ROOT / "build/bin",
                        help="where kiln-compile and kiln-translate are")
    parser.add_argument("--work-dir", type=Path,
                        default=Path.home() / ".cache/kiln/peers-work",
                        help="prepared and converted models (kept between runs), "
                        "run.log, results.json")
    parser.add_argument("--timeout", type=int, default=1800,
                        help="seconds for one conversion or run")
    parser.add_argument("--doc", type=Path, default=ROOT / "docs/performance.md",
                        help="the file whose marked block gets the tables")
    parser.add_argument("--no-doc", action="store_true", help="only print the tables")
    args = parser.parse_args()
    ensure_venv()
    import prepare

    models = args.models.split(",")
    engines = args.engines.split(",")
    threads_list = [int(t) for t in args.threads.split(",")]
    for m in models:
        if m not in prepare.ALL_MODELS:
            sys.exit(f"run.py: unknown model {m}; known: {', '.join(prepare.ALL_MODELS)}")
    for e in engines:
        if e not in ENGINES:
            sys.exit(f"run.py: unknown engine {e}; known: {', '.join(ENGINES)}")
    if benchlib.REFERENCES[0] not in engines:
        engines.insert(1 if benchlib.KILN in engines else 0, benchlib.REFERENCES[0])
    args.work_dir.mkdir(parents=True, exist_ok=True)
    log = open(args.work_dir / "run.log", "a")
    py = sys.executable
    results = []

    def record(engine, model, error="", **fields):
        for t in threads_list:
            results.append(benchlib.Result(engine, model, t, error=error, **fields))

    for model in models:
        model_dir = args.work_dir / model
        print(f"== {model}: preparing", file=sys.stderr, flush=True)
        _, error = step([py, "-c", "import sys, prepare; prepare.prepare(*sys.argv[1:])",
                         model, str(args.work_dir), str(args.kiln_bin)],
                        args.timeout, log)
        if error:
            for e in engines:
                record(e, model, error=f"preparing the model: {error}")
            continue
        failed = {}
        for engine in engines:
            extra = ["--kiln-bin", str(args.kiln_bin)] if engine == benchlib.KILN else []
            _, error = step([py, HERE / "engines.py", "convert", engine, model_dir, *extra],
                            args.timeout, log)
            if error:
                failed[engine] = f"converting: {error}"
                record(engine, model, error=failed[engine])
        # The references run first, so that every other engine is compared.
        refs = [e for e in benchlib.REFERENCES if e in engines]
        run_order = refs + [e for e in engines if e not in refs]
        for threads in threads_list:
            for engine in run_order:
                if engine in failed:
                    continue
                print(f"== {model}: {engine}, {threads} thread(s)", file=sys.stderr,
                      flush=True)
                command = [py, HERE / "engines.py", "run", engine, model_dir,
                           "--threads", str(threads), "--warmup", str(args.warmup),
                           "--repeat", str(args.repeat)]
                out, error = step(command, args.timeout, log)
                fallback = ""
                if error.startswith("killed by") and engine in ("tf", "tf-xla"):
                    # TensorFlow's oneDNN path has crashed on some graphs: say so,
                    # and measure its Eigen kernels instead of showing nothing.
                    out, error2 = step(command, args.timeout, log,
                                       {"TF_ENABLE_ONEDNN_OPTS": "0"})
                    if not error2:
                        fallback = (f"default (oneDNN) {error}; measured with "
                                    "TF_ENABLE_ONEDNN_OPTS=0")
                        error = ""
                result = benchlib.Result(engine, model, threads, error=error)
                if not error:
                    report = json.loads(out.strip().splitlines()[-1])
                    result.times_ms = report["times_ms"]
                    result.note = "; ".join(n for n in (fallback, report["note"]) if n)
                    ref = next((r for r in (benchlib.find(results, e, model, threads)
                                            for e in refs) if r and r.ok), None)
                    if ref is None and engine in refs:
                        result.rel_error = 0.0   # this engine is the reference
                    elif ref is not None:
                        reference = model_dir / "outputs" / f"{ref.engine}-t{threads}.npz"
                        try:
                            result.rel_error, match_note = compare(model_dir, engine,
                                                                   threads, reference)
                            result.note = "; ".join(
                                n for n in (result.note, match_note) if n)
                        except ValueError as e:
                            result.error = f"outputs do not match {ref.engine}'s: {e}"
                results.append(result)

    tables = benchlib.render_tables(results, engines, models, threads_list)
    print(tables)
    (args.work_dir / "results.json").write_text(json.dumps(
        [r.__dict__ for r in results], indent=1))
    if args.no_doc:
        return 0
    command = "benchmarks/peers/run.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    info = versions(args.kiln_bin)
    load = os.getloadavg()
    section = "\n".join([
        f"Measured {datetime.date.today().isoformat()} on {cpu_model()} "
        f"({os.cpu_count()} cores; load average {load[0]:.1f} at the end of the run), "
        f"batch 1, {args.warmup} warm-up and {args.repeat} timed runs per cell:",
        "", "```", command, "```", "",
        "Versions: " + ", ".join(f"{k} {v}" for k, v in info.items()) + ".", "",
        tables])
    doc = args.doc.read_text() if args.doc.exists() else "# Performance\n"
    args.doc.write_text(benchlib.replace_section(doc, section))
    print(f"run.py: wrote the tables into {args.doc}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
