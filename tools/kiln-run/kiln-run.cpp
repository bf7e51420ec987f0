//===- kiln-run.cpp - compile a TensorFlow model and run it -----*- C++ -*-===//
//
// kiln-run --backend=cpu MODEL: imports a model (MLIR, GraphDef or TF.js),
// compiles it with kiln-tf-to-cpu-pipeline, JIT-compiles the LLVM dialect
// with MLIR's ExecutionEngine and calls the entry's C interface
// (_mlir_ciface_<entry>) on inputs read from .npy files or generated from a
// seed. Outputs are written as .npy files and, with --expect, compared with
// reference arrays (the TF.js oracle's, test/e2e/tfjs-oracle). `--help`
// documents every option.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-run/Arrays.h"
#include "tools/kiln-run/Calibrate.h"
#include "tools/kiln-run/Model.h"
#include "tools/kiln-run/NPU.h"

#include "passes/InitKiln.h"
#include "passes/Pipelines.h"
#include "runtime/cpu/Npy.h"
#include "runtime/cpu/threads/ThreadPool.h"
#include "target/cpu/JIT.h"
#include "target/cpu/ObjectEmitter.h"

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TFExecutor/IR/TFExecutor.h"
#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace mlir;
namespace cpu = kiln::cpu;
using namespace kiln::run;
namespace cl = llvm::cl;

namespace {

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

cl::OptionCategory runCategory("kiln-run options");
cl::OptionCategory inputCategory("Generated inputs");
cl::OptionCategory graphDefCategory("GraphDef import options");

cl::opt<std::string> modelPath(
    cl::Positional, cl::Required,
    cl::desc("<model: .mlir (tf_executor, tf, or linalg/tensor), .pb/.pbtxt "
             "GraphDef, or TF.js model.json>"),
    cl::cat(runCategory));
cl::OptionCategory npuCategory("NPU backend options (--backend=npu)");

cl::opt<std::string> backend(
    "backend",
    cl::desc("Where the model runs: 'cpu' (JIT-compiled on this machine) or "
             "'npu' (NPU segments on the NPU-v1 simulator, the rest on the "
             "CPU)"),
    cl::init("cpu"), cl::cat(runCategory));
cl::opt<std::string> entry("entry",
                           cl::desc("The function run as the model "
                                    "(default: main)"),
                           cl::init("main"), cl::cat(runCategory));
cl::list<std::string>
    inputFiles("input",
               cl::desc("A .npy file fed as the next argument of the entry; "
                        "repeat or comma-separate, one per argument in "
                        "order (default: generated inputs, see --seed)"),
               cl::CommaSeparated, cl::value_desc("FILE.npy"),
               cl::cat(runCategory));
cl::opt<std::string> outputDir(
    "output-dir",
    cl::desc("Write DIR/output_<i>.npy for every result (and "
             "DIR/input_<i>.npy for generated inputs); created if needed"),
    cl::value_desc("DIR"), cl::cat(runCategory));
cl::list<std::string> expectFiles(
    "expect",
    cl::desc("A .npy file the next result must match (dtype, shape, and "
             "values within --rtol/--atol); one per result, in order"),
    cl::CommaSeparated, cl::value_desc("FILE.npy"), cl::cat(runCategory));
cl::opt<double> rtol("rtol",
                     cl::desc("Relative tolerance, times the output's scale "
                              "max|expected| (default 1e-4)"),
                     cl::init(1e-4), cl::cat(runCategory));
cl::opt<double> atol("atol", cl::desc("Absolute tolerance (default 1e-6)"),
                     cl::init(1e-6), cl::cat(runCategory));
cl::opt<unsigned> repeat("repeat",
                         cl::desc("Run the model N times and print the "
                                  "median time of one run (default 1)"),
                         cl::init(1), cl::cat(runCategory));
/// --threads=N (or --threads N): the threads the model's parallel loops run
/// on, a pool of Kiln's CPU thread runtime with N threads, this one
/// included. main() takes it out of the arguments before LLVM parses them,
/// because libLLVM registers a "threads" option of its own.
unsigned threads = 1;
cl::opt<unsigned> optLevel("O",
                           cl::desc("LLVM optimisation level of the JIT, "
                                    "0-3 (default 2)"),
                           cl::init(2), cl::Prefix, cl::cat(runCategory));
cl::opt<uint64_t> unrollLimit(
    "llvm-unroll-limit",
    cl::desc("LLVM unrolls loops only when the model has at most this many "
             "instructions (as kiln-compile's)"),
    cl::init(kiln::cpu::kDefaultUnrollLimit), cl::cat(runCategory));
cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Verify the IR after every pass, not once per compile phase "
             "(slower; for debugging a pass)"),
    cl::init(false), cl::cat(runCategory));
