//===- LoweringUtils.h - helpers shared by the layer lowerings --*- C++ -*-===//
//
// What the emitters of convert-npu-to-npuhw have in common: the input rows
// an output-row band reads (the halo, and the padding rows at the image
// border; convolution and pooling), and the one builder of allocs, DRAM
// views, subviews and token-linked command ops that every emitter (conv,
// pool, element-wise, unary) uses. Internal to convert-npu-to-npuhw.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_NPUTONPUHW_LOWERINGUTILS_H
#define KILN_CONVERSIONS_NPUTONPUHW_LOWERINGUTILS_H

#include "dialects/NPUHW/IR/NPUHWOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <utility>

namespace kiln::npu_to_npuhw {

/// The rows of a window along the height: kernel, stride, dilation and the
/// padding above the image.
struct RowWindow {
  int64_t kh = 1, sy = 1, dy = 1, pt = 0;
  /// Input rows one window spans, dilation included.
  int64_t extent() const { return dy * (kh - 1) + 1; }
};

/// The image rows [first, last] that the output rows [y0, y0 + rows) read,
/// clipped to an image of \p h rows, and the padding rows above and below
/// them (what the command's `pt`/`pb` fields supply for this band). A band
/// whose windows lie entirely in the padding has last < first.
struct BandRows {
  int64_t first, last, padTop, padBottom;
  /// Image rows read (0 when the band reads only padding).
  int64_t count() const { return last >= first ? last - first + 1 : 0; }
};
/// The rows of the band of output rows [y0, y0 + rows).
BandRows bandRows(const RowWindow &window, int64_t h, int64_t y0,
                  int64_t rows);

/// The most image rows a band of \p rows output rows reads: its windows and
/// the halo between them, capped at the image height \p h.
int64_t bandInputRows(const RowWindow &window, int64_t h, int64_t rows);

/// Builds LMEM buffers, DRAM views, subviews and command ops at one
/// insertion point, all at one location.
class CommandEmitter {
public:
  /// Emits at \p b's insertion point with location \p loc.
  CommandEmitter(mlir::OpBuilder &b, mlir::Location loc);

  /// An `npuhw.alloc` of \p shape x \p element in LMEM region \p r.
  mlir::Value alloc(llvm::ArrayRef<int64_t> shape, mlir::Type element,
                    npuhw::LmemRegion r);

  /// A flat byte view of \p bytes at byte \p offset of DRAM region
  /// \p region.
  mlir::Value dram(unsigned region, int64_t offset, int64_t bytes);

  /// The unit-stride subview [offsets, offsets + sizes) of \p source, or
  /// \p source itself when that is all of it.
  mlir::Value slice(mlir::Value source, llvm::ArrayRef<int64_t> offsets,
                    llvm::ArrayRef<int64_t> sizes);

  /// One command op \p name: \p operands, then the non-null \p deps (each
  /// once: the `after` tokens of a multi-op function may repeat one); the
  /// nonzero \p fields, the unit attributes \p units and the \p attrs.
  /// \p segments, when not empty, are the operand segment sizes without the
  /// dependencies. Returns the command's token.
  mlir::Value
  command(llvm::StringRef name, llvm::ArrayRef<mlir::Value> operands,
          llvm::ArrayRef<mlir::Value> deps,
          llvm::ArrayRef<std::pair<llvm::StringRef, int64_t>> fields,
          llvm::ArrayRef<llvm::StringRef> units = {},
          llvm::ArrayRef<int32_t> segments = {},
          llvm::ArrayRef<mlir::NamedAttribute> attrs = {});

  /// A contiguous DMA_LOAD of \p bytes from \p src to \p dst.
  mlir::Value loadBytes(mlir::Value src, mlir::Value dst, int64_t bytes,
                        llvm::ArrayRef<mlir::Value> deps);

  /// A VEC_UNARY \p op from \p in to \p out with the nonzero \p fields.
  mlir::Value unary(npuhw::UnaryOp op, mlir::Value in, mlir::Value out,
                    llvm::ArrayRef<mlir::Value> deps,
                    llvm::ArrayRef<std::pair<llvm::StringRef, int64_t>> fields);

  mlir::OpBuilder &b;
  mlir::Location loc;
  mlir::MLIRContext *ctx;
  mlir::Type i8, i32, f16, f32, token;
};

} // namespace kiln::npu_to_npuhw

#endif // KILN_CONVERSIONS_NPUTONPUHW_LOWERINGUTILS_H
