//===- Format.cpp - The .npub container format ------------------*- C++ -*-===//
//
// Writer and bounds-checked reader of .npub files.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Format.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace kiln::npu {

uint32_t crc32Of(absl::Span<const uint8_t> bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  const uint8_t *p = bytes.data();
  size_t left = bytes.size();
  while (left) {
    uInt chunk = left > (1u << 30) ? (1u << 30) : static_cast<uInt>(left);
    crc = crc32(crc, p, chunk);
    p += chunk;
    left -= chunk;
  }
  return static_cast<uint32_t>(crc);
}

uint64_t IoDecl::byteSize() const {
  uint64_t elems = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    uint64_t d = shape[i];
    if (layout == IoLayout::NHWC_C16 && i + 1 == shape.size())
      d = (d + 15) / 16 * 16;
    elems *= d;
  }
  return elems * dtypeSize(DType(dtype));
}

const RegionDecl *Program::findRegion(unsigned region) const {
  for (const RegionDecl &decl : regions)
    if (decl.region == region)
      return &decl;
  return nullptr;
}

const DebugEntry *Program::findDebug(uint16_t tag) const {
  for (const DebugEntry &entry : debug)
    if (entry.tag == tag)
      return &entry;
  return nullptr;
}

const LayerCost *Program::findCost(uint16_t tag) const {
  for (const LayerCost &cost : costs)
    if (cost.tag == tag)
      return &cost;
  return nullptr;
}

uint64_t LayerCost::lowerBound() const {
  return std::max({macCycles, vecCycles, dramCycles});
}

