//===- LoweringUtils.cpp - helpers shared by the layer lowerings ---------===//
//
// Band rows (halo and border padding) and the command emitter used by every
// emitter of convert-npu-to-npuhw.
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/LoweringUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace mlir;
using namespace kiln;
using namespace kiln::npu_to_npuhw;

BandRows npu_to_npuhw::bandRows(const RowWindow &window, int64_t h,
                                int64_t y0, int64_t rows) {
  int64_t first = y0 * window.sy - window.pt;
  int64_t last = (y0 + rows - 1) * window.sy - window.pt + window.extent() - 1;
  BandRows b;
  b.padTop = first < 0 ? -first : 0;
  b.padBottom = last > h - 1 ? last - (h - 1) : 0;
  b.first = std::max<int64_t>(first, 0);
  b.last = std::min(last, h - 1);
  return b;
}

int64_t npu_to_npuhw::bandInputRows(const RowWindow &window, int64_t h,
                                    int64_t rows) {
  return std::min(h, (rows - 1) * window.sy + window.extent());
}

CommandEmitter::CommandEmitter(OpBuilder &b, Location loc) : b(b), loc(loc) {
  ctx = b.getContext();
  i8 = b.getI8Type();
  i32 = b.getI32Type();
  f16 = b.getF16Type();
  f32 = b.getF32Type();
  token = npuhw::TokenType::get(ctx);
}

Value CommandEmitter::alloc(ArrayRef<int64_t> shape, Type element,
                            npuhw::LmemRegion r) {
  auto type = MemRefType::get(shape, element, MemRefLayoutAttrInterface(),
                              npuhw::LmemRegionAttr::get(ctx, r));
  return npuhw::AllocOp::create(b, loc, type);
}

Value CommandEmitter::dram(unsigned region, int64_t offset, int64_t bytes) {
  auto type = MemRefType::get({bytes}, i8,
                              StridedLayoutAttr::get(ctx, offset, {1}),
                              npuhw::DramSpaceAttr::get(ctx, region));
  return npuhw::ViewOp::create(b, loc, type);
}

Value CommandEmitter::slice(Value source, ArrayRef<int64_t> offsets,
                            ArrayRef<int64_t> sizes) {
  auto type = cast<MemRefType>(source.getType());
  if (llvm::all_of(offsets, [](int64_t o) { return o == 0; }) &&
      type.getShape() == sizes)
    return source;
  SmallVector<int64_t> strides(sizes.size(), 1);
  return memref::SubViewOp::create(b, loc, source, offsets, sizes, strides);
}

Value CommandEmitter::command(StringRef name, ArrayRef<Value> operands,
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
  state.addTypes(token);
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

Value CommandEmitter::unary(npuhw::UnaryOp op, Value in, Value out,
                            ArrayRef<Value> deps,
                            ArrayRef<std::pair<StringRef, int64_t>> fields) {
  Value token =
      command("npuhw.vec_unary", {in, out}, deps, fields, {}, {1, 0, 1});
  token.getDefiningOp()->setAttr("op", npuhw::UnaryOpAttr::get(ctx, op));
  return token;
}

Value CommandEmitter::loadBytes(Value src, Value dst, int64_t bytes,
                                ArrayRef<Value> deps) {
  return command("npuhw.dma_load", {src, dst}, deps,
                 {{"src_run", bytes}, {"dst_run", bytes}, {"n0", 1},
                  {"n1", 1}, {"n2", 1}});
}
