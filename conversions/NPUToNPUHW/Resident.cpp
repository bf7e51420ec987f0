//===- Resident.cpp - intermediates kept in LMEM between two ops ----------===//
//
// The rewrite of the pseudo region kResidentRegion into ACT buffers.
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/Resident.h"

#include "conversions/NPUToNPUHW/Lowering.h"
#include "conversions/NPUToNPUHW/LoweringUtils.h"

#include "dialects/NPUHW/IR/NPUHWDialect.h"
#include "dialects/NPUHW/IR/NPUHWOps.h"
#include "dialects/NPU/IR/NPUCost.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::npu_to_npuhw;

namespace {
/// Alignment of LMEM addresses and LMEM-side DMA strides (docs/npu-isa.md
/// §3).
constexpr int64_t kAlign = 16;

int64_t field(Operation *op, StringRef name) {
  auto attr = op->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : 0;
}

/// True if the three strides `<prefix>0..2` of \p op are multiples of 16.
bool stridesAligned(Operation *op, StringRef prefix) {
  for (int i = 0; i < 3; ++i)
    if (field(op, (Twine(prefix) + Twine(i)).str()) % kAlign)
      return false;
  return true;
}

/// A view of the pseudo region: the view op, its tensor and its byte offset
/// within the tensor.
struct ResidentView {
  npuhw::ViewOp view;
  unsigned tensor;
  int64_t offset, bytes;
};
} // namespace

bool npu_to_npuhw::onlyReadByNext(Value value, unsigned producer,
                                  ArrayRef<Operation *> ops,
                                  Operation *terminator) {
  if (producer + 1 >= ops.size())
    return false;
  for (Value result : terminator->getOperands())
    if (stripCasts(result) == value)
      return false;
  // Readers through quant.scast count as readers of the value.
  SmallVector<Value> work = {value};
  bool read = false;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user->getName().getStringRef() == "quant.scast") {
        work.push_back(user->getResult(0));
        continue;
      }
      if (user != ops[producer + 1])
        return false;
      read = true;
    }
  }
  return read;
}

