//===- Config.cpp - fuzz the tfcompile config reader ----------------------===//
//
// Input: a tfcompile config (tf2xla.Config, text or binary), read as
// kiln-compile --config reads it and turned into GraphDef import options.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/ImportGraphDef.h"

#include "llvm/Support/raw_ostream.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::raw_null_ostream errors;
  std::optional<tensorflow::tf2xla::Config> config =
      kiln::graphdef::parseTfcompileConfig(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "input", errors);
  if (config)
    kiln::graphdef::optionsFromTfcompileConfig(*config, errors);
  return 0;
}
