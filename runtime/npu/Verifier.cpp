//===- Verifier.cpp - Static checks of NPU-v1 command streams ---*- C++ -*-===//
//
// Field, bounds, alignment and access-rule checks, and the semaphore rule.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Verifier.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace kiln::npu {

bool lmemAccessAllowed(Engine engine, LmemRegion region, bool write) {
  switch (region) {
  case LmemRegion::ACT:
    return write ? (engine == Engine::DMA_IN || engine == Engine::VEC)
                 : engine != Engine::CTRL;
  case LmemRegion::WGT:
    return write ? engine == Engine::DMA_IN : engine == Engine::MAC;
  case LmemRegion::ACC:
    return write ? (engine == Engine::DMA_IN || engine == Engine::MAC)
                 : (engine == Engine::MAC || engine == Engine::VEC ||
                    engine == Engine::DMA_OUT);
  case LmemRegion::PARAM:
    return write ? engine == Engine::DMA_IN : engine == Engine::VEC;
  }
  return false;
}

bool lmemRegionOf(const TargetConfig &config, uint64_t addr,
                  LmemRegion &region) {
  for (int i = 0; i < kNumLmemRegions; ++i) {
    LmemRegion r = static_cast<LmemRegion>(i);
    uint64_t base = config.regionBase(r);
    if (addr >= base && addr < base + config.regionSize(r)) {
      region = r;
      return true;
    }
  }
  return false;
}

std::string commandPrefix(const Command &command, size_t index) {
  return absl::StrCat("command ", index, " (", opcodeName(command.opcode),
                      "): ");
}

namespace {
uint64_t stridedEnd(uint64_t base, const uint16_t n[3],
                    const uint32_t stride[3], uint64_t run) {
  uint64_t end = base + run;
  for (int i = 0; i < 3; ++i)
    if (n[i])
      end += uint64_t(n[i] - 1) * stride[i];
  return end;
}

Extent viewExtent(const ViewDesc &view, bool write, const char *field) {
  Extent e;
  e.write = write;
  e.lo = view.addr;
  e.hi = view.end();
  e.field = field;
  return e;
}

Extent lmemExtent(uint64_t lo, uint64_t size, bool write, const char *field) {
  Extent e;
  e.write = write;
  e.lo = lo;
  e.hi = lo + size;
  e.field = field;
  return e;
}
} // namespace

