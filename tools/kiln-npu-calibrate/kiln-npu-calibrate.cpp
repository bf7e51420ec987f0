//===- kiln-npu-calibrate.cpp - ranges for int8 NPU segments ----*- C++ -*-===//
//
// kiln-npu-calibrate INSTRUMENTED.mlir --runs=DIR,... -o ranges.json: the
// entry of INSTRUMENTED.mlir (what observe-npu-ranges made of a model)
// returns the tensors an int8 partition quantises, each result marked with
// its range key; every DIR holds the outputs of one CPU run of it
// (kiln-run --backend=cpu --output-dir=DIR writes DIR/output_<i>.npy). The
// tool reduces each observed tensor to its min and max over all runs and
// writes the calibration file convert-tf-to-npu precision=int8 reads. The
// result does not depend on the order of the runs.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToNPU/TFToNPU.h"
#include "passes/InitKiln.h"
#include "runtime/cpu/Npy.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <string>
#include <vector>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

cl::opt<std::string> modelPath(cl::Positional, cl::Required,
                               cl::desc("<instrumented .mlir>"));
cl::list<std::string>
    runDirs("runs",
            cl::desc("Output directories of CPU runs of the instrumented "
                     "entry (DIR/output_<i>.npy), comma-separated"),
            cl::CommaSeparated, cl::OneOrMore, cl::value_desc("DIR"));
cl::opt<std::string> entryName("entry",
                               cl::desc("The instrumented function "
                                        "(default: main)"),
                               cl::init("main"));
cl::opt<std::string> outputPath("o", cl::desc("Where the ranges go (JSON)"),
                                cl::init("-"), cl::value_desc("FILE"));

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "kiln-npu-calibrate") << message
                                                             << "\n";
  return 1;
}

/// Widens \p table by result \p index of the run in \p dir.
std::optional<std::string> observeRun(kiln::tf_to_npu::RangeTable &table,
                                      llvm::StringRef dir, unsigned index,
                                      llvm::StringRef key) {
  std::string path = (dir + "/output_" + llvm::Twine(index) + ".npy").str();
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return path + ": " + buffer.getError().message();
  absl::StatusOr<kiln::cpu::NpyArray> array = kiln::cpu::parseNpy(
      absl::string_view((*buffer)->getBufferStart(),
                        (*buffer)->getBufferSize()));
  if (!array.ok())
    return path + ": " + std::string(array.status().message());
  if (array->dtype != kiln::cpu::DType::Float32)
    return path + ": " + kiln::cpu::dtypeName(array->dtype) + " for '" +
           key.str() + "', expected float32";
  table.observe(key, llvm::ArrayRef<float>(array->values<float>(),
                                           array->numElements()));
  return std::nullopt;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "kiln-npu-calibrate: the ranges of the tensors an int8 NPU partition "
      "quantises, from CPU runs of the model instrumented by "
      "observe-npu-ranges\n\n"
      "  kiln-opt model.mlir --observe-npu-ranges -o observed.mlir\n"
      "  for s in 0 1 2 3; do\n"
      "    kiln-run observed.mlir --seed=$s --output-dir=runs/$s\n"
      "  done\n"
      "  kiln-npu-calibrate observed.mlir --runs=runs/0,runs/1,runs/2,runs/3 "
      "-o ranges.json\n"
      "  kiln-opt model.mlir --convert-tf-to-npu=\"precision=int8 "
      "calibration-file=ranges.json\"\n\n"
      "Runs on .npy inputs (kiln-run --input=...) calibrate the same way.\n");

  DialectRegistry registry;
  kiln::registerAllDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(modelPath);
  if (!buffer)
    return fail(modelPath + ": " + buffer.getError().message());
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr,
                                                           &context);
  if (!module)
    return 1;
  auto entry = module->lookupSymbol<func::FuncOp>(entryName);
  if (!entry)
    return fail("no function '" + entryName + "' in " + modelPath);
  auto observed = kiln::tf_to_npu::observedResults(entry);
  if (observed.empty())
    return fail("'" + entryName +
                "' has no observed results (run observe-npu-ranges first)");

  kiln::tf_to_npu::RangeTable table;
  for (const std::string &dir : runDirs) {
    for (const auto &[index, key] : observed)
      if (std::optional<std::string> error =
              observeRun(table, dir, index, key))
        return fail(*error);
    table.countSample();
  }
  for (const auto &[index, key] : observed)
    if (!table.lookup(key))
      return fail("no finite value of '" + key + "' in any run");

  std::error_code error;
  llvm::ToolOutputFile output(outputPath, error, llvm::sys::fs::OF_Text);
  if (error)
    return fail(outputPath + ": " + error.message());
  table.writeJSON(output.os());
  output.keep();
  return 0;
}
