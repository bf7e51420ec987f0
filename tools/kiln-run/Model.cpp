//===- Model.cpp - kiln-run: load a model and read its entry ---*- C++ -*-===//
//
// See Model.h.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-run/Model.h"

#include "target/cpu/JIT.h"

#include "translate/graphdef/ImportGraphDef.h"
#include "translate/tfjs/ImportTFJS.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;

namespace kiln::run {

/// Prints "kiln-run: error: <message>" and returns the failure exit status.
int error(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "kiln-run") << message << "\n";
  return EXIT_FAILURE;
}

/// Milliseconds since `start`.
double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// `value` printed with printf's `format` ("%.3g", ...).
std::string formatNumber(const char *format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

std::string typeShapeString(llvm::ArrayRef<int64_t> shape) {
  std::string text = "(";
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (i)
      text += ", ";
    text += ShapedType::isDynamic(size) ? "?" : std::to_string(size);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::string TensorSpec::describe(llvm::StringRef kind, size_t index) const {
  std::string text = (kind + " " + llvm::Twine(index)).str();
  if (!name.empty())
    text += " '" + name + "'";
  return text;
}

namespace {

/// True when `type` (a tensor or element type) has an unsigned element type.
bool hasUnsignedElements(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.isUnsigned();
}

/// Splits a tf.entry_function name list ("a,b"); empty gives no names.
std::vector<std::string> splitNames(DictionaryAttr attr, llvm::StringRef key) {
  std::vector<std::string> names;
  auto list = attr ? attr.getAs<StringAttr>(key) : StringAttr();
  if (!list || list.getValue().empty())
    return names;
  llvm::SmallVector<llvm::StringRef> parts;
  list.getValue().split(parts, ',');
  for (llvm::StringRef part : parts)
    names.push_back(part.str());
  return names;
}

/// The names of the functions `module` defines, for error messages.
std::string definedFunctions(ModuleOp module) {
  std::string names;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isDeclaration())
      names += (names.empty() ? "@" : ", @") + func.getSymName().str();
  return names.empty() ? "no function" : names;
}

/// Builds the TensorSpecs of the entry's (tensor or memref) arguments or
/// results, or reports why one cannot be run.
} // namespace

std::optional<std::vector<TensorSpec>>
specsOf(TypeRange types, const std::vector<std::string> &names,
        const std::vector<bool> &isUnsigned, llvm::StringRef kind) {
  std::vector<TensorSpec> specs;
  for (auto [i, type] : llvm::enumerate(types)) {
    TensorSpec spec;
    if (i < names.size())
      spec.name = names[i];
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped || !isa<RankedTensorType, MemRefType>(type) ||
        !shaped.hasRank()) {
      error(spec.describe(kind, i) + " has type " + typeString(type) +
            "; kiln-run runs ranked tensors and memrefs only");
      return std::nullopt;
    }
    if (auto memref = dyn_cast<MemRefType>(type);
        memref && !memref.getLayout().isIdentity()) {
      error(spec.describe(kind, i) + " has type " + typeString(type) +
            "; kiln-run needs the identity layout");
      return std::nullopt;
    }
    std::optional<cpu::DType> dtype = cpu::npyDType(
        shaped.getElementType(), i < isUnsigned.size() && isUnsigned[i]);
    if (!dtype) {
      error(spec.describe(kind, i) + " has element type " +
            typeString(shaped.getElementType()) +
            "; kiln-run supports bool, int8-64, uint8-64, float32 and "
            "float64");
      return std::nullopt;
    }
    spec.dtype = *dtype;
    spec.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
    specs.push_back(std::move(spec));
  }
  return specs;
}

//===----------------------------------------------------------------------===//
// Loading and compiling
//===----------------------------------------------------------------------===//

