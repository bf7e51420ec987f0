//===- NPUHWOps.cpp - npuhw stream, declarations and views ------*- C++ -*-===//
//
// The field dictionary syntax shared by every command, memref addresses,
// and the verifiers of the stream, its declarations, views and buffers.
// Command verifiers are in NPUHWVerifiers.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/IR/NPUHWOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::npuhw;

//===----------------------------------------------------------------------===//
// The field dictionary: `{kh = 3, sy = 1, accumulate}`
//===----------------------------------------------------------------------===//

/// Parses the attribute dictionary of a command. Unlike the default syntax,
/// an integer without a type is a field value (i64), so fields read as
/// `kh = 3`; any other attribute keeps its usual syntax.
static ParseResult parseFields(OpAsmParser &parser, NamedAttrList &attrs) {
  if (failed(parser.parseOptionalLBrace()))
    return success();
  if (succeeded(parser.parseOptionalRBrace()))
    return success();
  Builder &b = parser.getBuilder();
  do {
    std::string name;
    if (parser.parseKeywordOrString(&name))
      return failure();
    if (failed(parser.parseOptionalEqual())) {
      attrs.append(name, b.getUnitAttr());
      continue;
    }
    int64_t value;
    OptionalParseResult integer = parser.parseOptionalInteger(value);
    if (integer.has_value()) {
      if (failed(*integer))
        return failure();
      attrs.append(name, b.getI64IntegerAttr(value));
      continue;
    }
    Attribute attr;
    if (parser.parseAttribute(attr))
      return failure();
    attrs.append(name, attr);
  } while (succeeded(parser.parseOptionalComma()));
  return parser.parseRBrace();
}

/// Prints the dictionary parseFields reads. Inherent attributes that the
/// op's format prints elsewhere (enums, operand segment sizes) are left out.
static void printFields(OpAsmPrinter &printer, Operation *op,
                        DictionaryAttr attrs) {
  SmallVector<NamedAttribute> shown;
  ArrayRef<StringAttr> inherent = op->getName().getAttributeNames();
  for (NamedAttribute attr : attrs) {
    bool isInherent = llvm::is_contained(inherent, attr.getName());
    if (isInherent && !isa<IntegerAttr, UnitAttr>(attr.getValue()))
      continue;
    shown.push_back(attr);
  }
  if (shown.empty())
    return;
  printer << " {";
  llvm::interleaveComma(shown, printer, [&](NamedAttribute attr) {
    printer.printKeywordOrString(attr.getName().getValue());
    if (isa<UnitAttr>(attr.getValue()))
      return;
    printer << " = ";
    auto integer = dyn_cast<IntegerAttr>(attr.getValue());
    if (integer && integer.getType().isSignlessInteger(64))
      printer << integer.getInt();
    else
      printer.printAttribute(attr.getValue());
  });
  printer << "}";
}

#define GET_OP_CLASSES
#include "dialects/NPUHW/IR/NPUHWOps.cpp.inc"

#include "dialects/NPUHW/IR/NPUHWInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Addresses
//===----------------------------------------------------------------------===//

std::optional<MemRefAddress> kiln::npuhw::addressOf(MemRefType type) {
  MemRefAddress address;
  Attribute space = type.getMemorySpace();
  if (auto lmem = dyn_cast_or_null<LmemRegionAttr>(space)) {
    address.lmem = lmem.getValue();
  } else if (auto dram = dyn_cast_or_null<DramSpaceAttr>(space)) {
    address.dram = true;
    address.dramRegion = dram.getRegion();
  } else {
    return std::nullopt;
  }
  std::optional<npu::DType> dtype = dtypeOf(type.getElementType());
  if (!dtype || !type.hasStaticShape())
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) || offset < 0)
    return std::nullopt;
  int64_t esize = npu::dtypeSize(*dtype);
  int64_t last = 0;
  for (auto [size, stride] : llvm::zip(type.getShape(), strides)) {
    if (ShapedType::isDynamic(stride) || stride < 0)
      return std::nullopt;
    if (size == 0)
      last = -1;
    if (last >= 0)
      last += (size - 1) * stride;
  }
  address.byteOffset = offset * esize;
  address.byteExtent = last < 0 ? 0 : (last + 1) * esize;
  return address;
}

//===----------------------------------------------------------------------===//
// StreamOp
//===----------------------------------------------------------------------===//

npu::TargetConfig StreamOp::getTargetConfig() {
  if (npu::TargetAttr target = npu::lookupTarget(*this))
    return target.getConfig();
  return npu::TargetConfig();
}

