//===- TFToNPU.cpp - convert-tf-to-npu --------------------------*- C++ -*-===//
//
// Decides, per tf op, whether NPU-v1 runs it in fp16 (the tf-level checks
// of Lowering.cpp, then the npu verifiers on the ops built for it in a
// scratch function carrying the target), groups the NPU ops into convex
// segments, outlines each into a function called from the CPU function,
// and reports every op's placement.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToNPU/TFToNPU.h"

#include "dialects/NPU/IR/NPUDialect.h"
#include "dialects/NPU/IR/NPUOps.h"
#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <queue>

namespace kiln {
#define GEN_PASS_DEF_CONVERTTFTONPUPASS
#include "conversions/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;
using namespace kiln::tf_to_npu;

namespace {

/// The attribute that marks a segment function and lists its nodes.
constexpr llvm::StringLiteral kNodesAttrName = "kiln.npu_nodes";

//===----------------------------------------------------------------------===//
// Value sources
//===----------------------------------------------------------------------===//

/// Operands of candidate ops: fresh arguments of the probe block, so the
/// verifiers see the types without any data being converted.
class ProbeSource final : public ValueSource {
public:
  ProbeSource(Block &block, Location loc) : block(block), loc(loc) {}
  Value activation(Value value) override {
    return block.addArgument(toF16Type(value.getType()), loc);
  }
  Value constant(RankedTensorType type, DenseElementsAttr) override {
    return block.addArgument(type, loc);
  }

private:
  Block &block;
  Location loc;
};

/// \p data (f32) rounded to f16 of \p type.
DenseElementsAttr toF16Data(DenseElementsAttr data, RankedTensorType type) {
  auto round = [](APFloat value) {
    bool lost = false;
    value.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &lost);
    return value;
  };
  if (data.isSplat())
    return DenseElementsAttr::get(type, round(data.getSplatValue<APFloat>()));
  SmallVector<APFloat> values;
  values.reserve(data.getNumElements());
  for (APFloat value : data.getValues<APFloat>())
    values.push_back(round(value));
  return DenseElementsAttr::get(type, values);
}

/// Operands inside a segment function: f16 values of earlier members,
/// converted arguments, and constants copied in as f16.
class SegmentSource final : public ValueSource {
public:
  SegmentSource(OpBuilder &builder, DenseMap<Value, Value> &mapped,
                const DenseMap<Value, Value> &arguments)
      : builder(builder), mapped(mapped), arguments(arguments) {}

  Value activation(Value value) override {
    if (Value known = mapped.lookup(value))
      return known;
    Value result;
    if (DenseElementsAttr data = getConstantData(value))
      result = constant(toF16Type(value.getType()), data);
    else
      result = npu::ConvertOp::create(builder, value.getLoc(),
                                      toF16Type(value.getType()),
                                      arguments.lookup(value));
    mapped[value] = result;
    return result;
  }

