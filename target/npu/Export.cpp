//===- Export.cpp - npuhw stream to a runtime Program -----------*- C++ -*-===//
//
// Builds kiln::npu::Program from an npuhw.stream. Integer, enum, semaphore
// and flag fields are read generically from the field table; the fields
// that come from memref operands (views, addresses, DMA regions and sizes)
// are read per op.
//
//===----------------------------------------------------------------------===//

#include "target/npu/NPUTarget.h"

#include "dialects/NPU/IR/NPUCost.h"
#include "dialects/NPUHW/IR/FieldClasses.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/TypeSwitch.h"

#include <map>

using namespace mlir;
using namespace kiln;
using namespace kiln::npuhw;

namespace {

/// The text of a location in a DEBUG entry: "file:line:col" for a file
/// location, the name of a NameLoc around nothing, "" for an unknown one.
std::string locationText(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
            ":" + Twine(file.getColumn()))
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    if (isa<UnknownLoc>(name.getChildLoc()))
      return name.getName().str();
  if (isa<UnknownLoc>(loc))
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

/// The DEBUG key of a command's location: (op name, location text), or
/// nullopt for an unknown location (tag 0, no entry).
std::optional<std::pair<std::string, std::string>> debugKey(Location loc) {
  if (isa<UnknownLoc>(loc))
    return std::nullopt;
  if (auto name = dyn_cast<NameLoc>(loc))
    return std::make_pair(name.getName().str(),
                          locationText(name.getChildLoc()));
  return std::make_pair(std::string(), locationText(loc));
}

/// The integer value of an enum field attribute.
std::optional<int64_t> enumValue(Attribute attr) {
  return TypeSwitch<Attribute, std::optional<int64_t>>(attr)
      .Case([](EltwiseOpAttr a) { return int64_t(a.getValue()); })
      .Case([](BroadcastAttr a) { return int64_t(a.getValue()); })
      .Case([](UnaryOpAttr a) { return int64_t(a.getValue()); })
      .Case([](PoolOpAttr a) { return int64_t(a.getValue()); })
      .Default([](Attribute) { return std::nullopt; });
}

/// Reads memref operands into command fields.
class OperandReader {
public:
  OperandReader(Operation *op, const npu::TargetConfig &config)
      : op(op), config(config) {}

  /// The address of operand \p name, which must be an npuhw.view.
  FailureOr<MemRefAddress> address(Value value, StringRef name) {
    if (!value.getDefiningOp<ViewOp>())
      return op->emitOpError("operand '")
             << name << "' is not an npuhw.view; the serializer needs fixed "
             << "addresses (run npuhw-allocate-lmem first)";
    return *addressOf(cast<MemRefType>(value.getType()));
  }

  /// The 24-bit LMEM address of operand \p name.
  FailureOr<uint32_t> lmem(Value value, StringRef name) {
    FailureOr<MemRefAddress> a = address(value, name);
    if (failed(a))
      return failure();
    return config.regionBase(toRuntime(a->lmem)) +
           static_cast<uint32_t>(a->byteOffset);
  }

  /// The view descriptor of feature-map operand \p name.
  FailureOr<npu::ViewDesc> view(Value value, StringRef name) {
    FailureOr<uint32_t> addr = lmem(value, name);
    if (failed(addr))
      return failure();
    auto type = cast<MemRefType>(value.getType());
    npu::DType dtype = *dtypeOf(type.getElementType());
    SmallVector<int64_t> strides;
    int64_t offset;
    (void)type.getStridesAndOffset(strides, offset);
    int64_t esize = npu::dtypeSize(dtype);
    npu::ViewDesc v;
    v.addr = *addr;
    v.dtype = static_cast<uint8_t>(dtype);
    v.h = type.getDimSize(0);
    v.w = type.getDimSize(1);
    v.cb = type.getDimSize(2);
    int64_t units[3];
    for (int i = 0; i < 3; ++i) {
      units[i] = strides[i] * esize / 16;
      if (units[i] > 0xffff)
        return op->emitOpError("operand '")
               << name << "' has a stride of " << units[i]
               << " 16-byte units in dimension " << i << ", above 65535";
    }
    v.sh = units[0];
    v.sw = units[1];
    v.sc = units[2];
    return v;
  }

