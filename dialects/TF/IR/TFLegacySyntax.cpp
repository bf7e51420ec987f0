//===- TFLegacySyntax.cpp - recognise pre-2022 TensorFlow MLIR --*- C++ -*-===//
//
// A line scanner for the spellings listed in docs/tf-dialects.md.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFLegacySyntax.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"

using namespace kiln::tf;

namespace {

/// An old spelling: a pattern over one line (comments stripped) and what
/// replaced it.
struct LegacyRule {
  const char *pattern;
  const char *replacement;
};

// Ordered by how early each tends to appear in a file.
constexpr LegacyRule kRules[] = {
    {"^[[:space:]]*func[[:space:]]+(private[[:space:]]+)?@",
     "func.func (the func operation moved to the func dialect)"},
    {"\"builtin\\.func\"", "\"func.func\" with a function_type attribute"},
    {"\"builtin\\.module\"\\(\\)[[:space:]]+\\([[:space:]]+\\{",
     "\"builtin.module\"() ({ (regions are written `({` now)"},
    {"\\)[[:space:]]+\\([[:space:]]+\\{$",
     "`({` (regions are written `({` now)"},
    {"!tf\\.[a-z]", "!tf_type.<type> (TensorFlow's types moved to tf_type)"},
    {"#tf\\.(shape|func)", "#tf_type.<attr> (the attributes moved to tf_type)"},
    {"\"std\\.", "the arith, func and cf dialects (std was split)"},
    {"= (addf|addi|mulf|muli|subf|subi|constant) ",
     "arith.<op> (std was split into arith and others)"},
};

} // namespace

std::optional<LegacySyntaxFinding>
kiln::tf::findLegacyTFSyntax(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (const LegacyRule &rule : kRules) {
    llvm::Regex regex(rule.pattern);
    for (auto [index, line] : llvm::enumerate(lines)) {
      llvm::StringRef code = line.split("//").first.rtrim();
      llvm::SmallVector<llvm::StringRef> matches;
      if (!regex.match(code, &matches))
        continue;
      return LegacySyntaxFinding{static_cast<unsigned>(index + 1),
                                 matches.front().trim().str(),
                                 rule.replacement};
    }
  }
  return std::nullopt;
}
