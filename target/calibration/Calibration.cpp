//===- Calibration.cpp - int8 ranges from sample inputs ---------*- C++ -*-===//
//
// See Calibration.h. This file runs the instrumented model; Samples.cpp
// reads and checks the samples.
//
//===----------------------------------------------------------------------===//

#include "target/calibration/Calibration.h"

#include "passes/Pipelines.h"
#include "target/cpu/JIT.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

namespace kiln::calibration {

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 message.str());
}

/// Runs `phases` of kiln-tf-to-cpu-pipeline on `module`.
LogicalResult runPhases(ModuleOp module, llvm::ArrayRef<CPUPhase> phases,
                        const TFToCPUPipelineOptions &options) {
  for (CPUPhase phase : phases) {
    PassManager pm(module->getContext());
    buildTFToCPUPhase(pm, phase, options);
    if (mlir::failed(pm.run(module)))
      return mlir::failure();
  }
  return success();
}

} // namespace

llvm::Expected<tf_to_npu::RangeTable>
calibrate(ModuleOp module, const CalibrationOptions &options, unsigned count,
          llvm::function_ref<llvm::Expected<Sample>(unsigned)> sample) {
  auto entry = module.lookupSymbol<func::FuncOp>(options.entry);
  if (!entry)
    return makeError("calibration: no entry '" + options.entry + "'");
  llvm::Expected<std::vector<InputSpec>> inputs = entryInputs(entry);
  if (!inputs)
    return inputs.takeError();

  OwningOpRef<ModuleOp> observed = module.clone();
  PassManager pm(module->getContext());
  ObserveNPURangesPassOptions observe;
  observe.entry = options.entry;
  pm.addPass(createObserveNPURangesPass(observe));
  if (mlir::failed(pm.run(*observed)))
    return makeError("calibration: cannot instrument the model "
                   "(observe-npu-ranges)");
  auto func = observed->lookupSymbol<func::FuncOp>(options.entry);
  std::vector<std::pair<unsigned, std::string>> keys =
      tf_to_npu::observedResults(func);

  // Compile the instrumented module for the CPU; its results keep their
  // order, so the observed indices stay valid.
  TFToCPUPipelineOptions pipeline;
  pipeline.entry = options.entry;
  if (mlir::failed(runPhases(*observed, {CPUPhase::Linalg, CPUPhase::ABI},
                             pipeline)))
    return makeError("calibration: cannot compile the instrumented model for "
                   "the CPU");
  func = observed->lookupSymbol<func::FuncOp>(options.entry);
  if (!func)
    return makeError("calibration: the entry '" + options.entry +
                   "' is gone after lowering");
  llvm::SmallVector<size_t> ranks;
  for (Type type : func.getResultTypes())
    ranks.push_back(cast<ShapedType>(type).getRank());
  if (mlir::failed(runPhases(*observed, {CPUPhase::LLVM}, pipeline)))
    return makeError("calibration: cannot compile the instrumented model for "
                   "the CPU");
  cpu::JITOptions jitOptions;
  jitOptions.optLevel = options.optLevel;
  auto jit = cpu::JITModule::create(*observed, options.entry, jitOptions);
  if (!jit)
    return makeError("calibration: cannot JIT-compile the instrumented model: " +
                   llvm::toString(jit.takeError()));

  tf_to_npu::RangeTable table;
  for (unsigned run = 0; run < count; ++run) {
    llvm::Expected<Sample> arrays = sample(run);
    if (!arrays)
      return arrays.takeError();
    if (std::string why = checkSample(*arrays, *inputs); !why.empty())
      return makeError("calibration sample " + llvm::Twine(run) + ": " + why);
    std::vector<cpu::InputView> views;
    std::vector<const void *> keep;
    for (const cpu::NpyArray &array : *arrays) {
      views.push_back({array.data.data(), array.shape});
      keep.push_back(array.data.data());
    }
    cpu::ResultDescriptors results(ranks);
    if (llvm::Error e = (*jit)->call(views, results))
      return makeError("calibration: " + llvm::toString(std::move(e)));
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
    if (!table.lookup(key))
      return makeError("calibration: no finite value of '" + key + "' in " +
                     llvm::Twine(count) + " runs");
  return table;
}

llvm::Error writeRanges(const tf_to_npu::RangeTable &table,
                        llvm::StringRef path) {
  std::error_code ec;
  llvm::ToolOutputFile output(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return makeError(path + ": cannot write: " + ec.message());
  table.writeJSON(output.os());
  output.os().flush();
  if (output.os().has_error()) {
    output.os().clear_error();
    return makeError(path + ": cannot write");
  }
  output.keep();
  return llvm::Error::success();
}

} // namespace kiln::calibration
