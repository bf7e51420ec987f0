//===- Import.cpp - runtime Program to an npuhw stream ----------*- C++ -*-===//
//
// Builds an npuhw.stream from kiln::npu::Program: declarations, one view
// per distinct operand type, then one op per command with its fields as
// attributes (through the field table), tokens rebuilt from the semaphore
// fields, and locations from the DEBUG section.
//
//===----------------------------------------------------------------------===//

#include "target/npu/NPUTarget.h"

#include "dialects/NPU/IR/NPUCost.h"

#include "dialects/NPUHW/IR/FieldClasses.h"
#include "runtime/npu/Verifier.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <deque>

using namespace mlir;
using namespace kiln;
using namespace kiln::npuhw;

namespace {

/// A DEBUG location text back as a location: file:line:col is a
/// FileLineColLoc, "" unknown, anything else a NameLoc.
Location parseLocationText(MLIRContext *ctx, StringRef text) {
  if (text.empty())
    return UnknownLoc::get(ctx);
  auto [rest, colText] = text.rsplit(':');
  auto [file, lineText] = rest.rsplit(':');
  unsigned line, col;
  if (!file.empty() && !lineText.getAsInteger(10, line) &&
      !colText.getAsInteger(10, col))
    return FileLineColLoc::get(ctx, file, line, col);
  return NameLoc::get(StringAttr::get(ctx, text));
}

/// The `npu.target` attribute that names \p config: the preset with the
/// fewest differing keys, and those keys as overrides.
npu::TargetAttr targetAttrFor(MLIRContext *ctx,
                              const npu::TargetConfig &config) {
  Builder b(ctx);
  std::string best;
  SmallVector<NamedAttribute> bestOverrides;
  bool found = false;
  for (const std::string &name : npu::TargetConfig::presetNames()) {
    absl::StatusOr<npu::TargetConfig> preset = npu::TargetConfig::preset(name);
    if (!preset.ok())
      continue;
    SmallVector<NamedAttribute> overrides;
    for (const std::string &key : npu::TargetConfig::keys()) {
      uint32_t want = *config.get(key), have = *preset->get(key);
      if (want != have)
        overrides.push_back(
            b.getNamedAttr(key, b.getI64IntegerAttr(int64_t(want))));
    }
    if (!found || overrides.size() < bestOverrides.size()) {
      found = true;
      best = name;
      bestOverrides = std::move(overrides);
    }
  }
  DictionaryAttr dict = bestOverrides.empty()
                            ? DictionaryAttr()
                            : b.getDictionaryAttr(bestOverrides);
  return npu::TargetAttr::get(ctx, b.getStringAttr(best), dict);
}

/// One memref operand of a command, before its view exists.
struct Operand {
  MemRefType type;
  /// False for an optional operand the command does not use.
  bool present = true;
};

class Importer {
public:
  Importer(const npu::Program &program, MLIRContext *ctx)
      : program(program), ctx(ctx), b(ctx) {}

  OwningOpRef<ModuleOp> run(StringRef name);

private:
  /// The type of a feature-map view.
  FailureOr<MemRefType> viewType(const npu::ViewDesc &v, size_t index,
                                 StringRef field);
  /// The type of a flat byte buffer over \p extent.
  FailureOr<MemRefType> bufferType(const npu::Extent &extent, size_t index);
  /// The memref operands of command \p index, in op operand order.
  FailureOr<SmallVector<Operand>> operandsOf(size_t index);
  /// The op name of an opcode.
  static StringRef opName(npu::Opcode opcode);
  /// The attributes of command \p c.
  SmallVector<NamedAttribute> attributesOf(const npu::Command &c);
  /// The location of a command's tag.
  Location locationOf(uint16_t tag);

