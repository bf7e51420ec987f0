//===- NPUHWVerifiers.cpp - npuhw command verifiers -------------*- C++ -*-===//
//
// Per-command checks that need no other command: the LMEM regions each
// engine may touch, alignment, operand shapes and element types, and sizes
// of buffers and DMA transfers. The whole-stream rules (window shapes,
// semaphores, END placement) are npuhw-verify-stream's, through the
// runtime verifier.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/IR/NPUHWOps.h"

#include "runtime/npu/Verifier.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::npuhw;

namespace {

/// A checked feature-map operand: [h][w][cb][16].
struct FeatureMap {
  int64_t h = 0, w = 0, cb = 0;
  npu::DType dtype = npu::DType::I8;
  bool sameShape(const FeatureMap &o) const {
    return h == o.h && w == o.w && cb == o.cb;
  }
};

/// The bytes a memref spans: its extent when it has a static address, else
/// its element count times the element size.
int64_t spanBytes(MemRefType type) {
  if (std::optional<MemRefAddress> address = addressOf(type))
    return address->byteExtent;
  std::optional<npu::DType> dtype = dtypeOf(type.getElementType());
  return type.getNumElements() * (dtype ? npu::dtypeSize(*dtype) : 1);
}

/// Checks that \p value, operand \p name of \p op, is in an LMEM region
/// \p op's engine may read (or write), with a 16-byte aligned address.
LogicalResult checkLmem(CommandOpInterface op, Value value, StringRef name,
                        bool write) {
  auto type = cast<MemRefType>(value.getType());
  auto space = dyn_cast_or_null<LmemRegionAttr>(type.getMemorySpace());
  if (!space)
    return op->emitOpError("operand '") << name << "' must be in LMEM";
  npu::LmemRegion region = toRuntime(space.getValue());
  if (!npu::lmemAccessAllowed(op.getEngine(), region, write))
    return op->emitOpError("operand '")
           << name << "': engine " << npu::engineName(op.getEngine())
           << " may not " << (write ? "write" : "read") << " LMEM."
           << npu::lmemRegionName(region);
  if (!type.hasStaticShape())
    return op->emitOpError("operand '") << name << "' must have a static shape";
  if (std::optional<MemRefAddress> address = addressOf(type))
    if (address->byteOffset % 16)
      return op->emitOpError("operand '")
             << name << "' starts at byte offset " << address->byteOffset
             << ", which is not 16-byte aligned";
  return success();
}

/// Checks a feature-map operand: LMEM access, shape [h][w][cb][16], one of
/// \p dtypes, strides in whole 16-byte units.
FailureOr<FeatureMap> checkFeatureMap(CommandOpInterface op, Value value,
                                      StringRef name, bool write,
                                      ArrayRef<npu::DType> dtypes) {
  if (failed(checkLmem(op, value, name, write)))
    return failure();
  auto type = cast<MemRefType>(value.getType());
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() != 4 || shape[3] != 16 || shape[0] < 1 || shape[1] < 1 ||
      shape[2] < 1 || shape[0] > 0xffff || shape[1] > 0xffff ||
      shape[2] > 0xffff)
    return op->emitOpError("operand '")
           << name << "' must be a feature map [h][w][cb][16] with sizes in "
           << "[1, 65535], not " << type;
  std::optional<npu::DType> dtype = dtypeOf(type.getElementType());
  if (!dtype || !llvm::is_contained(dtypes, *dtype)) {
    InFlightDiagnostic diag = op->emitOpError("operand '")
                              << name << "' has element type "
                              << type.getElementType() << "; expected ";
    llvm::interleave(
        dtypes, diag, [&](npu::DType d) { diag << npu::dtypeName(d); }, " or ");
    return diag;
  }
  SmallVector<int64_t> strides;
  int64_t offset;
  if (succeeded(type.getStridesAndOffset(strides, offset))) {
    if (!ShapedType::isDynamic(strides[3]) && strides[3] != 1)
      return op->emitOpError("operand '")
             << name << "' must have unit stride across its 16 lanes";
    for (int i = 0; i < 3; ++i)
      if (!ShapedType::isDynamic(strides[i]) &&
          (strides[i] * npu::dtypeSize(*dtype)) % 16)
        return op->emitOpError("operand '")
               << name << "' has stride " << strides[i] << " in dimension "
               << i << ", which is not a whole number of 16-byte units";
  }
  return FeatureMap{shape[0], shape[1], shape[2], *dtype};
}