cl::list<std::string> sharedLibs(
    "shared-libs",
    cl::desc("Extra shared libraries the compiled code may call (MLIR's "
             "libmlir_c_runner_utils is always loaded when found)"),
    cl::CommaSeparated, cl::cat(runCategory));

cl::opt<std::string> npuConfig(
    "npu-config",
    cl::desc("The NPU-v1 configuration: 'default' or 'realistic' (a "
             "convert-tf-to-npu target preset; the stream carries it to the "
             "simulator)"),
    cl::init("default"), cl::cat(npuCategory));
cl::opt<std::string> precision(
    "precision",
    cl::desc("Arithmetic of the NPU segments: 'fp16' or 'int8' (calibrated "
             "in process, or from --calibration-file)"),
    cl::init("fp16"), cl::cat(npuCategory));
cl::opt<unsigned> calibrationRuns(
    "calibration-runs",
    cl::desc("int8: calibrate on N generated inputs, seeds --seed+1 to "
             "--seed+N (default 8)"),
    cl::init(8), cl::cat(npuCategory));
cl::list<std::string> calibrationInputs(
    "calibration-input",
    cl::desc("int8: calibrate on these .npy files instead of generated "
             "inputs: NAME=FILE[,FILE...] per input (NAME is the input's "
             "name; FILE[,FILE...] alone for a model of one input); sample k "
             "is the k-th file of every input"),
    cl::value_desc("NAME=FILE,..."), cl::cat(npuCategory));
cl::opt<std::string> calibrationFile(
    "calibration-file",
    cl::desc("int8: read the ranges from FILE (kiln-npu-calibrate's or "
             "--save-calibration's) instead of calibrating"),
    cl::value_desc("FILE"), cl::cat(npuCategory));
cl::opt<std::string> saveCalibration(
    "save-calibration",
    cl::desc("int8: also write the ranges kiln-run calibrated to FILE"),
    cl::value_desc("FILE"), cl::cat(npuCategory));
cl::opt<bool> npuStats(
    "npu-stats",
    cl::desc("Print each NPU segment's simulated cycles, time at the "
             "configured clock and useful-MAC utilisation"),
    cl::cat(npuCategory));
cl::opt<std::string> npubDir(
    "npub-dir",
    cl::desc("Also write each NPU segment's command stream to "
             "DIR/<segment>.npub (for kiln-npu-sim)"),
    cl::value_desc("DIR"), cl::cat(npuCategory));

cl::opt<std::string> inputShapes(
    "input-shapes",
    cl::desc("The inputs' shapes, ':'-separated, each a comma-separated list "
             "of sizes (empty: a scalar), e.g. 1,32,32,3:10. For model.json "
             "and GraphDefs the model is imported with them; generated "
             "inputs take them (default: the entry's argument types, "
             "unknown sizes 1)"),
    cl::cat(inputCategory));
cl::opt<uint32_t> seed("seed",
                       cl::desc("Seed of the generated inputs: the "
                                "mulberry32 stream of runtime/cpu/"
                                "SeededInputs.h, which the TF.js oracle "
                                "shares (default 0)"),
                       cl::init(0), cl::cat(inputCategory));
cl::opt<std::string>
    floatRange("float-range",
               cl::desc("Generated floats are uniform in [LO,HI) (default "
                        "0,1)"),
               cl::value_desc("LO,HI"), cl::init("0,1"),
               cl::cat(inputCategory));
cl::opt<std::string>
    intRange("int-range",
             cl::desc("Generated integers are uniform in [LO,HI) (default "
                      "0,10); bools are their lowest bit"),
             cl::value_desc("LO,HI"), cl::init("0,10"), cl::cat(inputCategory));

cl::opt<std::string>
    tfInputArrays("tf-input-arrays",
                  cl::desc("GraphDef nodes fed as the entry's arguments: a,b"),
                  cl::cat(graphDefCategory));
cl::opt<std::string> tfInputDataTypes(
    "tf-input-data-types",
    cl::desc("Their types: DT_FLOAT,DT_INT32 (empty: the node's dtype)"),
    cl::cat(graphDefCategory));
cl::opt<std::string> tfOutputArrays(
    "tf-output-arrays",
    cl::desc("GraphDef tensors the entry returns: node or node:k, "
             "comma-separated"),
    cl::cat(graphDefCategory));
