//===- Lowering.cpp - helpers shared by the npu -> npuhw emitters -*- C++ -*-===//
//
// The constant pool of r0, constants as bytes, and the builder of buffers,
// views and commands that every emitter uses.
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/Lowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::npu_to_npuhw;

uint64_t ConstantPool::append(ArrayRef<uint8_t> bytes) {
  data.resize((data.size() + 63) / 64 * 64, 0);
  uint64_t offset = data.size();
  data.insert(data.end(), bytes.begin(), bytes.end());
  return offset;
}

DenseElementsAttr npu_to_npuhw::constantElements(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (def->getName().getStringRef() != "quant.scast" ||
        def->getNumOperands() != 1)
      break;
    value = def->getOperand(0);
  }
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return nullptr;
  return attr;
}

int64_t npu_to_npuhw::elementBytes(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  if (auto q = dyn_cast<quant::QuantizedType>(type))
    return (q.getStorageTypeIntegralWidth() + 7) / 8;
  return (type.getIntOrFloatBitWidth() + 7) / 8;
}

std::vector<uint8_t> npu_to_npuhw::rawBytes(DenseElementsAttr attr) {
  int64_t size = elementBytes(attr.getElementType());
  std::vector<uint8_t> bytes;
  bytes.reserve(attr.getNumElements() * size);
  auto push = [&](const APInt &bits) {
    for (int64_t i = 0; i < size; ++i)
      bytes.push_back(
          static_cast<uint8_t>(bits.extractBitsAsZExtValue(8, 8 * i)));
  };
  if (isa<FloatType>(attr.getElementType()))
    for (const APFloat &v : attr.getValues<APFloat>())
      push(v.bitcastToAPInt());
  else
    for (const APInt &v : attr.getValues<APInt>())
      push(v);
  return bytes;
}

DramPlace npu_to_npuhw::placeOperand(Operation *op, unsigned index,
                                     OpLowering &lowering) {
  if (lowering.operands[index])
    return *lowering.operands[index];
  DenseElementsAttr attr = constantElements(op->getOperand(index));
  DramPlace place{kConstRegion, lowering.constants.append(rawBytes(attr))};
  lowering.operands[index] = place;
  return place;
}

CommandBuilder::CommandBuilder(OpBuilder &b, Location loc)
    : b(b), loc(loc), ctx(b.getContext()) {}

Value CommandBuilder::alloc(ArrayRef<int64_t> shape, Type element,
                            npuhw::LmemRegion r) {
  auto type = MemRefType::get(shape, element, MemRefLayoutAttrInterface(),
                              npuhw::LmemRegionAttr::get(ctx, r));
  return npuhw::AllocOp::create(b, loc, type);
}

Value CommandBuilder::dram(unsigned region, int64_t offset, int64_t bytes) {
  auto type = MemRefType::get({bytes}, b.getI8Type(),
                              StridedLayoutAttr::get(ctx, offset, {1}),
                              npuhw::DramSpaceAttr::get(ctx, region));
  return npuhw::ViewOp::create(b, loc, type);
}

Value CommandBuilder::slice(Value source, ArrayRef<int64_t> offsets,
                            ArrayRef<int64_t> sizes) {
  auto type = cast<MemRefType>(source.getType());
  if (llvm::all_of(offsets, [](int64_t o) { return o == 0; }) &&
      type.getShape() == sizes)
    return source;
  SmallVector<int64_t> strides(sizes.size(), 1);
  return memref::SubViewOp::create(b, loc, source, offsets, sizes, strides);
}

Value CommandBuilder::command(StringRef name, ArrayRef<Value> operands,
                              ArrayRef<Value> deps,
                              ArrayRef<std::pair<StringRef, int64_t>> fields,
                              ArrayRef<StringRef> units,
                              ArrayRef<int32_t> segments,
                              ArrayRef<NamedAttribute> attrs) {
  OperationState state(loc, name);
  state.addOperands(operands);
  int32_t numDeps = 0;
  llvm::SmallPtrSet<Value, 8> seen;
  for (Value d : deps)
    if (d && seen.insert(d).second) {
      state.addOperands(d);
      ++numDeps;
    }
  state.addTypes(npuhw::TokenType::get(ctx));
  for (auto [field, value] : fields)
    if (value)
      state.addAttribute(field, b.getI64IntegerAttr(value));
  for (StringRef unit : units)
    state.addAttribute(unit, b.getUnitAttr());
  state.addAttributes(attrs);
  if (!segments.empty()) {
    SmallVector<int32_t> sizes(segments);
    sizes.push_back(numDeps);
    state.addAttribute("operandSegmentSizes", b.getDenseI32ArrayAttr(sizes));
  }
  return b.create(state)->getResult(0);
}

Value CommandBuilder::loadBytes(Value src, Value dst, int64_t bytes,
                                ArrayRef<Value> deps) {
  return command("npuhw.dma_load", {src, dst}, deps,
                 {{"src_run", bytes},
                  {"dst_run", bytes},
                  {"n0", 1},
                  {"n1", 1},
                  {"n2", 1}});
}
