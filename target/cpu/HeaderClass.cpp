//===- HeaderClass.cpp - the C++ class of a compiled model's header ------===//
//
// HeaderWriter::writeClass: the class over the header's C API (feeds owned
// by the object, Run(), error_msg(), fetches, variables).
//
//===----------------------------------------------------------------------===//

#include "target/cpu/HeaderWriter.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace kiln::cpu::detail {

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
     << ";\n";
  if (sig.arenaBytes)
    os << "  /// Bytes of the arena " << s
       << "_run_with_buffers needs (static memory plan).\n"
       << "  static constexpr size_t kArenaBytes = " << sig.arenaBytes->first
       << ";\n";
  os << "\n";

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
        "      free(feeds_[i].data);\n    if (pool_)\n"
        "      destroy_pool_(pool_);\n  }\n";
  os << "  " << className << "(const " << className << " &) = delete;\n";
  os << "  " << className << " &operator=(const " << className
     << " &) = delete;\n\n";

  os << "  /// Runs the model on the feeds. The previous run's fetches are "
        "freed.\n  /// Returns false (error_msg() says why) if a feed's shape "
        "does not match\n  /// the model or a run-time check of the model "
        "fails.\n";
  os << "  bool Run() {\n    " << s << "_free_fetches(fetches_);\n"
     << "    kiln_cpu_pool *previous = pool_ ? set_pool_(pool_) : nullptr;\n"
     << "    status_ = " << s << "_run(feeds_, fetches_);\n"
     << "    if (pool_)\n      set_pool_(previous);\n"
     << "    return status_ == 0;\n  }\n";
  // The runtime is referenced only from set_threads (through pointers kept
  // for Run() and the destructor), so a program that never calls it links
  // the object alone.
  os << "  /// Runs the model's parallel loops on `n` threads (this one "
        "included) from\n  /// now on: a pool of Kiln's CPU thread runtime, "
        "which the program must\n  /// then link (libkiln-cpu-threads.a, "
        "-lpthread). 1 (the default) runs\n  /// everything on the calling "
        "thread. The results are the same for any n.\n  /// Returns false "
        "when n < 1 or the pool cannot be started.\n";
  os << "  bool set_threads(int n) {\n"
        "    kiln_cpu_pool *pool = nullptr;\n"
        "    if (n < 1 || (n > 1 && !(pool = kiln_cpu_pool_create(n))))\n"
        "      return false;\n"
        "    if (pool_)\n      destroy_pool_(pool_);\n"
        "    pool_ = pool;\n"
        "    set_pool_ = &kiln_cpu_set_thread_pool;\n"
        "    destroy_pool_ = &kiln_cpu_pool_destroy;\n"
        "    threads_ = n;\n"
        "    return true;\n  }\n";
  os << "  /// The threads Run() uses.\n";
  os << "  int threads() const { return threads_; }\n";
  os << "  /// Why the last Run() failed; \"\" after a successful one.\n";
  os << "  const char *error_msg() const {\n    return status_ == 0 ? \"\" : "
     << s << "_error_message(status_);\n  }\n";
  os << "  /// The error code of the last Run() (" << S
     << "_ERROR_*), 0 on success.\n";
  os << "  int status() const { return status_; }\n\n";
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
  os << "  int status_ = 0;\n";
  os << "  kiln_cpu_pool *pool_ = nullptr;\n";
  os << "  kiln_cpu_pool *(*set_pool_)(kiln_cpu_pool *) = nullptr;\n";
  os << "  void (*destroy_pool_)(kiln_cpu_pool *) = nullptr;\n";
  os << "  int threads_ = 1;\n";
  os << "};\n\n";
  for (StringRef ns : llvm::reverse(namespaces))
    os << "} // namespace " << ns << "\n";
  os << "#endif // __cplusplus\n\n";
}

} // namespace kiln::cpu::detail
