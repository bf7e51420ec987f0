# -*- Python -*- lit configuration of Kiln's regression tests.
import os
import shutil
import subprocess
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "KILN"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".pbtxt"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "kiln_lit_formats.py",
                   "downstream"]
config.test_source_root = os.path.dirname(__file__)
sys.path.insert(0, config.test_source_root)  # kiln_lit_formats
config.test_exec_root = os.path.join(config.kiln_obj_root, "test")

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
config.environment["FILECHECK_OPTS"] = (
    "-enable-var-scope --allow-unused-prefixes=false")

# TensorFlow's files are not part of Kiln: tests that read them say
# `REQUIRES: tf-corpus` and are reported unsupported when the folder is absent.
corpus = os.path.realpath(config.kiln_corpus_dir)
if os.path.isdir(os.path.join(corpus, "tensorflow")):
    config.available_features.add("tf-corpus")
config.substitutions.append(("%corpus", corpus))
config.substitutions.append(("%kiln_src_root", config.kiln_src_root))
config.substitutions.append(("%kiln_obj_root", config.kiln_obj_root))

# Execution tests run lowered code with mlir-runner and upstream's runtime
# helpers (printMemrefF32, ...), which Debian ships beside libMLIR.so.
runner_utils = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib",
                            "libmlir_c_runner_utils.so")
if os.path.exists(runner_utils):
    config.available_features.add("mlir-runner")
config.substitutions.append(("%mlir_c_runner_utils", runner_utils))
config.substitutions.append((
    "%mlir_runner_utils",
    os.path.join(os.path.dirname(runner_utils), "libmlir_runner_utils.so")))

# Tests of generated machine code name the host architecture they expect.
import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64-host")

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["kiln-opt", "kiln-translate", "kiln-compile", "kiln-run", "kiln-npu-sim",
     "kiln-npu-calibrate",
     "mlir-opt"],
    [config.kiln_tools_dir, config.llvm_tools_dir])

# Real TF.js models (test/models/fetch-models.sh) live in a cache outside the
# repository; tests that read them require `tfjs-models`, set when every
# pinned package is unpacked there.
config.kiln_model_cache = os.path.realpath(os.environ.get(
    "KILN_MODEL_CACHE",
    os.path.join(os.path.expanduser("~"), ".cache", "kiln", "models")))
config.kiln_tfjs_packages = ["vladmandic__human-models@3.0.4",
                             "handtrackjs@0.1.5",
                             "upscalerjs__maxim-deblurring@0.1.0"]
if all(os.path.isfile(os.path.join(config.kiln_model_cache, p, ".complete"))
       for p in config.kiln_tfjs_packages):
    config.available_features.add("tfjs-models")
config.substitutions.append(("%kiln_model_cache", config.kiln_model_cache))

# TensorFlow.js, the numerical oracle (test/e2e/tfjs-oracle/install.sh), is
# installed outside the repository too; tests that run it require
# `tfjs-oracle` and call it as %tfjs_oracle.
oracle_dir = os.path.realpath(os.environ.get(
    "KILN_TFJS_ORACLE_DIR",
    os.path.join(os.path.expanduser("~"), ".cache", "kiln", "tfjs-oracle")))
node = shutil.which("node")
if node and os.path.isfile(os.path.join(oracle_dir, ".installed")):
    config.available_features.add("tfjs-oracle")
config.environment["KILN_TFJS_ORACLE_DIR"] = oracle_dir
config.substitutions.append(("%tfjs_oracle", "%s %s" % (
    node or "node",
    os.path.join(config.kiln_src_root, "test", "e2e", "tfjs-oracle",
                 "run-model.mjs"))))

# TensorFlow, in the venv of scripts/setup-python.sh, generates SavedModels
# and checkpoints for tests that say `REQUIRES: tensorflow` and run it as
# %tf_python.
import glob
tf_venv = os.path.realpath(os.environ.get(
    "KILN_VENV", os.path.join(os.path.expanduser("~"), ".cache", "kiln",
                              "venv")))
tf_python = os.path.join(tf_venv, "bin", "python")
if os.path.isfile(tf_python) and glob.glob(os.path.join(
        tf_venv, "lib", "python*", "site-packages", "tensorflow",
        "__init__.py")):
    config.available_features.add("tensorflow")
config.environment["TF_CPP_MIN_LOG_LEVEL"] = "2"
config.substitutions.append(("%tf_python", tf_python))

# The system C and C++ compilers link compiled models into programs the way a
# user does (test/e2e/models); tests that do say `REQUIRES: host-cc`.
host_cc = os.environ.get("CC") or shutil.which("cc")
host_cxx = os.environ.get("CXX") or shutil.which("c++")
if host_cc and host_cxx:
    config.available_features.add("host-cc")
config.substitutions.append(("%host_cc", host_cc or "cc"))
config.substitutions.append(("%host_cxx", host_cxx or "c++"))

# What a C program links besides an object of kiln-compile --target=npu:
# Kiln's NPU runtime and its dependencies, as the build tree's pkg-config
# file (runtime/npu/CMakeLists.txt) says; tests that link one say
# `REQUIRES: kiln-npu-runtime`.
npu_runtime_pc = os.path.join(config.kiln_obj_root, "lib", "pkgconfig",
                              "kiln-npu-runtime.pc")
npu_runtime_libs = ""
pkg_config = shutil.which("pkg-config")
if pkg_config and os.path.exists(npu_runtime_pc):
    query = subprocess.run([pkg_config, "--libs", npu_runtime_pc],
                           capture_output=True, text=True)
    if query.returncode == 0:
        npu_runtime_libs = query.stdout.strip()
        config.available_features.add("kiln-npu-runtime")
config.substitutions.append(("%kiln_npu_runtime_libs", npu_runtime_libs))
# Kiln's CPU thread runtime, as a C program links it (runtime/cpu/threads).
config.substitutions.append(("%kiln_cpu_threads_libs", "%s -lpthread" % (
    os.path.join(config.kiln_obj_root, "lib", "libkiln-cpu-threads.a"))))
