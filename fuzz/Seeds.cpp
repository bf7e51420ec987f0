//===- Seeds.cpp - kiln-fuzz-seeds: seed corpora from the tree's inputs ---===//
//
//   kiln-fuzz-seeds pb OUT FILE...           text GraphDefs as binary ones
//   kiln-fuzz-seeds tfjs OUT MODEL.JSON...   a model.json and its shards,
//                                            framed as kiln-fuzz-tfjs reads
//   kiln-fuzz-seeds split OUT SUFFIX FILE... split-file sections
//                                            (`//--- name`, `#--- name`)
//                                            whose name ends with SUFFIX,
//                                            or, in a file without
//                                            sections that itself ends with
//                                            SUFFIX, its `// -----` chunks
//   kiln-fuzz-seeds npub OUT                 example convolution programs
//
// Inputs that do not convert are skipped; each mode prints how many seeds
// it wrote. fuzz/MakeSeeds.cmake runs it over the tree (docs/reliability.md).
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Examples.h"
#include "runtime/npu/Format.h"
#include "translate/graphdef/ImportGraphDef.h"
#include "translate/tfjs/ImportTFJS.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <string>

using llvm::StringRef;

namespace {

int written = 0;

/// Writes `bytes` to OUT/`name`; false (with a message) if it cannot.
bool write(StringRef out, const llvm::Twine &name, StringRef bytes) {
  llvm::SmallString<256> path(out);
  llvm::sys::path::append(path, name);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "kiln-fuzz-seeds: cannot write '" << path
                 << "': " << ec.message() << "\n";
    return false;
  }
  os << bytes;
  ++written;
  return true;
}

std::unique_ptr<llvm::MemoryBuffer> read(StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return nullptr;
  return std::move(*file);
}

/// A seed name from a source path: its parent directory and file name.
std::string seedName(StringRef path) {
  StringRef parent =
      llvm::sys::path::filename(llvm::sys::path::parent_path(path));
  return (parent + "-" + llvm::sys::path::filename(path)).str();
}

bool binaryGraphDefs(StringRef out, llvm::ArrayRef<const char *> files) {
  for (StringRef file : files) {
    auto buffer = read(file);
    if (!buffer)
      continue;
    llvm::raw_null_ostream errors;
    auto graph =
        kiln::graphdef::parseGraphDef(buffer->getBuffer(), "pbtxt", errors);
    if (graph &&
        !write(out, seedName(file) + ".pb", graph->SerializeAsString()))
      return false;
  }
  return true;
}

bool tfjsModels(StringRef out, llvm::ArrayRef<const char *> files) {
  for (StringRef file : files) {
    auto buffer = read(file);
    if (!buffer)
      continue;
    llvm::raw_null_ostream errors;
    auto model = kiln::tfjs::parseModelJson(buffer->getBuffer(), errors);
    if (!model)
      continue;
    std::string seed = buffer->getBuffer().str();
    seed.push_back('\0');
    bool complete = true;
    for (const auto &group : model->weights_manifest())
      for (const std::string &shardName : group.paths()) {
        llvm::SmallString<256> path(llvm::sys::path::parent_path(file));
        llvm::sys::path::append(path, shardName);
        auto shard = read(path);
        if (!shard) {
          complete = false;
          continue;
        }
        uint32_t size = shard->getBufferSize();
        for (int i = 0; i < 4; ++i)
          seed.push_back(static_cast<char>(size >> (8 * i)));
        seed += shard->getBuffer();
      }
    if (complete && !write(out, seedName(file) + ".tfjs", seed))
      return false;
  }
  return true;
}

bool splitFiles(StringRef out, StringRef suffix,
                llvm::ArrayRef<const char *> files) {
  for (StringRef file : files) {
    auto buffer = read(file);
    if (!buffer)
      continue;
    llvm::SmallVector<StringRef> lines;
    buffer->getBuffer().split(lines, '\n');
    // split-file sections.
    std::string name, text;
    bool sections = false;
    auto flush = [&] {
      if (!name.empty() && StringRef(name).ends_with(suffix))
        return write(out, seedName(file) + "-" + name, text);
      return true;
    };
    for (StringRef line : lines) {
      StringRef marker = line;
      if (marker.consume_front("//--- ") || marker.consume_front("#--- ")) {
        if (!flush())
          return false;
        sections = true;
        name = marker.trim().str();
        std::replace(name.begin(), name.end(), '/', '_');
        text.clear();
        continue;
      }
      if (sections)
        (text += line) += '\n';
    }
    if (sections) {
      if (!flush())
        return false;
      continue;
    }
    if (!file.ends_with(suffix))
      continue;
    // `// -----` chunks (kiln-opt -split-input-file).
    int chunk = 0;
    text.clear();
    for (StringRef line : lines) {
      if (line.trim() == "// -----") {
        if (!write(out, seedName(file) + "." + llvm::Twine(chunk++), text))
          return false;
        text.clear();
        continue;
      }
      (text += line) += '\n';
    }
    if (!write(out, seedName(file) + "." + llvm::Twine(chunk), text))
      return false;
  }
  return true;
}

bool npubExamples(StringRef out) {
  struct Variant {
    const char *name;
    unsigned h, w, cin, cout, rowsPerTile;
    bool doubleBuffer;
  };
  const Variant variants[] = {{"conv-8x8x16", 8, 8, 16, 16, 4, true},
                              {"conv-4x4x16-single", 4, 4, 16, 32, 2, false},
                              {"conv-8x4x32", 8, 4, 32, 16, 8, true}};
  for (const Variant &v : variants) {
    kiln::npu::ConvExampleOptions options;
    options.h = v.h;
    options.w = v.w;
    options.cin = v.cin;
    options.cout = v.cout;
    options.rowsPerTile = v.rowsPerTile;
    options.doubleBuffer = v.doubleBuffer;
    std::vector<uint8_t> bytes = kiln::npu::writeProgram(
        kiln::npu::buildConvExample(options).program);
    if (!write(out, llvm::Twine(v.name) + ".npub",
               StringRef(reinterpret_cast<const char *>(bytes.data()),
                         bytes.size())))
      return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    llvm::errs() << "usage: kiln-fuzz-seeds pb|tfjs|split|npub OUT ...\n";
    return 1;
  }
  StringRef mode = argv[1], out = argv[2];
  if (std::error_code ec = llvm::sys::fs::create_directories(out)) {
    llvm::errs() << "kiln-fuzz-seeds: cannot create '" << out
                 << "': " << ec.message() << "\n";
    return 1;
  }
  llvm::ArrayRef<const char *> rest(argv + 3, argv + argc);
  bool ok;
  if (mode == "pb") {
    ok = binaryGraphDefs(out, rest);
  } else if (mode == "tfjs") {
    ok = tfjsModels(out, rest);
  } else if (mode == "split" && !rest.empty()) {
    ok = splitFiles(out, rest.front(), rest.drop_front());
  } else if (mode == "npub") {
    ok = npubExamples(out);
  } else {
    llvm::errs() << "kiln-fuzz-seeds: unknown mode '" << mode << "'\n";
    return 1;
  }
  llvm::outs() << "kiln-fuzz-seeds " << mode << ": wrote " << written
               << " seeds to " << out << "\n";
  return ok ? 0 : 1;
}