cl::opt<bool> tfGraphAsFunction(
    "tf-graph-as-function",
    cl::desc("Take the entry's signature from the GraphDef's _Arg and "
             "_Retval nodes"),
    cl::cat(graphDefCategory));

constexpr const char *kOverview =
    R"(kiln-run: compile a TensorFlow model with Kiln and run it

  kiln-run [--backend=cpu|npu] MODEL [--entry=main]
           [--input=FILE.npy ... | --input-shapes=S:S --seed=N]
           [--output-dir=DIR] [--expect=FILE.npy ...] [--rtol=R --atol=A]
           [--repeat=N] [--threads=N] [--npu-config=default|realistic] [--precision=fp16|int8]
           [--calibration-runs=N | --calibration-input=NAME=FILE,... ...]
           [--calibration-file=FILE] [--save-calibration=FILE]
           [--npu-stats] [--npub-dir=DIR]

MODEL is a .mlir file (tf_executor, functional tf, or linalg/tensor on
tensors), a GraphDef (.pb or .pbtxt, with --tf-input-arrays and
--tf-output-arrays, or --tf-graph-as-function), or a TF.js graph model
(model.json, weight shards next to it; inputs and outputs from its signature).
Modules with tf ops go through kiln-tf-to-cpu-pipeline; others through its
entry-ABI and LLVM phases only.

--backend=npu runs the model as Kiln's NPU target does: after
kiln-tf-graph-pipeline, convert-tf-to-npu splits it into fp16 NPU segments
and CPU ops (--npu-config names the target), kiln-npu-segments-to-host-calls
compiles each segment to a command stream and makes it a call of the NPU
runtime (runtime/npu/HostCall.h; in this build the NPU-v1 simulator), and the
rest is compiled for the CPU as with --backend=cpu. A failure inside a
segment is reported by name after the run, and the run fails. fp16 results
differ from fp32 ones by about 1e-3 of each output's scale; compare with
--rtol=1e-2. --npu-stats prints what the simulator measured per segment.

--precision=int8 builds int8 segments (convert-tf-to-npu precision=int8)
from the ranges of the tensors they quantise. By default kiln-run calibrates
them first: it instruments the model (observe-npu-ranges), runs it on the
CPU on --calibration-runs generated inputs (seeds --seed+1 to
--seed+N, with --input-shapes, --float-range and --int-range; never the
run's own input) and reduces the observed tensors to their min and max, as
kiln-npu-calibrate does; --save-calibration writes those ranges.
--calibration-input=NAME=FILE,... calibrates on sample inputs instead:
.npy files per input name (repeat the option for each input; a model of
one input takes FILE,... alone), sample k being the k-th file of every
input, each checked against its input's dtype and shape before the model
is compiled. The same files give the same ranges and streams. With
--calibration-file, kiln-run reads the ranges from that file and does not
calibrate. int8 results differ from fp32 ones by about 1e-1 to 3e-1 of
each output's scale (docs/npu-execution.md lists the measured error and
the tolerance of each model).

The entry's arguments are the feeds and its results the fetches, in order;
names come from the entry's tf.entry_function attribute. Feeds are read from
--input files, or generated (--seed, --float-range, --int-range): the same
values test/e2e/tfjs-oracle/run-model.mjs feeds TF.js for the same seed.
Supported element types: bool, int8-64, uint8-64 (from TensorFlow's unsigned
types), float32, float64; .npy files are little-endian, C order.

Results go to DIR/output_<i>.npy. --expect compares each result with a .npy
file: it reports the largest absolute error, the largest error relative to
the output's scale (its largest |expected|), and passes when every element
is within atol + rtol * scale (NaN matches only NaN).

--threads=N (default 1) runs the model's parallel loops (the outer tile
loops of convolutions, matmuls, pooling and large elementwise ops) on a pool
of N threads of Kiln's CPU thread runtime, this one included; the results
are bit-identical for any N. Idle workers sleep after 50 us, and a loop
never waits for a worker that has not started on it.

Exit status: 0 when everything ran and matched; 1 on any error (missing or
malformed file, wrong dtype or shape, compilation failure) or mismatch.
)";

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

ModelSource modelSource() {
  ModelSource source;
  source.path = modelPath;
  source.entry = entry;
  source.inputShapes = inputShapes;
  source.tfInputArrays = tfInputArrays;
  source.tfInputDataTypes = tfInputDataTypes;
  source.tfOutputArrays = tfOutputArrays;
  source.tfGraphAsFunction = tfGraphAsFunction;
  return source;
}