/// Imports or parses MODEL; diagnostics go to the context's handler.
OwningOpRef<ModuleOp> loadModel(MLIRContext &context,
                                llvm::SourceMgr &sourceMgr,
                                const ModelSource &source) {
  const std::string &modelPath = source.path;
  llvm::StringRef extension = llvm::sys::path::extension(modelPath);
  if (!llvm::sys::fs::exists(modelPath)) {
    error(modelPath + ": no such file");
    return nullptr;
  }
  if (extension == ".json") {
    tfjs::TFJSImportOptions options;
    options.inputShapes = source.inputShapes;
    return tfjs::importTFJSModelFile(modelPath, options, &context);
  }
  auto buffer = llvm::MemoryBuffer::getFile(modelPath, /*IsText=*/false);
  if (!buffer) {
    error(modelPath + ": cannot read: " + buffer.getError().message());
    return nullptr;
  }
  if (extension == ".pb" || extension == ".pbtxt") {
    std::string errors;
    llvm::raw_string_ostream os(errors);
    std::optional<graphdef::GraphImportOptions> options =
        graphdef::parseGraphImportOptions(
            source.tfInputArrays, source.tfInputDataTypes, source.inputShapes,
            source.tfOutputArrays,
                                                /*controlOutputArrays=*/"", os);
    if (options && !source.tfGraphAsFunction && options->outputs.empty())
      os << "a GraphDef needs --tf-output-arrays (and --tf-input-arrays for "
            "its feeds), or --tf-graph-as-function";
    std::optional<tensorflow::GraphDef> graph;
    if (errors.empty())
      graph = graphdef::parseGraphDef((*buffer)->getBuffer(),
                                            extension.drop_front(), os);
    if (!errors.empty() || !graph) {
      error(modelPath + ": " + llvm::StringRef(errors).rtrim());
      return nullptr;
    }
    options->graphAsFunction = source.tfGraphAsFunction;
    return graphdef::importGraphDef(*graph, *options, &context);
  }
  if (extension == ".mlir") {
    sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
    return parseSourceFile<ModuleOp>(sourceMgr, &context);
  }
  error(modelPath + ": unknown model kind '" + extension +
        "'; kiln-run reads .mlir, .pb, .pbtxt and TF.js .json models");
  return nullptr;
}

/// Reads the entry's names and signedness before lowering erases them.
std::optional<EntrySignature> readEntrySignature(ModuleOp module,
                                                 const ModelSource &source) {
  const std::string &entry = source.entry;
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isDeclaration()) {
    error("no function named '" + entry + "' to run; " + source.path +
          " defines " + definedFunctions(module));
    return std::nullopt;
  }
  EntrySignature signature;
  auto names = func->getAttrOfType<DictionaryAttr>("tf.entry_function");
  signature.inputNames = splitNames(names, "inputs");
  signature.outputNames = splitNames(names, "outputs");
  for (Type type : func.getArgumentTypes())
    signature.unsignedInputs.push_back(hasUnsignedElements(type));
  for (Type type : func.getResultTypes())
    signature.unsignedOutputs.push_back(hasUnsignedElements(type));
  return signature;
}

/// True when `module` still holds tf or tf_executor ops.
bool hasTFOps(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    llvm::StringRef dialect = op->getName().getDialectNamespace();
    return dialect == "tf" || dialect == "tf_executor" ? WalkResult::interrupt()
                                                       : WalkResult::advance();
  });
  return result.wasInterrupted();
}

LogicalResult runPhases(ModuleOp module, llvm::ArrayRef<CPUPhase> phases,
                        const TFToCPUPipelineOptions &options, bool verifyEach,
                        StepTimes &times) {
  for (CPUPhase phase : phases) {
    auto start = std::chrono::steady_clock::now();
    PassManager pm(module->getContext());
    buildTFToCPUPhase(pm, phase, options);
    pm.enableVerifier(verifyEach);
    if (failed(pm.run(module)))
      return failure();
    if (!verifyEach && failed(verify(module)))
      return failure();
    times.emplace_back(cpuPhaseName(phase), millisecondsSince(start));
  }
  return success();
}

} // namespace kiln::run