  /// The region and byte offset of DRAM operand \p name.
  FailureOr<std::pair<uint8_t, uint32_t>> dram(Value value, StringRef name) {
    FailureOr<MemRefAddress> a = address(value, name);
    if (failed(a))
      return failure();
    if (a->byteOffset > UINT32_MAX)
      return op->emitOpError("operand '")
             << name << "' is at DRAM offset " << a->byteOffset
             << ", beyond 32 bits";
    return std::make_pair(static_cast<uint8_t>(a->dramRegion),
                          static_cast<uint32_t>(a->byteOffset));
  }

private:
  Operation *op;
  const npu::TargetConfig &config;
};

/// Fills the fields of \p c that come from \p op's operands.
LogicalResult readOperands(CommandOpInterface command,
                           const npu::TargetConfig &config, npu::Command &c) {
  Operation *op = command;
  OperandReader r(op, config);
  auto assign = [](auto &field, auto value) {
    if (failed(value))
      return failure();
    field = *value;
    return success();
  };
  auto mac = [&](auto mac) {
    if (failed(assign(c.in, r.view(mac.getInput(), "in"))) ||
        failed(assign(c.out, r.view(mac.getOutput(), "out"))) ||
        failed(assign(c.waddr, r.lmem(mac.getWeights(), "weights"))))
      return failure();
    if (c.in.dtype == static_cast<uint8_t>(npu::DType::F16))
      c.flags |= npu::flags::kFp16;
    return success();
  };
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case<NopOp, EndOp>([](auto) { return success(); })
      .Case([&](DmaLoadOp load) {
        auto type = load.getSrc().getType();
        if (isa<LmemRegionAttr>(type.getMemorySpace())) {
          c.flags |= npu::flags::kLmemSource;
          if (failed(assign(c.src, r.lmem(load.getSrc(), "src"))))
            return failure();
        } else {
          auto d = r.dram(load.getSrc(), "src");
          if (failed(d))
            return failure();
          std::tie(c.region, c.src) = *d;
        }
        return assign(c.dst, r.lmem(load.getDst(), "dst"));
      })
      .Case([&](DmaStoreOp store) {
        auto d = r.dram(store.getDst(), "dst");
        if (failed(d))
          return failure();
        std::tie(c.region, c.dst) = *d;
        return assign(c.src, r.lmem(store.getSrc(), "src"));
      })
      .Case([&](DmaFillOp fill) {
        auto a = r.address(fill.getDst(), "dst");
        if (failed(a))
          return failure();
        c.bytes = static_cast<uint32_t>(a->byteExtent);
        return assign(c.dst, r.lmem(fill.getDst(), "dst"));
      })
      .Case([&](MacConvOp op) { return mac(op); })
      .Case([&](MacDwconvOp op) { return mac(op); })
      .Case([&](VecRequantOp rq) {
        if (failed(assign(c.in, r.view(rq.getInput(), "in"))) ||
            failed(assign(c.out, r.view(rq.getOutput(), "out"))) ||
            failed(assign(c.paddr, r.lmem(rq.getParams(), "params"))))
          return failure();
        if (!rq.getTable())
          return success();
        c.flags |= npu::flags::kLut;
        return assign(c.laddr, r.lmem(rq.getTable(), "table"));
      })
      .Case([&](VecEltwiseOp e) {
        if (failed(assign(c.in, r.view(e.getInput(), "in"))) ||
            failed(assign(c.out, r.view(e.getOutput(), "out"))) ||
            failed(assign(c.paddr, r.lmem(e.getParams(), "params"))))
          return failure();
        if (!e.getInput2())
          return success();
        return assign(c.in2, r.view(e.getInput2(), "in2"));
      })
      .Case([&](VecUnaryOp u) {
        if (failed(assign(c.in, r.view(u.getInput(), "in"))) ||
            failed(assign(c.out, r.view(u.getOutput(), "out"))))
          return failure();
        if (!u.getTable())
          return success();
        return assign(c.laddr, r.lmem(u.getTable(), "table"));
      })
      .Case([&](VecPoolOp p) {
        if (failed(assign(c.in, r.view(p.getInput(), "in"))))
          return failure();
        return assign(c.out, r.view(p.getOutput(), "out"));
      })
      .Default([&](Operation *) {
        return op->emitOpError("is not a command the serializer knows");
      });
}

/// Fills the attribute-held fields of \p c through the field table.
void readAttributes(Operation *op, npu::Opcode opcode, npu::Command &c) {
  using fields::FieldClass;
  for (const npu::FieldInfo &f : npu::fieldsOf(opcode)) {
    switch (fields::classify(opcode, f.name)) {
    case FieldClass::Semaphore:
    case FieldClass::Integer:
      if (auto attr = op->getAttrOfType<IntegerAttr>(f.name))
        f.set(c, attr.getInt());
      break;
    case FieldClass::Enum:
      if (std::optional<int64_t> v = enumValue(op->getAttr(f.name)))
        f.set(c, *v);
      break;
    case FieldClass::Flags:
      for (const fields::FlagBit &bit : fields::kFlagBits)
        if (bit.opcode == opcode && bit.attr && op->hasAttr(bit.attr))
          c.flags |= bit.mask;
      break;
    default:
      break;
    }
  }
}

/// The bytes of the CONST section.
FailureOr<std::vector<uint8_t>> constBytes(ConstOp op) {
  std::vector<uint8_t> bytes;
  ElementsAttr value = op.getValue();
  auto values = value.tryGetValues<int8_t>();
  if (!values)
    return op.emitOpError("holds constants the serializer cannot read "
                          "(expected dense i8 elements)");
  bytes.reserve(value.getNumElements());
  for (int8_t v : *values)
    bytes.push_back(static_cast<uint8_t>(v));
  return bytes;
}

} // namespace

