//===- TfcompileHeader.h - tfcompile's class in a generated header -*- C++ -*-===//
//
// The C++ class of `kiln-compile --header-api=tfcompile`: the methods and
// semantics of the classes TensorFlow's tfcompile generates (and of their
// base, XlaCompiledCpuFunction), so a program written against a tfcompile
// header builds against Kiln's with its include line changed. The class is
// written over the header's C API (<symbol>_run, <symbol>_free_fetches),
// which Header.cpp writes before it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_CPU_TFCOMPILEHEADER_H
#define KILN_TARGET_CPU_TFCOMPILEHEADER_H

#include "target/cpu/Header.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln::cpu {

/// Fails (with a message naming the tensor) when `signature` cannot have
/// tfcompile's class: tfcompile's arguments, results and variables have
/// static shapes, and its element accessors are typed by them.
llvm::Error checkTfcompileSignature(const ModelSignature &signature);

/// Writes tfcompile's class `className` in `namespaces`, inside
/// `#ifdef __cplusplus`, over the C API of `options.symbol`. Call
/// checkTfcompileSignature first.
void writeTfcompileClass(const ModelSignature &signature,
                         const HeaderOptions &options,
                         llvm::ArrayRef<llvm::StringRef> namespaces,
                         llvm::StringRef className, llvm::raw_ostream &os);

} // namespace kiln::cpu

#endif // KILN_TARGET_CPU_TFCOMPILEHEADER_H
