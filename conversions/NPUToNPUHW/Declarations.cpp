//===- Declarations.cpp - the declarations of a lowered stream -----------===//
//
// Regions, constants and IO tensors of the streams convert-npu-to-npuhw
// writes.
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/Declarations.h"

#include "dialects/NPUHW/IR/NPUHWOps.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::npu_to_npuhw;

namespace {
/// IO names: the `tf.entry_function` lists when present, else argN/resultN.
SmallVector<std::string> ioNames(func::FuncOp func, StringRef key,
                                 StringRef prefix, unsigned count) {
  SmallVector<std::string> names;
  if (auto entry = func->getAttrOfType<DictionaryAttr>("tf.entry_function"))
    if (auto list = entry.getAs<StringAttr>(key)) {
      SmallVector<StringRef> parts;
      llvm::SplitString(list.getValue(), parts, ",");
      if (parts.size() == count)
        for (StringRef p : parts)
          names.push_back(p.str());
    }
  for (unsigned i = names.size(); i < count; ++i)
    names.push_back((prefix + Twine(i)).str());
  return names;
}

/// A declaration op of the stream, built by name with its attributes.
void declare(OpBuilder &b, Location loc, StringRef name,
             ArrayRef<NamedAttribute> attrs) {
  OperationState state(loc, name);
  state.addAttributes(attrs);
  b.create(state);
}

} // namespace

void npu_to_npuhw::declareStream(OpBuilder &b, Location loc,
                                 func::FuncOp func, func::ReturnOp ret,
                                 const llvm::DenseMap<Value, DramPlace> &places,
                                 const std::vector<uint8_t> &constBytes,
                                 uint64_t scratchSize, uint64_t inputSize,
                                 uint64_t outputSize) {
  MLIRContext *ctx = b.getContext();
  Block &body = func.getBody().front();
  auto region = [&](unsigned index, npuhw::RegionKind kind, uint64_t size) {
    if (!size)
      return;
    declare(b, loc, "npuhw.region",
            {b.getNamedAttr("index", b.getI64IntegerAttr(index)),
             b.getNamedAttr("kind", npuhw::RegionKindAttr::get(ctx, kind)),
             b.getNamedAttr("size", b.getI64IntegerAttr(size))});
  };
  region(kConstRegion, npuhw::RegionKind::const_, constBytes.size());
  region(kScratchRegion, npuhw::RegionKind::scratch, scratchSize);
  region(kInputRegion, npuhw::RegionKind::input, inputSize);
  region(kOutputRegion, npuhw::RegionKind::output, outputSize);
  if (!constBytes.empty()) {
    auto constType = RankedTensorType::get(
        {static_cast<int64_t>(constBytes.size())}, b.getI8Type());
    ArrayRef<int8_t> constData(
        reinterpret_cast<const int8_t *>(constBytes.data()), constBytes.size());
    declare(b, loc, "npuhw.const",
            {b.getNamedAttr("value",
                            DenseElementsAttr::get(constType, constData))});
  }
  auto io = [&](npuhw::IoDirection dir, StringRef name, Value value,
                Type type) {
    auto shaped = cast<ShapedType>(type);
    Type element = shaped.getElementType();
    double scale = 1.0;
    int32_t zeroPoint = 0;
    if (auto q = dyn_cast<quant::UniformQuantizedType>(element)) {
      scale = q.getScale();
      zeroPoint = q.getZeroPoint();
      element = IntegerType::get(ctx, q.getStorageTypeIntegralWidth());
    }
    SmallVector<int64_t> shape(shaped.getShape());
    if (shape.empty())
      shape.push_back(1);
    DramPlace place = places.lookup(stripCasts(value));
    declare(
        b, loc, "npuhw.io",
        {b.getNamedAttr("direction", npuhw::IoDirectionAttr::get(ctx, dir)),
         b.getNamedAttr("name", b.getStringAttr(name)),
         b.getNamedAttr("region", b.getI64IntegerAttr(place.region)),
         b.getNamedAttr("offset", b.getI64IntegerAttr(place.offset)),
         b.getNamedAttr("element_type", TypeAttr::get(element)),
         b.getNamedAttr("shape", b.getDenseI64ArrayAttr(shape)),
         b.getNamedAttr("layout", npuhw::IoLayoutAttr::get(
                                      ctx, npuhw::IoLayout::nhwc)),
         b.getNamedAttr("scale", b.getF32FloatAttr(scale)),
         b.getNamedAttr("zero_point", b.getI32IntegerAttr(zeroPoint))});
  };
  SmallVector<std::string> inputNames =
      ioNames(func, "inputs", "arg", func.getNumArguments());
  for (BlockArgument arg : body.getArguments())
    io(npuhw::IoDirection::input, inputNames[arg.getArgNumber()], arg,
       arg.getType());
  SmallVector<std::string> outputNames =
      ioNames(func, "outputs", "result", ret.getNumOperands());
  for (auto [i, value] : llvm::enumerate(ret.getOperands()))
    io(npuhw::IoDirection::output, outputNames[i], value, value.getType());
}
