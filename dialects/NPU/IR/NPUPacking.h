//===- NPUPacking.h - small input channels packed into lanes ----*- C++ -*-===//
//
// The plan of a convolution over a few input channels whose kw-wide windows
// are packed into the 16 lanes of the MAC's input blocks (docs/npu-lowering.md,
// "Small input channels"), and the predicted cycles of the packed layer.
// convert-npu-to-npuhw loads and emits by this plan; the cost model
// (NPUCostOpInterface) predicts the packed layer with it, so both agree on
// which layers pack and how their input is loaded.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_IR_NPUPACKING_H
#define KILN_DIALECTS_NPU_IR_NPUPACKING_H

#include "dialects/NPU/IR/NPUCost.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace kiln::npu {

/// One DMA_LOAD per band of a packed input: the window columns
/// [col, col + cols) of output column ox, read from the DRAM input, go to
/// lanes [lane, lane + lanes) of packed pixel ox (the lanes past
/// cols * cin are filled with the pad value).
struct PackPiece {
  int64_t col = 0, cols = 1;
  /// Runs per output column: the first repeat - 1 (the columns before
  /// `col`) are overwritten by the last one (dst_s0 = 0), so that the runs
  /// stay contiguous in DRAM when cols is below the stride.
  int64_t repeat = 1;
  /// The output columns phase, phase + period, ...: period * sx equals
  /// repeat * cols, so consecutive runs are contiguous in DRAM.
  int64_t phase = 0, period = 1;
  int64_t lane = 0, lanes = 16;
  /// How many of those output columns it loads; the rest read only the
  /// padding right of the image and keep the pad value that fills the
  /// buffers once.
  int64_t count = 0;
};

/// The geometry of a convolution along the width, what packing depends on.
struct PackWidth {
  bool depthwise = false;
  int64_t kw = 1, sx = 1, dx = 1, pl = 0;
  int64_t w = 1, ow = 1, cin = 1, elementBytes = 1;
};

/// The pieces that load the packed input of a convolution of \p width, and
/// in \p lanes the lanes of a packed pixel; empty when it cannot pack
/// (depthwise, kw < 2, horizontal dilation, left padding, a piece across
/// the image's right edge) or packing would not cut the weight blocks that
/// face each output pixel.
std::vector<PackPiece> planSmallChannelPieces(const PackWidth &width,
                                              int64_t &lanes);

/// Whether a piece skips output columns (their window columns are all
/// right padding): the input buffers are then filled with the pad value.
bool piecesSkipColumns(llvm::ArrayRef<PackPiece> pieces, int64_t ow);

/// The predicted cycles of \p packed, the kh x 1 convolution of the packed
/// image (w = ow pixels of `lanes` channels), whose input each band loads
/// with one DMA per piece of \p pieces from rows of \p srcW pixels of
/// \p srcC channels, \p srcSx pixels apart per output column; as
/// convScheduleCycles otherwise.
uint64_t packedConvScheduleCycles(const TargetConfig &config,
                                  const ConvShape &packed,
                                  llvm::ArrayRef<PackPiece> pieces,
                                  int64_t srcW, int64_t srcC, int64_t srcSx);

/// The DRAM bytes a partial last output block (cout % 16 lanes) saves when
/// its weights are stored compact and padded back by a second, strided
/// weight load; 0 when that load (its setup and DRAM latency) costs more
/// than the saved transfer, so the block stays whole. \p blockWeights: the
/// bytes of one output block's weights in WGT.
int64_t compactWeightSaving(const TargetConfig &config, int64_t blockWeights,
                            int64_t cout);

} // namespace kiln::npu

#endif // KILN_DIALECTS_NPU_IR_NPUPACKING_H
