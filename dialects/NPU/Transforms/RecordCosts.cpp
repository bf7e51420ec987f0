//===- RecordCosts.cpp - npu-record-costs -----------------------*- C++ -*-===//
//
// npu-record-costs: the cost of every npu operation, per function, in the
// module attribute npu.layer_costs, keyed by the location the lowering gives
// the operation's commands, for the .npub COST section.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace kiln::npu {
#define GEN_PASS_DEF_NPURECORDCOSTSPASS
#include "dialects/NPU/Transforms/Passes.h.inc"
} // namespace kiln::npu

using namespace mlir;
using namespace kiln::npu;

namespace {

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct NPURecordCostsPass final
    : kiln::npu::impl::NPURecordCostsPassBase<NPURecordCostsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    Builder b(ctx);
    NamedAttrList functions;
    if (auto existing = module->getAttrOfType<DictionaryAttr>(kLayerCostsAttrName))
      functions.append(existing.getValue());
    for (auto func : module.getOps<FunctionOpInterface>()) {
      SmallVector<Attribute> entries;
      func->walk([&](NPUCostOpInterface op) {
        CostEstimate cost = op.estimateCostOnTarget();
        ++numOps;
        auto i64 = [&](uint64_t v) {
          return b.getI64IntegerAttr(static_cast<int64_t>(v));
        };
        entries.push_back(b.getDictionaryAttr(
            {b.getNamedAttr("loc", NameLoc::get(op->getName().getIdentifier(),
                                                op->getLoc())),
             b.getNamedAttr("estimate", i64(cost.estimate())),
             b.getNamedAttr("mac", i64(cost.usefulMacCycles)),
             b.getNamedAttr("vec", i64(cost.vecCycles)),
             b.getNamedAttr("dram", i64(cost.dramCycles)),
             b.getNamedAttr("macs", i64(cost.usefulMacs))}));
      });
      if (!entries.empty())
        functions.set(SymbolTable::getSymbolName(func),
                      b.getArrayAttr(entries));
    }
    if (!functions.empty())
      module->setAttr(kLayerCostsAttrName, functions.getDictionary(ctx));
  }
};

} // namespace