std::optional<unsigned>
npu_to_npuhw::makeResident(Block &block, ArrayRef<ResidentTensor> tensors,
                           DenseMap<Value, Value> &replaced) {
  // Collect and check every view of the pseudo region first: a tensor that
  // cannot stay in LMEM leaves the block untouched.
  SmallVector<ResidentView> views;
  for (auto view : block.getOps<npuhw::ViewOp>()) {
    auto type = cast<MemRefType>(view.getType());
    auto space = dyn_cast_or_null<npuhw::DramSpaceAttr>(type.getMemorySpace());
    if (!space || space.getRegion() != kResidentRegion)
      continue;
    SmallVector<int64_t> strides;
    int64_t offset = 0;
    (void)type.getStridesAndOffset(strides, offset);
    int64_t bytes = type.getNumElements();
    std::optional<unsigned> owner;
    for (auto [i, t] : llvm::enumerate(tensors))
      if (offset >= static_cast<int64_t>(t.offset) &&
          offset < static_cast<int64_t>(t.offset + t.bytes))
        owner = i;
    if (!owner)
      return 0; // Not a view the driver made: give up on the first tensor.
    const ResidentTensor &t = tensors[*owner];
    int64_t within = offset - static_cast<int64_t>(t.offset);
    if (within % kAlign || within + bytes > static_cast<int64_t>(t.bytes))
      return *owner;
    for (OpOperand &use : view->getUses()) {
      Operation *user = use.getOwner();
      if (auto load = dyn_cast<npuhw::DmaLoadOp>(user)) {
        if (use.get() != load.getSrc() || !stridesAligned(user, "src_s"))
          return *owner;
      } else if (auto store = dyn_cast<npuhw::DmaStoreOp>(user)) {
        auto src = cast<npuhw::LmemRegionAttr>(
            cast<MemRefType>(store.getSrc().getType()).getMemorySpace());
        if (src.getValue() != npuhw::LmemRegion::act ||
            !stridesAligned(user, "dst_s"))
          return *owner;
      } else {
        return *owner;
      }
    }
    views.push_back({view, *owner, within, bytes});
  }

  // One ACT buffer per tensor, before its first view.
  SmallVector<Value> buffers(tensors.size());
  for (ResidentView &v : views) {
    OpBuilder b(v.view);
    CommandEmitter e(b, v.view.getLoc());
    if (!buffers[v.tensor])
      buffers[v.tensor] =
          e.alloc({static_cast<int64_t>(tensors[v.tensor].bytes)}, e.i8,
                   npuhw::LmemRegion::act);
    Value slice = e.slice(buffers[v.tensor], {v.offset}, {v.bytes});
    SmallVector<npuhw::DmaStoreOp> stores;
    for (Operation *user : v.view->getUsers())
      if (auto store = dyn_cast<npuhw::DmaStoreOp>(user))
        stores.push_back(store);
    v.view.getResult().replaceAllUsesWith(slice);
    // A store into the tensor becomes an LMEM-to-LMEM load with the same
    // runs and strides.
    for (npuhw::DmaStoreOp store : stores) {
      OpBuilder sb(store);
      OperationState state(store.getLoc(), "npuhw.dma_load");
      state.addOperands({store.getSrc(), store.getDst()});
      state.addOperands(store.getDeps());
      state.addAttributes(store->getAttrs());
      state.addAttribute("dst_run",
                         sb.getI64IntegerAttr(field(store, "src_run")));
      state.addTypes(store.getToken().getType());
      Operation *load = sb.create(state);
      // DMA_IN runs in order: behind this copy, which waits for its band's
      // VEC, every later DMA_IN command would wait too (the next band's
      // input, the next op's weights). It moves down to just before the
      // first command that uses its token, or the next store into a
      // resident tensor: the copies keep their order, on which the loads'
      // read-after-write tokens rely (a load waits only for the latest
      // copy of the bytes it reads, as DramHazards orders DRAM stores).
      Operation *first = nullptr;
      for (Operation *next = store->getNextNode(); next && !first;
           next = next->getNextNode()) {
        auto other = dyn_cast<npuhw::DmaStoreOp>(next);
        auto space =
            other ? dyn_cast_or_null<npuhw::DramSpaceAttr>(
                        cast<MemRefType>(other.getDst().getType())
                            .getMemorySpace())
                  : npuhw::DramSpaceAttr();
        if (llvm::is_contained(next->getOperands(), store.getToken()) ||
            (space && space.getRegion() == kResidentRegion))
          first = next;
      }
      if (first)
        load->moveBefore(first);
      else
        load->moveBefore(&block, block.end());
      store.getToken().replaceAllUsesWith(load->getResult(0));
      replaced[store.getToken()] = load->getResult(0);
      store.erase();
    }
    v.view.erase();
  }
  return std::nullopt;
}

void npu_to_npuhw::recordResident(Operation *stream,
                                  ArrayRef<ResidentTensor> tensors,
                                  ArrayRef<Operation *> ops) {
  if (tensors.empty())
    return;
  Builder b(stream->getContext());
  auto layer = [&](Operation *op) -> Attribute {
    return NameLoc::get(op->getName().getIdentifier(), op->getLoc());
  };
  SmallVector<Attribute> records;
  for (const ResidentTensor &t : tensors)
    records.push_back(b.getDictionaryAttr(
        {b.getNamedAttr("bytes",
                        b.getI64IntegerAttr(static_cast<int64_t>(t.bytes))),
         b.getNamedAttr("producer", layer(ops[t.producer])),
         b.getNamedAttr("consumer", layer(ops[t.producer + 1]))}));
  stream->setAttr(npu::kResidentTensorsAttrName, b.getArrayAttr(records));
}
