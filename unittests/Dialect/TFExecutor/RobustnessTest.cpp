//===- RobustnessTest.cpp - malformed tf_executor input ---------*- C++ -*-===//
//
// Bad executor IR must produce diagnostics, never a crash: every truncation,
// every single-line deletion and every single-token deletion of a graph that
// uses each executor op is parsed and verified in-process. A crash (or an
// abort in a verifier that trusts its input) fails the test binary.
//
//===----------------------------------------------------------------------===//

#include "passes/InitKiln.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kGraph = R"mlir(
func.func @all_nodes(%arg0: tensor<*xf32>, %arg1: tensor<i1>, %arg2: tensor<i32>) -> tensor<*xf32> {
  %g = tf_executor.graph {
    %c0 = tf_executor.island {
      tf_executor.yield
    }
    %v, %c1 = tf_executor.island(%c0) wraps "tf.Identity"(%arg0) : (tensor<*xf32>) -> tensor<*xf32>
    %f, %t, %c2 = tf_executor.Switch %v, %arg1, %c1 : tensor<*xf32>
    %o:2, %c3 = tf_executor._SwitchN %arg0, %arg2 of 2 (%c2) : tensor<*xf32>
    %m, %i, %c4 = tf_executor.Merge %f, %t, %c3 : tensor<*xf32>
    %e, %c5 = tf_executor.Enter %m frame "loop" parallel_iterations 4 constant : tensor<*xf32>
    %src, %tok, %c6 = tf_executor.NextIteration.Source : tensor<*xf32>
    %p, %c7 = tf_executor.LoopCond %arg1 : tensor<i1>
    tf_executor.NextIteration.Sink [%tok] %e, %c7 : tensor<*xf32>
    %x, %c8 = tf_executor.Exit %src : (tensor<*xf32>) -> (tensor<*xf32>, !tf_executor.control)
    %ct = tf_executor.ControlTrigger %c5, %c8
    tf_executor.fetch %x, %ct : tensor<*xf32>, !tf_executor.control
  }
  return %g : tensor<*xf32>
}
)mlir";

class RobustnessTest : public ::testing::Test {
protected:
  RobustnessTest() {
    DialectRegistry registry;
    kiln::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    context.printOpOnDiagnostic(false);
  }

  /// Parses and verifies `source`; returns true if it was accepted, and
  /// counts the diagnostics it produced.
  bool accepts(llvm::StringRef source, unsigned &diagnostics) {
    ScopedDiagnosticHandler count(&context, [&](Diagnostic &) {
      ++diagnostics;
      return success();
    });
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, &context);
    return module && succeeded(verify(*module));
  }

  /// The generic form of kGraph, so mutations also reach the generic parser
  /// and every verifier with inconsistent operand/result lists.
  std::string genericForm() {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(kGraph, &context);
    EXPECT_TRUE(module);
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os, OpPrintingFlags().printGenericOpForm());
    return text;
  }

  MLIRContext context;
};

TEST_F(RobustnessTest, OriginalIsValid) {
  unsigned diagnostics = 0;
  EXPECT_TRUE(accepts(kGraph, diagnostics));
  EXPECT_EQ(diagnostics, 0u);
  EXPECT_TRUE(accepts(genericForm(), diagnostics));
}

TEST_F(RobustnessTest, EveryTruncationIsDiagnosed) {
  unsigned rejected = 0;
  for (const std::string &text : {std::string(kGraph), genericForm()}) {
    // Any proper prefix that ends inside the function body cuts an operation
    // or a region short, so it must be rejected with a diagnostic.
    size_t begin = text.find("func.func");
    size_t end = text.rfind('}');
    for (size_t length = begin + 1; length < end; ++length) {
      unsigned diagnostics = 0;
      EXPECT_FALSE(
          accepts(llvm::StringRef(text).take_front(length), diagnostics))
          << "accepted prefix of " << length << " characters";
      EXPECT_GT(diagnostics, 0u) << "silent rejection of prefix " << length;
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 2000u);
}

TEST_F(RobustnessTest, EveryLineDeletionIsHandled) {
  for (const std::string &text : {std::string(kGraph), genericForm()}) {
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(text).split(lines, '\n');
    unsigned rejected = 0;
    for (size_t skip = 0; skip < lines.size(); ++skip) {
      std::string mutated;
      for (size_t i = 0; i < lines.size(); ++i)
        if (i != skip)
          mutated += lines[i].str() + "\n";
      unsigned diagnostics = 0;
      if (accepts(mutated, diagnostics))
        continue; // blank lines, comments
      EXPECT_GT(diagnostics, 0u) << "silent rejection without line " << skip;
      ++rejected;
    }
    // Almost every line of the graph carries an operation or a brace.
    EXPECT_GT(rejected, lines.size() / 2);
  }
}

TEST_F(RobustnessTest, EveryTokenDeletionIsHandled) {
  for (const std::string &text : {std::string(kGraph), genericForm()}) {
    // Tokens: maximal runs of non-space characters.
    std::vector<std::pair<size_t, size_t>> tokens;
    for (size_t i = 0; i < text.size();) {
      if (llvm::isSpace(text[i])) {
        ++i;
        continue;
      }
      size_t start = i;
      while (i < text.size() && !llvm::isSpace(text[i]))
        ++i;
      tokens.emplace_back(start, i - start);
    }
    for (auto [start, length] : tokens) {
      std::string mutated = text;
      mutated.erase(start, length);
      unsigned diagnostics = 0;
      if (!accepts(mutated, diagnostics))
        EXPECT_GT(diagnostics, 0u)
            << "silent rejection without '" << text.substr(start, length)
            << "' at " << start;
    }
  }
}

} // namespace
