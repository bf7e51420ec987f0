//===- Observe.cpp - observe-npu-ranges -------------------------*- C++ -*-===//
//
// Calibration instrumentation: the entry function also returns every tensor
// an int8 partition will quantise, so that running it on the CPU over
// sample inputs gives their ranges.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToNPU/TFToNPU.h"

#include "dialects/NPU/IR/NPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SetVector.h"

namespace kiln {
#define GEN_PASS_DEF_OBSERVENPURANGESPASS
#include "conversions/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;
using namespace kiln::tf_to_npu;

namespace {

/// The result attribute naming an observed tensor.
constexpr llvm::StringLiteral kRangeKeyAttrName = "kiln.range_key";

struct ObserveNPURangesPass final
    : kiln::impl::ObserveNPURangesPassBase<ObserveNPURangesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal()) {
      module.emitError() << "observe-npu-ranges: no function '" << entry
                         << "' with a body";
      return signalPassFailure();
    }
    if (!func.getBody().hasOneBlock()) {
      func.emitOpError() << "has " << func.getBody().getBlocks().size()
                         << " blocks; observe-npu-ranges instruments one";
      return signalPassFailure();
    }
    npu::TargetAttr target = npu::lookupTarget(func);
    if (!target) {
      if (!npu::TargetAttr::resolve(targetPreset, DictionaryAttr()).ok()) {
        module.emitError() << "observe-npu-ranges: unknown target '"
                           << targetPreset << "'";
        return signalPassFailure();
      }
      target = npu::TargetAttr::get(&getContext(), targetPreset);
    }

    DenseMap<Operation *, Placement> placements =
        decidePlacements(func, target, Precision::Int8);
    Block &block = func.getBody().front();
    llvm::DenseSet<Operation *> npuOps;
    for (Operation &op : block)
      if (auto it = placements.find(&op);
          it != placements.end() && it->second.onNPU())
        npuOps.insert(&op);
    llvm::SetVector<Value> observed;
    for (std::vector<Operation *> &members : formSegments(block, npuOps))
      for (Value value : int8RangeNeeds(members, segmentInputs(members)))
        observed.insert(value);
    if (observed.empty())
      return;

    auto ret = cast<func::ReturnOp>(block.getTerminator());
    unsigned first = ret.getNumOperands();
    SmallVector<Value> operands(ret.getOperands());
    operands.append(observed.begin(), observed.end());
    ret->setOperands(operands);
    SmallVector<Type> results(ValueRange(operands).getTypes());
    func.setType(FunctionType::get(&getContext(),
                                   func.getFunctionType().getInputs(),
                                   results));
    SmallVector<std::string> keys;
    for (auto [index, value] : llvm::enumerate(observed)) {
      keys.push_back(rangeKey(value));
      func.setResultAttr(first + index, kRangeKeyAttrName,
                         StringAttr::get(&getContext(), keys.back()));
    }
    // Keep tf.entry_function's outputs one name per result.
    if (auto entryAttr =
            func->getAttrOfType<DictionaryAttr>("tf.entry_function"))
      if (auto outputs = entryAttr.getAs<StringAttr>("outputs")) {
        std::string names = outputs.getValue().str();
        for (const std::string &key : keys)
          names += (names.empty() ? "" : ",") + key;
        NamedAttrList attrs(entryAttr);
        attrs.set("outputs", StringAttr::get(&getContext(), names));
        func->setAttr("tf.entry_function",
                      attrs.getDictionary(&getContext()));
      }
  }
};

} // namespace

std::vector<std::pair<unsigned, std::string>>
tf_to_npu::observedResults(func::FuncOp entry) {
  std::vector<std::pair<unsigned, std::string>> results;
  for (unsigned i = 0, e = entry.getNumResults(); i < e; ++i)
    if (auto key = entry.getResultAttrOfType<StringAttr>(i, kRangeKeyAttrName))
      results.emplace_back(i, key.getValue().str());
  return results;
}