LogicalResult StreamOp::verifyRegions() {
  Block &body = getBody().front();
  llvm::DenseMap<unsigned, RegionOp> regions;
  ConstOp constants;
  bool declarations = true;
  for (Operation &op : body) {
    bool isDecl = isa<RegionOp, ConstOp, IoOp>(op);
    if (isDecl && !declarations)
      return op.emitOpError("must precede every view, buffer and command of "
                            "the stream");
    declarations &= isDecl;
    if (auto region = dyn_cast<RegionOp>(op)) {
      auto [it, inserted] = regions.try_emplace(region.getIndex(), region);
      if (!inserted)
        return region.emitOpError("declares DRAM region ")
               << region.getIndex() << " a second time";
    } else if (auto c = dyn_cast<ConstOp>(op)) {
      if (constants)
        return c.emitOpError("is the stream's second npuhw.const");
      constants = c;
    }
  }
  if (constants) {
    RegionOp r0 = regions.lookup(0);
    int64_t size = constants.getValue().getNumElements();
    if (!r0 || r0.getSize() != static_cast<uint64_t>(size))
      return constants.emitOpError("holds ")
             << size << " bytes but DRAM region 0 is not declared const of "
             << "that size";
  } else if (RegionOp r0 = regions.lookup(0)) {
    if (r0.getSize() != 0)
      return r0.emitOpError("declares ")
             << r0.getSize() << " const bytes but the stream has no "
             << "npuhw.const";
  }
  for (Operation &op : body) {
    if (auto io = dyn_cast<IoOp>(op)) {
      RegionOp r = regions.lookup(io.getRegion());
      if (!r)
        return io.emitOpError("names DRAM region ")
               << io.getRegion() << ", which is not declared";
    }
    auto view = dyn_cast<ViewOp>(op);
    if (!view)
      continue;
    std::optional<MemRefAddress> address = addressOf(view.getType());
    if (!address || !address->dram)
      continue;
    RegionOp r = regions.lookup(address->dramRegion);
    if (!r)
      return view.emitOpError("names DRAM region ")
             << address->dramRegion << ", which is not declared";
    uint64_t end = address->byteOffset + address->byteExtent;
    if (end > r.getSize())
      return view.emitOpError("ends at byte ")
             << end << " of DRAM region " << address->dramRegion
             << ", which has " << r.getSize() << " bytes";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

LogicalResult RegionOp::verify() {
  bool isConst = getKind() == RegionKind::const_;
  if (isConst != (getIndex() == 0))
    return emitOpError("declares DRAM region ")
           << getIndex() << " " << stringifyRegionKind(getKind())
           << ": region 0, and only it, holds the constants";
  npu::TargetConfig config = getParentOp().getTargetConfig();
  if (getIndex() >= config.dramRegions)
    return emitOpError("declares DRAM region ")
           << getIndex() << " but the target has " << config.dramRegions;
  return success();
}

LogicalResult ConstOp::verify() {
  auto type = dyn_cast<ShapedType>(getValue().getType());
  if (!type || type.getRank() != 1 || !type.getElementType().isInteger(8))
    return emitOpError("expects a 1-D i8 value, not ") << getValue().getType();
  return success();
}

LogicalResult IoOp::verify() {
  if (getShape().empty() || llvm::any_of(getShape(), [](int64_t d) {
        return d <= 0 || d > UINT32_MAX;
      }))
    return emitOpError("expects a non-empty shape of positive 32-bit sizes");
  if (getShape().size() > 255)
    return emitOpError("has rank ") << getShape().size() << ", above 255";
  return success();
}

//===----------------------------------------------------------------------===//
// Views and buffers
//===----------------------------------------------------------------------===//

/// The target of \p op's stream (or of its closest target attribute).
static npu::TargetConfig targetOf(Operation *op) {
  if (npu::TargetAttr target = npu::lookupTarget(op))
    return target.getConfig();
  return npu::TargetConfig();
}

LogicalResult ViewOp::verify() {
  MemRefType type = getType();
  if (!dtypeOf(type.getElementType()))
    return emitOpError("expects an i8, i32, f16 or f32 element type, not ")
           << type.getElementType();
  std::optional<MemRefAddress> address = addressOf(type);
  if (!address)
    return emitOpError("expects a static shape and a static strided layout "
                       "with non-negative strides, not ")
           << type;
  // LMEM addresses are 16-byte aligned (docs/npu-isa.md §3); DRAM offsets
  // may be anything, bursts only make unaligned ones cost more.
  if (!address->dram && address->byteOffset % 16)
    return emitOpError("starts at byte offset ")
           << address->byteOffset << ", which is not 16-byte aligned";
  npu::TargetConfig config = targetOf(*this);
  if (address->dram) {
    if (address->dramRegion >= config.dramRegions)
      return emitOpError("names DRAM region ")
             << address->dramRegion << " but the target has "
             << config.dramRegions;
    return success();
  }
  uint64_t size = config.regionSize(toRuntime(address->lmem));
  uint64_t end = address->byteOffset + address->byteExtent;
  if (end > size)
    return emitOpError("ends at byte ")
           << end << " of LMEM region "
           << npu::lmemRegionName(toRuntime(address->lmem)) << ", which has "
           << size << " bytes";
  return success();
}

LogicalResult AllocOp::verify() {
  MemRefType type = getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return emitOpError("expects a static shape and an identity layout, not ")
           << type;
  if (!dtypeOf(type.getElementType()))
    return emitOpError("expects an i8, i32, f16 or f32 element type, not ")
           << type.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// MAC effects
//===----------------------------------------------------------------------===//

/// MAC commands read the input and weights and write the output; with
/// `accumulate` they also read it.
template <typename MacOp>
static void macEffects(
    MacOp op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &op.getInputMutable());
  effects.emplace_back(MemoryEffects::Read::get(), &op.getWeightsMutable());
  if (op.getAccumulate())
    effects.emplace_back(MemoryEffects::Read::get(), &op.getOutputMutable());
  effects.emplace_back(MemoryEffects::Write::get(), &op.getOutputMutable());
}

void MacConvOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  macEffects(*this, effects);
}

void MacDwconvOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  macEffects(*this, effects);
}
