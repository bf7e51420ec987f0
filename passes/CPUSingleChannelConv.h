//===- CPUSingleChannelConv.h - one-output-channel convolutions -*- C++ -*-===//
//
// The rewrite kiln-cpu-depthwise applies to convolutions with a single
// output channel before its depthwise convolutions.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_CPUSINGLECHANNELCONV_H
#define KILN_PASSES_CPUSINGLECHANNELCONV_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace kiln {

/// Rewrites every statically shaped f32 `linalg.conv_2d_nhwc_hwcf` of `func`
/// with one output channel and unit dilation (with its elementwise consumer)
/// into loops over output rows and tiles of `tileW` pixels whose
/// accumulators are vectors of `lanes` input channels, summed across lanes
/// once per pixel.
void rewriteSingleChannelConvs(mlir::func::FuncOp func, int64_t lanes,
                               int64_t tileW);

} // namespace kiln

#endif // KILN_PASSES_CPUSINGLECHANNELCONV_H