/// Checks a flat LMEM buffer read by \p op that must span \p bytes.
LogicalResult checkBuffer(CommandOpInterface op, Value value, StringRef name,
                          int64_t bytes) {
  if (failed(checkLmem(op, value, name, /*write=*/false)))
    return failure();
  int64_t span = spanBytes(cast<MemRefType>(value.getType()));
  if (span < bytes)
    return op->emitOpError("operand '")
           << name << "' spans " << span << " bytes; the command reads "
           << bytes;
  return success();
}

/// The end of a DMA side: n2 x n1 x n0 runs of \p run bytes with strides.
int64_t dmaExtent(int64_t run, ArrayRef<int64_t> n, ArrayRef<int64_t> s) {
  int64_t end = run;
  for (auto [count, stride] : llvm::zip(n, s)) {
    if (count == 0)
      return 0;
    end += (count - 1) * stride;
  }
  return end;
}

/// The value of an optional integer field (absent: 0).
int64_t field(std::optional<uint64_t> value) { return value ? *value : 0; }
int64_t field(std::optional<int64_t> value) { return value ? *value : 0; }

/// Checks one side of a DMA transfer.
LogicalResult checkDmaSide(CommandOpInterface op, Value value, StringRef name,
                           bool write, int64_t run, ArrayRef<int64_t> n,
                           ArrayRef<int64_t> strides) {
  auto type = cast<MemRefType>(value.getType());
  bool lmem = isa_and_nonnull<LmemRegionAttr>(type.getMemorySpace());
  if (lmem && failed(checkLmem(op, value, name, write)))
    return failure();
  if (lmem)
    for (auto [i, stride] : llvm::enumerate(strides))
      if (stride % 16)
        return op->emitOpError("field '")
               << name << "_s" << i << "' is " << stride
               << "; LMEM-side strides are multiples of 16";
  int64_t extent = dmaExtent(run, n, strides);
  int64_t span = spanBytes(type);
  if (extent > span)
    return op->emitOpError("operand '")
           << name << "' spans " << span << " bytes but the transfer reaches "
           << "byte " << extent;
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Semaphore fields (every command)
//===----------------------------------------------------------------------===//

std::optional<unsigned> kiln::npuhw::getSemaphoreField(Operation *op,
                                                       StringRef name) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return static_cast<unsigned>(attr.getInt());
  return std::nullopt;
}

void kiln::npuhw::setSemaphoreField(Operation *op, StringRef name,
                                    std::optional<unsigned> id) {
  if (!id) {
    op->removeAttr(name);
    return;
  }
  op->setAttr(name, IntegerAttr::get(IntegerType::get(op->getContext(), 64),
                                     *id));
}

LogicalResult kiln::npuhw::verifySemaphoreFields(Operation *op) {
  npu::TargetConfig config;
  if (npu::TargetAttr target = npu::lookupTarget(op))
    config = target.getConfig();
  for (StringRef name : {"wait0", "wait1", "signal0", "signal1"})
    if (std::optional<unsigned> id = getSemaphoreField(op, name))
      if (*id >= config.semaphores)
        return op->emitOpError("field '")
               << name << "' names semaphore " << *id << " but the target has "
               << config.semaphores;
  return success();
}

//===----------------------------------------------------------------------===//
// CTRL and DMA
//===----------------------------------------------------------------------===//

