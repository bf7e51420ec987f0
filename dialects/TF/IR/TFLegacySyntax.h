//===- TFLegacySyntax.h - recognise pre-2022 TensorFlow MLIR ----*- C++ -*-===//
//
// TensorFlow's MLIR files written before 2022 use spellings current MLIR no
// longer accepts (`func @f`, `!tf.resource`, `( {`). Kiln reads only the
// current syntax; when parsing fails, tools use this to say what is old and
// what replaced it instead of leaving the user with a bare parse error.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_IR_TFLEGACYSYNTAX_H
#define KILN_DIALECTS_TF_IR_TFLEGACYSYNTAX_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace kiln::tf {

/// One pre-2022 spelling found in a file.
struct LegacySyntaxFinding {
  /// 1-based line of the first occurrence.
  unsigned line = 0;
  /// The old spelling, as found.
  std::string found;
  /// What current MLIR spells it as.
  std::string replacement;
};

/// Returns the first pre-2022 TensorFlow MLIR spelling in `text`, if any.
std::optional<LegacySyntaxFinding> findLegacyTFSyntax(llvm::StringRef text);

} // namespace kiln::tf

#endif // KILN_DIALECTS_TF_IR_TFLEGACYSYNTAX_H
