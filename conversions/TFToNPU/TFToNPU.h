//===- TFToNPU.h - convert-tf-to-npu ----------------------------*- C++ -*-===//
//
// Partitioning of tf functions into fp16 NPU segments and CPU ops: the
// per-op decision and npu op builders (Lowering.cpp), convex segment
// formation (Segments.cpp), fusion inside segments (Fusion.cpp) and the
// placement report (Report.cpp), used by the pass in TFToNPU.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_TFTONPU_TFTONPU_H
#define KILN_CONVERSIONS_TFTONPU_TFTONPU_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace kiln {

#define GEN_PASS_DECL_CONVERTTFTONPUPASS
#include "conversions/Passes.h.inc"

namespace tf_to_npu {

/// Why a tf op stays on the CPU; None means it runs on the NPU.
enum class ReasonKind {
  None,
  Op,          ///< no npu op does what the tf op does
  DType,       ///< an element type fp16 mode does not run
  Shape,       ///< unranked or dynamic tensors, unsupported broadcasts
  Attribute,   ///< a layout, stride or option the NPU lacks
  Operand,     ///< weights that are not constants
  Limit,       ///< the npu op's verifier rejects it on the target
  ControlFlow, ///< nested in a region (loops, conditionals)
};

/// The name of \p kind as the report prints it ("op", "limit", ...).
llvm::StringRef reasonKindName(ReasonKind kind);

/// Where a tf op runs, and why not on the NPU.
struct Placement {
  ReasonKind kind = ReasonKind::None;
  std::string reason;
  bool onNPU() const { return kind == ReasonKind::None; }
};

/// Supplies the f16 values that the npu ops built for one tf op read.
class ValueSource {
public:
  virtual ~ValueSource();
  /// The f16 value of the f32 tensor \p value (static shape).
  virtual mlir::Value activation(mlir::Value value) = 0;
  /// An f16 tensor of type \p type holding \p data (f32, same shape).
  virtual mlir::Value constant(mlir::RankedTensorType type,
                               mlir::DenseElementsAttr data) = 0;
};

/// The f32 constant behind \p value (tf.Const or arith.constant), or null.
mlir::DenseElementsAttr getConstantData(mlir::Value value);

/// \p type (a ranked tensor) with f16 elements.
mlir::RankedTensorType toF16Type(mlir::Type type);

/// Checks what NPU-v1 needs of \p op at the tf level (op kind, dtypes,
/// static shapes, layout, constant weights, broadcasts) and builds the npu
/// ops that compute it in fp16 at \p builder's insertion point, reading
/// their operands from \p source. Returns the f16 result, or fails with
/// \p why set, having built nothing. The caller verifies the ops built
/// (their verifiers check the target's limits).
mlir::FailureOr<mlir::Value> buildNPUOps(mlir::OpBuilder &builder,
                                         mlir::Operation *op,
                                         ValueSource &source, Placement &why);

/// Groups the ops \p npu of \p block (all directly in it) into segments:
/// connected through their operands, and convex (no path leaves a segment
/// and comes back to it through an op outside it; ops with side effects
/// count as ordered in program order). Each segment lists its ops in block
/// order; segments come in block order of their first op.
std::vector<std::vector<mlir::Operation *>>
formSegments(mlir::Block &block, const llvm::DenseSet<mlir::Operation *> &npu);

/// The ops of \p block (directly in it) that \p op depends on: the
/// producers of the values it and its nested ops use, and, for an op with
/// side effects (not one of \p effectFree), the previous such op
/// (\p lastEffect, updated).
void collectDependencies(mlir::Block &block, mlir::Operation *op,
                         mlir::Operation *&lastEffect,
                         llvm::SmallVectorImpl<mlir::Operation *> &deps,
                         const llvm::DenseSet<mlir::Operation *> &effectFree =
                             {});

/// Folds a constant per-channel npu.add into the convolution or fully
/// connected layer before it (as its bias), and an npu.clamp after such a
/// layer into its clamp bounds.
void populateNPUFusionPatterns(mlir::RewritePatternSet &patterns);

/// The TensorFlow node name of \p loc (its first NameLoc), or "".
std::string nodeName(mlir::Location loc);

/// One row of the placement report.
struct ReportRow {
  std::string node;
  std::string op;
  std::string function;
  std::string segment;
  Placement placement;
};

/// Writes \p rows as a Markdown or CSV table, with a summary.
void writeReport(llvm::raw_ostream &os, llvm::ArrayRef<ReportRow> rows,
                 bool markdown);

} // namespace tf_to_npu
} // namespace kiln

#endif // KILN_CONVERSIONS_TFTONPU_TFTONPU_H