LogicalResult NopOp::verify() { return success(); }
LogicalResult EndOp::verify() { return success(); }

LogicalResult DmaLoadOp::verify() {
  SmallVector<int64_t> n = {field(getN0()), field(getN1()), field(getN2())};
  int64_t srcRun = field(getSrcRun()), dstRun = field(getDstRun());
  if (dstRun < srcRun)
    return emitOpError("field 'dst_run' ")
           << dstRun << " is below 'src_run' " << srcRun;
  if (failed(checkDmaSide(*this, getSrc(), "src", false, srcRun, n,
                          {field(getSrcS0()), field(getSrcS1()),
                           field(getSrcS2())})))
    return failure();
  return checkDmaSide(*this, getDst(), "dst", true, dstRun, n,
                      {field(getDstS0()), field(getDstS1()),
                       field(getDstS2())});
}

LogicalResult DmaStoreOp::verify() {
  SmallVector<int64_t> n = {field(getN0()), field(getN1()), field(getN2())};
  int64_t run = field(getSrcRun());
  if (failed(checkDmaSide(*this, getSrc(), "src", false, run, n,
                          {field(getSrcS0()), field(getSrcS1()),
                           field(getSrcS2())})))
    return failure();
  return checkDmaSide(*this, getDst(), "dst", true, run, n,
                      {field(getDstS0()), field(getDstS1()),
                       field(getDstS2())});
}

LogicalResult DmaFillOp::verify() {
  if (failed(checkLmem(*this, getDst(), "dst", true)))
    return failure();
  int64_t bytes = spanBytes(getDst().getType());
  if (bytes <= 0 || bytes % 16 || bytes > UINT32_MAX)
    return emitOpError("operand 'dst' spans ")
           << bytes << " bytes; a fill is a positive multiple of 16";
  return success();
}

//===----------------------------------------------------------------------===//
// MAC
//===----------------------------------------------------------------------===//

/// The checks MAC_CONV and MAC_DWCONV share; returns in and out.
template <typename MacOp>
static FailureOr<std::pair<FeatureMap, FeatureMap>> checkMac(MacOp op) {
  FailureOr<FeatureMap> in = checkFeatureMap(
      op, op.getInput(), "in", false, {npu::DType::I8, npu::DType::F16});
  if (failed(in))
    return failure();
  npu::DType acc = in->dtype == npu::DType::I8 ? npu::DType::I32
                                                : npu::DType::F32;
  FailureOr<FeatureMap> out =
      checkFeatureMap(op, op.getOutput(), "out", true, {acc});
  if (failed(out))
    return failure();
  return std::make_pair(*in, *out);
}

LogicalResult MacConvOp::verify() {
  auto maps = checkMac(*this);
  if (failed(maps))
    return failure();
  auto [in, out] = *maps;
  int64_t blocks = out.cb * field(getKh()) * field(getKw()) * in.cb;
  return checkBuffer(*this, getWeights(), "weights",
                     blocks * 256 * npu::dtypeSize(in.dtype));
}

LogicalResult MacDwconvOp::verify() {
  auto maps = checkMac(*this);
  if (failed(maps))
    return failure();
  auto [in, out] = *maps;
  if (in.cb != out.cb)
    return emitOpError("operand 'out' has ")
           << out.cb << " channel blocks; 'in' has " << in.cb;
  int64_t bytes =
      in.cb * field(getKh()) * field(getKw()) * 16 * npu::dtypeSize(in.dtype);
  return checkBuffer(*this, getWeights(), "weights", bytes);
}

//===----------------------------------------------------------------------===//
// VEC
//===----------------------------------------------------------------------===//