std::vector<Extent> commandExtents(const Command &c) {
  std::vector<Extent> out;
  switch (c.opcode) {
  case Opcode::NOP:
  case Opcode::END:
    break;
  case Opcode::DMA_LOAD: {
    Extent src;
    src.dram = !(c.flags & flags::kLmemSource);
    src.region = c.region;
    src.lo = c.src;
    src.hi = stridedEnd(c.src, c.n, c.srcStride, c.srcRun);
    src.field = "src";
    out.push_back(src);
    out.push_back(
        lmemExtent(c.dst, stridedEnd(c.dst, c.n, c.dstStride, c.dstRun) - c.dst,
                   true, "dst"));
    break;
  }
  case Opcode::DMA_STORE: {
    out.push_back(
        lmemExtent(c.src, stridedEnd(c.src, c.n, c.srcStride, c.srcRun) - c.src,
                   false, "src"));
    Extent dst;
    dst.dram = true;
    dst.region = c.region;
    dst.write = true;
    dst.lo = c.dst;
    dst.hi = stridedEnd(c.dst, c.n, c.dstStride, c.srcRun);
    dst.field = "dst";
    out.push_back(dst);
    break;
  }
  case Opcode::DMA_FILL:
    out.push_back(lmemExtent(c.dst, c.bytes, true, "dst"));
    break;
  case Opcode::MAC_CONV:
  case Opcode::MAC_DWCONV: {
    uint64_t esize = (c.flags & flags::kFp16) ? 2 : 1;
    uint64_t wbytes =
        c.opcode == Opcode::MAC_CONV
            ? uint64_t(c.out.cb) * c.kh * c.kw * c.in.cb * 256 * esize
            : uint64_t(c.in.cb) * c.kh * c.kw * 16 * esize;
    out.push_back(viewExtent(c.in, false, "in.addr"));
    out.push_back(lmemExtent(c.waddr, wbytes, false, "waddr"));
    if (c.flags & flags::kAccumulate)
      out.push_back(viewExtent(c.out, false, "out.addr"));
    out.push_back(viewExtent(c.out, true, "out.addr"));
    break;
  }
  case Opcode::VEC_REQUANT:
    out.push_back(viewExtent(c.in, false, "in.addr"));
    out.push_back(lmemExtent(
        c.paddr, (c.flags & flags::kPerTensor) ? 16 : uint64_t(c.in.cb) * 256,
        false, "paddr"));
    if (c.flags & flags::kLut)
      out.push_back(lmemExtent(c.laddr, 256, false, "laddr"));
    out.push_back(viewExtent(c.out, true, "out.addr"));
    break;
  case Opcode::VEC_ELTWISE:
    out.push_back(viewExtent(c.in, false, "in.addr"));
    if (c.bcast != static_cast<uint8_t>(Broadcast::SCALAR))
      out.push_back(viewExtent(c.in2, false, "in2.addr"));
    out.push_back(lmemExtent(c.paddr, 64, false, "paddr"));
    out.push_back(viewExtent(c.out, true, "out.addr"));
    break;
  case Opcode::VEC_UNARY:
    out.push_back(viewExtent(c.in, false, "in.addr"));
    if (c.op == static_cast<uint8_t>(UnaryOp::LUT))
      out.push_back(lmemExtent(c.laddr, 256, false, "laddr"));
    out.push_back(viewExtent(c.out, true, "out.addr"));
    break;
  case Opcode::VEC_POOL:
    out.push_back(viewExtent(c.in, false, "in.addr"));
    out.push_back(viewExtent(c.out, true, "out.addr"));
    break;
  }
  return out;
}

absl::Status checkReservedBytes(const uint8_t *bytes, size_t index) {
  if (!isValidOpcode(bytes[0]))
    return absl::InvalidArgumentError(absl::StrFormat(
        "command %d: field 'opcode' 0x%02x is not a defined opcode", index,
        bytes[0]));
  Opcode opcode = static_cast<Opcode>(bytes[0]);
  bool covered[kCommandBytes] = {true};
  for (const FieldInfo &field : fieldsOf(opcode))
    for (unsigned i = 0; i < field.size; ++i)
      covered[field.offset + i] = true;
  for (size_t i = 0; i < kCommandBytes; ++i)
    if (!covered[i] && bytes[i])
      return absl::InvalidArgumentError(absl::StrFormat(
          "command %d (%s): reserved byte %d is 0x%02x, must be zero", index,
          opcodeName(opcode), i, bytes[i]));
  return absl::OkStatus();
}

namespace {
/// Collects per-command checks with a common message prefix.
class Checker {
public:
  Checker(const Program &program, size_t index)
      : program(program), config(program.config), c(program.commands[index]),
        prefix(commandPrefix(c, index)) {}

  absl::Status run();

private:
  template <typename... Args> absl::Status fail(const Args &...args) {
    return absl::InvalidArgumentError(absl::StrCat(prefix, args...));
  }
  static std::string hex(uint64_t v) { return absl::StrFormat("0x%x", v); }

  absl::Status checkHeader(uint8_t allowedFlags);
  absl::Status checkLmem(uint64_t lo, uint64_t hi, bool write,
                         const std::string &field, bool aligned = true);
  absl::Status checkView(const ViewDesc &view, const char *name, bool write,
                         std::initializer_list<DType> dtypes);
  absl::Status checkDram(uint8_t region, uint64_t lo, uint64_t hi, bool write);
  absl::Status checkStrides(const uint32_t stride[3], const char *name);
  absl::Status checkWindow(const ViewDesc &in, const ViewDesc &out,
                           bool dilated);
  absl::Status checkRange(const char *field, int64_t v, int64_t lo,
                          int64_t hi) {
    if (v < lo || v > hi)
      return fail("field '", field, "' ", v, " is outside [", lo, ", ", hi,
                  "]");
    return absl::OkStatus();
  }
  absl::Status checkDma();
  absl::Status checkMac();
  absl::Status checkVec();