  Value constant(RankedTensorType type, DenseElementsAttr data) override {
    return arith::ConstantOp::create(builder, builder.getUnknownLoc(),
                                     toF16Data(data, type));
  }

private:
  OpBuilder &builder;
  DenseMap<Value, Value> &mapped;
  const DenseMap<Value, Value> &arguments;
};

/// \p name with every character other than [A-Za-z0-9_] replaced by '_'.
std::string sanitize(StringRef name) {
  std::string result;
  for (char c : name)
    result += llvm::isAlnum(c) ? c : '_';
  return result;
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

/// The placement of \p op, decided on \p probeBlock (a block of a function
/// carrying the target), which is left empty.
Placement probe(Operation *op, Block &probeBlock, Precision precision) {
  Placement why;
  if (precision == Precision::Int8 && acceptInt8Only(op, why))
    return why;
  if (why.kind != ReasonKind::None)
    return why;
  OpBuilder builder = OpBuilder::atBlockEnd(&probeBlock);
  ProbeSource source(probeBlock, op->getLoc());
  if (succeeded(buildNPUOps(builder, op, source, why))) {
    std::string message;
    bool failedVerify = false;
    {
      ScopedDiagnosticHandler handler(op->getContext(), [&](Diagnostic &diag) {
        if (message.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
          message = diag.str();
        return success();
      });
      for (Operation &candidate : probeBlock)
        if (failed(mlir::verify(&candidate))) {
          failedVerify = true;
          break;
        }
    }
    if (failedVerify) {
      why.kind = ReasonKind::Limit;
      why.reason = message;
    }
  }
  while (!probeBlock.empty())
    probeBlock.back().erase();
  probeBlock.eraseArguments(0, probeBlock.getNumArguments());
  return why;
}

} // namespace

DenseMap<Operation *, Placement>
tf_to_npu::decidePlacements(func::FuncOp func, npu::TargetAttr target,
                            Precision precision) {
  auto module = func->getParentOfType<ModuleOp>();
  OpBuilder builder(func.getContext());
  builder.setInsertionPointToEnd(module.getBody());
  auto probeFunc = func::FuncOp::create(builder, func.getLoc(),
                                        "__kiln_npu_probe",
                                        builder.getFunctionType({}, {}));
  probeFunc->setAttr(npu::kTargetAttrName, target);
  Block *probeBlock = probeFunc.addEntryBlock();
  DenseMap<Operation *, Placement> placements;
  for (Block &block : func.getBody())
    for (Operation &op : block) {
      if (!isa<tf::TFDialect>(op.getDialect()) || isa<tf::ConstOp>(op))
        continue;
      placements[&op] = probe(&op, *probeBlock, precision);
    }
  probeFunc.erase();
  return placements;
}

namespace {

struct ConvertTFToNPUPass final
    : kiln::impl::ConvertTFToNPUPassBase<ConvertTFToNPUPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult partition(func::FuncOp func, npu::TargetAttr fallback,
                          SymbolTable &symbols, std::vector<ReportRow> &rows,
                          SmallVectorImpl<func::FuncOp> &created);
  func::CallOp outline(ArrayRef<Operation *> members, StringRef name,
                       npu::TargetAttr target, Operation *&insertAfter);
  LogicalResult checkRanges(func::FuncOp func,
                            ArrayRef<std::vector<Operation *>> segments);

  Precision mode = Precision::FP16;
  RangeTable ranges;
  /// int8: the range of every value a segment quantises, resolved by
  /// checkRanges before outlining changes the keys.
  DenseMap<Value, Range> resolvedRanges;
};

/// Replaces \p members by a call of \p segment on \p inputs, at the last
/// member's place; its results replace \p outputs.
func::CallOp replaceByCall(ArrayRef<Operation *> members,
                           func::FuncOp segment, ArrayRef<Value> inputs,
                           ArrayRef<Value> outputs,
                           ArrayRef<Location> locations) {
  OpBuilder builder(members.back());
  auto call = func::CallOp::create(
      builder, FusedLoc::get(segment.getContext(), locations), segment,
      inputs);
  for (auto [output, result] : llvm::zip(outputs, call.getResults()))
    Value(output).replaceAllUsesWith(result);
  for (Operation *op : llvm::reverse(members))
    op->erase();
  return call;
}

/// Outlines \p members (in block order) into a function \p name placed
/// after \p insertAfter (updated), and replaces them by a call to it.
func::CallOp ConvertTFToNPUPass::outline(ArrayRef<Operation *> members,
                                         StringRef name,
                                         npu::TargetAttr target,
                                         Operation *&insertAfter) {
  MLIRContext *context = &getContext();
  llvm::SmallPtrSet<Operation *, 16> memberSet(members.begin(), members.end());
  // Inputs: values from outside that are not constants; outputs: member
  // results used outside.
  std::vector<Value> inputs = segmentInputs(members);
  SmallVector<Value> outputs;
  SmallVector<Location> locations;
  SmallVector<Attribute> nodes;
  for (Operation *op : members) {
    locations.push_back(op->getLoc());
    nodes.push_back(StringAttr::get(context, nodeName(op->getLoc())));
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !memberSet.contains(user);
          }))
        outputs.push_back(result);
  }

  OpBuilder builder(context);
  builder.setInsertionPointAfter(insertAfter);
  auto type =
      builder.getFunctionType(ValueRange(inputs).getTypes(),
                              ValueRange(outputs).getTypes());
  auto segment =
      func::FuncOp::create(builder, members.front()->getLoc(), name, type);
  segment.setPrivate();
  segment->setAttr(npu::kTargetAttrName, target);
  segment->setAttr(kNodesAttrName, builder.getArrayAttr(nodes));
  insertAfter = segment;

  Block *entry = segment.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  SmallVector<Value> results;
  if (mode == Precision::Int8) {
    SmallVector<Value> arguments(entry->getArguments());
    buildInt8Segment(builder, members, inputs, arguments, outputs,
                     resolvedRanges, results);
    func::ReturnOp::create(builder, segment.getLoc(), results);
    SmallVector<std::optional<Range>> outputRanges;
    for (Value output : outputs) {
      auto it = resolvedRanges.find(output);
      outputRanges.push_back(it == resolvedRanges.end()
                                 ? std::nullopt
                                 : std::optional<Range>(it->second));
    }
    func::CallOp call =
        replaceByCall(members, segment, inputs, outputs, locations);
    // A later segment may read this one's results directly (when merging
    // the two would not be convex): they keep their ranges.
    for (auto [result, range] : llvm::zip(call.getResults(), outputRanges))
      if (range)
        resolvedRanges[result] = *range;
    return call;
  }
  DenseMap<Value, Value> mapped, arguments;
  for (auto [input, argument] : llvm::zip(inputs, entry->getArguments()))
    arguments[input] = argument;
  SegmentSource source(builder, mapped, arguments);
  for (Operation *op : members) {
    Placement why;
    // The probe accepted every member, so this builds.
    FailureOr<Value> result = buildNPUOps(builder, op, source, why);
    mapped[op->getResult(0)] = *result;
  }
  for (Value output : outputs)
    results.push_back(npu::ConvertOp::create(builder, output.getLoc(),
                                             output.getType(),
                                             mapped.lookup(output)));
  func::ReturnOp::create(builder, segment.getLoc(), results);
  return replaceByCall(members, segment, inputs, outputs, locations);
}

