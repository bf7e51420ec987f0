//===- Header.cpp - the C/C++ header of a compiled model --------*- C++ -*-===//
//
// See Header.h. The header is self-contained (only the C standard library)
// so a user compiles it with the object file and nothing else.
//
// The C entries every generated API (this header's <symbol>_run and C++
// class, the tfcompile-style class, other targets' wrappers) is built on:
//
//   void _mlir_ciface_<symbol>(Results *results, Feed0 *feed0, ...);
//   int32_t _mlir_ciface_<symbol>_check(Feed0 *feed0, ...);   // optional
//   void _mlir_ciface_<symbol>_with_buffers(Feed0 *feed0, ...,
//       Fetch0 *fetch0, ..., Arena *arena);                   // optional
//
// Feed<i>, Fetch<i> and Arena are MLIR memref descriptors {T *allocated;
// T *aligned; int64_t offset; int64_t sizes[rank]; int64_t strides[rank];}
// (C order: strides are suffix products of the sizes; Arena is uint8_t of
// rank 1). `results` points at one descriptor when there is one fetch, at a
// struct of them side by side when there are several, and is absent when
// there is none; the entry fills them with buffers it malloc'ed (the caller
// frees `allocated` unless it is an input's or a variable's storage).
//
// `_check` exists when the model has run-time checks
// (kiln-cpu-runtime-checks; ModelSignature::runtimeChecks): it reads only
// the feeds' sizes, allocates nothing, and returns 0 or 1 + the index of
// the first failing check. Callers run it first and call an entry only on
// 0: the entries assume the checks hold (otherwise they would compute on
// inconsistent sizes).
//
// `_with_buffers` exists when every shape is static
// (kiln-cpu-caller-buffers; ModelSignature::arenaBytes): it writes fetch i
// into the caller's buffer `fetch<i>` (the model's shape, C order) and uses
// `arena` (ModelSignature::arenaBytes->first bytes, 64-byte aligned, may be
// overwritten) for everything else; it makes no call to the allocator.
// `_mlir_ciface_<symbol>` is then a wrapper that allocates both and calls it.
//
// <symbol>_run and <symbol>_run_with_buffers (HeaderCAPI.cpp) return 0 or
// an error code, in order: 1 + i for feed i's shape (a static size differs,
// a size is negative), 1 + F + i for feed i's NULL data, 1 + 2F for a NULL
// feeds or fetches array, 2 + 2F + j for fetch buffer j's shape, 2 + 2F + R
// + j for its NULL data, 2 + 2F + 2R for the arena, 3 + 2F + 2R + k for
// run-time check k (F feeds, R fetches); <symbol>_error_message(code) is
// the message of each.
//
//===----------------------------------------------------------------------===//

#include "target/cpu/Header.h"
#include "target/cpu/TfcompileHeader.h"

#include "target/cpu/HeaderWriter.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace kiln::cpu {

//===----------------------------------------------------------------------===//
// Signature
//===----------------------------------------------------------------------===//

namespace {

/// The C type and size of a tensor element, or failure.
FailureOr<std::pair<std::string, unsigned>> getCType(Type element) {
  if (element.isF32())
    return std::make_pair(std::string("float"), 4u);
  if (element.isF64())
    return std::make_pair(std::string("double"), 8u);
  if (element.isF16() || element.isBF16())
    return std::make_pair(std::string("uint16_t"), 2u);
  if (auto integer = dyn_cast<IntegerType>(element)) {
    unsigned width = integer.getWidth();
    if (width == 1)
      return std::make_pair(std::string("bool"), 1u);
    if (width == 8 || width == 16 || width == 32 || width == 64)
      return std::make_pair((integer.isUnsigned() ? "uint" : "int") +
                                std::to_string(width) + "_t",
                            width / 8);
  }
  return failure();
}

/// Splits TensorFlow's "a,b,c" name list; empty when `list` is empty.
SmallVector<std::string> splitNames(StringRef list) {
  SmallVector<std::string> names;
  if (list.empty())
    return names;
  SmallVector<StringRef> parts;
  list.split(parts, ',');
  for (StringRef part : parts)
    names.push_back(part.trim().str());
  return names;
}

/// Fills `infos` for `types`, naming them from `graphNames` (or
/// `<fallback><i>`), with unique C identifiers.
LogicalResult fillTensors(func::FuncOp entry, TypeRange types,
                          ArrayRef<std::string> graphNames, StringRef fallback,
                          StringRef what, std::vector<TensorInfo> &infos) {
  llvm::StringSet<> taken;
  for (auto [index, type] : llvm::enumerate(types)) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return entry.emitError()
             << what << " " << index << " has type " << type
             << "; a compiled model needs ranked tensors at its interface";
    auto cType = getCType(tensor.getElementType());
    if (failed(cType))
      return entry.emitError()
             << what << " " << index << " has element type "
             << tensor.getElementType() << ", which has no C equivalent";
    TensorInfo info;
    info.graphName = index < graphNames.size() && !graphNames[index].empty()
                         ? graphNames[index]
                         : (fallback + Twine(index)).str();
    std::string name = makeCIdentifier(info.graphName);
    if (!taken.insert(name).second)
      name += "_" + std::to_string(index);
    taken.insert(name);
    info.name = name;
    info.cType = cType->first;
    info.elementBytes = cType->second;
    info.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
    infos.push_back(std::move(info));
  }
  return success();
}

} // namespace

