//===- TFJSImportBenchmark.cpp - TF.js import time and memory ---*- C++ -*-===//
//
// Imports a TF.js graph model in process (default: MAXIM from the model
// cache) and reports the time and the memory the import needs: the peak
// resident set over the run, the resident set before the first import (the
// process's libraries), and the weight bytes of the model's shards. Results:
// docs/performance.md.
//
//   TFJSImportBenchmark [--benchmark_...] [path/to/model.json]
//
//===----------------------------------------------------------------------===//

#include "translate/tfjs/ImportTFJS.h"

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TFExecutor/IR/TFExecutor.h"
#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace {

std::string modelPath;
/// The resident set before any import: the process's libraries.
double baseline = 0;

/// A field of /proc/self/status in bytes (VmRSS, VmHWM).
double statusBytes(const char *field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind(field, 0) == 0)
      return std::atof(line.c_str() + std::strlen(field) + 1) * 1024.0;
  return 0;
}

/// The sizes of the shards the model's manifest names.
double weightBytes(llvm::StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return 0;
  std::string errors;
  llvm::raw_string_ostream os(errors);
  auto model = kiln::tfjs::parseModelJson((*file)->getBuffer(), os);
  if (!model)
    return 0;
  double total = 0;
  for (const auto &group : model->weights_manifest())
    for (const std::string &shard : group.paths()) {
      llvm::SmallString<256> full(llvm::sys::path::parent_path(path));
      llvm::sys::path::append(full, shard);
      uint64_t size = 0;
      if (!llvm::sys::fs::file_size(full, size))
        total += size;
    }
  return total;
}

void BM_ImportTFJS(benchmark::State &state) {
  size_t ops = 0;
  for (auto _ : state) {
    mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
    context.loadDialect<mlir::func::FuncDialect, kiln::tf::TFDialect,
                        kiln::tf_executor::TFExecutorDialect,
                        kiln::tf_type::TFTypeDialect>();
    auto module = kiln::tfjs::importTFJSModelFile(modelPath, {}, &context);
    if (!module) {
      state.SkipWithError("import failed");
      return;
    }
    ops = 0;
    module->walk([&](mlir::Operation *) { ++ops; });
  }
  double peak = statusBytes("VmHWM:"); // before weightBytes parses again
  double weights = weightBytes(modelPath);
  state.counters["ops"] = ops;
  state.counters["weight_MB"] = weights / 1e6;
  state.counters["baseline_MB"] = baseline / 1e6;
  state.counters["peak_MB"] = peak / 1e6;
  // The import's own peak against the weights it holds (meaningful for the
  // first run of a process: later runs start from a fragmented heap).
  state.counters["peak_over_weights"] =
      weights > 0 ? (peak - baseline) / weights : 0;
}
BENCHMARK(BM_ImportTFJS)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (argc > 1) {
    modelPath = argv[1];
  } else {
    const char *cache = std::getenv("KILN_MODEL_CACHE");
    std::string root =
        cache ? cache
              : std::string(std::getenv("HOME")) + "/.cache/kiln/models";
    modelPath = root + "/upscalerjs__maxim-deblurring@0.1.0/package/models/"
                       "model.json";
  }
  baseline = statusBytes("VmRSS:");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
