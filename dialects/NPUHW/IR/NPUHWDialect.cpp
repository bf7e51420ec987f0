//===- NPUHWDialect.cpp - the npuhw dialect ---------------------*- C++ -*-===//
//
// Registration of the npuhw dialect, its attributes and types.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/IR/NPUHWDialect.h"
#include "dialects/NPUHW/IR/NPUHWOps.h"
#include "runtime/npu/Format.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::npuhw;

#include "dialects/NPUHW/IR/NPUHWDialect.cpp.inc"
#include "dialects/NPUHW/IR/NPUHWEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/NPUHW/IR/NPUHWAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/NPUHW/IR/NPUHWTypes.cpp.inc"

// The enums spell the runtime's encodings.
static_assert(uint32_t(LmemRegion::param) == uint32_t(npu::LmemRegion::PARAM));
static_assert(uint32_t(EltwiseOp::max) == uint32_t(npu::EltOp::MAX));
static_assert(uint32_t(Broadcast::channel) ==
              uint32_t(npu::Broadcast::CHANNEL));
static_assert(uint32_t(UnaryOp::lut) == uint32_t(npu::UnaryOp::LUT));
static_assert(uint32_t(PoolOp::sum) == uint32_t(npu::PoolOp::SUM));
static_assert(uint32_t(RegionKind::inout) == uint32_t(npu::RegionKind::INOUT));
static_assert(uint32_t(IoLayout::nhwc_c16) ==
              uint32_t(npu::IoLayout::NHWC_C16));

void NPUHWDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/NPUHW/IR/NPUHWAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/NPUHW/IR/NPUHWTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/NPUHW/IR/NPUHWOps.cpp.inc"
      >();
}

std::optional<npu::DType> kiln::npuhw::dtypeOf(Type elementType) {
  if (elementType.isSignlessInteger(8))
    return npu::DType::I8;
  if (elementType.isSignlessInteger(32))
    return npu::DType::I32;
  if (elementType.isF16())
    return npu::DType::F16;
  if (elementType.isF32())
    return npu::DType::F32;
  return std::nullopt;
}

Type kiln::npuhw::elementTypeOf(MLIRContext *context, npu::DType dtype) {
  Builder b(context);
  switch (dtype) {
  case npu::DType::I8:
    return b.getI8Type();
  case npu::DType::I32:
    return b.getI32Type();
  case npu::DType::F16:
    return b.getF16Type();
  case npu::DType::F32:
    return b.getF32Type();
  }
  return b.getI8Type();
}