std::string makeCIdentifier(StringRef name) {
  // "node:0" is the node's first output: the node's name is enough.
  if (name.ends_with(":0"))
    name = name.drop_back(2);
  std::string id;
  for (char c : name)
    id += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (id.empty() || llvm::isDigit(id.front()))
    id = "_" + id;
  return id;
}

FailureOr<ModelSignature> readSignature(func::FuncOp entry) {
  SmallVector<std::string> inputs, outputs;
  if (auto info = entry->getAttrOfType<DictionaryAttr>("tf.entry_function")) {
    if (auto list = info.getAs<StringAttr>("inputs"))
      inputs = splitNames(list.getValue());
    if (auto list = info.getAs<StringAttr>("outputs"))
      outputs = splitNames(list.getValue());
  }
  ModelSignature signature;
  FunctionType type = entry.getFunctionType();
  if (failed(fillTensors(entry, type.getInputs(), inputs, "arg", "feed",
                         signature.feeds)) ||
      failed(fillTensors(entry, type.getResults(), outputs, "result", "fetch",
                         signature.fetches)))
    return failure();
  return signature;
}

LogicalResult readVariables(ModuleOp module, ModelSignature &signature) {
  llvm::StringSet<> taken;
  for (auto global : module.getOps<memref::GlobalOp>()) {
    if (global.isPrivate() || global.getConstant())
      continue;
    MemRefType type = global.getType();
    auto cType = getCType(type.getElementType());
    if (failed(cType))
      return global.emitError("variable of element type ")
             << type.getElementType() << " has no C equivalent";
    TensorInfo info;
    info.symbol = global.getSymName().str();
    info.graphName = info.symbol;
    if (auto name = global->getAttrOfType<StringAttr>("kiln.variable"))
      info.graphName = name.getValue().str();
    // An imported variable keeps its VarHandleOp's location: the node name.
    if (auto node = dyn_cast<NameLoc>(global.getLoc()))
      info.graphName = node.getName().str();
    info.name = makeCIdentifier(info.graphName);
    if (!taken.insert(info.name).second)
      info.name = makeCIdentifier(info.symbol);
    info.cType = cType->first;
    info.elementBytes = cType->second;
    info.shape.assign(type.getShape().begin(), type.getShape().end());
    signature.variables.push_back(std::move(info));
  }
  return success();
}

void readCompiledEntry(ModuleOp module, StringRef symbol,
                       ModelSignature &signature) {
  signature.runtimeChecks.clear();
  auto checks = module->getAttrOfType<DictionaryAttr>("kiln.runtime_checks");
  if (auto messages = checks ? checks.getAs<ArrayAttr>(symbol) : ArrayAttr())
    for (auto message : messages.getAsRange<StringAttr>())
      signature.runtimeChecks.push_back(message.str());
  signature.arenaBytes.reset();
  auto arenas = module->getAttrOfType<DictionaryAttr>("kiln.arena");
  if (auto arena =
          arenas ? arenas.getAs<DenseI64ArrayAttr>(symbol) : DenseI64ArrayAttr();
      arena && arena.size() == 2)
    signature.arenaBytes = std::make_pair(arena[0], arena[1]);
}

