//===- TFDialect.cpp - the tf dialect ---------------------------*- C++ -*-===//
//
// Dialect registration, the derived-attribute helpers and constant
// materialization. Op verifiers, folders and shape functions live in
// TFVerifiers.cpp, TFFolders.cpp and TFShapeInference*.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace kiln::tf;

#include "dialects/TF/IR/TFDialect.cpp.inc"
#include "dialects/TF/IR/TFInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// TFDialect
//===----------------------------------------------------------------------===//

void TFDialect::initialize() {
  registerOps();
  // TensorFlow has thousands of op types: import keeps the ones Kiln does
  // not define as generic operations instead of failing.
  allowUnknownOperations();
}

Operation *TFDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  OperationState state(loc, "tf.Const");
  state.addAttribute("value", elements);
  state.addTypes(type);
  return builder.create(state);
}

//===----------------------------------------------------------------------===//
// Derived attributes
//===----------------------------------------------------------------------===//

Type kiln::tf::getDerivedElementType(ValueRange values) {
  if (values.empty())
    return nullptr;
  return getElementTypeOrSelf(values.front().getType());
}

ArrayAttr kiln::tf::getDerivedTypeList(ValueRange values) {
  if (values.empty())
    return nullptr;
  Builder b(values.front().getContext());
  SmallVector<Attribute> types;
  for (Value v : values)
    types.push_back(TypeAttr::get(getElementTypeOrSelf(v.getType())));
  return b.getArrayAttr(types);
}
