//===- Options.h - kiln-compile: command-line options -----------*- C++ -*-===//
//
// kiln-compile's options, and tfcompile's flags as aliases of them
// (applyTfcompileFlags). The driver (kiln-compile.cpp) reads them after
// cl::ParseCommandLineOptions.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_COMPILE_OPTIONS_H
#define KILN_TOOLS_KILN_COMPILE_OPTIONS_H

#include "target/cpu/Header.h"

#include "llvm/Support/CommandLine.h"

#include <cstdint>
#include <string>

namespace kiln::compile {

/// kiln-compile's own options in --help.
extern llvm::cl::OptionCategory category;
/// tfcompile's spellings in --help.
extern llvm::cl::OptionCategory tfcompileCategory;

/// The model (positional, or tfcompile's --graph).
extern llvm::cl::opt<std::string> inputPath;
/// --config: a tfcompile config.
extern llvm::cl::opt<std::string> configPath;
/// -o: the object file.
extern llvm::cl::opt<std::string> outputPath;
/// --header: the header (default: the object's path with .h).
extern llvm::cl::opt<std::string> headerPath;
/// --cpp-class: the header's class, with namespaces.
extern llvm::cl::opt<std::string> cppClass;
/// --symbol: prefix of the object's C symbols.
extern llvm::cl::opt<std::string> symbol;
/// --entry: the function of an .mlir input.
extern llvm::cl::opt<std::string> entry;
/// --entries: several entries of one model in one object (Entries.h).
extern llvm::cl::list<std::string> entryList;
/// --input-shapes: a TF.js model's input shapes.
extern llvm::cl::opt<std::string> inputShapes;
/// --tags, --signature, --checkpoint, --outputs: SavedModel and MetaGraph.
extern llvm::cl::opt<std::string> tags;
extern llvm::cl::opt<std::string> signatureKey;
extern llvm::cl::opt<std::string> checkpoint;
extern llvm::cl::opt<std::string> metaGraphOutputs;
/// --list-signatures.
extern llvm::cl::opt<bool> listSignatures;
/// --cpu, --features, --target-triple, -O: code generation.
extern llvm::cl::opt<std::string> cpu;
extern llvm::cl::opt<std::string> features;
extern llvm::cl::opt<std::string> triple;
extern llvm::cl::opt<unsigned> optLevel;
/// --llvm-unroll-limit.
extern llvm::cl::opt<uint64_t> unrollLimit;
/// --dump-dir.
extern llvm::cl::opt<std::string> dumpDir;
/// --target: cpu or npu.
extern llvm::cl::opt<std::string> target;
/// --timing, --progress.
extern llvm::cl::opt<bool> timing;
extern llvm::cl::opt<llvm::cl::boolOrDefault> progress;
/// --verify-each: verify after every pass instead of after each phase.
extern llvm::cl::opt<bool> verifyEach;
/// --gen_name_to_index (tfcompile class).
extern llvm::cl::opt<bool> genNameToIndex;
/// --header-api: Kiln's or tfcompile's class.
extern llvm::cl::opt<kiln::cpu::HeaderAPI> headerApi;

/// Folds tfcompile's spellings into kiln-compile's options: an alias given
/// together with its kiln-compile spelling, and the flags Kiln refuses, are
/// errors. Chooses the header's class. Returns false after printing why.
bool applyTfcompileFlags();

} // namespace kiln::compile

#endif // KILN_TOOLS_KILN_COMPILE_OPTIONS_H