FailureOr<npu::Program> kiln::npuhw::exportStream(StreamOp stream,
                                                  CommandOps *commandOps) {
  npu::Program program;
  program.config = stream.getTargetConfig();
  Block &body = stream.getBody().front();

  // Tags: one per distinct (op name, location), numbered in sorted order.
  std::map<std::pair<std::string, std::string>, uint16_t> tags;
  for (Operation &op : body)
    if (isa<CommandOpInterface>(op))
      if (auto key = debugKey(op.getLoc()))
        tags.try_emplace(*key, 0);
  if (tags.size() > 0xffff)
    return stream.emitOpError("has ")
           << tags.size() << " distinct command locations; tags hold 65535";
  uint16_t next = 1;
  for (auto &[key, tag] : tags) {
    tag = next++;
    program.debug.push_back({tag, key.first, key.second});
  }
  // COST: what npu-record-costs recorded for this stream's function, under
  // the tag of each op's command location (ops sharing a tag add up).
  std::map<uint16_t, npu::LayerCost> costs;
  auto module = stream->getParentOfType<ModuleOp>();
  auto recorded =
      module ? module->getAttrOfType<DictionaryAttr>(npu::kLayerCostsAttrName)
             : DictionaryAttr();
  auto entries =
      recorded ? recorded.getAs<ArrayAttr>(stream.getSymName()) : ArrayAttr();
  for (Attribute attr : entries ? entries.getValue() : ArrayRef<Attribute>()) {
    auto entry = dyn_cast<DictionaryAttr>(attr);
    auto loc = entry ? entry.getAs<LocationAttr>("loc") : LocationAttr();
    std::optional<std::pair<std::string, std::string>> key;
    if (loc)
      key = debugKey(loc);
    auto tag = key ? tags.find(*key) : tags.end();
    if (tag == tags.end())
      continue; // No command carries the location (or it was dropped).
    npu::LayerCost &cost = costs[tag->second];
    cost.tag = tag->second;
    auto add = [&](StringRef name, uint64_t &field) {
      if (auto value = entry.getAs<IntegerAttr>(name))
        field += value.getValue().getZExtValue();
    };
    add("estimate", cost.estimate);
    add("mac", cost.macCycles);
    add("vec", cost.vecCycles);
    add("dram", cost.dramCycles);
    add("macs", cost.usefulMacs);
  }
  for (auto &[tag, cost] : costs)
    program.costs.push_back(cost);

  for (Operation &op : body) {
    if (auto region = dyn_cast<RegionOp>(op)) {
      program.regions.push_back(
          {static_cast<uint8_t>(region.getIndex()),
           static_cast<npu::RegionKind>(region.getKind()), region.getSize()});
    } else if (auto constants = dyn_cast<ConstOp>(op)) {
      FailureOr<std::vector<uint8_t>> bytes = constBytes(constants);
      if (failed(bytes))
        return failure();
      program.constants = std::move(*bytes);
    } else if (auto io = dyn_cast<IoOp>(op)) {
      npu::IoDecl decl;
      decl.name = io.getName().str();
      decl.isOutput = io.getDirection() == IoDirection::output;
      decl.region = static_cast<uint8_t>(io.getRegion());
      decl.dtype = static_cast<uint8_t>(*dtypeOf(io.getElementType()));
      decl.layout = static_cast<npu::IoLayout>(io.getLayout());
      decl.offset = static_cast<uint32_t>(io.getOffset());
      for (int64_t d : io.getShape())
        decl.shape.push_back(static_cast<uint32_t>(d));
      decl.scale = io.getScale().convertToFloat();
      decl.zeroPoint = io.getZeroPoint();
      program.io.push_back(std::move(decl));
    } else if (auto command = dyn_cast<CommandOpInterface>(op)) {
      npu::Command c;
      c.opcode = command.getOpcode();
      readAttributes(&op, c.opcode, c);
      if (failed(readOperands(command, program.config, c)))
        return failure();
      if (auto key = debugKey(op.getLoc()))
        c.tag = tags.at(*key);
      program.commands.push_back(c);
      if (commandOps)
        commandOps->push_back(&op);
    }
  }
  return program;
}

LogicalResult kiln::npuhw::writeNpub(ModuleOp module, llvm::raw_ostream &os) {
  SmallVector<StreamOp> streams(module.getOps<StreamOp>());
  if (streams.size() != 1)
    return emitError(module.getLoc())
           << "expects exactly one npuhw.stream in the module, found "
           << streams.size();
  FailureOr<npu::Program> program = exportStream(streams.front());
  if (failed(program))
    return failure();
  std::vector<uint8_t> bytes = npu::writeProgram(*program);
  os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  return success();
}