const char *LayerCost::boundBy() const {
  uint64_t bound = lowerBound();
  if (macCycles == bound)
    return "MAC";
  return vecCycles == bound ? "VEC" : "DRAM";
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

namespace {
/// Appends little-endian values.
struct ByteWriter {
  std::vector<uint8_t> out;
  void u8(uint8_t v) { out.push_back(v); }
  void u16(uint16_t v) {
    u8(v & 0xff);
    u8(v >> 8);
  }
  void u32(uint32_t v) {
    u16(v & 0xffff);
    u16(v >> 16);
  }
  void u64(uint64_t v) {
    u32(static_cast<uint32_t>(v));
    u32(static_cast<uint32_t>(v >> 32));
  }
  void bytes(const void *data, size_t size) {
    const uint8_t *p = static_cast<const uint8_t *>(data);
    out.insert(out.end(), p, p + size);
  }
  void align(size_t a) {
    while (out.size() % a)
      out.push_back(0);
  }
};

void put32(std::vector<uint8_t> &buf, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    buf[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
void put64(std::vector<uint8_t> &buf, size_t at, uint64_t v) {
  put32(buf, at, static_cast<uint32_t>(v));
  put32(buf, at + 4, static_cast<uint32_t>(v >> 32));
}
} // namespace

std::vector<uint8_t> writeProgram(const Program &program) {
  struct Section {
    SectionType type;
    uint32_t flags;
    std::vector<uint8_t> data;
  };
  std::vector<Section> sections;
  sections.push_back({SectionType::COMMANDS, kSectionRequired,
                      encodeStream(program.commands)});
  std::string json =
      program.targetJson.empty() ? program.config.toJson() : program.targetJson;
  sections.push_back({SectionType::TARGET, kSectionRequired,
                      std::vector<uint8_t>(json.begin(), json.end())});
  {
    ByteWriter w;
    w.u32(static_cast<uint32_t>(program.regions.size()));
    w.u32(0);
    for (const RegionDecl &r : program.regions) {
      w.u8(r.region);
      w.u8(static_cast<uint8_t>(r.kind));
      w.u16(0);
      w.u32(0);
      w.u64(r.size);
    }
    sections.push_back({SectionType::REGIONS, kSectionRequired, w.out});
  }
  if (!program.constants.empty())
    sections.push_back(
        {SectionType::CONST, kSectionRequired, program.constants});
  if (!program.io.empty()) {
    ByteWriter w;
    w.u32(static_cast<uint32_t>(program.io.size()));
    w.u32(0);
    for (const IoDecl &io : program.io) {
      w.u8(io.isOutput);
      w.u8(io.region);
      w.u8(io.dtype);
      w.u8(static_cast<uint8_t>(io.layout));
      w.u32(io.offset);
      uint32_t scaleBits;
      std::memcpy(&scaleBits, &io.scale, 4);
      w.u32(scaleBits);
      w.u32(static_cast<uint32_t>(io.zeroPoint));
      w.u8(static_cast<uint8_t>(io.shape.size()));
      w.u8(0);
      w.u16(static_cast<uint16_t>(io.name.size()));
      for (uint32_t d : io.shape)
        w.u32(d);
      w.bytes(io.name.data(), io.name.size());
      w.align(4);
    }
    sections.push_back({SectionType::IO, 0, w.out});
  }
  if (!program.debug.empty()) {
    ByteWriter w;
    w.u32(static_cast<uint32_t>(program.debug.size()));
    w.u32(0);
    for (const DebugEntry &d : program.debug) {
      w.u16(d.tag);
      w.u16(static_cast<uint16_t>(d.opName.size()));
      w.u16(static_cast<uint16_t>(d.location.size()));
      w.u16(0);
      w.bytes(d.opName.data(), d.opName.size());
      w.bytes(d.location.data(), d.location.size());
      w.align(4);
    }
    sections.push_back({SectionType::DEBUG, 0, w.out});
  }
  if (!program.costs.empty()) {
    ByteWriter w;
    w.u32(static_cast<uint32_t>(program.costs.size()));
    w.u32(0);
    for (const LayerCost &c : program.costs) {
      w.u16(c.tag);
      w.u16(0);
      w.u32(0);
      w.u64(c.estimate);
      w.u64(c.macCycles);
      w.u64(c.vecCycles);
      w.u64(c.dramCycles);
      w.u64(c.usefulMacs);
    }
    sections.push_back({SectionType::COST, 0, w.out});
  }

  ByteWriter w;
  w.out.resize(kHeaderBytes + sections.size() * kSectionEntryBytes, 0);
  w.align(16);
  std::vector<std::pair<uint64_t, uint64_t>> placed;
  for (const Section &s : sections) {
    placed.push_back({w.out.size(), s.data.size()});
    w.bytes(s.data.data(), s.data.size());
    w.align(16);
  }
  std::vector<uint8_t> &buf = w.out;
  std::memcpy(buf.data(), "NPUB", 4);
  buf[4] = kFormatMajor & 0xff;
  buf[5] = kFormatMajor >> 8;
  buf[6] = kFormatMinor & 0xff;
  buf[7] = kFormatMinor >> 8;
  put32(buf, 8, kHeaderBytes);
  put32(buf, 12, 0);
  put64(buf, 16, buf.size());
  put64(buf, 24, kHeaderBytes);
  put32(buf, 32, static_cast<uint32_t>(sections.size()));
  put64(buf, 40,
        fnv1a64(reinterpret_cast<const uint8_t *>(json.data()), json.size()));
  for (size_t i = 0; i < sections.size(); ++i) {
    size_t at = kHeaderBytes + i * kSectionEntryBytes;
    put32(buf, at, static_cast<uint32_t>(sections[i].type));
    put32(buf, at + 4, sections[i].flags);
    put64(buf, at + 8, placed[i].first);
    put64(buf, at + 16, placed[i].second);
  }
  put32(buf, 36, crc32Of(absl::MakeConstSpan(buf).subspan(kHeaderBytes)));
  return buf;
}

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

namespace {
/// A bounds-checked little-endian cursor over one section.
class ByteReader {
public:
  ByteReader(absl::Span<const uint8_t> data, const char *what)
      : data(data), what(what) {}
  bool ok() const { return !failed; }
  size_t pos() const { return at; }
  absl::Status error() const {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s section: truncated at byte %d of %d", what, at, data.size()));
  }
  uint64_t get(unsigned size) {
    if (failed || data.size() - at < size) {
      failed = true;
      return 0;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < size; ++i)
      v |= uint64_t(data[at + i]) << (8 * i);
    at += size;
    return v;
  }
  std::string str(size_t size) {
    if (failed || data.size() - at < size) {
      failed = true;
      return {};
    }
    std::string s(reinterpret_cast<const char *>(data.data() + at), size);
    at += size;
    return s;
  }
  void align(size_t a) {
    size_t next = (at + a - 1) / a * a;
    if (next > data.size())
      next = data.size();
    at = next;
  }
  size_t remaining() const { return data.size() - at; }

private:
  absl::Span<const uint8_t> data;
  const char *what;
  size_t at = 0;
  bool failed = false;
};

uint64_t get64(absl::Span<const uint8_t> b, size_t at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= uint64_t(b[at + i]) << (8 * i);
  return v;
}
uint32_t get32(absl::Span<const uint8_t> b, size_t at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= uint32_t(b[at + i]) << (8 * i);
  return v;
}

absl::Status parseRegions(absl::Span<const uint8_t> data, Program &program) {
  ByteReader r(data, "REGIONS");
  uint64_t count = r.get(4);
  r.get(4);
  if (!r.ok() || count > r.remaining() / 16)
    return absl::InvalidArgumentError(
        absl::StrFormat("REGIONS section: %d entries do not fit in %d bytes",
                        count, data.size()));
  for (uint64_t i = 0; i < count; ++i) {
    RegionDecl decl;
    decl.region = static_cast<uint8_t>(r.get(1));
    uint8_t kind = static_cast<uint8_t>(r.get(1));
    uint64_t reserved = r.get(2) | r.get(4);
    decl.size = r.get(8);
    if (kind > static_cast<uint8_t>(RegionKind::INOUT))
      return absl::InvalidArgumentError(absl::StrFormat(
          "REGIONS section: entry %d: unknown region kind %d", i, kind));
    if (reserved)
      return absl::InvalidArgumentError(absl::StrFormat(
          "REGIONS section: entry %d: reserved bytes are not zero", i));
    decl.kind = static_cast<RegionKind>(kind);
    if (program.findRegion(decl.region))
      return absl::InvalidArgumentError(absl::StrFormat(
          "REGIONS section: region r%d declared twice", decl.region));
    program.regions.push_back(decl);
  }
  return absl::OkStatus();
}

absl::Status parseIo(absl::Span<const uint8_t> data, Program &program) {
  ByteReader r(data, "IO");
  uint64_t count = r.get(4);
  uint64_t reserved = r.get(4);
  if (!r.ok() || count > r.remaining() / 20)
    return r.ok() ? absl::InvalidArgumentError(absl::StrFormat(
                        "IO section: %d entries do not fit in %d bytes", count,
                        data.size()))
                  : r.error();
  if (reserved)
    return absl::InvalidArgumentError(
        "IO section: reserved bytes are not zero");
  for (uint64_t i = 0; i < count; ++i) {
    IoDecl io;
    uint64_t isOutput = r.get(1);
    io.isOutput = isOutput != 0;
    io.region = static_cast<uint8_t>(r.get(1));
    io.dtype = static_cast<uint8_t>(r.get(1));
    io.layout = static_cast<IoLayout>(r.get(1));
    io.offset = static_cast<uint32_t>(r.get(4));
    uint32_t scaleBits = static_cast<uint32_t>(r.get(4));
    std::memcpy(&io.scale, &scaleBits, 4);
    io.zeroPoint = static_cast<int32_t>(r.get(4));
    unsigned rank = static_cast<unsigned>(r.get(1));
    uint64_t entryReserved = r.get(1);
    size_t nameLen = static_cast<size_t>(r.get(2));
    for (unsigned d = 0; d < rank && r.ok(); ++d)
      io.shape.push_back(static_cast<uint32_t>(r.get(4)));
    io.name = r.str(nameLen);
    r.align(4);
    if (!r.ok())
      return r.error();
    if (io.dtype >= kNumDTypes || static_cast<uint8_t>(io.layout) >
                                      static_cast<uint8_t>(IoLayout::NHWC_C16))
      return absl::InvalidArgumentError(absl::StrFormat(
          "IO section: entry %d ('%s'): bad dtype or layout", i, io.name));
    if (isOutput > 1 || entryReserved)
      return absl::InvalidArgumentError(absl::StrFormat(
          "IO section: entry %d ('%s'): is_output is %d (must be 0 or 1) or "
          "a reserved byte is not zero",
          i, io.name, isOutput));
    if (io.shape.empty() ||
        std::find(io.shape.begin(), io.shape.end(), 0u) != io.shape.end())
      return absl::InvalidArgumentError(absl::StrFormat(
          "IO section: entry %d ('%s'): rank 0 or a zero dimension (an IO "
          "tensor has at least one element)",
          i, io.name));
    for (const IoDecl &other : program.io)
      if (other.name == io.name && other.isOutput == io.isOutput)
        return absl::InvalidArgumentError(absl::StrFormat(
            "IO section: entry %d: %s '%s' is declared twice", i,
            io.isOutput ? "output" : "input", io.name));
    program.io.push_back(std::move(io));
  }
  return absl::OkStatus();
}

absl::Status parseDebug(absl::Span<const uint8_t> data, Program &program) {
  ByteReader r(data, "DEBUG");
  uint64_t count = r.get(4);
  uint64_t reserved = r.get(4);
  if (!r.ok() || count > r.remaining() / 8)
    return absl::InvalidArgumentError(
        absl::StrFormat("DEBUG section: %d entries do not fit in %d bytes",
                        count, data.size()));
  for (uint64_t i = 0; i < count; ++i) {
    DebugEntry d;
    d.tag = static_cast<uint16_t>(r.get(2));
    size_t nameLen = static_cast<size_t>(r.get(2));
    size_t locLen = static_cast<size_t>(r.get(2));
    reserved |= r.get(2);
    d.opName = r.str(nameLen);
    d.location = r.str(locLen);
    r.align(4);
    if (!r.ok())
      return r.error();
    // Tag 0 is "no debug entry", and a repeated tag would leave all but
    // its first entry unread (a disassembly or report would name the wrong
    // op).
    if (d.tag == 0 || program.findDebug(d.tag))
      return absl::InvalidArgumentError(absl::StrFormat(
          "DEBUG section: entry %d: tag %d is 0 or repeated", i, d.tag));
    if (reserved)
      return absl::InvalidArgumentError(absl::StrFormat(
          "DEBUG section: entry %d: reserved bytes are not zero", i));
    program.debug.push_back(std::move(d));
  }
  return absl::OkStatus();
}

/// Size of one COST entry.
constexpr size_t kCostEntryBytes = 48;

absl::Status parseCost(absl::Span<const uint8_t> data, Program &program) {
  ByteReader r(data, "COST");
  uint64_t count = r.get(4);
  uint64_t reserved = r.get(4);
  if (!r.ok() || reserved || count != r.remaining() / kCostEntryBytes ||
      r.remaining() % kCostEntryBytes)
    return absl::InvalidArgumentError(absl::StrFormat(
        "COST section: %d entries of %d bytes do not match its %d bytes",
        count, kCostEntryBytes, data.size()));
  for (uint64_t i = 0; i < count; ++i) {
    LayerCost c;
    c.tag = static_cast<uint16_t>(r.get(2));
    uint64_t zero = r.get(2) | r.get(4);
    c.estimate = r.get(8);
    c.macCycles = r.get(8);
    c.vecCycles = r.get(8);
    c.dramCycles = r.get(8);
    c.usefulMacs = r.get(8);
    if (zero)
      return absl::InvalidArgumentError(absl::StrFormat(
          "COST section: entry %d: reserved bytes are not zero", i));
    if (c.tag == 0 || program.findCost(c.tag))
      return absl::InvalidArgumentError(absl::StrFormat(
          "COST section: entry %d: tag %d is 0 or repeated", i, c.tag));
    program.costs.push_back(c);
  }
  return absl::OkStatus();
}

const char *sectionName(uint32_t type) {
  switch (static_cast<SectionType>(type)) {
  case SectionType::COMMANDS:
    return "COMMANDS";
  case SectionType::CONST:
    return "CONST";
  case SectionType::REGIONS:
    return "REGIONS";
  case SectionType::IO:
    return "IO";
  case SectionType::DEBUG:
    return "DEBUG";
  case SectionType::TARGET:
    return "TARGET";
  case SectionType::COST:
    return "COST";
  }
  return "unknown";
}
} // namespace

absl::StatusOr<Program> readProgram(absl::Span<const uint8_t> bytes) {
  auto fail = [](auto &&...args) {
    return absl::InvalidArgumentError(absl::StrCat(args...));
  };
  if (bytes.size() < kHeaderBytes)
    return fail("truncated file: ", bytes.size(),
                " bytes, less than the 64-byte header");
  if (std::memcmp(bytes.data(), "NPUB", 4) != 0)
    return fail("bad magic: expected 'NPUB'");
  uint16_t major = bytes[4] | (bytes[5] << 8);
  uint16_t minor = bytes[6] | (bytes[7] << 8);
  if (major != kFormatMajor)
    return fail("unsupported format version ", major, ".", minor,
                ": this reader supports major version ", kFormatMajor);
  if (get32(bytes, 8) != kHeaderBytes)
    return fail("header: field 'header_size' is ", get32(bytes, 8),
                ", expected 64");
  if (get32(bytes, 12) != 0)
    return fail("header: field 'flags' must be zero");
  for (size_t i = 48; i < kHeaderBytes; ++i)
    if (bytes[i])
      return fail("header: reserved byte ", i, " is not zero");
  uint64_t fileSize = get64(bytes, 16);
  if (fileSize != bytes.size())
    return fail(fileSize > bytes.size() ? "truncated file: " : "bad file: ",
                "header says ", fileSize, " bytes, buffer has ", bytes.size());
  uint64_t tableOffset = get64(bytes, 24);
  uint64_t count = get32(bytes, 32);
  if (tableOffset < kHeaderBytes || tableOffset > fileSize ||
      count > (fileSize - tableOffset) / kSectionEntryBytes)
    return fail("header: section table (offset ", tableOffset, ", ", count,
                " entries) exceeds the file (", fileSize, " bytes)");
  uint32_t crc = crc32Of(bytes.subspan(kHeaderBytes));
  if (crc != get32(bytes, 36))
    return fail(
        absl::StrFormat("CRC mismatch: header says 0x%08x, body has 0x%08x",
                        get32(bytes, 36), crc));

  Program program;
  absl::Span<const uint8_t> commands, target;
  bool seen[8] = {};
  for (uint64_t i = 0; i < count; ++i) {
    size_t at = tableOffset + i * kSectionEntryBytes;
    uint32_t type = get32(bytes, at);
    uint32_t flags = get32(bytes, at + 4);
    uint64_t offset = get64(bytes, at + 8);
    uint64_t size = get64(bytes, at + 16);
    if (get64(bytes, at + 24) != 0 || (flags & ~kSectionRequired))
      return fail("section ", i, " (", sectionName(type),
                  "): reserved bytes or flags are not zero");
    if (offset < kHeaderBytes || offset > fileSize || size > fileSize - offset)
      return fail("section ", i, " (", sectionName(type), "): offset ", offset,
                  " + size ", size, " exceeds the file (", fileSize, " bytes)");
    if (type == 0 || type > 7) {
      if (flags & kSectionRequired)
        return fail("section ", i, ": unknown required section type ", type);
      continue; // Unknown optional section: skipped.
    }
    if (seen[type])
      return fail("section ", i, ": duplicate ", sectionName(type), " section");
    seen[type] = true;
    absl::Span<const uint8_t> data = bytes.subspan(offset, size);
    absl::Status status;
    switch (static_cast<SectionType>(type)) {
    case SectionType::COMMANDS:
      commands = data;
      break;
    case SectionType::TARGET:
      target = data;
      break;
    case SectionType::CONST:
      program.constants.assign(data.begin(), data.end());
      break;
    case SectionType::REGIONS:
      status = parseRegions(data, program);
      break;
    case SectionType::IO:
      status = parseIo(data, program);
      break;
    case SectionType::DEBUG:
      status = parseDebug(data, program);
      break;
    case SectionType::COST:
      status = parseCost(data, program);
      break;
    }
    if (!status.ok())
      return status;
  }
  if (!seen[static_cast<int>(SectionType::COMMANDS)])
    return fail("missing required COMMANDS section");
  if (!seen[static_cast<int>(SectionType::TARGET)])
    return fail("missing required TARGET section");
  if (!seen[static_cast<int>(SectionType::REGIONS)])
    return fail("missing required REGIONS section");
  if (fnv1a64(target.data(), target.size()) != get64(bytes, 40))
    return fail("header: field 'target_hash' does not match the TARGET "
                "section");
  for (const LayerCost &c : program.costs)
    if (!program.findDebug(c.tag))
      return fail("COST section: tag ", c.tag, " has no DEBUG entry");
  program.targetJson.assign(target.begin(), target.end());
  absl::StatusOr<TargetConfig> config =
      TargetConfig::fromJson(program.targetJson);
  if (!config.ok())
    return config.status();
  program.config = *config;
  if (commands.size() % kCommandBytes)
    return fail("COMMANDS section: size ", commands.size(),
                " is not a multiple of 64 (truncated command ",
                commands.size() / kCommandBytes, ")");
  program.commandBytes.assign(commands.begin(), commands.end());
  for (size_t i = 0; i < commands.size() / kCommandBytes; ++i) {
    absl::StatusOr<Command> command =
        decode(commands.data() + i * kCommandBytes, i);
    if (!command.ok())
      return command.status();
    program.commands.push_back(*command);
  }
  if (!program.constants.empty()) {
    const RegionDecl *r0 = program.findRegion(0);
    if (!r0 || r0->kind != RegionKind::CONST ||
        r0->size != program.constants.size())
      return fail("CONST section: ", program.constants.size(),
                  " bytes, but REGIONS does not declare r0 as CONST of that "
                  "size");
  }
  return program;
}

} // namespace kiln::npu
