//===- ReportUnsupportedOps.cpp - what no backend lowers --------*- C++ -*-===//
//
// kiln-report-unsupported-ops: one error per op no backend lowers, with the
// node it came from.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "conversions/TFToLinalg/TFToLinalg.h"
#include "dialects/TF/IR/TFNodeName.h"
#include "dialects/TF/IR/TFOps.h"
#include "dialects/TFExecutor/IR/TFExecutor.h"

namespace kiln {
#define GEN_PASS_DEF_KILNREPORTUNSUPPORTEDOPSPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct KilnReportUnsupportedOpsPass final
    : kiln::impl::KilnReportUnsupportedOpsPassBase<
          KilnReportUnsupportedOpsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    kiln::populateTFToLinalgConversionPatterns(typeConverter, set);
    cpuPatterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    const auto &lowered = cpuPatterns.getOpSpecificNativePatterns();
    unsigned count = 0;
    getOperation()->walk([&](Operation *op) {
      Dialect *dialect = op->getDialect();
      bool unsupported = false;
      if (isa_and_nonnull<kiln::tf_executor::TFExecutorDialect>(dialect))
        unsupported = true;
      else if (isa_and_nonnull<kiln::tf::TFDialect>(dialect))
        unsupported = !lowered.count(op->getName()) &&
                      !isa<kiln::tf::IfRegionOp, kiln::tf::WhileRegionOp,
                           kiln::tf::CaseRegionOp, kiln::tf::YieldOp>(op);
      if (!unsupported)
        return;
      ++count;
      InFlightDiagnostic diag = op->emitError();
      if (StringRef node = kiln::tf::nodeName(op->getLoc()); !node.empty())
        diag << "node '" << node << "': ";
      diag << "'" << op->getName() << "' has no lowering on any backend (cpu)";
    });
    if (count) {
      getOperation().emitError()
          << count << " operation" << (count == 1 ? "" : "s")
          << " no backend lowers";
      signalPassFailure();
    }
  }

  kiln::TFToLinalgTypeConverter typeConverter;
  FrozenRewritePatternSet cpuPatterns;
};

} // namespace
