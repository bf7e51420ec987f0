//===- NPUDialect.cpp - the npu dialect -------------------------*- C++ -*-===//
//
// Registration of the npu dialect and the #npu.target attribute.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUDialect.h"
#include "dialects/NPU/IR/NPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln::npu;

#include "dialects/NPU/IR/NPUDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/NPU/IR/NPUAttrs.cpp.inc"

void NPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/NPU/IR/NPUAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/NPU/IR/NPUOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

absl::StatusOr<TargetConfig> TargetAttr::resolve(StringRef preset,
                                                 DictionaryAttr overrides) {
  absl::StatusOr<TargetConfig> config = TargetConfig::preset(preset.str());
  if (!config.ok())
    return config.status();
  if (overrides) {
    for (NamedAttribute entry : overrides) {
      auto value = dyn_cast<IntegerAttr>(entry.getValue());
      if (!value || value.getValue().isNegative() ||
          value.getValue().getActiveBits() > 32)
        return absl::InvalidArgumentError(
            "target config: '" + entry.getName().str() +
            "' must be an unsigned 32-bit integer");
      if (absl::Status status = config->set(entry.getName().str(),
                                            value.getValue().getZExtValue());
          !status.ok())
        return status;
    }
  }
  if (absl::Status status = config->validate(); !status.ok())
    return status;
  return config;
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringAttr preset, DictionaryAttr overrides) {
  absl::StatusOr<TargetConfig> config = resolve(preset.getValue(), overrides);
  if (!config.ok())
    return emitError() << std::string(config.status().message());
  return success();
}

TargetConfig TargetAttr::getConfig() const {
  absl::StatusOr<TargetConfig> config =
      resolve(getPreset().getValue(), getOverrides());
  // The verifier accepted this attribute, so it resolves.
  return config.ok() ? *config : TargetConfig();
}

TargetAttr kiln::npu::lookupTarget(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto target = op->getAttrOfType<TargetAttr>(kTargetAttrName))
      return target;
  return {};
}