  const npu::Program &program;
  MLIRContext *ctx;
  OpBuilder b;
};

StringRef Importer::opName(npu::Opcode opcode) {
  switch (opcode) {
  case npu::Opcode::NOP:
    return NopOp::getOperationName();
  case npu::Opcode::END:
    return EndOp::getOperationName();
  case npu::Opcode::DMA_LOAD:
    return DmaLoadOp::getOperationName();
  case npu::Opcode::DMA_FILL:
    return DmaFillOp::getOperationName();
  case npu::Opcode::DMA_STORE:
    return DmaStoreOp::getOperationName();
  case npu::Opcode::MAC_CONV:
    return MacConvOp::getOperationName();
  case npu::Opcode::MAC_DWCONV:
    return MacDwconvOp::getOperationName();
  case npu::Opcode::VEC_REQUANT:
    return VecRequantOp::getOperationName();
  case npu::Opcode::VEC_ELTWISE:
    return VecEltwiseOp::getOperationName();
  case npu::Opcode::VEC_UNARY:
    return VecUnaryOp::getOperationName();
  case npu::Opcode::VEC_POOL:
    return VecPoolOp::getOperationName();
  }
  return "";
}

FailureOr<MemRefType> Importer::viewType(const npu::ViewDesc &v, size_t index,
                                         StringRef field) {
  npu::LmemRegion region;
  if (v.dtype >= npu::kNumDTypes ||
      !npu::lmemRegionOf(program.config, v.addr, region)) {
    emitError(UnknownLoc::get(ctx))
        << "command " << index << ": field '" << field
        << ".addr' is not an LMEM address with a known dtype";
    return failure();
  }
  auto dtype = static_cast<npu::DType>(v.dtype);
  int64_t esize = npu::dtypeSize(dtype);
  int64_t offset = (v.addr - program.config.regionBase(region)) / esize;
  auto layout = StridedLayoutAttr::get(
      ctx, offset,
      {v.sh * 16 / esize, v.sw * 16 / esize, v.sc * 16 / esize, 1});
  auto space = LmemRegionAttr::get(ctx, static_cast<LmemRegion>(region));
  return MemRefType::get({v.h, v.w, v.cb, 16}, elementTypeOf(ctx, dtype),
                         layout, space);
}

FailureOr<MemRefType> Importer::bufferType(const npu::Extent &extent,
                                           size_t index) {
  Attribute space;
  int64_t offset = extent.lo;
  if (extent.dram) {
    space = DramSpaceAttr::get(ctx, extent.region);
  } else {
    npu::LmemRegion region;
    if (!npu::lmemRegionOf(program.config, extent.lo, region)) {
      emitError(UnknownLoc::get(ctx))
          << "command " << index << ": field '" << extent.field
          << "' is not an LMEM address";
      return failure();
    }
    offset -= program.config.regionBase(region);
    space = LmemRegionAttr::get(ctx, static_cast<LmemRegion>(region));
  }
  return MemRefType::get({int64_t(extent.hi - extent.lo)}, b.getI8Type(),
                         StridedLayoutAttr::get(ctx, offset, {1}), space);
}

FailureOr<SmallVector<Operand>> Importer::operandsOf(size_t index) {
  const npu::Command &c = program.commands[index];
  std::vector<npu::Extent> extents = npu::commandExtents(c);
  auto buffer = [&](const char *field) -> FailureOr<Operand> {
    for (const npu::Extent &e : extents)
      if (StringRef(e.field) == field) {
        FailureOr<MemRefType> type = bufferType(e, index);
        if (failed(type))
          return failure();
        return Operand{*type};
      }
    return Operand{MemRefType(), false};
  };
  auto view = [&](const npu::ViewDesc &v,
                  StringRef field) -> FailureOr<Operand> {
    FailureOr<MemRefType> type = viewType(v, index, field);
    if (failed(type))
      return failure();
    return Operand{*type};
  };
  const FailureOr<Operand> absent = Operand{MemRefType(), false};
  SmallVector<FailureOr<Operand>> list;
  switch (c.opcode) {
  case npu::Opcode::NOP:
  case npu::Opcode::END:
    break;
  case npu::Opcode::DMA_LOAD:
  case npu::Opcode::DMA_STORE:
    list = {buffer("src"), buffer("dst")};
    break;
  case npu::Opcode::DMA_FILL:
    list = {buffer("dst")};
    break;
  case npu::Opcode::MAC_CONV:
  case npu::Opcode::MAC_DWCONV:
    list = {view(c.in, "in"), buffer("waddr"), view(c.out, "out")};
    break;
  case npu::Opcode::VEC_REQUANT:
    list = {view(c.in, "in"), buffer("paddr"),
            (c.flags & npu::flags::kLut) ? buffer("laddr") : absent,
            view(c.out, "out")};
    break;
  case npu::Opcode::VEC_ELTWISE:
    list = {view(c.in, "in"),
            c.bcast == uint8_t(npu::Broadcast::SCALAR) ? absent
                                                        : view(c.in2, "in2"),
            buffer("paddr"), view(c.out, "out")};
    break;
  case npu::Opcode::VEC_UNARY:
    list = {view(c.in, "in"),
            c.op == uint8_t(npu::UnaryOp::LUT) ? buffer("laddr") : absent,
            view(c.out, "out")};
    break;
  case npu::Opcode::VEC_POOL:
    list = {view(c.in, "in"), view(c.out, "out")};
    break;
  }
  SmallVector<Operand> out;
  for (FailureOr<Operand> &o : list) {
    if (failed(o))
      return failure();
    out.push_back(*o);
  }
  return out;
}

SmallVector<NamedAttribute> Importer::attributesOf(const npu::Command &c) {
  using fields::FieldClass;
  SmallVector<NamedAttribute> attrs;
  for (const npu::FieldInfo &f : npu::fieldsOf(c.opcode)) {
    int64_t v = f.get(c);
    switch (fields::classify(c.opcode, f.name)) {
    case FieldClass::Semaphore:
      if (v != npu::kNoSemaphore)
        attrs.push_back(b.getNamedAttr(f.name, b.getI64IntegerAttr(v)));
      break;
    case FieldClass::Integer:
      if (v != 0)
        attrs.push_back(b.getNamedAttr(f.name, b.getI64IntegerAttr(v)));
      break;
    case FieldClass::Enum: {
      Attribute attr;
      StringRef field = f.name;
      if (c.opcode == npu::Opcode::VEC_ELTWISE && field == "op")
        if (auto e = symbolizeEltwiseOp(v))
          attr = EltwiseOpAttr::get(ctx, *e);
      if (field == "bcast")
        if (auto e = symbolizeBroadcast(v))
          attr = BroadcastAttr::get(ctx, *e);
      if (c.opcode == npu::Opcode::VEC_UNARY)
        if (auto e = symbolizeUnaryOp(v))
          attr = UnaryOpAttr::get(ctx, *e);
      if (c.opcode == npu::Opcode::VEC_POOL)
        if (auto e = symbolizePoolOp(v))
          attr = PoolOpAttr::get(ctx, *e);
      // An undefined value leaves the attribute out; the op's verifier
      // then names the field.
      if (attr)
        attrs.push_back(b.getNamedAttr(f.name, attr));
      break;
    }
    case FieldClass::Flags:
      for (const fields::FlagBit &bit : fields::kFlagBits)
        if (bit.opcode == c.opcode && bit.attr && (c.flags & bit.mask))
          attrs.push_back(b.getNamedAttr(bit.attr, b.getUnitAttr()));
      break;
    default:
      break;
    }
  }
  return attrs;
}

Location Importer::locationOf(uint16_t tag) {
  const npu::DebugEntry *entry = program.findDebug(tag);
  if (!entry)
    return UnknownLoc::get(ctx);
  if (entry->opName.empty())
    return parseLocationText(ctx, entry->location);
  return NameLoc::get(StringAttr::get(ctx, entry->opName),
                      parseLocationText(ctx, entry->location));
}

OwningOpRef<ModuleOp> Importer::run(StringRef name) {
  Location unknown = UnknownLoc::get(ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(unknown);
  (*module)->setAttr(npu::kTargetAttrName,
                     targetAttrFor(ctx, program.config));
  b.setInsertionPointToEnd(module->getBody());
  auto stream = StreamOp::create(b, unknown, name);
  Block *body = b.createBlock(&stream.getBody());
  b.setInsertionPointToEnd(body);

  for (const npu::RegionDecl &r : program.regions)
    RegionOp::create(b, unknown, r.region,
                     static_cast<npuhw::RegionKind>(r.kind), r.size);
  if (!program.constants.empty()) {
    auto type = RankedTensorType::get(
        {int64_t(program.constants.size())}, b.getI8Type());
    ArrayRef<int8_t> data(
        reinterpret_cast<const int8_t *>(program.constants.data()),
        program.constants.size());
    ConstOp::create(b, unknown, DenseElementsAttr::get(type, data));
  }
  for (const npu::IoDecl &io : program.io) {
    SmallVector<int64_t> shape(io.shape.begin(), io.shape.end());
    IoOp::create(b, unknown,
                 io.isOutput ? IoDirection::output : IoDirection::input,
                 io.name, io.region, io.offset,
                 elementTypeOf(ctx, static_cast<npu::DType>(io.dtype & 3)),
                 shape, static_cast<IoLayout>(io.layout),
                 b.getF32FloatAttr(io.scale).getValue(), io.zeroPoint);
  }

  // Views: one per distinct operand type, in first-use order.
  SmallVector<SmallVector<Operand>> operands;
  llvm::MapVector<Type, Value> views;
  for (size_t i = 0; i < program.commands.size(); ++i) {
    FailureOr<SmallVector<Operand>> list = operandsOf(i);
    if (failed(list))
      return nullptr;
    for (const Operand &o : *list)
      if (o.present && !views.count(o.type))
        views[o.type] = ViewOp::create(b, unknown, o.type);
    operands.push_back(std::move(*list));
  }

  auto tokenType = TokenType::get(ctx);
  std::vector<std::deque<Value>> signalled(256);
  for (size_t i = 0; i < program.commands.size(); ++i) {
    const npu::Command &c = program.commands[i];
    SmallVector<Value> deps;
    for (uint8_t wait : c.wait)
      if (wait != npu::kNoSemaphore && !signalled[wait].empty()) {
        deps.push_back(signalled[wait].front());
        signalled[wait].pop_front();
      }
    OperationState state(locationOf(c.tag), opName(c.opcode));
    SmallVector<int32_t> segments;
    for (const Operand &o : operands[i]) {
      if (o.present)
        state.addOperands(views[o.type]);
      segments.push_back(o.present ? 1 : 0);
    }
    state.addOperands(deps);
    segments.push_back(deps.size());
    state.addAttributes(attributesOf(c));
    if (c.opcode == npu::Opcode::VEC_REQUANT ||
        c.opcode == npu::Opcode::VEC_ELTWISE ||
        c.opcode == npu::Opcode::VEC_UNARY)
      state.addAttribute("operandSegmentSizes",
                         b.getDenseI32ArrayAttr(segments));
    if (c.opcode != npu::Opcode::END)
      state.addTypes(tokenType);
    Operation *op = b.create(state);
    if (c.opcode == npu::Opcode::END)
      continue;
    for (uint8_t signal : c.signal)
      if (signal != npu::kNoSemaphore)
        signalled[signal].push_back(op->getResult(0));
  }
  // The COST section as npu-record-costs writes it, under the locations the
  // tags stand for, so that exporting the stream again keeps it.
  if (!program.costs.empty()) {
    SmallVector<Attribute> entries;
    for (const npu::LayerCost &cost : program.costs) {
      auto i64 = [&](uint64_t v) {
        return b.getI64IntegerAttr(static_cast<int64_t>(v));
      };
      entries.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("loc", locationOf(cost.tag)),
           b.getNamedAttr("estimate", i64(cost.estimate)),
           b.getNamedAttr("mac", i64(cost.macCycles)),
           b.getNamedAttr("vec", i64(cost.vecCycles)),
           b.getNamedAttr("dram", i64(cost.dramCycles)),
           b.getNamedAttr("macs", i64(cost.usefulMacs))}));
    }
    (*module)->setAttr(npu::kLayerCostsAttrName,
                       b.getDictionaryAttr(b.getNamedAttr(
                           name, b.getArrayAttr(entries))));
  }
  return module;
}

} // namespace

OwningOpRef<ModuleOp> kiln::npuhw::importProgram(const npu::Program &program,
                                                 MLIRContext *context,
                                                 StringRef name) {
  context->loadDialect<NPUHWDialect, npu::NPUDialect>();
  return Importer(program, context).run(name);
}

OwningOpRef<ModuleOp> kiln::npuhw::readNpub(StringRef bytes,
                                            MLIRContext *context) {
  absl::StatusOr<npu::Program> program =
      npu::readProgram(absl::Span<const uint8_t>(
          reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
  if (!program.ok()) {
    emitError(UnknownLoc::get(context))
        << std::string(program.status().message());
    return nullptr;
  }
  // The runtime's verifier, as kiln-npu-sim runs it before loading: a stream
  // the hardware would refuse (a zero kernel or stride, reserved bits, an
  // undefined flag, the semaphore rule) is refused here with the same
  // message, not imported as IR that would round-trip to a different file.
  if (absl::Status verified = npu::verifyProgram(*program); !verified.ok()) {
    emitError(UnknownLoc::get(context)) << std::string(verified.message());
    return nullptr;
  }
  return importProgram(*program, context);
}