  const Program &program;
  const TargetConfig &config;
  const Command &c;
  std::string prefix;
};

#define KILN_TRY(expr)                                                         \
  do {                                                                         \
    if (absl::Status s = (expr); !s.ok())                                      \
      return s;                                                                \
  } while (0)

absl::Status Checker::checkHeader(uint8_t allowedFlags) {
  if (c.flags & ~allowedFlags)
    return fail("field 'flags' ", hex(c.flags), " sets undefined bits ",
                hex(c.flags & ~allowedFlags));
  const char *names[4] = {"wait0", "wait1", "signal0", "signal1"};
  uint8_t ids[4] = {c.wait[0], c.wait[1], c.signal[0], c.signal[1]};
  for (int i = 0; i < 4; ++i)
    if (ids[i] != kNoSemaphore && ids[i] >= config.semaphores)
      return fail("field '", names[i], "' semaphore ", ids[i],
                  " does not exist (target has ", config.semaphores, ")");
  return absl::OkStatus();
}

absl::Status Checker::checkLmem(uint64_t lo, uint64_t hi, bool write,
                                const std::string &field, bool aligned) {
  if (aligned && lo % 16)
    return fail("field '", field, "' ", hex(lo), " is not 16-byte aligned");
  LmemRegion region;
  if (!lmemRegionOf(config, lo, region))
    return fail("field '", field, "' ", hex(lo), " is outside LMEM (",
                config.lmemSize() / 1024, " KiB)");
  uint64_t end =
      uint64_t(config.regionBase(region)) + config.regionSize(region);
  if (hi > end)
    return fail("field '", field, "' ", hex(lo), " + ", hi - lo,
                " bytes exceeds LMEM.", lmemRegionName(region), " (",
                config.regionSize(region) / 1024, " KiB)");
  if (!lmemAccessAllowed(c.engine(), region, write))
    return fail("field '", field, "': engine ", engineName(c.engine()),
                " may not ", write ? "write" : "read", " LMEM.",
                lmemRegionName(region));
  return absl::OkStatus();
}

absl::Status Checker::checkView(const ViewDesc &view, const char *name,
                                bool write,
                                std::initializer_list<DType> dtypes) {
  std::string n(name);
  bool ok = false;
  for (DType d : dtypes)
    ok |= view.dtype == static_cast<uint8_t>(d);
  if (!ok) {
    std::string allowed;
    for (DType d : dtypes)
      absl::StrAppend(&allowed, allowed.empty() ? "" : ", ", dtypeName(d));
    return fail("field '", n, ".dtype' ",
                view.dtype < kNumDTypes ? dtypeName(DType(view.dtype))
                                        : std::to_string(view.dtype).c_str(),
                " is not one of {", allowed, "}");
  }
  if (!view.w || !view.h || !view.cb)
    return fail("field '", n,
                !view.w   ? ".w"
                : !view.h ? ".h"
                          : ".cb",
                "' is zero");
  return checkLmem(view.addr, view.end(), write, n + ".addr");
}

absl::Status Checker::checkDram(uint8_t region, uint64_t lo, uint64_t hi,
                                bool write) {
  if (region >= config.dramRegions)
    return fail("field 'region' r", region, " does not exist (target has ",
                config.dramRegions, ")");
  const RegionDecl *decl = program.findRegion(region);
  if (!decl)
    return fail("field 'region' r", region,
                " is not declared in the REGIONS section");
  if (write && decl->kind == RegionKind::CONST)
    return fail("field 'region': r", region,
                " holds constants and may not be written");
  if (hi > decl->size)
    return fail("field '", write ? "dst" : "src", "' ", hex(lo), " + ", hi - lo,
                " bytes exceeds DRAM region r", region, " (", decl->size,
                " bytes)");
  return absl::OkStatus();
}

absl::Status Checker::checkStrides(const uint32_t stride[3], const char *name) {
  for (int i = 0; i < 3; ++i)
    if (stride[i] % 16)
      return fail("field '", name, "_s", i, "' ", stride[i],
                  " is not a multiple of 16 (LMEM side)");
  return absl::OkStatus();
}

absl::Status Checker::checkDma() {
  for (int i = 0; i < 3; ++i)
    if (c.opcode != Opcode::DMA_FILL && !c.n[i])
      return fail("field 'n", i, "' is zero");
  switch (c.opcode) {
  case Opcode::DMA_LOAD: {
    KILN_TRY(checkHeader(flags::kLmemSource));
    if (!c.srcRun)
      return fail("field 'src_run' is zero");
    if (c.dstRun < c.srcRun)
      return fail("field 'dst_run' ", c.dstRun, " is less than 'src_run' ",
                  c.srcRun);
    uint64_t srcEnd = stridedEnd(c.src, c.n, c.srcStride, c.srcRun);
    if (c.flags & flags::kLmemSource) {
      if (c.region)
        return fail("field 'region' must be zero for an LMEM source");
      KILN_TRY(checkStrides(c.srcStride, "src"));
      KILN_TRY(checkLmem(c.src, srcEnd, false, "src"));
    } else {
      KILN_TRY(checkDram(c.region, c.src, srcEnd, false));
    }
    KILN_TRY(checkStrides(c.dstStride, "dst"));
    return checkLmem(c.dst, stridedEnd(c.dst, c.n, c.dstStride, c.dstRun), true,
                     "dst");
  }
  case Opcode::DMA_STORE:
    KILN_TRY(checkHeader(0));
    if (!c.srcRun)
      return fail("field 'src_run' is zero");
    KILN_TRY(checkStrides(c.srcStride, "src"));
    KILN_TRY(checkLmem(c.src, stridedEnd(c.src, c.n, c.srcStride, c.srcRun),
                       false, "src"));
    return checkDram(c.region, c.dst,
                     stridedEnd(c.dst, c.n, c.dstStride, c.srcRun), true);
  case Opcode::DMA_FILL:
    KILN_TRY(checkHeader(0));
    if (!c.bytes || c.bytes % 16)
      return fail("field 'bytes' ", c.bytes,
                  " is not a positive multiple of 16");
    return checkLmem(c.dst, uint64_t(c.dst) + c.bytes, true, "dst");
  default:
    return absl::OkStatus();
  }
}

absl::Status Checker::checkWindow(const ViewDesc &in, const ViewDesc &out,
                                  bool dilated) {
  const char *names[6] = {"kh", "kw", "sy", "sx", "dy", "dx"};
  uint8_t values[6] = {c.kh,
                       c.kw,
                       c.sy,
                       c.sx,
                       dilated ? c.dy : uint8_t(1),
                       dilated ? c.dx : uint8_t(1)};
  for (int i = 0; i < 6; ++i)
    if (!values[i])
      return fail("field '", names[i], "' is zero");
  int64_t dy = values[4], dx = values[5];
  int64_t spanH = int64_t(in.h) + c.pt + c.pb - dy * (c.kh - 1);
  int64_t spanW = int64_t(in.w) + c.pl + c.pr - dx * (c.kw - 1);
  if (spanH < 1 || spanW < 1)
    return fail("field '", spanH < 1 ? "kh" : "kw",
                "': the window is larger than the padded input");
  int64_t oh = (spanH - 1) / c.sy + 1, ow = (spanW - 1) / c.sx + 1;
  if (out.h != oh || out.w != ow)
    return fail("field '", out.h != oh ? "out.h" : "out.w", "' ",
                out.h != oh ? out.h : out.w, " does not match the window (",
                out.h != oh ? oh : ow, " expected)");
  return absl::OkStatus();
}

absl::Status Checker::checkMac() {
  KILN_TRY(checkHeader(flags::kAccumulate | flags::kFp16));
  bool fp16 = c.flags & flags::kFp16;
  KILN_TRY(checkView(c.in, "in", false, {fp16 ? DType::F16 : DType::I8}));
  KILN_TRY(checkView(c.out, "out", true, {fp16 ? DType::F32 : DType::I32}));
  KILN_TRY(checkWindow(c.in, c.out, /*dilated=*/true));
  if (fp16 && c.inZp)
    return fail("field 'in_zp' must be zero in fp16 mode");
  KILN_TRY(checkRange("in_zp", c.inZp, -128, 127));
  if (c.opcode == Opcode::MAC_DWCONV && c.out.cb != c.in.cb)
    return fail("field 'out.cb' ", c.out.cb, " differs from 'in.cb' ", c.in.cb,
                " (depthwise)");
  for (const Extent &e : commandExtents(c))
    if (std::string(e.field) == "waddr")
      return checkLmem(e.lo, e.hi, false, "waddr");
  return absl::OkStatus();
}

absl::Status Checker::checkVec() {
  switch (c.opcode) {
  case Opcode::VEC_REQUANT: {
    KILN_TRY(
        checkHeader(flags::kPerTensor | flags::kDoubleRound | flags::kLut));
    KILN_TRY(checkView(c.in, "in", false, {DType::I32}));
    KILN_TRY(checkView(c.out, "out", true, {DType::I8}));
    if (c.in.w != c.out.w || c.in.h != c.out.h || c.in.cb != c.out.cb)
      return fail("fields 'out.w/h/cb' differ from 'in.w/h/cb'");
    KILN_TRY(checkRange("out_zp", c.outZp, -128, 127));
    KILN_TRY(checkRange("min", c.minV, -128, 127));
    KILN_TRY(checkRange("max", c.maxV, c.minV, 127));
    if (!(c.flags & flags::kLut) && c.laddr)
      return fail("field 'laddr' must be zero without the LUT flag");
    for (const Extent &e : commandExtents(c))
      if (!e.write && std::string(e.field) != "in.addr")
        KILN_TRY(checkLmem(e.lo, e.hi, false, e.field));
    return absl::OkStatus();
  }
  case Opcode::VEC_ELTWISE: {
    KILN_TRY(checkHeader(0));
    if (c.op > static_cast<uint8_t>(EltOp::MAX))
      return fail("field 'op' ", c.op, " is not an eltwise operation");
    if (c.bcast > static_cast<uint8_t>(Broadcast::CHANNEL))
      return fail("field 'bcast' ", c.bcast, " is not a broadcast mode");
    KILN_TRY(checkView(c.in, "in", false, {DType::I8, DType::F16}));
    KILN_TRY(checkView(c.out, "out", true, {DType(c.in.dtype)}));
    if (c.in.w != c.out.w || c.in.h != c.out.h || c.in.cb != c.out.cb)
      return fail("fields 'out.w/h/cb' differ from 'in.w/h/cb'");
    Broadcast b = static_cast<Broadcast>(c.bcast);
    if (b == Broadcast::SCALAR) {
      if ((c.in2.addr || c.in2.dtype || c.in2.w || c.in2.h || c.in2.cb ||
           c.in2.sw || c.in2.sh || c.in2.sc))
        return fail("field 'in2' must be all zero for a scalar broadcast");
    } else {
      KILN_TRY(checkView(c.in2, "in2", false, {DType(c.in.dtype)}));
      unsigned ew = b == Broadcast::CHANNEL ? 1 : c.in.w;
      unsigned eh = b == Broadcast::CHANNEL ? 1 : c.in.h;
      if (c.in2.w != ew || c.in2.h != eh || c.in2.cb != c.in.cb)
        return fail("field 'in2.w/h/cb' ", c.in2.w, "x", c.in2.h, "x", c.in2.cb,
                    " does not match the broadcast (", ew, "x", eh, "x",
                    c.in.cb, " expected)");
    }
    return checkLmem(c.paddr, uint64_t(c.paddr) + 64, false, "paddr");
  }
  case Opcode::VEC_UNARY: {
    KILN_TRY(checkHeader(flags::kDoubleRound));
    if (c.op > static_cast<uint8_t>(UnaryOp::LUT))
      return fail("field 'op' ", c.op, " is not a unary operation");
    UnaryOp op = static_cast<UnaryOp>(c.op);
    KILN_TRY(checkView(c.in, "in", false,
                       {DType::I8, DType::I32, DType::F16, DType::F32}));
    KILN_TRY(checkView(c.out, "out", true,
                       {DType::I8, DType::I32, DType::F16, DType::F32}));
    if (c.in.w != c.out.w || c.in.h != c.out.h || c.in.cb != c.out.cb)
      return fail("fields 'out.w/h/cb' differ from 'in.w/h/cb'");
    DType in = DType(c.in.dtype), out = DType(c.out.dtype);
    if (op != UnaryOp::CONVERT && op != UnaryOp::RESCALE && in != out)
      return fail("field 'out.dtype' ", dtypeName(out), " differs from ",
                  dtypeName(in));
    if (op != UnaryOp::LUT && c.laddr)
      return fail("field 'laddr' is only used by LUT");
    if (op == UnaryOp::LUT) {
      if (in != DType::I8)
        return fail("field 'in.dtype': LUT needs i8");
      KILN_TRY(checkLmem(c.laddr, uint64_t(c.laddr) + 256, false, "laddr"));
    }
    if (op == UnaryOp::RESCALE) {
      if ((in != DType::I8 && in != DType::I32) || out != DType::I8)
        return fail("field 'in.dtype': RESCALE maps i8 or i32 to i8");
      KILN_TRY(checkRange("mult", c.mult, 0, INT32_MAX));
      KILN_TRY(checkRange("shift", c.shift, 2, 62));
      KILN_TRY(checkRange("out_zp", c.outZp, -128, 127));
    }
    if (op == UnaryOp::RESCALE || (op == UnaryOp::CLAMP && in == DType::I8)) {
      KILN_TRY(checkRange("min", c.minV, -128, 127));
      KILN_TRY(checkRange("max", c.maxV, c.minV, 127));
    }
    if (op == UnaryOp::CLAMP && (in == DType::I32) && c.minV > c.maxV)
      return fail("field 'max' ", c.maxV, " is less than 'min' ", c.minV);
    if (op == UnaryOp::RESCALE && in == DType::I8)
      KILN_TRY(checkRange("in_zp", c.inZp, -128, 127));
    return absl::OkStatus();
  }
  case Opcode::VEC_POOL: {
    KILN_TRY(checkHeader(0));
    if (c.op > static_cast<uint8_t>(PoolOp::SUM))
      return fail("field 'op' ", c.op, " is not a pooling operation");
    PoolOp op = static_cast<PoolOp>(c.op);
    KILN_TRY(checkView(c.in, "in", false, {DType::I8, DType::F16}));
    DType in = DType(c.in.dtype);
    DType out =
        op == PoolOp::SUM ? (in == DType::I8 ? DType::I32 : DType::F32) : in;
    KILN_TRY(checkView(c.out, "out", true, {out}));
    if (c.out.cb != c.in.cb)
      return fail("field 'out.cb' differs from 'in.cb'");
    KILN_TRY(checkWindow(c.in, c.out, /*dilated=*/false));
    if (in == DType::I8 && op != PoolOp::SUM) {
      KILN_TRY(checkRange("min", c.minV, -128, 127));
      KILN_TRY(checkRange("max", c.maxV, c.minV, 127));
    } else if (c.minV || c.maxV) {
      return fail("fields 'min' and 'max' must be zero (no clamp)");
    }
    return absl::OkStatus();
  }
  default:
    return absl::OkStatus();
  }
}

absl::Status Checker::run() {
  switch (c.engine()) {
  case Engine::CTRL:
    return checkHeader(0);
  case Engine::DMA_IN:
  case Engine::DMA_OUT:
    KILN_TRY(checkDma());
    break;
  case Engine::MAC:
    KILN_TRY(checkMac());
    break;
  case Engine::VEC:
    KILN_TRY(checkVec());
    break;
  }
  // Work limits: every command finishes in bounded time.
  uint64_t pixels = uint64_t(c.out.w) * c.out.h;
  switch (c.engine()) {
  case Engine::DMA_IN:
  case Engine::DMA_OUT:
    if (c.opcode != Opcode::DMA_FILL &&
        uint64_t(c.n[0]) * c.n[1] * c.n[2] > kMaxRuns)
      return fail("fields 'n0 n1 n2': ", uint64_t(c.n[0]) * c.n[1] * c.n[2],
                  " runs exceed the limit of ", kMaxRuns, " per command");
    break;
  case Engine::MAC: {
    uint64_t macs = pixels * c.out.cb * 16 * c.kh * c.kw *
                    (c.opcode == Opcode::MAC_CONV ? c.in.cb * 16 : 1);
    if (macs > kMaxMacs)
      return fail("fields 'out.w out.h out.cb': ", macs,
                  " MACs exceed the limit of ", kMaxMacs, " per command");
    break;
  }
  case Engine::VEC: {
    uint64_t work = pixels * c.out.cb * 16 *
                    (c.opcode == Opcode::VEC_POOL ? c.kh * c.kw : 1);
    if (work > kMaxVecWork)
      return fail("fields 'out.w out.h out.cb': ", work,
                  " element operations exceed the limit of ", kMaxVecWork,
                  " per command");
    break;
  }
  default:
    break;
  }
  return absl::OkStatus();
}
} // namespace

