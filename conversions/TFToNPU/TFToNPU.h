//===- TFToNPU.h - convert-tf-to-npu ----------------------------*- C++ -*-===//
//
// Partitioning of tf functions into fp16 or int8 NPU segments and CPU ops:
// the per-op decision and fp16 npu op builders (Lowering.cpp), the int8
// segment builder (Int8.cpp), calibrated ranges and their keys (Ranges.cpp),
// convex segment formation (Segments.cpp), fusion inside fp16 segments
// (Fusion.cpp), the placement report (Report.cpp), the decision and the
// pass (TFToNPU.cpp) and the calibration instrumentation (Observe.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_TFTONPU_TFTONPU_H
#define KILN_CONVERSIONS_TFTONPU_TFTONPU_H

#include "dialects/NPU/IR/NPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace kiln {

#define GEN_PASS_DECL_CONVERTTFTONPUPASS
#define GEN_PASS_DECL_OBSERVENPURANGESPASS
#include "conversions/Passes.h.inc"

namespace tf_to_npu {

/// The number format of NPU segments.
enum class Precision { FP16, Int8 };

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

/// Decides where every top-level tf op of \p func (but constants) runs under
/// \p target: the tf-level checks and fp16 builders of buildNPUOps, then the
/// npu verifiers on the ops built, in a scratch function added to (and
/// removed from) \p func's module. In int8, Sigmoid and Tanh (npu.table)
/// are accepted too.
llvm::DenseMap<mlir::Operation *, Placement>
decidePlacements(mlir::func::FuncOp func, npu::TargetAttr target,
                 Precision precision);

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

//===----------------------------------------------------------------------===//
// int8: calibrated ranges and segment bodies
//===----------------------------------------------------------------------===//

/// The observed range of one tensor.
struct Range {
  double min = 0.0;
  double max = 0.0;
};

/// Observed ranges by key (rangeKey), kept sorted so that the JSON written
/// is the same for the same ranges.
class RangeTable {
public:
  /// Widens the range of \p key by the finite values of \p data (NaN and
  /// ±inf are skipped); a key seen for the first time starts with them.
  void observe(llvm::StringRef key, llvm::ArrayRef<float> data);
  /// Sets the range of \p key.
  void set(llvm::StringRef key, Range range) { ranges[key.str()] = range; }
  /// The range of \p key, if any.
  const Range *lookup(llvm::StringRef key) const;
  /// Counts a calibration run (the `samples` field of the file).
  void countSample() { ++samples; }
  /// Writes the calibration file: `{"format": "kiln-npu-ranges",
  /// "version": 1, "samples": N, "ranges": {"<key>": {"min": m, "max": M},
  /// ...}}`, keys sorted, numbers printed exactly.
  void writeJSON(llvm::raw_ostream &os) const;
  /// Reads a calibration file written by writeJSON; an error message
  /// otherwise.
  static llvm::Expected<RangeTable> readJSON(llvm::StringRef text);
  const std::map<std::string, Range> &all() const { return ranges; }

private:
  std::map<std::string, Range> ranges;
  int64_t samples = 0;
};

/// The key of \p value in calibration files: `<node>:<result index>` for the
/// result of a tf op (its TensorFlow node name), and for a function argument
/// its name from `tf.entry_function` (`inputs`), else `arg<N>`, with `:0`.
/// An op that shares its node name with a later op of the same block (one
/// TensorFlow node decomposed into several ops, e.g. _FusedConv2D) is keyed
/// `<node>/<op name>:<index>` (`conv/Conv2D:0`), so that `<node>:<index>`
/// stays the node's own output.
std::string rangeKey(mlir::Value value);

/// The f32 values whose ranges the int8 build of the segment \p members
/// needs, in a fixed order: its inputs (\p inputs, non-constant values from
/// outside), then the results of members that get a quantisation of their
/// own (not those folded into a convolution, nor pools and Sigmoid/Tanh,
/// whose output quantisation is fixed).
std::vector<mlir::Value> int8RangeNeeds(llvm::ArrayRef<mlir::Operation *> members,
                                        llvm::ArrayRef<mlir::Value> inputs);

/// Builds the int8 body of the segment \p members at \p builder's insertion
/// point (inside the segment function): each input of \p inputs (f32, as
/// \p arguments, the function's arguments, give it) is quantised with its
/// range, the members become int8 npu ops (a bias and a Relu/Relu6 folded
/// into the convolution before them), and each of \p outputs is
/// dequantised to f32 into \p results. \p ranges holds the range of every
/// value int8RangeNeeds lists, looked up by value: a range key depends on
/// the ops after its producer (rangeKey), which outlining an earlier segment
/// changes (its members go, a call with their fused location comes), so
/// the keys are resolved before any segment is outlined.
void buildInt8Segment(mlir::OpBuilder &builder,
                      llvm::ArrayRef<mlir::Operation *> members,
                      llvm::ArrayRef<mlir::Value> inputs,
                      llvm::ArrayRef<mlir::Value> arguments,
                      llvm::ArrayRef<mlir::Value> outputs,
                      const llvm::DenseMap<mlir::Value, Range> &ranges,
                      llvm::SmallVectorImpl<mlir::Value> &results);

/// The results of \p entry that observe-npu-ranges added: (result index,
/// range key) in result order.
std::vector<std::pair<unsigned, std::string>>
observedResults(mlir::func::FuncOp entry);

/// Whether \p op runs only in int8 (Sigmoid, Tanh as npu.table) and NPU-v1
/// can run it: static f32 tensors. \p why says why not.
bool acceptInt8Only(mlir::Operation *op, Placement &why);

/// The inputs of the segment \p members: the operands from outside it that
/// are not constants, in first-use order.
std::vector<mlir::Value> segmentInputs(llvm::ArrayRef<mlir::Operation *> members);

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
