//===- Header.cpp - the C/C++ header of a compiled model --------*- C++ -*-===//
//
// See Header.h. The header is self-contained (only the C standard library)
// so a user compiles it with the object file and nothing else.
//
//===----------------------------------------------------------------------===//

#include "target/cpu/Header.h"
#include "target/cpu/TfcompileHeader.h"

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

//===----------------------------------------------------------------------===//
// Header
//===----------------------------------------------------------------------===//

namespace {

/// "float[1][?][3]" for comments.
std::string describe(const TensorInfo &info) {
  std::string text = info.cType;
  for (int64_t size : info.shape)
    text +=
        ShapedType::isDynamic(size) ? "[?]" : "[" + std::to_string(size) + "]";
  return text;
}

int64_t staticCount(const TensorInfo &info) {
  int64_t count = 1;
  for (int64_t size : info.shape)
    count *= size;
  return count;
}

/// Writes the header; `s` is the symbol (the prefix of every C name).
class HeaderWriter {
public:
  HeaderWriter(const ModelSignature &sig, const HeaderOptions &options,
               llvm::raw_ostream &os)
      : sig(sig), options(options), os(os), s(options.symbol) {}

  llvm::Error write();

private:
  void writePrologue();
  void writeDescriptors();
  void writeCAPI();
  void writeNPU();
  void writeClass(ArrayRef<StringRef> namespaces, StringRef className);

  std::string descName(StringRef kind, size_t i) {
    return llvm::formatv("{0}_{1}{2}_desc", s, kind, i).str();
  }
  unsigned maxRank() const {
    size_t rank = 1;
    for (const auto *list : {&sig.feeds, &sig.fetches})
      for (const TensorInfo &info : *list)
        rank = std::max(rank, info.shape.size());
    return rank;
  }

