//===- NPUVerifyUtils.h - shared checks of the npu verifiers ----*- C++ -*-===//
//
// Element-type classification, window arithmetic, and the hardware-limit
// checks (field widths, clamp ranges, multipliers, LMEM fit) that the npu
// op verifiers share. Internal to the dialect library.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_IR_NPUVERIFYUTILS_H
#define KILN_DIALECTS_NPU_IR_NPUVERIFYUTILS_H

#include "runtime/npu/Config.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <string>

namespace kiln::npu::detail {

/// The per-tensor int8 quantised type of \p type (a tensor's element type or
/// the element type itself), or null.
mlir::quant::UniformQuantizedType getQI8(mlir::Type type);
/// Whether \p type (or its element type) is f16.
bool isF16(mlir::Type type);
/// Whether \p type (or its element type) is a signless integer of \p width.
bool isInt(mlir::Type type, unsigned width);
/// Bytes of one element of \p type (a tensor or an element type).
uint64_t elementBytes(mlir::Type type);
/// Bytes of a static tensor \p type.
uint64_t tensorBytes(mlir::Type type);

/// Checks that \p value of the window field \p field (8 bits) lies in
/// [minimum, 255]; \p what names the value ("kernel height").
mlir::LogicalResult checkField8(mlir::Operation *op, llvm::StringRef what,
                                llvm::StringRef field, int64_t value,
                                int64_t minimum);

/// Window parameters of a convolution or pooling in the H and W dimensions:
/// kernel {kh, kw}, stride {sy, sx}, dilation {dy, dx}, pad {pt, pb, pl, pr}.
struct Window {
  int64_t kernel[2];
  int64_t stride[2];
  int64_t dilation[2];
  int64_t pad[4];
};

/// Checks the attribute lengths and the 8-bit fields of \p window.
mlir::LogicalResult checkWindowFields(mlir::Operation *op,
                                      const Window &window);
/// Checks that \p output (N, OH, OW, C) is what the window makes of
/// \p input in H and W.
mlir::LogicalResult checkWindowShape(mlir::Operation *op, const Window &window,
                                     llvm::ArrayRef<int64_t> input,
                                     llvm::ArrayRef<int64_t> output);

/// Reads an array attribute of \p expected values into \p out, or explains
/// what is wrong with it.
mlir::LogicalResult readArray(mlir::Operation *op, llvm::StringRef name,
                              llvm::ArrayRef<int64_t> values, size_t expected,
                              int64_t *out);

/// Checks that the zero point of \p operand's int8 type \p type lies in
/// [−128, 127], the range of the command field \p field that takes it
/// (the quant dialect accepts any zero point).
mlir::LogicalResult checkZeroPoint(mlir::Operation *op, llvm::StringRef operand,
                                   mlir::quant::UniformQuantizedType type,
                                   llvm::StringRef field);

/// Checks optional int8 clamp bounds (stored values): both in [−128, 127],
/// min ≤ max. A bound that is not an integer is an error.
mlir::LogicalResult checkClampI8(mlir::Operation *op, mlir::Attribute min,
                                 mlir::Attribute max);
/// Checks optional fp16 clamp bounds: float attributes with min ≤ max.
mlir::LogicalResult checkClampF16(mlir::Operation *op, mlir::Attribute min,
                                  mlir::Attribute max);

/// Checks that \p real (named by \p what) is representable by
/// apply_scale_32 (VEC_REQUANT, RESCALE): shift in [2, 62].
mlir::LogicalResult checkRequantMultiplier(mlir::Operation *op, double real,
                                           const llvm::Twine &what);
/// Checks that \p real (named by \p what) is representable by VEC_ELTWISE's
/// MBQM: shift in [−31, 30].
mlir::LogicalResult checkEltwiseMultiplier(mlir::Operation *op, double real,
                                           const llvm::Twine &what);

/// Checks a weight element type for int8: per-tensor with zero point 0, or
/// per-axis along \p axis with \p channels scales and zero points 0. Returns
/// the scale of each of the \p channels channels in \p scales.
mlir::LogicalResult checkWeightQuant(mlir::Operation *op, mlir::Type weight,
                                     int32_t axis, int64_t channels,
                                     llvm::SmallVectorImpl<double> &scales);

/// Checks that \p bytes (what \p what needs) fit the target's \p region.
mlir::LogicalResult checkLmem(mlir::Operation *op, const TargetConfig &config,
                              LmemRegion region, uint64_t bytes,
                              const llvm::Twine &what);

/// \p value printed with %g (diagnostics print doubles with %e).
std::string realString(double value);

/// 16-lane channel blocks of \p channels.
inline uint64_t channelBlocks(int64_t channels) {
  return (static_cast<uint64_t>(channels) + 15) / 16;
}

} // namespace kiln::npu::detail

#endif // KILN_DIALECTS_NPU_IR_NPUVERIFYUTILS_H