absl::Status verifyCommand(const Program &program, size_t index) {
  return Checker(program, index).run();
}

absl::Status verifyProgram(const Program &program,
                           const VerifyOptions &options) {
  KILN_TRY(program.config.validate());
  if (!program.commandBytes.empty()) {
    if (program.commandBytes.size() != program.commands.size() * kCommandBytes)
      return absl::InvalidArgumentError(
          "COMMANDS section does not match the decoded commands");
    for (size_t i = 0; i < program.commands.size(); ++i)
      KILN_TRY(checkReservedBytes(&program.commandBytes[i * kCommandBytes], i));
  }
  for (const RegionDecl &decl : program.regions)
    if (decl.region >= program.config.dramRegions)
      return absl::InvalidArgumentError(absl::StrCat(
          "REGIONS section: region r", decl.region,
          " does not exist (target has ", program.config.dramRegions, ")"));
  for (const IoDecl &io : program.io) {
    const RegionDecl *decl = program.findRegion(io.region);
    if (!decl)
      return absl::InvalidArgumentError(
          absl::StrCat("IO tensor '", io.name, "': region r", io.region,
                       " is not declared in the REGIONS section"));
    uint64_t bytes = dtypeSize(DType(io.dtype));
    for (size_t i = 0; i < io.shape.size(); ++i) {
      // NHWC_C16 pads the channels (the last dimension) to 16, no other.
      uint64_t d = io.shape[i];
      if (io.layout == IoLayout::NHWC_C16 && i + 1 == io.shape.size())
        d = (d + 15) / 16 * 16;
      if (d && bytes > (uint64_t(1) << 40) / d)
        return absl::InvalidArgumentError(
            absl::StrCat("IO tensor '", io.name, "': shape is too large"));
      bytes *= d;
    }
    if (uint64_t(io.offset) + bytes > decl->size)
      return absl::InvalidArgumentError(absl::StrCat(
          "IO tensor '", io.name, "': ", bytes, " bytes at offset ", io.offset,
          " exceed region r", io.region, " (", decl->size, " bytes)"));
  }
  if (program.commands.empty() || program.commands.back().opcode != Opcode::END)
    return absl::InvalidArgumentError(absl::StrCat(
        "the stream does not end with END (", program.commands.size(),
        " commands): it would never finish"));
  std::vector<int64_t> count(program.config.semaphores, 0);
  for (size_t i = 0; i < program.commands.size(); ++i) {
    const Command &c = program.commands[i];
    if (c.opcode == Opcode::END && i + 1 != program.commands.size())
      return absl::InvalidArgumentError(
          absl::StrCat(commandPrefix(c, i), "END must be the last command"));
    KILN_TRY(verifyCommand(program, i));
    for (int w = 0; w < 2; ++w) {
      if (c.wait[w] == kNoSemaphore)
        continue;
      if (options.semaphoreRule && count[c.wait[w]] == 0)
        return absl::InvalidArgumentError(absl::StrCat(
            commandPrefix(c, i), "field 'wait", w, "' waits on semaphore ",
            c.wait[w], " with no earlier uncovered signal"));
      --count[c.wait[w]];
    }
    for (int s = 0; s < 2; ++s)
      if (c.signal[s] != kNoSemaphore)
        ++count[c.signal[s]];
  }
  return absl::OkStatus();
}

} // namespace kiln::npu