LogicalResult VecRequantOp::verify() {
  FailureOr<FeatureMap> in =
      checkFeatureMap(*this, getInput(), "in", false, {npu::DType::I32});
  if (failed(in))
    return failure();
  FailureOr<FeatureMap> out =
      checkFeatureMap(*this, getOutput(), "out", true, {npu::DType::I8});
  if (failed(out))
    return failure();
  if (!in->sameShape(*out))
    return emitOpError("operands 'in' and 'out' differ in h, w or cb");
  int64_t records = getPerTensor() ? 1 : in->cb * 16;
  if (failed(checkBuffer(*this, getParams(), "params", records * 16)))
    return failure();
  if (getTable())
    return checkBuffer(*this, getTable(), "table", 256);
  return success();
}

LogicalResult VecEltwiseOp::verify() {
  SmallVector<npu::DType> dtypes = {npu::DType::I8, npu::DType::F16};
  FailureOr<FeatureMap> in = checkFeatureMap(*this, getInput(), "in", false,
                                             dtypes);
  if (failed(in))
    return failure();
  FailureOr<FeatureMap> out =
      checkFeatureMap(*this, getOutput(), "out", true, {in->dtype});
  if (failed(out))
    return failure();
  if (!in->sameShape(*out))
    return emitOpError("operands 'in' and 'out' differ in h, w or cb");
  bool scalar = getBcast() == Broadcast::scalar;
  if (scalar != !getInput2())
    return emitOpError("takes an 'in2' operand exactly when 'bcast' is not "
                       "scalar");
  if (!scalar) {
    FailureOr<FeatureMap> in2 =
        checkFeatureMap(*this, getInput2(), "in2", false, {in->dtype});
    if (failed(in2))
      return failure();
    FeatureMap want = *in;
    if (getBcast() == Broadcast::channel)
      want.h = want.w = 1;
    if (!in2->sameShape(want))
      return emitOpError("operand 'in2' must be ")
             << want.h << "x" << want.w << "x" << want.cb << " for bcast "
             << stringifyBroadcast(getBcast());
  }
  return checkBuffer(*this, getParams(), "params", 64);
}

LogicalResult VecUnaryOp::verify() {
  SmallVector<npu::DType> all = {npu::DType::I8, npu::DType::I32,
                                 npu::DType::F16, npu::DType::F32};
  FailureOr<FeatureMap> in = checkFeatureMap(*this, getInput(), "in", false,
                                             all);
  if (failed(in))
    return failure();
  SmallVector<npu::DType> outTypes = {in->dtype};
  if (getOp() == UnaryOp::convert)
    outTypes = all;
  if (getOp() == UnaryOp::rescale) {
    if (in->dtype != npu::DType::I8 && in->dtype != npu::DType::I32)
      return emitOpError("rescales i8 or i32, not ")
             << npu::dtypeName(in->dtype);
    outTypes = {npu::DType::I8};
  }
  FailureOr<FeatureMap> out =
      checkFeatureMap(*this, getOutput(), "out", true, outTypes);
  if (failed(out))
    return failure();
  if (!in->sameShape(*out))
    return emitOpError("operands 'in' and 'out' differ in h, w or cb");
  bool lut = getOp() == UnaryOp::lut;
  if (lut != static_cast<bool>(getTable()))
    return emitOpError("takes a 'table' operand exactly when 'op' is lut");
  if (lut)
    return checkBuffer(*this, getTable(), "table", 256);
  return success();
}

LogicalResult VecPoolOp::verify() {
  FailureOr<FeatureMap> in = checkFeatureMap(
      *this, getInput(), "in", false, {npu::DType::I8, npu::DType::F16});
  if (failed(in))
    return failure();
  npu::DType want = in->dtype;
  if (getOp() == PoolOp::sum)
    want = in->dtype == npu::DType::I8 ? npu::DType::I32 : npu::DType::F32;
  FailureOr<FeatureMap> out =
      checkFeatureMap(*this, getOutput(), "out", true, {want});
  if (failed(out))
    return failure();
  if (in->cb != out->cb)
    return emitOpError("operand 'out' has ")
           << out->cb << " channel blocks; 'in' has " << in->cb;
  return success();
}
