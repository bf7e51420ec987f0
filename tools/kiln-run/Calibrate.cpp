//===- Calibrate.cpp - kiln-run: int8 calibration in process ---*- C++ -*-===//
//
// See Calibrate.h.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-run/Calibrate.h"

#include "conversions/TFToNPU/TFToNPU.h"
#include "target/cpu/JIT.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cpu = kiln::cpu;

namespace kiln::run {

std::optional<std::string> checkCalibrationFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return (path + ": " + buffer.getError().message()).str();
  llvm::Expected<tf_to_npu::RangeTable> table =
      tf_to_npu::RangeTable::readJSON((*buffer)->getBuffer());
  if (!table)
    return (path + ": " + llvm::toString(table.takeError())).str();
  return std::nullopt;
}

LogicalResult calibrateForNPU(ModuleOp module, const EntrySignature &signature,
                              const CalibrationOptions &options,
                              llvm::StringRef path, StepTimes &times) {
  auto start = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> observed = module.clone();
  PassManager pm(module->getContext());
  ObserveNPURangesPassOptions observe;
  observe.entry = options.entry;
  pm.addPass(createObserveNPURangesPass(observe));
  if (failed(pm.run(*observed))) {
    error("calibration: cannot instrument the model (observe-npu-ranges)");
    return failure();
  }
  auto func = observed->lookupSymbol<func::FuncOp>(options.entry);
  if (!func) {
    error("calibration: no entry '" + options.entry + "'");
    return failure();
  }
  std::vector<std::pair<unsigned, std::string>> keys =
      tf_to_npu::observedResults(func);

  // Compile the instrumented module for the CPU; its results keep their
  // order, so the observed indices stay valid.
  TFToCPUPipelineOptions pipeline;
  pipeline.entry = options.entry;
  StepTimes ignored;
  if (failed(runPhases(*observed, {CPUPhase::Linalg, CPUPhase::ABI},
                       pipeline, ignored))) {
    error("calibration: cannot compile the instrumented model for the CPU");
    return failure();
  }
  func = observed->lookupSymbol<func::FuncOp>(options.entry);
  if (!func) {
    error("calibration: the entry '" + options.entry +
          "' is gone after lowering");
    return failure();
  }
  std::optional<std::vector<TensorSpec>> inputSpecs =
      specsOf(func.getArgumentTypes(), signature.inputNames,
              signature.unsignedInputs, "input");
  if (!inputSpecs)
    return failure();
  llvm::SmallVector<size_t> ranks;
  for (Type type : func.getResultTypes())
    ranks.push_back(cast<ShapedType>(type).getRank());
  if (failed(runPhases(*observed, {CPUPhase::LLVM}, pipeline, ignored))) {
    error("calibration: cannot compile the instrumented model for the CPU");
    return failure();
  }
  cpu::JITOptions jitOptions;
  jitOptions.optLevel = options.optLevel;
  auto jit = cpu::JITModule::create(*observed, options.entry, jitOptions);
  if (!jit) {
    error("calibration: cannot JIT-compile the instrumented model: " +
          llvm::toString(jit.takeError()));
    return failure();
  }

  tf_to_npu::RangeTable table;
  for (unsigned run = 0; run < options.runs; ++run) {
    InputOptions inputOptions;
    inputOptions.shapes = options.shapes;
    inputOptions.seed = options.firstSeed + run;
    inputOptions.floatRange = options.floatRange;
    inputOptions.intRange = options.intRange;
    std::optional<std::vector<cpu::NpyArray>> inputs =
        makeInputs(*inputSpecs, inputOptions);
    if (!inputs)
      return failure();
    std::vector<cpu::InputView> views;
    std::vector<const void *> keep;
    for (const cpu::NpyArray &input : *inputs) {
      views.push_back({input.data.data(), input.shape});
      keep.push_back(input.data.data());
    }
    cpu::ResultDescriptors results(ranks);
    if (llvm::Error e = (*jit)->call(views, results)) {
      error("calibration: " + llvm::toString(std::move(e)));
      return failure();
    }
    for (const auto &[index, key] : keys) {
      cpu::ResultArray result = results.read(index, sizeof(float));
      table.observe(key, llvm::ArrayRef<float>(
                             reinterpret_cast<const float *>(
                                 result.data.data()),
                             result.data.size() / sizeof(float)));
    }
    results.free(keep);
    table.countSample();
  }
  for (const auto &[index, key] : keys)
    if (!table.lookup(key)) {
      error("calibration: no finite value of '" + key + "' in " +
            llvm::Twine(options.runs) + " runs");
      return failure();
    }

  std::error_code ec;
  llvm::ToolOutputFile output(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    error(path + ": cannot write: " + ec.message());
    return failure();
  }
  table.writeJSON(output.os());
  output.os().flush();
  if (output.os().has_error()) {
    error(path + ": cannot write");
    return failure();
  }
  output.keep();
  times.emplace_back("calibrate", millisecondsSince(start));
  return success();
}

} // namespace kiln::run
