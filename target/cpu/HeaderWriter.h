//===- HeaderWriter.h - writer of a compiled model's header -----*- C++ -*-===//
//
// Internal to target/cpu: the class that writes the header of Header.h's
// writeHeader, split over Header.cpp (prologue, descriptors, C API) and
// HeaderClass.cpp (the C++ class), and the text helpers they share.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_CPU_HEADERWRITER_H
#define KILN_TARGET_CPU_HEADERWRITER_H

#include "target/cpu/Header.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

namespace kiln::cpu::detail {

/// "float[1][?][3]" for comments.
std::string describe(const TensorInfo &info);

/// The number of elements of a tensor of static shape.
int64_t staticCount(const TensorInfo &info);

/// `text` as a C string literal.
std::string cString(llvm::StringRef text);

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
  // HeaderCAPI.cpp: the error codes, <symbol>_run, <symbol>_run_with_buffers
  // and their parts.
  /// The declarations of Kiln's CPU thread runtime and how to use them.
  void writeThreads();
  void writeErrors();
  void writeRun();
  void writeRunWithBuffers();
  void writeFeedChecks();
  void writeCheckCall();
  void writeDescriptor(llvm::StringRef d, llvm::StringRef data,
                       llvm::StringRef shape, size_t rank);
  void writeClass(llvm::ArrayRef<llvm::StringRef> namespaces,
                  llvm::StringRef className);

  std::string descName(llvm::StringRef kind, size_t i) {
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


} // namespace kiln::cpu::detail

#endif // KILN_TARGET_CPU_HEADERWRITER_H
