//===- Overlap.cpp - let the ops of one stream run at the same time -------===//
//
// DRAM hazards by byte range, and the LMEM budget of an op.
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/Overlap.h"

#include "conversions/NPUToNPUHW/Lowering.h"

#include "dialects/NPUHW/IR/NPUHWDialect.h"
#include "dialects/NPUHW/IR/NPUHWOps.h"

#include "mlir/IR/BuiltinTypes.h"

#include <optional>

using namespace mlir;
using namespace kiln;
using namespace kiln::npu_to_npuhw;

namespace {
/// The DRAM bytes [lo, hi) of region `region` a memref spans.
struct DramRange {
  unsigned region;
  uint64_t lo, hi;
};

/// The bytes a DRAM memref spans (its first to its last element), or none
/// for an LMEM memref.
std::optional<DramRange> dramRange(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  auto space = dyn_cast_or_null<npuhw::DramSpaceAttr>(type.getMemorySpace());
  if (!space)
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return std::nullopt;
  int64_t last = offset;
  for (auto [size, stride] : llvm::zip(type.getShape(), strides))
    last += (size - 1) * stride;
  int64_t bytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  return DramRange{space.getRegion(), static_cast<uint64_t>(offset * bytes),
                   static_cast<uint64_t>((last + 1) * bytes)};
}

/// Appends \p token to the dependencies of \p deps unless it is there.
void addDependency(MutableOperandRange deps, Value token) {
  for (Value v : deps.getAsOperandRange())
    if (v == token)
      return;
  deps.append(token);
}
} // namespace

void DramHazards::link(Block::iterator begin, Block::iterator end) {
  auto latest = [](const std::vector<Access> &list, const DramRange &r) {
    for (auto it = list.rbegin(); it != list.rend(); ++it)
      if (it->region == r.region && it->lo < r.hi && r.lo < it->hi)
        return it->token;
    return Value();
  };
  std::vector<Access> newLoads, newStores;
  for (Operation &op : llvm::make_range(begin, end)) {
    if (auto load = dyn_cast<npuhw::DmaLoadOp>(&op)) {
      std::optional<DramRange> r = dramRange(load.getSrc());
      if (!r)
        continue;
      if (Value store = latest(stores, *r))
        addDependency(load.getDepsMutable(), store);
      newLoads.push_back({r->region, r->lo, r->hi, load.getToken()});
    } else if (auto store = dyn_cast<npuhw::DmaStoreOp>(&op)) {
      std::optional<DramRange> r = dramRange(store.getDst());
      if (!r)
        continue;
      if (Value load = latest(loads, *r))
        addDependency(store.getDepsMutable(), load);
      newStores.push_back({r->region, r->lo, r->hi, store.getToken()});
    }
  }
  loads.insert(loads.end(), newLoads.begin(), newLoads.end());
  stores.insert(stores.end(), newStores.begin(), newStores.end());
}

LmemUse npu_to_npuhw::lmemUse(Block::iterator begin, Block::iterator end) {
  LmemUse use{};
  for (Operation &op : llvm::make_range(begin, end))
    if (auto alloc = dyn_cast<npuhw::AllocOp>(&op)) {
      MemRefType type = alloc.getType();
      auto region = cast<npuhw::LmemRegionAttr>(type.getMemorySpace());
      uint64_t bytes = type.getNumElements() *
                       std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
      use[static_cast<unsigned>(npuhw::toRuntime(region.getValue()))] +=
          (bytes + 15) / 16 * 16;
    }
  return use;
}

npu::TargetConfig npu_to_npuhw::budget(const npu::TargetConfig &config,
                                       const LmemUse &bytes) {
  npu::TargetConfig cut = config;
  cut.lmemActKiB = bytes[0] / 1024;
  cut.lmemWgtKiB = bytes[1] / 1024;
  cut.lmemAccKiB = bytes[2] / 1024;
  cut.lmemParamKiB = bytes[3] / 1024;
  return cut;
}

uint64_t npu_to_npuhw::dramBurstBytes(Block::iterator begin,
                                      Block::iterator end, uint64_t burst) {
  auto field = [](Operation *op, StringRef name) -> uint64_t {
    auto attr = op->getAttrOfType<IntegerAttr>(name);
    return attr ? attr.getInt() : 0;
  };
  uint64_t total = 0;
  for (Operation &op : llvm::make_range(begin, end)) {
    std::optional<DramRange> range;
    StringRef prefix;
    if (auto load = dyn_cast<npuhw::DmaLoadOp>(&op)) {
      range = dramRange(load.getSrc());
      prefix = "src_s";
    } else if (auto store = dyn_cast<npuhw::DmaStoreOp>(&op)) {
      range = dramRange(store.getDst());
      prefix = "dst_s";
    }
    if (!range || range->region == kResidentRegion ||
        range->region == kCascadeRegion)
      continue; // LMEM-resident and cascaded tensors do not cross the port.
    const uint64_t run = field(&op, "src_run"), n0 = field(&op, "n0"),
                   n1 = field(&op, "n1"), n2 = field(&op, "n2"),
                   s0 = field(&op, (prefix + "0").str()),
                   s1 = field(&op, (prefix + "1").str()),
                   s2 = field(&op, (prefix + "2").str());
    uint64_t lo = 0, hi = 0;
    bool open = false;
    auto piece = [&](uint64_t a, uint64_t b) {
      if (open && a == hi) {
        hi = b;
        return;
      }
      if (open)
        total += ((hi - 1) / burst - lo / burst + 1) * burst;
      lo = a;
      hi = b;
      open = b > a;
    };
    for (uint64_t i2 = 0; i2 < n2; ++i2)
      for (uint64_t i1 = 0; i1 < n1; ++i1) {
        uint64_t row = range->lo + i2 * s2 + i1 * s1;
        if (s0 == run)
          piece(row, row + n0 * run);
        else
          for (uint64_t i0 = 0; i0 < n0; ++i0)
            piece(row + i0 * s0, row + i0 * s0 + run);
      }
    if (open)
      total += ((hi - 1) / burst - lo / burst + 1) * burst;
  }
  return total;
}

bool npu_to_npuhw::fitsBudget(const LmemUse &use,
                              const npu::TargetConfig &budget) {
  for (unsigned r = 0; r < npu::kNumLmemRegions; ++r)
    if (use[r] > budget.regionSize(static_cast<npu::LmemRegion>(r)))
      return false;
  return true;
}

void npu_to_npuhw::placeFromTop(Block::iterator begin, Block::iterator end) {
  for (Operation &op : llvm::make_range(begin, end))
    if (auto alloc = dyn_cast<npuhw::AllocOp>(&op))
      alloc.setFromTop(true);
}