InputOptions inputOptions() {
  InputOptions options;
  options.files.assign(inputFiles.begin(), inputFiles.end());
  options.shapes = inputShapes;
  options.seed = seed;
  options.floatRange = floatRange;
  options.intRange = intRange;
  return options;
}

/// Prints the time of one run, or the median and minimum of several.
void printTimes(std::vector<double> times) {
  if (times.size() == 1) {
    llvm::outs() << "ran in " << llvm::format("%.3f", times.front())
                 << " ms\n";
    return;
  }
  std::sort(times.begin(), times.end());
  size_t n = times.size();
  double median =
      n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  llvm::outs() << "ran " << n << " times: median "
               << llvm::format("%.3f", median) << " ms, min "
               << llvm::format("%.3f", times.front()) << " ms\n";
}

int run() {
  if (backend != "cpu" && backend != "npu")
    return error("unknown backend '" + backend +
                 "'; kiln-run supports --backend=cpu and --backend=npu");
  bool onNPU = backend == "npu";
  NPUOptions npu;
  npu.config = npuConfig;
  npu.precision = precision;
  npu.npubDir = npubDir;
  npu.calibrationFile = calibrationFile;
  bool calibrating = onNPU && precision == "int8" && calibrationFile.empty();
  if (!onNPU && (npuStats || !npubDir.empty() ||
                 npuConfig.getNumOccurrences() || precision.getNumOccurrences()))
    return error("--npu-config, --precision, --npu-stats and --npub-dir need "
                 "--backend=npu");
  if ((precision != "int8" || !onNPU) &&
      (calibrationRuns.getNumOccurrences() || !calibrationFile.empty() ||
       !saveCalibration.empty() || !calibrationInputs.empty()))
    return error("--calibration-runs, --calibration-input, "
                 "--calibration-file and --save-calibration need "
                 "--backend=npu --precision=int8");
  if (!calibrationFile.empty() &&
      (calibrationRuns.getNumOccurrences() || !saveCalibration.empty() ||
       !calibrationInputs.empty()))
    return error("--calibration-file reads the ranges; it excludes "
                 "--calibration-runs, --calibration-input and "
                 "--save-calibration");
  if (!calibrationInputs.empty() && calibrationRuns.getNumOccurrences())
    return error("--calibration-input gives the samples; it excludes "
                 "--calibration-runs");
  if (calibrationRuns == 0)
    return error("--calibration-runs must be at least 1");
  if (onNPU && !checkNPUOptions(npu))
    return EXIT_FAILURE;
  if (repeat == 0)
    return error("--repeat must be at least 1");
  if (optLevel > 3)
    return error("-O must be 0, 1, 2 or 3");
  if (!inputFiles.empty() && !inputShapes.empty() &&
      llvm::sys::path::extension(modelPath) == ".mlir")
    return error("--input and --input-shapes exclude each other for .mlir "
                 "models (the files give the shapes)");

  DialectRegistry registry;
  kiln::registerAllDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext context(registry);
  // A diagnostic inside a model would otherwise print the whole module.
  context.printOpOnDiagnostic(false);
  context.loadDialect<func::FuncDialect, kiln::tf::TFDialect,
                      kiln::tf_executor::TFExecutorDialect,
                      kiln::tf_type::TFTypeDialect>();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  // Import, then read what lowering erases: names and signedness.
  ModelSource source = modelSource();
  StepTimes steps;
  auto compileStart = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module = loadModel(context, sourceMgr, source);
  if (!module)
    return error("cannot load " + modelPath);
  steps.emplace_back("import", millisecondsSince(compileStart));
  std::optional<EntrySignature> signature =
      readEntrySignature(*module, source);
  if (!signature)
    return EXIT_FAILURE;

  // Lower to tensors with the entry's C interface, read the entry's final
  // argument and result types, then lower to LLVM.
  // On the NPU, the graph is partitioned once it is functional and the
  // segments become runtime calls before the rest is lowered for the CPU.
  kiln::TFToCPUPipelineOptions pipeline;
  pipeline.entry = entry;
  // The JIT compiles for this machine: size the depthwise kernels' channel
  // blocks to its vector registers.
  if (auto host = cpu::createTargetMachine(cpu::TargetOptions{}))
    pipeline.depthwiseLanes = cpu::f32VectorLanes(**host);
  else
    return error("no LLVM target for this machine: " +
                 llvm::toString(host.takeError()));
  llvm::SmallVector<kiln::CPUPhase> phases;
  bool tfOps = hasTFOps(*module);
  if (onNPU) {
    pipeline.externalFunctions = {npuRuntimeFunction()};
    if (tfOps && failed(runPhases(*module, {kiln::CPUPhase::Graph}, pipeline,
                                  verifyEach, steps)))
      return error("cannot compile " + modelPath + " for the CPU");
    // Without a file to keep them in, the calibrated ranges go to a
    // temporary file that the partitioning reads.
    llvm::SmallString<128> rangesPath(saveCalibration);
    bool temporary = calibrating && rangesPath.empty();
    if (temporary) {
      if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
              "kiln-run-ranges", "json", rangesPath))
        return error("cannot create a temporary ranges file: " +
                     ec.message());
    }
    if (calibrating) {
      CalibrationOptions calibration;
      calibration.entry = entry;
      calibration.sampleFiles.assign(calibrationInputs.begin(),
                                     calibrationInputs.end());
      calibration.runs = calibrationRuns;
      calibration.firstSeed = seed + 1;
      calibration.shapes = inputShapes;
      calibration.floatRange = floatRange;
      calibration.intRange = intRange;
      calibration.optLevel = optLevel;
      if (failed(calibrateForNPU(*module, calibration, rangesPath,
                                 steps))) {
        if (temporary)
          llvm::sys::fs::remove(rangesPath);
        return error("cannot calibrate " + modelPath + " for int8");
      }
      npu.calibrationFile = std::string(rangesPath);
    }
    LogicalResult partitioned = partitionForNPU(*module, npu, steps);
    if (temporary)
      llvm::sys::fs::remove(rangesPath);
    if (failed(partitioned))
      return error("cannot compile " + modelPath + " for the NPU");
    if (tfOps)
      phases = {kiln::CPUPhase::Linalg};
  } else if (tfOps) {
    phases = {kiln::CPUPhase::Graph, kiln::CPUPhase::Linalg};
  }
  phases.push_back(kiln::CPUPhase::ABI);
  if (failed(runPhases(*module, phases, pipeline, verifyEach, steps)))
    return error("cannot compile " + modelPath + " for the CPU");
  auto func = module->lookupSymbol<func::FuncOp>(entry);
  if (!func)
    return error("the entry '" + entry + "' is gone after lowering");
  std::optional<std::vector<TensorSpec>> inputSpecs =
      specsOf(func.getArgumentTypes(), signature->inputNames,
              signature->unsignedInputs, "input");
  if (!inputSpecs)
    return EXIT_FAILURE;
  std::optional<std::vector<TensorSpec>> outputSpecs =
      specsOf(func.getResultTypes(), signature->outputNames,
              signature->unsignedOutputs, "output");
  if (!outputSpecs)
    return EXIT_FAILURE;
  if (failed(runPhases(*module, {kiln::CPUPhase::LLVM}, pipeline, verifyEach,
                        steps)))
    return error("cannot compile " + modelPath + " for the CPU");

  // Check the feeds and the expected arrays before compiling machine code.
  std::optional<std::vector<cpu::NpyArray>> inputs =
      makeInputs(*inputSpecs, inputOptions());
  if (!inputs)
    return EXIT_FAILURE;
  if (!expectFiles.empty() && expectFiles.size() != outputSpecs->size())
    return error("the model has " + llvm::Twine(outputSpecs->size()) +
                 " outputs; got " + llvm::Twine(expectFiles.size()) +
                 " --expect files");
  std::vector<cpu::NpyArray> expected;
  for (auto [i, file] : llvm::enumerate(expectFiles)) {
    absl::StatusOr<cpu::NpyArray> array = cpu::readNpyFile(file);
    if (!array.ok())
      return error((*outputSpecs)[i].describe("output", i) + ": " +
                   std::string(array.status().message()));
    expected.push_back(std::move(*array));
  }
  if (!outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return error(outputDir + ": cannot create: " + ec.message());
  }

  // JIT.
  cpu::JITOptions jitOptions;
  jitOptions.optLevel = optLevel;
  jitOptions.unrollLimit = unrollLimit;
  jitOptions.sharedLibs.assign(sharedLibs.begin(), sharedLibs.end());
  if (onNPU)
    jitOptions.symbols = npuRuntimeSymbols();
  auto jitStart = std::chrono::steady_clock::now();
  auto jit = cpu::JITModule::create(*module, entry, jitOptions);
  if (!jit)
    return error("cannot JIT-compile " + modelPath + ": " +
                 llvm::toString(jit.takeError()));
  steps.emplace_back("jit", millisecondsSince(jitStart));
  double compileMs = millisecondsSince(compileStart);

  llvm::outs() << "kiln-run: " << modelPath << ": " << inputs->size()
               << " inputs, " << outputSpecs->size() << " outputs; compiled in "
               << llvm::format("%.0f", compileMs) << " ms (";
  for (auto [i, step] : llvm::enumerate(steps))
    llvm::outs() << (i ? ", " : "") << step.first << " "
                 << llvm::format("%.0f", step.second);
  llvm::outs() << ")\n";
  // Before a long run, say what has been done.
  llvm::outs().flush();

  std::vector<cpu::InputView> views;
  std::vector<const void *> keep;
  for (const cpu::NpyArray &input : *inputs) {
    views.push_back({input.data.data(), input.shape});
    keep.push_back(input.data.data());
  }
  llvm::SmallVector<size_t> ranks;
  for (const TensorSpec &spec : *outputSpecs)
    ranks.push_back(spec.shape.size());
  cpu::ResultDescriptors results(ranks);
  std::vector<double> times;
  // The pool this thread's runs use; the same code runs serially without.
  std::unique_ptr<kiln_cpu_pool, void (*)(kiln_cpu_pool *)> pool(
      nullptr, kiln_cpu_pool_destroy);
  if (threads > 1) {
    pool.reset(kiln_cpu_pool_create(int(threads)));
    if (!pool)
      return error("cannot start a pool of " + llvm::Twine(threads) +
                   " threads");
    kiln_cpu_set_thread_pool(pool.get());
  }
  for (unsigned r = 0; r < repeat; ++r) {
    if (r)
      results.free(keep);
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error e = (*jit)->call(views, results)) {
      results.free(keep);
      return error(modelPath + ": " + llvm::toString(std::move(e)));
    }
    times.push_back(millisecondsSince(start));
    if (onNPU && !checkNPURun()) {
      results.free(keep);
      return EXIT_FAILURE;
    }
  }

  // Outputs.
  std::vector<cpu::NpyArray> outputs;
  for (auto [i, spec] : llvm::enumerate(*outputSpecs)) {
    cpu::ResultArray result = results.read(i, cpu::dtypeSize(spec.dtype));
    cpu::NpyArray array = cpu::NpyArray::zeros(spec.dtype, result.shape);
    array.data = std::move(result.data);
    outputs.push_back(std::move(array));
  }
  results.free(keep);

  if (!outputDir.empty() && inputFiles.empty())
    for (auto [i, input] : llvm::enumerate(*inputs))
      if (!writeArray(input, outputDir, "input", i))
        return EXIT_FAILURE;
  bool allPassed = true;
  for (auto [i, output] : llvm::enumerate(outputs)) {
    const TensorSpec &spec = (*outputSpecs)[i];
    llvm::outs() << spec.describe("output", i) << ": "
                 << cpu::dtypeName(output.dtype) << " "
                 << cpu::shapeString(output.shape);
    if (!outputDir.empty()) {
      if (!writeArray(output, outputDir, "output", i))
        return EXIT_FAILURE;
      llvm::outs() << " -> " << outputDir << "/output_" << i << ".npy";
    }
    llvm::outs() << "\n";
    if (!expected.empty() && !compareOutput(output, expected[i], spec, i,
                                            expectFiles[i], rtol, atol))
      allPassed = false;
  }
  if (threads > 1)
    llvm::outs() << "threads: " << threads << "\n";
  printTimes(times);
  if (onNPU && npuStats)
    printNPUStats();
  return allPassed ? EXIT_SUCCESS : EXIT_FAILURE;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // --threads=N / --threads N (see `threads`), out of the arguments.
  std::vector<char *> args;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--threads" || arg == "-threads") {
      if (i + 1 == argc)
        return error("--threads needs a value");
      arg = argv[++i];
    } else if (!arg.consume_front("--threads=") &&
               !arg.consume_front("-threads=")) {
      args.push_back(argv[i]);
      continue;
    }
    if (arg.getAsInteger(10, threads) || threads == 0 || threads > 1024)
      return error("--threads must be between 1 and 1024; got '" + arg + "'");
  }
  cl::HideUnrelatedOptions(
      {&runCategory, &inputCategory, &graphDefCategory, &npuCategory});
  cl::ParseCommandLineOptions(int(args.size()), args.data(), kOverview);
  return run();
}
