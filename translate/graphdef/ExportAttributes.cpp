//===- ExportAttributes.cpp - attributes of exported nodes -----*- C++ -*-===//
//
// A node's attributes: the operation's own (device into NodeDef.device,
// symbol references as `func` attributes with their flattened attributes
// folded back), the ones Kiln derives from the types where the OpDef needs
// them, and `_output_shapes` from the result types.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/Exporter.h"
#include "translate/graphdef/ExportTypes.h"

#include "mlir/Interfaces/DerivedAttributeOpInterface.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::graphdef::detail;

/// The value type of a reference DataType (DT_FLOAT for DT_FLOAT_REF), any
/// other unchanged: type attributes name the value type, as TensorFlow's
/// exporter writes them.
tensorflow::DataType
kiln::graphdef::detail::valueDataType(tensorflow::DataType dtype) {
  if (dtype > 100)
    return static_cast<tensorflow::DataType>(dtype - 100);
  return dtype;
}

void Exporter::addOutputShapes(tensorflow::NodeDef &def, TypeRange types) {
  if (types.empty())
    return;
  auto *list = (*def.mutable_attr())["_output_shapes"].mutable_list();
  for (Type type : types)
    exportShape(type, *list->add_shape());
}

LogicalResult Exporter::exportAttrs(Operation *op, tensorflow::NodeDef &def,
                                    ArrayRef<StringRef> skip) {
  auto errorFn = [&]() { return opError(op); };
  DictionaryAttr attrs = op->getAttrDictionary();
  auto &out = *def.mutable_attr();
  for (NamedAttribute attr : attrs) {
    StringRef name = attr.getName().strref();
    if (llvm::is_contained(skip, name) || name == "name" ||
        name == "_output_shapes")
      continue;
    if (name == "device") {
      if (auto device = dyn_cast<StringAttr>(attr.getValue()))
        def.set_device(device.getValue().str());
      continue;
    }
    // `then_branch.T` folds back into the function attribute then_branch.
    if (auto dot = name.find('.'); dot != StringRef::npos)
      if (isa_and_nonnull<SymbolRefAttr>(attrs.get(name.take_front(dot))))
        continue;
    tensorflow::AttrValue value;
    if (failed(exportAttrValue(attr.getValue(), value, errorFn)))
      return failure();
    if (isa<SymbolRefAttr>(attr.getValue())) {
      // The flattened attributes of the function it names.
      std::string prefix = (name + ".").str();
      for (NamedAttribute inner : attrs) {
        StringRef innerName = inner.getName().strref();
        if (!innerName.starts_with(prefix))
          continue;
        tensorflow::AttrValue innerValue;
        if (failed(exportAttrValue(inner.getValue(), innerValue, errorFn)))
          return failure();
        (*value.mutable_func()
              ->mutable_attr())[innerName.drop_front(prefix.size()).str()] =
            std::move(innerValue);
      }
    }
    out[name.str()] = std::move(value);
  }
  return success();
}

LogicalResult Exporter::addDerivedAttrs(Operation *op,
                                        tensorflow::NodeDef &def,
                                        const tensorflow::OpDef *opDef) {
  if (auto derived = dyn_cast<DerivedAttributeOpInterface>(op);
      derived && opDef) {
    DictionaryAttr values = derived.materializeDerivedAttributes();
    for (NamedAttribute attr : values) {
      std::string attrName = attr.getName().str();
      if (def.attr().count(attrName))
        continue;
      auto opAttr = llvm::find_if(opDef->attr(), [&](const auto &a) {
        return a.name() == attrName;
      });
      if (opAttr == opDef->attr().end() || opAttr->has_default_value())
        continue;
      if (!attr.getValue()) {
        // A type list of an empty operand or result group.
        if (opAttr->type() == "list(type)")
          (*def.mutable_attr())[attrName].mutable_list();
        continue;
      }
      if (auto type = dyn_cast<TypeAttr>(attr.getValue());
          type && !type.getValue())
        continue;
      tensorflow::AttrValue value;
      if (failed(exportAttrValue(attr.getValue(), value,
                                 [&]() { return opError(op); })))
        return failure();
      if (value.has_type())
        value.set_type(valueDataType(value.type()));
      for (int i = 0; value.has_list() && i < value.list().type_size(); ++i)
        value.mutable_list()->set_type(i, valueDataType(value.list().type(i)));
      (*def.mutable_attr())[attrName] = std::move(value);
    }
  }
  return success();
}
