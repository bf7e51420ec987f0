//===- TFJS.cpp - fuzz the TF.js model.json + weights importer ------------===//
//
// Input: the model.json text, then (optionally) a NUL byte and the weight
// shards, each a little-endian uint32 byte count and that many bytes. The
// shards fill the manifest's `paths` in order (group by group); each is
// written under its path to a private temporary directory, which is the
// model's directory for the import, and deleted afterwards. A path that is
// not a plain file name ([A-Za-z0-9._-], no leading dot, at most 64
// characters) skips the input, so that the fuzzer cannot make the importer
// read files of the machine (`/dev/zero`, `../..`): how those are refused
// is test/malformed/tfjs's business. `kiln-fuzz-seeds tfjs` frames a
// model.json and its shards this way.
//
//===----------------------------------------------------------------------===//

#include "fuzz/FuzzMLIR.h"
#include "translate/tfjs/ImportTFJS.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace kiln;

namespace {

bool isPlainName(llvm::StringRef name) {
  if (name.empty() || name.size() > 64 || name.front() == '.')
    return false;
  return llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '.' || c == '_' || c == '-';
  });
}

/// The directory the shards are written to: one per process.
const std::string &shardDir() {
  static const std::string dir = [] {
    llvm::SmallString<128> model, path;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, model);
    llvm::sys::path::append(model, "kiln-fuzz-tfjs");
    if (llvm::sys::fs::createUniqueDirectory(model, path)) {
      llvm::errs() << "kiln-fuzz-tfjs: cannot create a temporary directory\n";
      std::abort();
    }
    // Each input's shards are removed after it; the directory goes at exit
    // (a copy of its name: `dir` may be destroyed before the handler runs).
    static const std::string *const removeAtExit = new std::string(path);
    std::atexit([] { llvm::sys::fs::remove(*removeAtExit); });
    return std::string(path);
  }();
  return dir;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef input = fuzz::asString(data, size);
  auto [json, shards] = input.split('\0');
  llvm::raw_null_ostream errors;
  std::unique_ptr<tfjs::Model> model = tfjs::parseModelJson(json, errors);
  if (!model)
    return 0;

  // Shards in manifest order, until the input runs out.
  std::vector<std::string> written;
  auto removeWritten = [&] {
    for (const std::string &path : written)
      llvm::sys::fs::remove(path);
  };
  for (const auto &group : model->weights_manifest()) {
    for (const std::string &name : group.paths()) {
      if (!isPlainName(name)) {
        removeWritten();
        return 0;
      }
      if (shards.size() < 4)
        continue;
      uint32_t length = 0;
      for (int i = 3; i >= 0; --i)
        length = (length << 8) | static_cast<uint8_t>(shards[i]);
      shards = shards.drop_front(4);
      llvm::StringRef bytes = shards.take_front(length);
      shards = shards.drop_front(bytes.size());
      llvm::SmallString<128> path(shardDir());
      llvm::sys::path::append(path, name);
      std::error_code ec;
      llvm::raw_fd_ostream out(path, ec);
      if (ec)
        continue;
      out << bytes;
      written.push_back(std::string(path));
    }
  }

  static const mlir::DialectRegistry *registry = [] {
    auto *registry = new mlir::DialectRegistry;
    fuzz::registerImportDialects(*registry);
    return registry;
  }();
  {
    std::unique_ptr<mlir::MLIRContext> context =
        fuzz::makeQuietContext(*registry);
    mlir::OwningOpRef<mlir::ModuleOp> module = tfjs::importTFJSModel(
        std::move(model), shardDir(), tfjs::TFJSImportOptions(),
        context.get());
  }
  removeWritten();
  return 0;
}