/// Reorders \p block so that every op follows what it depends on, keeping
/// the order of \p position where it can (a stable topological sort; the
/// segment calls of \p calls are free of side effects).
LogicalResult reorder(Block &block,
                      const DenseMap<Operation *, int64_t> &position,
                      const llvm::DenseSet<Operation *> &calls) {
  Operation *terminator =
      block.mightHaveTerminator() ? block.getTerminator() : nullptr;
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    if (&op != terminator)
      ops.push_back(&op);
  DenseMap<Operation *, SmallVector<Operation *>> users;
  DenseMap<Operation *, unsigned> pending;
  Operation *lastEffect = nullptr;
  for (Operation *op : ops) {
    SmallVector<Operation *> deps;
    collectDependencies(block, op, lastEffect, deps, calls);
    pending[op] = 0;
    for (Operation *dep : deps) {
      if (dep == terminator)
        continue;
      users[dep].push_back(op);
      ++pending[op];
    }
  }
  using Entry = std::pair<int64_t, Operation *>;
  auto later = [](const Entry &a, const Entry &b) { return a.first > b.first; };
  std::priority_queue<Entry, std::vector<Entry>, decltype(later)> ready(later);
  for (Operation *op : ops)
    if (pending[op] == 0)
      ready.push({position.lookup(op), op});
  size_t placed = 0;
  while (!ready.empty()) {
    Operation *op = ready.top().second;
    ready.pop();
    if (terminator)
      op->moveBefore(terminator);
    else
      op->moveBefore(&block, block.end());
    ++placed;
    for (Operation *user : users.lookup(op))
      if (--pending[user] == 0)
        ready.push({position.lookup(user), user});
  }
  return success(placed == ops.size());
}

/// Checks that the calibration file has a range for every value the int8
/// segments \p segments of \p func quantise; an error names each one
/// missing.
LogicalResult
ConvertTFToNPUPass::checkRanges(func::FuncOp func,
                                ArrayRef<std::vector<Operation *>> segments) {
  bool missing = false;
  llvm::DenseSet<Value> reported;
  resolvedRanges.clear();
  for (const std::vector<Operation *> &members : segments)
    for (Value value : int8RangeNeeds(members, segmentInputs(members))) {
      std::string key = rangeKey(value);
      if (const Range *range = ranges.lookup(key)) {
        resolvedRanges[value] = *range;
        continue;
      }
      if (!reported.insert(value).second)
        continue;
      missing = true;
      if (auto argument = dyn_cast<BlockArgument>(value))
        func.emitOpError() << "argument " << argument.getArgNumber()
                           << " has no calibrated range: no '" << key
                           << "' in '" << calibrationFile << "'";
      else
        value.getDefiningOp()->emitOpError()
            << "result " << cast<OpResult>(value).getResultNumber()
            << " of node '" << nodeName(value.getLoc())
            << "' has no calibrated range: no '" << key << "' in '"
            << calibrationFile << "'";
    }
  return failure(missing);
}

