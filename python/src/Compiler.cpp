//===- Compiler.cpp - compile a model and run it in process ---------------===//
//
// compile(): the kiln-run flow as a library. Import, read the entry's names
// and signedness (lowering erases them), run the phases of
// kiln-tf-to-cpu-pipeline (dumping the IR between them on request), read the
// final argument, result and variable types, then JIT-compile. A
// CompiledModel calls the entry through target/cpu/JIT.h on the caller's
// buffers, copies the results out and frees them.
//
//===----------------------------------------------------------------------===//

#include "python/src/Compiler.h"
#include "python/src/Support.h"

#include "passes/Pipelines.h"
#include "target/cpu/Header.h"
#include "target/cpu/JIT.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <mutex>

using namespace mlir;

namespace kiln::python {

namespace {

/// NumPy's name of `type`'s element type; `isUnsigned` comes from the type
/// before lowering (the TF-to-linalg type converter makes integers
/// signless). Empty when the type has no NumPy equivalent here.
std::string dtypeOf(Type type, bool isUnsigned) {
  if (type.isF32())
    return "float32";
  if (type.isF64())
    return "float64";
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return "";
  unsigned width = integer.getWidth();
  if (width == 1)
    return "bool";
  if (width != 8 && width != 16 && width != 32 && width != 64)
    return "";
  isUnsigned |= integer.isUnsigned();
  return (isUnsigned ? "uint" : "int") + std::to_string(width);
}

/// Bytes of one element of `dtype` (a name dtypeOf returns).
size_t dtypeSize(const std::string &dtype) {
  if (dtype == "bool")
    return 1;
  size_t digits = dtype.find_first_of("0123456789");
  return std::stoul(dtype.substr(digits)) / 8;
}

bool hasUnsignedElements(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.isUnsigned();
}

std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// "(1, ?, 3)": a spec's shape as NumPy prints shapes.
std::string shapeString(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t d = 0; d < shape.size(); ++d) {
    text += d ? ", " : "";
    text += shape[d] < 0 ? "?" : std::to_string(shape[d]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::vector<std::string> splitNames(DictionaryAttr attr, StringRef key) {
  std::vector<std::string> names;
  auto list = attr ? attr.getAs<StringAttr>(key) : StringAttr();
  if (!list || list.getValue().empty())
    return names;
  SmallVector<StringRef> parts;
  list.getValue().split(parts, ',');
  for (StringRef part : parts)
    names.push_back(part.trim().str());
  return names;
}

bool hasTFOps(ModuleOp module) {
  return module
      .walk([](Operation *op) {
        StringRef dialect = op->getName().getDialectNamespace();
        return dialect == "tf" || dialect == "tf_executor"
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Checks a buffer against a spec; an error message when it does not fit.
std::optional<std::string> checkBuffer(const InputBuffer &buffer,
                                       const TensorSpec &spec,
                                       const std::string &what) {
  if (buffer.dtype != spec.dtype)
    return what + " has dtype " + buffer.dtype + "; the model expects " +
           spec.dtype;
  bool fits = buffer.shape.size() == spec.shape.size();
  for (size_t d = 0; fits && d < spec.shape.size(); ++d)
    fits = buffer.shape[d] >= 0 &&
           (spec.shape[d] < 0 || spec.shape[d] == buffer.shape[d]);
  if (!fits)
    return what + " has shape " + shapeString(buffer.shape) +
           "; the model expects " + shapeString(spec.shape);
  return std::nullopt;
}

} // namespace

/// The f32 lanes of the vector registers of the CPU `options` target, the
/// depthwise kernels' channel blocks; the pipeline's default when the target
/// cannot be created (the JIT reports that, later).
static int64_t depthwiseLanes(const CompileOptions &options) {
  cpu::TargetOptions target;
  target.cpu = options.cpu;
  target.features = options.features;
  auto machine = cpu::createTargetMachine(target);
  if (!machine) {
    llvm::consumeError(machine.takeError());
    return TFToCPUPipelineOptions().depthwiseLanes;
  }
  return cpu::f32VectorLanes(**machine);
}

/// Builds a CompiledModel step by step; each step records why it failed.
struct ModelBuilder {
  const CompileOptions &options;
  CompileResult &result;
  Context context;
  DiagnosticCollector collector;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<CompiledModel> model{new CompiledModel()};
  unsigned dumpIndex = 0;
  int64_t lanes;

  ModelBuilder(const CompileOptions &options, CompileResult &result)
      : options(options), result(result), context(options.threads),
        collector(context.get(), result.diagnostics),
        lanes(depthwiseLanes(options)) {}

  bool fail(const std::string &failure) {
    result.failure = failure;
    return false;
  }

  /// Writes the module to --dump-dir as NN-<name>.mlir.
  void dump(StringRef name) {
    if (options.dumpDir.empty())
      return;
    SmallString<256> path(options.dumpDir);
    char prefix[8];
    std::snprintf(prefix, sizeof(prefix), "%02u-", dumpIndex++);
    llvm::sys::path::append(path, prefix + name + ".mlir");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return collector.error("cannot write '" + path.str().str() +
                             "': " + ec.message());
    module->print(os, OpPrintingFlags().enableDebugInfo(true, false));
  }

  bool runPhase(CPUPhase phase) {
    TFToCPUPipelineOptions pipelineOptions;
    pipelineOptions.entry = options.entry;
    pipelineOptions.depthwiseLanes = lanes;
    PassManager pm(&context.get());
    buildTFToCPUPhase(pm, phase, pipelineOptions);
    std::string reproducer;
    if (!options.dumpDir.empty()) {
      SmallString<256> path(options.dumpDir);
      llvm::sys::path::append(path, "reproducer-" + Twine(cpuPhaseName(phase)) +
                                        ".mlir");
      reproducer = path.str().str();
      pm.enableCrashReproducerGeneration(reproducer);
    }
    if (succeeded(pm.run(*module))) {
      dump(cpuPhaseName(phase));
      return true;
    }
    std::string failure = "the " + std::string(cpuPhaseName(phase)) +
                          " phase of kiln-tf-to-cpu-pipeline failed";
    if (!reproducer.empty())
      failure += "; reproducer: " + reproducer + " (kiln-opt --run-reproducer)";
    return fail(failure);
  }

  bool readSpecs(func::FuncOp func, const std::vector<std::string> &inputNames,
                 const std::vector<std::string> &outputNames,
                 const std::vector<bool> &unsignedInputs,
                 const std::vector<bool> &unsignedOutputs) {
    auto read = [&](TypeRange types, const std::vector<std::string> &names,
                    const std::vector<bool> &isUnsigned, StringRef kind,
                    std::vector<TensorSpec> &specs) {
      for (auto [i, type] : llvm::enumerate(types)) {
        TensorSpec spec;
        spec.name = i < names.size() && !names[i].empty()
                        ? names[i]
                        : (kind + Twine(i)).str();
        auto shaped = dyn_cast<ShapedType>(type);
        auto memref = dyn_cast<MemRefType>(type);
        if (!shaped || !shaped.hasRank() ||
            !isa<RankedTensorType, MemRefType>(type) ||
            (memref && !memref.getLayout().isIdentity()))
          return fail((kind + " '" + spec.name + "' has type " +
                       typeString(type) +
                       "; only ranked tensors and identity-layout memrefs "
                       "can be passed")
                          .str());
        spec.dtype = dtypeOf(shaped.getElementType(),
                             i < isUnsigned.size() && isUnsigned[i]);
        if (spec.dtype.empty())
          return fail((kind + " '" + spec.name + "' has element type " +
                       typeString(shaped.getElementType()) +
                       "; supported: bool, int8-64, uint8-64, float32, "
                       "float64")
                          .str());
        for (int64_t size : shaped.getShape())
          spec.shape.push_back(ShapedType::isDynamic(size) ? -1 : size);
        specs.push_back(std::move(spec));
      }
      return true;
    };
    return read(func.getArgumentTypes(), inputNames, unsignedInputs, "input",
                model->inputSpecs) &&
           read(func.getResultTypes(), outputNames, unsignedOutputs, "output",
                model->outputSpecs);
  }

  bool readVariables() {
    cpu::ModelSignature signature;
    if (failed(cpu::readVariables(*module, signature)))
      return fail("cannot read the model's variables");
    for (const cpu::TensorInfo &info : signature.variables) {
      auto global = module->lookupSymbol<memref::GlobalOp>(info.symbol);
      TensorSpec spec;
      spec.name = info.graphName;
      spec.dtype = dtypeOf(global.getType().getElementType(), false);
      if (spec.dtype.empty() || !global.getType().hasStaticShape())
        return fail("variable '" + spec.name + "' has type " +
                    typeString(global.getType()) +
                    "; supported: static shapes of bool, int8-64, float32, "
                    "float64");
      spec.shape.assign(global.getType().getShape().begin(),
                        global.getType().getShape().end());
      model->variableSpecs.push_back(std::move(spec));
    }
    variableSymbols.clear();
    for (const cpu::TensorInfo &info : signature.variables)
      variableSymbols.push_back(info.symbol);
    return true;
  }

  bool jit() {
    cpu::JITOptions jitOptions;
    jitOptions.optLevel = options.optLevel;
    jitOptions.cpu = options.cpu;
    jitOptions.features = options.features;
    jitOptions.sharedLibs = options.sharedLibs;
    auto jit = cpu::JITModule::create(*module, options.entry, jitOptions);
    if (!jit)
      return fail(llvm::toString(jit.takeError()));
    model->jit = std::move(*jit);
    for (auto [symbol, spec] :
         llvm::zip_equal(variableSymbols, model->variableSpecs)) {
      auto address = model->jit->lookup(symbol);
      if (!address)
        return fail("the compiled model has no storage for variable '" +
                    spec.name + "': " + llvm::toString(address.takeError()));
      size_t bytes = dtypeSize(spec.dtype);
      for (int64_t size : spec.shape)
        bytes *= size;
      auto *data = static_cast<uint8_t *>(*address);
      model->variableData.push_back(data);
      model->initialValues.emplace_back(data, data + bytes);
    }
    return true;
  }

  bool build() {
    if (!options.dumpDir.empty())
      if (std::error_code ec =
              llvm::sys::fs::create_directories(options.dumpDir))
        return fail("cannot create '" + options.dumpDir + "': " +
                    ec.message());
    if (options.optLevel > 3)
      return fail("the optimisation level must be 0, 1, 2 or 3");
    module = loadModel(options, context.get(), collector);
    if (!module)
      return fail("cannot import the model");
    dump("input");

    auto func = module->lookupSymbol<func::FuncOp>(options.entry);
    if (!func || func.isDeclaration())
      return fail("the model has no function '" + options.entry + "' to run");
    auto names = func->getAttrOfType<DictionaryAttr>("tf.entry_function");
    std::vector<std::string> inputNames = splitNames(names, "inputs");
    std::vector<std::string> outputNames = splitNames(names, "outputs");
    std::vector<bool> unsignedInputs, unsignedOutputs;
    for (Type type : func.getArgumentTypes())
      unsignedInputs.push_back(hasUnsignedElements(type));
    for (Type type : func.getResultTypes())
      unsignedOutputs.push_back(hasUnsignedElements(type));

    SmallVector<CPUPhase> phases;
    if (hasTFOps(*module))
      phases = {CPUPhase::Graph, CPUPhase::Linalg};
    phases.push_back(CPUPhase::ABI);
    for (CPUPhase phase : phases)
      if (!runPhase(phase))
        return false;
    func = module->lookupSymbol<func::FuncOp>(options.entry);
    if (!func)
      return fail("the entry '" + options.entry + "' is gone after lowering");
    if (!readSpecs(func, inputNames, outputNames, unsignedInputs,
                   unsignedOutputs) ||
        !readVariables() || !runPhase(CPUPhase::LLVM))
      return false;
    return jit();
  }

  std::vector<std::string> variableSymbols;
};

CompileResult compile(const CompileOptions &options) {
  CompileResult result;
  ModelBuilder builder(options, result);
  if (builder.build())
    result.model = std::move(builder.model);
  else if (result.failure.empty())
    result.failure = "cannot compile the model";
  return result;
}

CompiledModel::~CompiledModel() = default;

std::optional<std::string>
CompiledModel::run(const std::vector<InputBuffer> &inputs,
                   std::vector<OutputArray> &outputs) {
  if (inputs.size() != inputSpecs.size())
    return "the model takes " + std::to_string(inputSpecs.size()) +
           " inputs; got " + std::to_string(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (auto error = checkBuffer(inputs[i], inputSpecs[i],
                                 "input '" + inputSpecs[i].name + "'"))
      return error;

  std::vector<cpu::InputView> views;
  std::vector<const void *> keep;
  for (const InputBuffer &input : inputs) {
    views.push_back({input.data, input.shape});
    keep.push_back(input.data);
  }
  std::vector<size_t> ranks;
  for (const TensorSpec &spec : outputSpecs)
    ranks.push_back(spec.shape.size());
  cpu::ResultDescriptors results(ranks);

  std::lock_guard<std::mutex> lock(mutex);
  // The parallel loops run on this model's pool, if it has one; the
  // calling thread's own pool comes back afterwards.
  kiln_cpu_pool *previous = kiln_cpu_set_thread_pool(pool.get());
  llvm::Error e = jit->call(views, results);
  kiln_cpu_set_thread_pool(previous);
  if (e)
    return llvm::toString(std::move(e));

  // Copy the results out, then free their buffers, except the inputs' and
  // the variables' (a result may alias one).
  for (void *data : variableData)
    keep.push_back(data);
  outputs.clear();
  for (size_t i = 0; i < outputSpecs.size(); ++i) {
    cpu::ResultArray result = results.read(i, dtypeSize(outputSpecs[i].dtype));
    OutputArray array;
    array.dtype = outputSpecs[i].dtype;
    array.shape = std::move(result.shape);
    array.data = std::move(result.data);
    outputs.push_back(std::move(array));
  }
  results.free(keep);
  return std::nullopt;
}

bool CompiledModel::setThreads(unsigned threads) {
  std::lock_guard<std::mutex> lock(mutex);
  if (threads <= 1) {
    pool.reset();
    return threads == 1;
  }
  kiln_cpu_pool *created = kiln_cpu_pool_create(int(threads));
  if (!created)
    return false;
  pool.reset(created);
  return true;
}

unsigned CompiledModel::threads() const {
  return unsigned(kiln_cpu_pool_num_threads(pool.get()));
}

OutputArray CompiledModel::readVariable(size_t index) {
  std::lock_guard<std::mutex> lock(mutex);
  const TensorSpec &spec = variableSpecs.at(index);
  OutputArray array;
  array.dtype = spec.dtype;
  array.shape = spec.shape;
  const uint8_t *data = static_cast<const uint8_t *>(variableData[index]);
  array.data.assign(data, data + initialValues[index].size());
  return array;
}

std::optional<std::string>
CompiledModel::writeVariable(size_t index, const InputBuffer &value) {
  const TensorSpec &spec = variableSpecs.at(index);
  if (auto error = checkBuffer(value, spec, "the value of variable '" +
                                                spec.name + "'"))
    return error;
  std::lock_guard<std::mutex> lock(mutex);
  std::memcpy(variableData[index], value.data, initialValues[index].size());
  return std::nullopt;
}

void CompiledModel::resetVariables() {
  std::lock_guard<std::mutex> lock(mutex);
  for (size_t i = 0; i < variableData.size(); ++i)
    std::memcpy(variableData[i], initialValues[i].data(),
                initialValues[i].size());
}

} // namespace kiln::python
