//===- Lowering.cpp - helpers shared by the npu -> npuhw emitters -*- C++ -*-===//
//
// The constant pool of r0, constants as bytes, and operand places.
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/Lowering.h"

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

uint64_t ScratchPlan::place(uint64_t bytes, unsigned def, unsigned lastUse) {
  llvm::erase_if(live, [&](const Block &b) { return b.lastUse < def; });
  llvm::sort(live,
             [](const Block &a, const Block &b) { return a.offset < b.offset; });
  uint64_t offset = 0;
  for (const Block &b : live) {
    if (offset + bytes <= b.offset)
      break;
    offset = std::max(offset, align16(b.offset + b.bytes));
  }
  live.push_back({offset, bytes, lastUse});
  size = std::max(size, offset + bytes);
  return offset;
}

Value npu_to_npuhw::stripCasts(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (def->getName().getStringRef() != "quant.scast" ||
        def->getNumOperands() != 1)
      break;
    value = def->getOperand(0);
  }
  return value;
}

DenseElementsAttr npu_to_npuhw::constantElements(Value value) {
  DenseElementsAttr attr;
  if (!matchPattern(stripCasts(value), m_Constant(&attr)))
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
