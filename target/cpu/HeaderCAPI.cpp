//===- HeaderCAPI.cpp - the C entry points of a model's header -----------===//
//
// HeaderWriter's C functions over the object's entries (see the top of
// Header.cpp): the error codes and their messages, <symbol>_run (the
// allocating API) and <symbol>_run_with_buffers (caller buffers and arena,
// no allocation), both checking their arguments and running the model's
// run-time checks before the model.
//
//===----------------------------------------------------------------------===//

#include "target/cpu/HeaderWriter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace mlir;

namespace kiln::cpu::detail {

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

void HeaderWriter::writeThreads() {
  os << "/* Threads (Kiln's CPU thread runtime, runtime/cpu/threads/"
        "ThreadPool.h).\n"
        "   The model's parallel loops run on the pool of the thread that "
        "calls\n   "
     << s
     << "_run; with no pool set, or when the program does not link the\n"
        "   runtime (libkiln-cpu-threads.a and -lpthread; the object refers "
        "to it\n   weakly), on that thread alone. The results are the same "
        "for any number\n   of threads. Creating a pool starts its threads; "
        "running allocates nothing:\n"
        "     kiln_cpu_pool *pool = kiln_cpu_pool_create(2);\n"
        "     kiln_cpu_pool *previous = kiln_cpu_set_thread_pool(pool);\n"
        "     ... "
     << s
     << "_run(...) ...\n"
        "     kiln_cpu_set_thread_pool(previous);\n"
        "     kiln_cpu_pool_destroy(pool); */\n";
  os << "#ifndef KILN_CPU_POOL_DECLARED\n#define KILN_CPU_POOL_DECLARED\n"
        "typedef struct kiln_cpu_pool kiln_cpu_pool;\n#endif\n"
        "kiln_cpu_pool *kiln_cpu_pool_create(int num_threads);\n"
        "void kiln_cpu_pool_destroy(kiln_cpu_pool *pool);\n"
        "int kiln_cpu_pool_num_threads(const kiln_cpu_pool *pool);\n"
        "kiln_cpu_pool *kiln_cpu_set_thread_pool(kiln_cpu_pool *pool);\n"
        "kiln_cpu_pool *kiln_cpu_get_thread_pool(void);\n\n";
}

void HeaderWriter::writeErrors() {
  std::string S = llvm::StringRef(s).upper();
  size_t numFeeds = sig.feeds.size(), numFetches = sig.fetches.size();
  os << "/* Error codes of " << s << "_run and " << s
     << "_run_with_buffers: 0 is success. */\n";
  os << "#define " << S << "_ERROR_FEED_SHAPE 1 /* + feed index */\n";
  os << "#define " << S << "_ERROR_FEED_NULL " << 1 + numFeeds
     << " /* + feed index */\n";
  os << "#define " << S << "_ERROR_NULL_ARGUMENT " << 1 + 2 * numFeeds << "\n";
  os << "#define " << S << "_ERROR_FETCH_SHAPE " << 2 + 2 * numFeeds
     << " /* + fetch index */\n";
  os << "#define " << S << "_ERROR_FETCH_NULL "
     << 2 + 2 * numFeeds + numFetches << " /* + fetch index */\n";
  os << "#define " << S << "_ERROR_ARENA " << 2 + 2 * numFeeds + 2 * numFetches
     << "\n";
  os << "#define " << S << "_ERROR_RUNTIME_CHECK "
     << 3 + 2 * numFeeds + 2 * numFetches << " /* + check index */\n";
  os << "#define " << S << "_NUM_RUNTIME_CHECKS " << sig.runtimeChecks.size()
     << "\n\n";

  SmallVector<std::string> messages = {"no error"};
  auto each = [&](const std::vector<TensorInfo> &infos, StringRef kind,
                  StringRef what, bool withType) {
    for (auto [i, info] : llvm::enumerate(infos))
      messages.push_back((kind + " " + Twine(i) + " (" + info.graphName +
                          "): " + what + (withType ? describe(info) : ""))
                             .str());
  };
  each(sig.feeds, "feed", "shape does not match the model's ", true);
  each(sig.feeds, "feed", "data is NULL", false);
  messages.push_back("the feeds or fetches array is NULL");
  each(sig.fetches, "fetch", "buffer shape does not match the model's ",
       true);
  each(sig.fetches, "fetch", "buffer is NULL", false);
  messages.push_back("the arena is NULL, smaller than " + S +
                     "_ARENA_BYTES or not aligned to " + S +
                     "_ARENA_ALIGNMENT bytes");
  for (const std::string &check : sig.runtimeChecks)
    messages.push_back("run-time check failed: " + check);
  os << "/* The message of an error code (a constant string). */\n";
  os << "static inline const char *" << s << "_error_message(int code) {\n";
  os << "  static const char *const messages[] = {\n";
  for (const std::string &message : messages)
    os << "      " << cString(message) << ",\n";
  os << "  };\n";
  if (options.npu)
    os << "  if (code == " << llvm::StringRef(s).upper()
       << "_NPU_FAILED)\n    return \"an NPU segment failed (" << s
       << "_npu_error() says which and why)\";\n";
  os << "  if (code < 0 || code >= (int)(sizeof messages / sizeof "
        "messages[0]))\n    return \"unknown error code\";\n"
        "  return messages[code];\n}\n\n";
}

void HeaderWriter::writeFeedChecks() {
  std::string S = llvm::StringRef(s).upper();
  SmallVector<std::string> nullChecks;
  if (!sig.feeds.empty())
    nullChecks.push_back("!feeds");
  else
    os << "  (void)feeds;\n";
  if (!sig.fetches.empty())
    nullChecks.push_back("!fetches");
  else
    os << "  (void)fetches;\n";
  if (!nullChecks.empty())
    os << "  if (" << llvm::join(nullChecks, " || ") << ")\n    return " << S
       << "_ERROR_NULL_ARGUMENT;\n";
  for (auto [i, info] : llvm::enumerate(sig.feeds)) {
    std::string d = "feed" + std::to_string(i);
    std::string f = "feeds[" + std::to_string(i) + "]";
    os << "  " << descName("feed", i) << " " << d << ";\n";
    SmallVector<std::string> bad;
    for (auto [k, size] : llvm::enumerate(info.shape))
      bad.push_back(f + ".shape[" + std::to_string(k) + "]" +
                    (ShapedType::isDynamic(size)
                         ? std::string(" < 0")
                         : " != " + std::to_string(size)));
    if (!bad.empty())
      os << "  if (" << llvm::join(bad, " || ") << ")\n    return " << S
         << "_ERROR_FEED_SHAPE + " << i << ";\n";
    SmallVector<std::string> nonEmpty;
    for (size_t k = 0; k < info.shape.size(); ++k)
      nonEmpty.push_back(f + ".shape[" + std::to_string(k) + "] != 0");
    os << "  if (!" << f << ".data"
       << (nonEmpty.empty() ? "" : " && " + llvm::join(nonEmpty, " && "))
       << ")\n    return " << S << "_ERROR_FEED_NULL + " << i << ";\n";
    writeDescriptor(d, "(" + info.cType + " *)" + f + ".data", f + ".shape",
                    info.shape.size());
  }
}

void HeaderWriter::writeDescriptor(StringRef d, StringRef data,
                                   StringRef shape, size_t rank) {
  os << "  " << d << ".allocated = " << d << ".aligned = " << data << ";\n  "
     << d << ".offset = 0;\n";
  for (size_t k = 0; k < rank; ++k)
    os << "  " << d << ".sizes[" << k << "] = " << shape << "[" << k << "];\n";
  for (size_t k = rank; k-- > 0;) {
    os << "  " << d << ".strides[" << k << "] = ";
    if (k + 1 == rank)
      os << "1;\n";
    else
      os << d << ".strides[" << k + 1 << "] * " << d << ".sizes[" << k + 1
         << "];\n";
  }
}

void HeaderWriter::writeCheckCall() {
  if (sig.runtimeChecks.empty())
    return;
  SmallVector<std::string> feedArgs;
  for (size_t i = 0; i < sig.feeds.size(); ++i)
    feedArgs.push_back("&feed" + std::to_string(i));
  os << "  {\n    int32_t failed = _mlir_ciface_" << s << "_check("
     << llvm::join(feedArgs, ", ") << ");\n    if (failed != 0)\n"
     << "      return " << llvm::StringRef(s).upper()
     << "_ERROR_RUNTIME_CHECK + failed - 1;\n  }\n";
}

void HeaderWriter::writeRun() {
  std::string S = llvm::StringRef(s).upper();
  os << "/* Runs the model on feeds[0.." << S
     << "_NUM_FEEDS-1] (data and shape set; a\n   static dimension must "
        "match the model's). Sets fetches[0.."
     << S
     << "_NUM_FETCHES-1] to\n   new buffers. Returns 0, or an error code ("
     << s << "_error_message) and leaves\n   the fetches as they were: a "
        "feed's shape or data is wrong, or a run-time\n   check of the "
        "model failed. */\n";
  os << "static inline int " << s << "_run(const " << s << "_tensor *feeds, "
     << s << "_tensor *fetches) {\n";
  writeFeedChecks();
  writeCheckCall();
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
  os << "  _mlir_ciface_" << s << "(" << llvm::join(args, ", ") << ");\n";
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
}

void HeaderWriter::writeRunWithBuffers() {
  std::string S = llvm::StringRef(s).upper();
  if (!sig.arenaBytes) {
    os << "/* This model has dynamic shapes (or allocates inside a loop): it "
          "has no\n   static memory plan and no " << s
       << "_run_with_buffers; " << s
       << "_run allocates\n   its fetches and scratch memory on each call. "
          "*/\n\n";
    return;
  }
  os << "/* Static memory plan: every intermediate tensor has its place in "
        "one arena\n   of "
     << S << "_ARENA_BYTES bytes (" << sig.arenaBytes->second
     << " bytes of tensors packed by their\n   live ranges). */\n";
  os << "#define " << S << "_ARENA_BYTES " << sig.arenaBytes->first << "\n";
  os << "#define " << S << "_ARENA_ALIGNMENT 64\n\n";
  os << "/* Runs the model without allocating: fetches[i].data is the "
        "caller's buffer\n   for fetch i and fetches[i].shape its shape (the "
        "model's); `arena` is\n   caller memory of at least "
     << S << "_ARENA_BYTES bytes, aligned to\n   " << S
     << "_ARENA_ALIGNMENT, that the call may overwrite (NULL when "
     << S << "_ARENA_BYTES is\n   0). Returns 0, or an error code ("
     << s << "_error_message); fetches[i].allocation\n   is set to NULL. "
        "Concurrent calls need arenas and fetch buffers of their own. */\n";
  os << "static inline int " << s << "_run_with_buffers(const " << s
     << "_tensor *feeds, " << s
     << "_tensor *fetches,\n    void *arena, size_t arena_bytes) {\n";
  writeFeedChecks();
  for (auto [i, info] : llvm::enumerate(sig.fetches)) {
    std::string f = "fetches[" + std::to_string(i) + "]";
    SmallVector<std::string> bad;
    for (auto [k, size] : llvm::enumerate(info.shape))
      bad.push_back(f + ".shape[" + std::to_string(k) +
                    "] != " + std::to_string(size));
    if (!bad.empty())
      os << "  if (" << llvm::join(bad, " || ") << ")\n    return " << S
         << "_ERROR_FETCH_SHAPE + " << i << ";\n";
    os << "  if (!" << f << ".data)\n    return " << S << "_ERROR_FETCH_NULL + "
       << i << ";\n";
  }
  os << "  if ((" << S << "_ARENA_BYTES > 0 && !arena) || arena_bytes < " << S
     << "_ARENA_BYTES ||\n      (uintptr_t)arena % " << S
     << "_ARENA_ALIGNMENT != 0)\n    return " << S << "_ERROR_ARENA;\n";
  writeCheckCall();
  SmallVector<std::string> args;
  for (size_t i = 0; i < sig.feeds.size(); ++i)
    args.push_back("&feed" + std::to_string(i));
  for (auto [i, info] : llvm::enumerate(sig.fetches)) {
    std::string d = "fetch" + std::to_string(i);
    std::string f = "fetches[" + std::to_string(i) + "]";
    os << "  " << descName("fetch", i) << " " << d << ";\n";
    writeDescriptor(d, "(" + info.cType + " *)" + f + ".data", f + ".shape",
                    info.shape.size());
    args.push_back("&" + d);
  }
  os << "  " << s << "_arena_desc arena_desc;\n  int64_t arena_shape[1] = {"
     << S << "_ARENA_BYTES};\n";
  writeDescriptor("arena_desc", "(uint8_t *)arena", "arena_shape", 1);
  args.push_back("&arena_desc");
  if (options.npu)
    os << "  kiln_npu_clear_thread_error();\n";
  os << "  _mlir_ciface_" << s << "_with_buffers(" << llvm::join(args, ", ")
     << ");\n";
  for (size_t i = 0; i < sig.fetches.size(); ++i)
    os << "  fetches[" << i << "].allocation = NULL;\n";
  if (options.npu)
    os << "  if (kiln_npu_thread_error()) return " << S << "_NPU_FAILED;\n";
  os << "  return 0;\n}\n\n";
}

} // namespace kiln::cpu::detail
