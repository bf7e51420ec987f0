//===- Replay.cpp - runs a fuzz harness over files, without libFuzzer -----===//
//
// The gcc build links every harness (LLVMFuzzerTestOneInput) with this main:
// it runs the harness once over each file named on the command line, or found
// under a named directory (recursively, in sorted order), and prints how many
// inputs it ran. ctest runs each harness over its seed corpus this way; a
// crash, a hang or an input the harness rejects with a nonzero return fails
// the run. Plain C++17, so that the NPU harnesses need no LLVM.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/// Optional, as in libFuzzer: called once before the first input.
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
    __attribute__((weak));

namespace fs = std::filesystem;

namespace {

/// Appends the regular files of `path` (itself, or everything under it) to
/// `files`; false if `path` does not exist.
bool collect(const fs::path &path, std::vector<fs::path> &files) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) {
    files.push_back(path);
    return true;
  }
  if (!fs::is_directory(path, ec))
    return false;
  std::vector<fs::path> found;
  for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end;
       it.increment(ec))
    if (it->is_regular_file(ec))
      found.push_back(it->path());
  std::sort(found.begin(), found.end());
  files.insert(files.end(), found.begin(), found.end());
  return !ec;
}

} // namespace

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    if (!collect(argv[i], files)) {
      std::fprintf(stderr, "%s: cannot read '%s'\n", argv[0], argv[i]);
      return 1;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: %s FILE-OR-DIRECTORY...\n", argv[0]);
    return 1;
  }
  for (const fs::path &file : files) {
    std::ifstream in(file, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    if (!in.eof() && in.fail()) {
      std::fprintf(stderr, "%s: cannot read '%s'\n", argv[0], file.c_str());
      return 1;
    }
    // An exact-size copy, so that a sanitizer build sees reads past the end.
    std::vector<uint8_t> data(bytes);
    if (LLVMFuzzerTestOneInput(data.data(), data.size()) != 0) {
      std::fprintf(stderr, "%s: the harness refused '%s'\n", argv[0],
                   file.c_str());
      return 1;
    }
  }
  std::printf("%s: ran %zu inputs\n", fs::path(argv[0]).filename().c_str(),
              files.size());
  return 0;
}