LogicalResult
ConvertTFToNPUPass::partition(func::FuncOp func, npu::TargetAttr fallback,
                              SymbolTable &symbols,
                              std::vector<ReportRow> &rows,
                              SmallVectorImpl<func::FuncOp> &created) {
  npu::TargetAttr target = npu::lookupTarget(func);
  if (!target)
    target = fallback;

  // Decide every top-level tf op on a scratch function with the target.
  DenseMap<Operation *, Placement> placements =
      decidePlacements(func, target, mode);

  // Segments and their names: the first node of each, without the prefix
  // that all of the function's node names share.
  std::optional<std::string> prefix;
  func.walk([&](Operation *op) {
    if (!placements.contains(op))
      return;
    std::string name = nodeName(op->getLoc());
    if (!prefix) {
      prefix = name.substr(0, name.rfind('/') + 1);
      return;
    }
    size_t common = 0;
    while (common < prefix->size() && common < name.size() &&
           (*prefix)[common] == name[common])
      ++common;
    size_t slash = StringRef(*prefix).take_front(common).rfind('/');
    prefix = prefix->substr(0, slash + 1);
  });
  llvm::StringSet<> used;
  DenseMap<Operation *, std::string> segmentOf;
  std::vector<std::pair<std::vector<Operation *>, std::string>> segments;
  for (Block &block : func.getBody()) {
    llvm::DenseSet<Operation *> npuOps;
    for (Operation &op : block)
      if (auto it = placements.find(&op);
          it != placements.end() && it->second.onNPU())
        npuOps.insert(&op);
    for (std::vector<Operation *> &members : formSegments(block, npuOps)) {
      std::string node = nodeName(members.front()->getLoc());
      if (prefix && StringRef(node).starts_with(*prefix))
        node = node.substr(prefix->size());
      if (node.empty())
        node = members.front()->getName().stripDialect().str();
      std::string base = "npu_" + sanitize(node), name = base;
      for (int suffix = 1; symbols.lookup(name) || used.contains(name);
           ++suffix)
        name = base + "_" + std::to_string(suffix);
      used.insert(name);
      for (Operation *op : members)
        segmentOf[op] = name;
      segments.push_back({std::move(members), name});
    }
  }

  // Report every tf op but constants, nested ones included.
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isa_and_nonnull<tf::TFDialect>(op->getDialect()) ||
        isa<tf::ConstOp>(op) || op->hasTrait<OpTrait::IsTerminator>())
      return;
    ReportRow row{nodeName(op->getLoc()), op->getName().getStringRef().str(),
                  func.getSymName().str(), segmentOf.lookup(op), {}};
    if (auto it = placements.find(op); it != placements.end()) {
      row.placement = it->second;
    } else {
      row.placement.kind = ReasonKind::ControlFlow;
      row.placement.reason =
          ("inside " + op->getParentOp()->getName().getStringRef() +
           ": ops in regions stay on the CPU")
              .str();
    }
    if (row.placement.onNPU())
      ++numNPUOps;
    else
      ++numCPUOps;
    if (remarks) {
      if (row.placement.onNPU())
        op->emitRemark() << "NPU (@" << row.segment << ")";
      else
        op->emitRemark() << "CPU (" << reasonKindName(row.placement.kind)
                         << "): " << row.placement.reason;
    }
    rows.push_back(std::move(row));
  });
  if (analyzeOnly || segments.empty())
    return success();
  if (mode == Precision::Int8) {
    SmallVector<std::vector<Operation *>> members;
    for (auto &segment : segments)
      members.push_back(segment.first);
    if (failed(checkRanges(func, members)))
      return failure();
  }

  // Outline, then restore dominance in the CPU function.
  DenseMap<Operation *, int64_t> position;
  for (Block &block : func.getBody()) {
    int64_t index = 0;
    for (Operation &op : block)
      position[&op] = index++;
  }
  Operation *insertAfter = func;
  llvm::DenseSet<Operation *> calls;
  for (auto &[members, name] : segments) {
    int64_t last = position.lookup(members.back());
    func::CallOp call = outline(members, name, target, insertAfter);
    auto segment = cast<func::FuncOp>(insertAfter);
    symbols.insert(segment);
    created.push_back(segment);
    ++numSegments;
    position[call] = last;
    calls.insert(call);
  }
  for (Block &block : func.getBody())
    if (failed(reorder(block, position, calls)))
      return func.emitError()
             << "convert-tf-to-npu: the NPU segments depend on each other "
                "in a cycle";
  // Constants that only segments read are now in the segments.
  func.walk([](tf::ConstOp constant) {
    if (constant->use_empty())
      constant->erase();
  });
  return success();
}

void ConvertTFToNPUPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (report != "none" && report != "markdown" && report != "csv") {
    module.emitError() << "convert-tf-to-npu: unknown report format '"
                       << report << "' (expected none, markdown or csv)";
    return signalPassFailure();
  }
  absl::StatusOr<kiln::npu::TargetConfig> config =
      npu::TargetAttr::resolve(targetPreset, DictionaryAttr());
  if (!config.ok()) {
    module.emitError() << "convert-tf-to-npu: target '" << targetPreset
                       << "': " << std::string(config.status().message());
    return signalPassFailure();
  }
  auto fallback = npu::TargetAttr::get(&getContext(), targetPreset);
  if (precision != "fp16" && precision != "int8") {
    module.emitError() << "convert-tf-to-npu: unknown precision '"
                       << precision << "' (expected fp16 or int8)";
    return signalPassFailure();
  }
  mode = precision == "int8" ? Precision::Int8 : Precision::FP16;
  if (mode == Precision::Int8 && !analyzeOnly) {
    if (calibrationFile.empty()) {
      module.emitError() << "convert-tf-to-npu: precision=int8 needs "
                            "calibration-file (the ranges of "
                            "kiln-npu-calibrate)";
      return signalPassFailure();
    }
    auto buffer = llvm::MemoryBuffer::getFile(calibrationFile);
    if (!buffer) {
      module.emitError() << "convert-tf-to-npu: cannot read '"
                         << calibrationFile
                         << "': " << buffer.getError().message();
      return signalPassFailure();
    }
    llvm::Expected<RangeTable> table =
        RangeTable::readJSON((*buffer)->getBuffer());
    if (!table) {
      module.emitError() << "convert-tf-to-npu: '" << calibrationFile
                         << "': " << llvm::toString(table.takeError());
      return signalPassFailure();
    }
    ranges = std::move(*table);
  }

  SmallVector<func::FuncOp> funcs;
  for (func::FuncOp func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && !func->hasAttr(kNodesAttrName))
      funcs.push_back(func);
  SymbolTable symbols(module);
  std::vector<ReportRow> rows;
  SmallVector<func::FuncOp> created;
  for (func::FuncOp func : funcs)
    if (failed(partition(func, fallback, symbols, rows, created)))
      return signalPassFailure();

  if (mode == Precision::Int8) {
    // The int8 ops carry requantisation multipliers the targets' verifiers
    // check; a segment that fails says which op and why.
    for (func::FuncOp segment : created)
      if (failed(mlir::verify(segment)))
        return signalPassFailure();
  } else {
    RewritePatternSet patterns(&getContext());
    populateNPUFusionPatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (func::FuncOp segment : created)
      if (failed(applyPatternsGreedily(segment, frozen)))
        return signalPassFailure();
  }

  if (report == "none")
    return;
  std::error_code error;
  llvm::raw_fd_ostream os(reportFile, error, llvm::sys::fs::OF_Text);
  if (error) {
    module.emitError() << "convert-tf-to-npu: cannot write '" << reportFile
                       << "': " << error.message();
    return signalPassFailure();
  }
  writeReport(os, rows, report == "markdown");
}

} // namespace
