//===- ImportChecks.cpp - a node's inputs against its OpDef -----*- C++ -*-===//
//
// TensorFlow's graph constructor refuses a node whose inputs do not match its
// OpDef: too many or too few, or of a type its attributes contradict
// (Identity with T = DT_INT32 fed a float). The importer checks the same
// before it creates the operation, so that such a graph is refused with the
// node's name instead of being accepted with attributes that lie.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/Importer.h"

#include "dialects/TFType/IR/TFTypeDialect.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::graphdef;
using namespace kiln::graphdef::detail;

namespace {
/// One flat input an OpDef expects: its type and where the type comes from
/// (the attribute's name, empty for a fixed type).
struct ExpectedInput {
  tensorflow::DataType dtype;
  std::string source;
  std::string argName;
};
} // namespace

/// Whether a value of element type `actual` can feed an input of element
/// type `expected`: equal once references are dereferenced (TensorFlow
/// passes a ref where a value is expected), and resources and variants
/// match whatever their subtypes.
static bool elementTypesMatch(Type expected, Type actual) {
  if (Type deref = tf_type::getRefElementType(expected))
    expected = deref;
  if (Type deref = tf_type::getRefElementType(actual))
    actual = deref;
  if (expected == actual)
    return true;
  return expected.getTypeID() == actual.getTypeID() &&
         isa<tf_type::ResourceType, tf_type::VariantType>(expected);
}

LogicalResult Importer::checkOpDefInputs(NodeInfo &info,
                                         const tensorflow::OpDef &opDef,
                                         ArrayRef<Value> data) {
  SmallVector<ExpectedInput> expected;
  for (const tensorflow::OpDef::ArgDef &arg : opDef.input_arg()) {
    if (!arg.type_list_attr().empty()) {
      const auto *attr = findAttr(info, arg.type_list_attr(), &opDef);
      if (!attr || attr->value_case() != tensorflow::AttrValue::kList)
        return nodeError(info) << "attribute '" << arg.type_list_attr()
                               << "' is missing; it gives the types of input '"
                               << arg.name() << "'";
      for (int t : attr->list().type())
        expected.push_back({static_cast<tensorflow::DataType>(t),
                            arg.type_list_attr(), arg.name()});
      continue;
    }
    int64_t count = 1;
    if (!arg.number_attr().empty()) {
      const auto *attr = findAttr(info, arg.number_attr(), &opDef);
      if (!attr || attr->value_case() != tensorflow::AttrValue::kI ||
          attr->i() < 0)
        return nodeError(info) << "attribute '" << arg.number_attr()
                               << "' is missing or negative; it gives the "
                                  "length of input '"
                               << arg.name() << "'";
      if (attr->i() > static_cast<int64_t>(data.size()))
        return nodeError(info)
               << "attribute '" << arg.number_attr() << "' is " << attr->i()
               << ", but the node has only " << data.size() << " data inputs";
      count = attr->i();
    }
    tensorflow::DataType dtype = arg.type();
    std::string source;
    if (!arg.type_attr().empty()) {
      const auto *attr = findAttr(info, arg.type_attr(), &opDef);
      if (!attr || attr->value_case() != tensorflow::AttrValue::kType)
        return nodeError(info) << "attribute '" << arg.type_attr()
                               << "' is missing; it gives the type of input '"
                               << arg.name() << "'";
      dtype = attr->type();
      source = arg.type_attr();
    }
    expected.append(count, ExpectedInput{dtype, source, arg.name()});
  }
  if (expected.size() != data.size())
    return nodeError(info) << "has " << data.size()
                           << " data inputs, but its op type and attributes "
                              "call for "
                           << expected.size();
  for (auto [index, want, value] : llvm::enumerate(expected, data)) {
    auto type = convertDataType(want.dtype, builder,
                                [&]() { return nodeError(info); });
    if (failed(type))
      return failure();
    Type actual = getElementTypeOrSelf(value.getType());
    if (elementTypesMatch(*type, actual))
      continue;
    auto diag = nodeError(info)
                << "input " << index << " ('" << info.dataInputs[index].text
                << "') has element type " << actual << ", but input '"
                << want.argName << "' takes "
                << tensorflow::DataType_Name(want.dtype);
    if (!want.source.empty())
      diag << " (attribute '" << want.source << "')";
    return diag;
  }
  return success();
}

LogicalResult Importer::checkConst(NodeInfo &info) {
  const tensorflow::NodeDef &def = *info.def;
  auto value = def.attr().find("value");
  if (value == def.attr().end() || !value->second.has_tensor())
    return nodeError(info) << "attribute 'value' is missing or not a tensor";
  auto dtype = def.attr().find("dtype");
  tensorflow::DataType given = value->second.tensor().dtype();
  if (dtype != def.attr().end() &&
      dtype->second.value_case() == tensorflow::AttrValue::kType &&
      dtype->second.type() != given)
    return nodeError(info) << "its value is a "
                           << tensorflow::DataType_Name(given)
                           << " tensor, but attribute 'dtype' says "
                           << tensorflow::DataType_Name(dtype->second.type());
  return success();
}