//===----------------------------------------------------------------------===//
// Header
//===----------------------------------------------------------------------===//

/// "float[1][?][3]" for comments.
std::string detail::describe(const TensorInfo &info) {
  std::string text = info.cType;
  for (int64_t size : info.shape)
    text +=
        ShapedType::isDynamic(size) ? "[?]" : "[" + std::to_string(size) + "]";
  return text;
}

int64_t detail::staticCount(const TensorInfo &info) {
  int64_t count = 1;
  for (int64_t size : info.shape)
    count *= size;
  return count;
}

/// `text` as a C string literal.
std::string detail::cString(StringRef text) {
  std::string literal = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      literal += '\\';
    if (c == '\n') {
      literal += "\\n";
      continue;
    }
    // "??x" would be a trigraph in old C.
    if (c == '?' && !literal.empty() && literal.back() == '?')
      literal += "\"\"";
    literal += c;
  }
  return literal + "\"";
}

namespace detail {

void HeaderWriter::writePrologue() {
  std::string guard = "KILN_GENERATED_" + llvm::StringRef(s).upper() + "_H";
  os << "// " << s << ": generated by kiln-compile";
  if (!options.source.empty())
    os << " from " << options.source;
  os << ". Do not edit.\n//\n";
  os << "// Link this model's object file into your program and include this "
        "header.\n// C++: class "
     << options.cppClass << " (feeds, Run(), error_msg(), fetches).\n// C: "
     << s << "_run(feeds, fetches), then " << s
     << "_free_fetches(fetches); a non-zero\n// result is an error code, "
     << s << "_error_message(code) its message.\n";
  if (sig.arenaBytes)
    os << "// Without allocation: " << s
       << "_run_with_buffers(feeds, fetches, arena, bytes),\n// arena of "
       << llvm::StringRef(s).upper() << "_ARENA_BYTES = " << sig.arenaBytes->first
       << " bytes (" << sig.arenaBytes->second
       << " bytes of intermediate tensors).\n";
  else
    os << "// Dynamic shapes: no static memory plan; " << s
       << "_run allocates on each call.\n";
  os << "//\n";
  if (options.npu)
    os << "// Target npu: the object runs its NPU segments through Kiln's NPU "
          "runtime\n// (kiln_npu_run, runtime/npu/HostCall.h; in this build "
          "the NPU-v1 simulator).\n// Link it with libKilnNPURuntime.a, "
          "abseil (status, statusor, strings,\n// str_format), zlib and the "
          "C++ standard library, as pkg-config says (PKG_CONFIG_PATH=\n"
          "// <Kiln's prefix>/lib/pkgconfig), e.g.\n"
          "//   cc main.c model.o $(pkg-config --libs kiln-npu-runtime)\n"
       << "// or in CMake kiln_add_compiled_model(... TARGET npu), which links "
          "it.\n// " << s << "_run returns " << llvm::StringRef(s).upper()
       << "_NPU_FAILED when an NPU segment failed;\n// " << s
       << "_npu_error() says which and why.\n//\n";
  auto list = [&](StringRef kind, const std::vector<TensorInfo> &infos) {
    for (auto [i, info] : llvm::enumerate(infos))
      os << "//   " << kind << " " << i << ": " << info.name << " = \""
         << info.graphName << "\", " << describe(info) << "\n";
  };
  list("feed", sig.feeds);
  list("fetch", sig.fetches);
  list("variable", sig.variables);
  os << "\n#ifndef " << guard << "\n#define " << guard << "\n\n";
  os << "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n"
        "#include <stdlib.h>\n#include <string.h>\n\n";
  os << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
}

void HeaderWriter::writeDescriptors() {
  os << "/* MLIR memref descriptors of the entry's C interface. */\n";
  auto desc = [&](const TensorInfo &info, StringRef name) {
    os << "typedef struct {\n  " << info.cType << " *allocated;\n  "
       << info.cType << " *aligned;\n  int64_t offset;\n";
    if (!info.shape.empty())
      os << "  int64_t sizes[" << info.shape.size() << "];\n  int64_t strides["
         << info.shape.size() << "];\n";
    os << "} " << name << ";\n";
  };
  for (auto [i, info] : llvm::enumerate(sig.feeds))
    desc(info, descName("feed", i));
  for (auto [i, info] : llvm::enumerate(sig.fetches))
    desc(info, descName("fetch", i));
  if (sig.fetches.size() > 1) {
    os << "typedef struct {\n";
    for (size_t i = 0; i < sig.fetches.size(); ++i)
      os << "  " << descName("fetch", i) << " f" << i << ";\n";
    os << "} " << s << "_fetches_desc;\n";
  }
  os << "\n/* The compiled entry (in the object file). */\n";
  os << "void _mlir_ciface_" << s << "(";
  SmallVector<std::string> params;
  if (sig.fetches.size() == 1)
    params.push_back(descName("fetch", 0) + " *results");
  else if (sig.fetches.size() > 1)
    params.push_back(s + "_fetches_desc *results");
  for (size_t i = 0; i < sig.feeds.size(); ++i)
    params.push_back(descName("feed", i) + " *feed" + std::to_string(i));
  if (params.empty())
    os << "void";
  os << llvm::join(params, ", ") << ");\n";
  if (!sig.runtimeChecks.empty()) {
    os << "/* The run-time checks (in the object file): 0, or 1 + the index of "
          "the\n   first that fails. */\n";
    os << "int32_t _mlir_ciface_" << s << "_check(";
    SmallVector<std::string> feeds;
    for (size_t i = 0; i < sig.feeds.size(); ++i)
      feeds.push_back(descName("feed", i) + " *feed" + std::to_string(i));
    if (feeds.empty())
      os << "void";
    os << llvm::join(feeds, ", ") << ");\n";
  }
  if (sig.arenaBytes) {
    os << "typedef struct {\n  uint8_t *allocated;\n  uint8_t *aligned;\n"
          "  int64_t offset;\n  int64_t sizes[1];\n  int64_t strides[1];\n} "
       << s << "_arena_desc;\n";
    os << "/* The model writing into the caller's fetch buffers and arena "
          "(allocates\n   nothing). */\n";
    os << "void _mlir_ciface_" << s << "_with_buffers(";
    SmallVector<std::string> params;
    for (size_t i = 0; i < sig.feeds.size(); ++i)
      params.push_back(descName("feed", i) + " *feed" + std::to_string(i));
    for (size_t i = 0; i < sig.fetches.size(); ++i)
      params.push_back(descName("fetch", i) + " *fetch" + std::to_string(i));
    params.push_back(s + "_arena_desc *arena");
    os << llvm::join(params, ", ") << ");\n";
  }
  os << "\n";

  if (!sig.variables.empty()) {
    os << "/* Model state: each variable's storage, kept across runs. */\n";
    for (const TensorInfo &var : sig.variables)
      os << "extern " << var.cType << " " << var.symbol << "["
         << std::max<int64_t>(staticCount(var), 1) << "];\n";
    os << "\n";
  }
}

void HeaderWriter::writeCAPI() {
  std::string S = llvm::StringRef(s).upper();
  os << "#define " << S << "_NUM_FEEDS " << sig.feeds.size() << "\n";
  os << "#define " << S << "_NUM_FETCHES " << sig.fetches.size() << "\n";
  os << "#define " << S << "_MAX_RANK " << maxRank() << "\n\n";
  os << "/* A feed or fetch: `data` in C order with dimensions `shape`. For a\n"
        "   fetch, `allocation` is the buffer to free ("
     << s << "_free_fetches). */\n";
  os << "typedef struct {\n  void *data;\n  void *allocation;\n  int64_t "
        "shape["
     << S << "_MAX_RANK];\n} " << s << "_tensor;\n\n";
  writeThreads();
  writeErrors();
  writeRun();
  writeRunWithBuffers();

  // What a generic C program (a loader of .npy files, a server) needs to
  // know about each feed and fetch, as the C++ class's tables tell it.
  os << "/* Ranks, element sizes and C element types of the feeds and "
        "fetches, by\n   index. */\n";
  auto table = [&](StringRef name, StringRef type,
                   const std::vector<TensorInfo> &infos,
                   llvm::function_ref<std::string(const TensorInfo &)> fn) {
    os << "static inline " << type << " " << s << "_" << name
       << "(int i) {\n";
    if (infos.empty()) {
      os << "  (void)i;\n  return " << (type.contains('*') ? "NULL" : "0")
         << ";\n}\n";
      return;
    }
    SmallVector<std::string> entries;
    for (const TensorInfo &info : infos)
      entries.push_back(fn(info));
    os << "  static " << type << " const table[] = {"
       << llvm::join(entries, ", ") << "};\n  return table[i];\n}\n";
  };
  auto rank = [](const TensorInfo &info) {
    return std::to_string(info.shape.size());
  };
  auto bytes = [](const TensorInfo &info) {
    return std::to_string(info.elementBytes);
  };
  auto cType = [](const TensorInfo &info) {
    return "\"" + info.cType + "\"";
  };
  table("feed_rank", "int", sig.feeds, rank);
  table("fetch_rank", "int", sig.fetches, rank);
  table("feed_element_size", "int", sig.feeds, bytes);
  table("fetch_element_size", "int", sig.fetches, bytes);
  table("feed_type", "const char *", sig.feeds, cType);
  table("fetch_type", "const char *", sig.fetches, cType);
  // The static sizes, for programs that allocate fetch buffers themselves.
  os << "/* Dimension k of feed (fetch) i as the model declares it; -1 when "
        "dynamic. */\n";
  for (StringRef kind : {"feed", "fetch"}) {
    const std::vector<TensorInfo> &infos =
        kind == "feed" ? sig.feeds : sig.fetches;
    os << "static inline int64_t " << s << "_" << kind
       << "_dim(int i, int k) {\n";
    if (infos.empty()) {
      os << "  (void)i;\n  (void)k;\n  return -1;\n}\n";
      continue;
    }
    SmallVector<std::string> rows;
    for (const TensorInfo &info : infos) {
      SmallVector<std::string> dims;
      for (int64_t size : info.shape)
        dims.push_back(std::to_string(ShapedType::isDynamic(size) ? -1 : size));
      if (dims.empty())
        dims.push_back("-1");
      rows.push_back("{" + llvm::join(dims, ", ") + "}");
    }
    os << "  static const int64_t table[][" << S << "_MAX_RANK] = {"
       << llvm::join(rows, ", ") << "};\n  return table[i][k];\n}\n";
  }
  os << "\n";

  os << "/* Frees the buffers " << s << "_run gave the fetches. */\n";
  os << "static inline void " << s << "_free_fetches(" << s
     << "_tensor *fetches) {\n";
  if (sig.fetches.empty())
    os << "  (void)fetches;\n";
  else
    os << "  for (int i = 0; i < " << S << "_NUM_FETCHES; ++i) {\n"
       << "    free(fetches[i].allocation);\n"
       << "    fetches[i].allocation = NULL;\n    fetches[i].data = NULL;\n"
       << "  }\n";
  os << "}\n\n";
  os << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n";
}

llvm::Error HeaderWriter::write() {
  SmallVector<StringRef> parts;
  StringRef(options.cppClass).split(parts, "::");
  auto isIdentifier = [](StringRef id) {
    return !id.empty() && !llvm::isDigit(id.front()) &&
           llvm::all_of(id,
                        [](char c) { return llvm::isAlnum(c) || c == '_'; });
  };
  for (StringRef part : parts)
    if (!isIdentifier(part))
      return llvm::createStringError(
          "--cpp-class '%s' is not a C++ class name (ns::Name)",
          options.cppClass.c_str());
  if (!isIdentifier(s))
    return llvm::createStringError("symbol '%s' is not a C identifier",
                                   s.c_str());
  if (options.api == HeaderAPI::Tfcompile)
    if (llvm::Error e = checkTfcompileSignature(sig))
      return e;
  writePrologue();
  writeDescriptors();
  if (options.npu)
    writeNPU();
  writeCAPI();
  if (options.api == HeaderAPI::Tfcompile)
    writeTfcompileClass(sig, options, ArrayRef<StringRef>(parts).drop_back(),
                        parts.back(), os);
  else
    writeClass(ArrayRef<StringRef>(parts).drop_back(), parts.back());
  os << "#endif // KILN_GENERATED_" << llvm::StringRef(s).upper() << "_H\n";
  return llvm::Error::success();
}

} // namespace detail

llvm::Error writeHeader(const ModelSignature &signature,
                        const HeaderOptions &options, llvm::raw_ostream &os) {
  return detail::HeaderWriter(signature, options, os).write();
}

} // namespace kiln::cpu