  const ModelSignature &sig;
  const HeaderOptions &options;
  llvm::raw_ostream &os;
  std::string s;
};

void HeaderWriter::writePrologue() {
  std::string guard = "KILN_GENERATED_" + llvm::StringRef(s).upper() + "_H";
  os << "// " << s << ": generated by kiln-compile";
  if (!options.source.empty())
    os << " from " << options.source;
  os << ". Do not edit.\n//\n";
  os << "// Link this model's object file into your program and include this "
        "header.\n// C++: class "
     << options.cppClass << " (feeds, Run(), fetches).\n// C: " << s
     << "_run(feeds, fetches), then " << s << "_free_fetches(fetches).\n//\n";
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
  os << llvm::join(params, ", ") << ");\n\n";

  if (!sig.variables.empty()) {
    os << "/* Model state: each variable's storage, kept across runs. */\n";
    for (const TensorInfo &var : sig.variables)
      os << "extern " << var.cType << " " << var.symbol << "["
         << std::max<int64_t>(staticCount(var), 1) << "];\n";
    os << "\n";
  }
}

void HeaderWriter::writeNPU() {
  std::string S = llvm::StringRef(s).upper();
  os << "/* Kiln's NPU runtime (runtime/npu/HostCall.h): the first failure of "
        "an NPU\n   segment on the calling thread since it cleared it, or "
        "NULL. */\n";
  os << "const char *kiln_npu_thread_error(void);\n"
        "void kiln_npu_clear_thread_error(void);\n\n";
  os << "/* What " << s << "_run returns when an NPU segment of the run "
        "failed: the\n   fetches are set (the failed segment's outputs are "
        "NaN) and must be freed\n   as after any run, and the program may "
        "run the model again. */\n";
  os << "#define " << S << "_NPU_FAILED (-1)\n\n";
  os << "/* Which NPU segment failed in this thread's last " << s
     << "_run, and why\n   (\"NPU segment 'npu_conv': ...\"), or NULL; "
        "valid until the next run. */\n";
  os << "static inline const char *" << s
     << "_npu_error(void) { return kiln_npu_thread_error(); }\n\n";
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

  os << "/* Runs the model on feeds[0.." << S
     << "_NUM_FEEDS-1] (data and shape set; a\n   static dimension must "
        "match the model's). Sets fetches[0.."
     << S
     << "_NUM_FETCHES-1] to\n   new buffers. Returns 0, or 1 + the "
        "index of the first feed whose shape\n   does not match. */\n";
  os << "static inline int " << s << "_run(const " << s << "_tensor *feeds, "
     << s << "_tensor *fetches) {\n";
  if (sig.feeds.empty())
    os << "  (void)feeds;\n";
  if (sig.fetches.empty())
    os << "  (void)fetches;\n";
  for (auto [i, info] : llvm::enumerate(sig.feeds)) {
    std::string d = "feed" + std::to_string(i);
    os << "  " << descName("feed", i) << " " << d << ";\n";
    for (auto [k, size] : llvm::enumerate(info.shape))
      if (!ShapedType::isDynamic(size))
        os << "  if (feeds[" << i << "].shape[" << k << "] != " << size
           << ") return " << i + 1 << ";\n";
    os << "  " << d << ".allocated = " << d << ".aligned = (" << info.cType
       << " *)feeds[" << i << "].data;\n  " << d << ".offset = 0;\n";
    size_t rank = info.shape.size();
    for (size_t k = 0; k < rank; ++k)
      os << "  " << d << ".sizes[" << k << "] = feeds[" << i << "].shape[" << k
         << "];\n";
    for (size_t k = rank; k-- > 0;) {
      os << "  " << d << ".strides[" << k << "] = ";
      if (k + 1 == rank)
        os << "1;\n";
      else
        os << d << ".strides[" << k + 1 << "] * " << d << ".sizes[" << k + 1
           << "];\n";
    }
  }
  std::string call = "  _mlir_ciface_" + s + "(";
  SmallVector<std::string> args;
  if (sig.fetches.size() == 1) {
    os << "  " << descName("fetch", 0) << " results;\n";
    args.push_back("&results");
  } else if (sig.fetches.size() > 1) {
    os << "  " << s << "_fetches_desc results;\n";
    args.push_back("&results");
  }
  for (size_t i = 0; i < sig.feeds.size(); ++i)
    args.push_back("&feed" + std::to_string(i));
  if (options.npu)
    os << "  kiln_npu_clear_thread_error();\n";
  os << call << llvm::join(args, ", ") << ");\n";
  for (auto [i, info] : llvm::enumerate(sig.fetches)) {
    std::string r = sig.fetches.size() == 1 ? std::string("results")
                                            : "results.f" + std::to_string(i);
    os << "  fetches[" << i << "].data = " << r << ".aligned + " << r
       << ".offset;\n";
    os << "  fetches[" << i << "].allocation = " << r << ".allocated;\n";
    for (size_t k = 0; k < info.shape.size(); ++k)
      os << "  fetches[" << i << "].shape[" << k << "] = " << r << ".sizes["
         << k << "];\n";
  }
  if (options.npu)
    os << "  if (kiln_npu_thread_error()) return " << S << "_NPU_FAILED;\n";
  os << "  return 0;\n}\n\n";

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

void HeaderWriter::writeClass(ArrayRef<StringRef> namespaces,
                              StringRef className) {
  std::string S = llvm::StringRef(s).upper();
  std::string T = s + "_tensor";
  os << "#ifdef __cplusplus\n";
  for (StringRef ns : namespaces)
    os << "namespace " << ns << " {\n";
  os << "\n/// The model as an object: set the feeds, Run(), read the "
        "fetches.\n";
  os << "class " << className << " {\npublic:\n";
  os << "  static constexpr int kNumFeeds = " << sig.feeds.size() << ";\n";
  os << "  static constexpr int kNumFetches = " << sig.fetches.size()
     << ";\n\n";

  // Static tables.
  auto table = [&](StringRef name, StringRef type,
                   const std::vector<TensorInfo> &infos,
                   llvm::function_ref<std::string(const TensorInfo &)> fn) {
    os << "  static " << type << " " << name << "(int i) {\n";
    if (infos.empty()) {
      os << "    (void)i;\n    return "
         << (type.contains('*') ? "nullptr" : "0") << ";\n  }\n";
      return;
    }
    os << "    static const "
       << type.drop_front(type.starts_with("const ") ? 6 : 0) << " table[] = {";
    SmallVector<std::string> entries;
    for (const TensorInfo &info : infos)
      entries.push_back(fn(info));
    os << llvm::join(entries, ", ") << "};\n    return table[i];\n  }\n";
  };
  auto quoted = [](const TensorInfo &info) {
    std::string text = "\"";
    for (char c : info.graphName)
      text +=
          (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return text + "\"";
  };
  auto rank = [](const TensorInfo &info) {
    return std::to_string(info.shape.size());
  };
  auto bytes = [](const TensorInfo &info) {
    return std::to_string(info.elementBytes);
  };
  os << "  /// Names in the graph, ranks and element sizes, by index.\n";
  table("feed_name", "const char *", sig.feeds, quoted);
  table("fetch_name", "const char *", sig.fetches, quoted);
  table("feed_rank", "int", sig.feeds, rank);
  table("fetch_rank", "int", sig.fetches, rank);
  table("feed_element_size", "int", sig.feeds, bytes);
  table("fetch_element_size", "int", sig.fetches, bytes);
  auto typeName = [](const TensorInfo &info) {
    return "\"" + info.cType + "\"";
  };
  os << "  /// C element types (\"float\", \"int32_t\", ...), by index.\n";
  table("feed_type", "const char *", sig.feeds, typeName);
  table("fetch_type", "const char *", sig.fetches, typeName);
  os << "  /// The index of the feed (fetch) with this graph name, or -1.\n";
  for (StringRef kind : {"feed", "fetch"}) {
    os << "  static int " << kind << "_index(const char *name) {\n"
       << "    for (int i = 0; i < kNum"
       << (kind == "feed" ? "Feeds" : "Fetches") << "; ++i)\n      if (strcmp("
       << kind
       << "_name(i), name) == 0)\n        return i;\n    return -1;\n  }\n";
  }
  os << "\n";

  // Construction: feed buffers for the static shape (a dynamic dimension
  // starts at 1).
  os << "  " << className << "() {\n";
  for (auto [i, info] : llvm::enumerate(sig.feeds)) {
    for (auto [k, size] : llvm::enumerate(info.shape))
      os << "    feeds_[" << i << "].shape[" << k
         << "] = " << (ShapedType::isDynamic(size) ? 1 : size) << ";\n";
    os << "    feeds_[" << i << "].data = allocate(feed_bytes(" << i << "));\n";
  }
  os << "  }\n";
  os << "  ~" << className << "() {\n    " << s
     << "_free_fetches(fetches_);\n    for (int i = 0; i < kNumFeeds; ++i)\n"
        "      free(feeds_[i].data);\n  }\n";
  os << "  " << className << "(const " << className << " &) = delete;\n";
  os << "  " << className << " &operator=(const " << className
     << " &) = delete;\n\n";

  os << "  /// Runs the model on the feeds. The previous run's fetches are "
        "freed.\n  /// Returns false if a feed's shape does not match the "
        "model.\n";
  os << "  bool Run() {\n    " << s << "_free_fetches(fetches_);\n    return "
     << s << "_run(feeds_, fetches_) == 0;\n  }\n\n";
  if (options.npu)
    os << "  /// Why the last Run() on this thread returned false for an NPU "
          "segment\n  /// (which segment, what failed), or nullptr.\n"
          "  static const char *npu_error() { return "
       << s << "_npu_error(); }\n\n";

  os << "  /// Feeds: buffers owned by this object, in C order.\n";
  os << "  void *feed_data(int i) { return feeds_[i].data; }\n";
  os << "  const int64_t *feed_shape(int i) const { return feeds_[i].shape; "
        "}\n";
  os << "  int64_t feed_count(int i) const { return count(feeds_[i], "
        "feed_rank(i)); }\n";
  os << "  size_t feed_bytes(int i) const {\n    return size_t(feed_count(i)) "
        "* size_t(feed_element_size(i));\n  }\n";
  bool anyDynamic = false, anyDynamicBatch = false;
  for (const TensorInfo &info : sig.feeds)
    for (auto [k, size] : llvm::enumerate(info.shape))
      if (ShapedType::isDynamic(size)) {
        anyDynamic = true;
        anyDynamicBatch |= k == 0;
      }
  if (anyDynamic) {
    os << "  /// Sets a feed's dimensions (the static ones must stay as they "
          "are) and\n  /// reallocates its buffer. Returns false on a "
          "mismatch.\n";
    os << "  bool set_feed_shape(int i, const int64_t *shape) {\n";
    os << "    static const int64_t fixed[kNumFeeds][" << S << "_MAX_RANK] = {";
    SmallVector<std::string> rows;
    for (const TensorInfo &info : sig.feeds) {
      SmallVector<std::string> dims;
      for (int64_t size : info.shape)
        dims.push_back(std::to_string(ShapedType::isDynamic(size) ? -1 : size));
      if (dims.empty())
        dims.push_back("-1");
      rows.push_back("{" + llvm::join(dims, ", ") + "}");
    }
    os << llvm::join(rows, ", ") << "};\n";
    os << "    for (int k = 0; k < feed_rank(i); ++k)\n"
          "      if (shape[k] < 0 || (fixed[i][k] >= 0 && shape[k] != "
          "fixed[i][k]))\n        return false;\n"
          "    for (int k = 0; k < feed_rank(i); ++k)\n"
          "      feeds_[i].shape[k] = shape[k];\n"
          "    free(feeds_[i].data);\n"
          "    feeds_[i].data = allocate(feed_bytes(i));\n"
          "    return true;\n  }\n";
    if (anyDynamicBatch) {
      os << "  /// Sets the leading (batch) dimension of every feed whose "
            "leading\n  /// dimension is dynamic, and reallocates them.\n";
      os << "  void set_batch_size(int64_t n) {\n";
      for (auto [i, info] : llvm::enumerate(sig.feeds)) {
        if (info.shape.empty() || !ShapedType::isDynamic(info.shape[0]))
          continue;
        os << "    {\n      int64_t shape[" << S << "_MAX_RANK];\n"
           << "      memcpy(shape, feeds_[" << i << "].shape, sizeof shape);\n"
           << "      shape[0] = n;\n      set_feed_shape(" << i
           << ", shape);\n    }\n";
      }
      os << "  }\n";
    }
  }
  for (auto [i, info] : llvm::enumerate(sig.feeds))
    os << "  " << info.cType << " *feed_" << info.name << "_data() { return "
       << "static_cast<" << info.cType << " *>(feeds_[" << i << "].data); }\n";
  os << "\n  /// Fetches: valid after Run() until the next Run().\n";
  os << "  const void *fetch_data(int i) const { return fetches_[i].data; }\n";
  os << "  const int64_t *fetch_shape(int i) const { return "
        "fetches_[i].shape; }\n";
  os << "  int64_t fetch_count(int i) const { return count(fetches_[i], "
        "fetch_rank(i)); }\n";
  os << "  size_t fetch_bytes(int i) const {\n    return "
        "size_t(fetch_count(i)) * size_t(fetch_element_size(i));\n  }\n";
  for (auto [i, info] : llvm::enumerate(sig.fetches))
    os << "  const " << info.cType << " *fetch_" << info.name
       << "_data() const {\n    return static_cast<const " << info.cType
       << " *>(fetches_[" << i << "].data);\n  }\n";
  if (!sig.variables.empty()) {
    os << "\n  /// Variables: the model's state, shared by every instance "
          "and kept across\n  /// runs; set them before the first Run() to "
          "initialize them.\n";
    for (const TensorInfo &var : sig.variables)
      os << "  static " << var.cType << " *var_" << var.name
         << "_data() { return " << var.symbol << "; }\n  static int64_t var_"
         << var.name << "_count() { return " << staticCount(var) << "; }\n";
  }

  os << "\nprivate:\n";
  os << "  static void *allocate(size_t bytes) {\n"
        "    // 64-byte aligned, as the compiled code's own buffers are.\n"
        "    return aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);\n  }\n";
  os << "  static int64_t count(const " << T
     << " &t, int rank) {\n"
        "    int64_t n = 1;\n    for (int k = 0; k < rank; ++k)\n"
        "      n *= t.shape[k];\n    return n;\n  }\n";
  os << "  " << T << " feeds_[kNumFeeds > 0 ? kNumFeeds : 1] = {};\n";
  os << "  " << T << " fetches_[kNumFetches > 0 ? kNumFetches : 1] = {};\n";
  os << "};\n\n";
  for (StringRef ns : llvm::reverse(namespaces))
    os << "} // namespace " << ns << "\n";
  os << "#endif // __cplusplus\n\n";
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

} // namespace

llvm::Error writeHeader(const ModelSignature &signature,
                        const HeaderOptions &options, llvm::raw_ostream &os) {
  return HeaderWriter(signature, options, os).write();
}

} // namespace kiln::cpu
