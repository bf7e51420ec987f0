//===- Weights.h - TF.js weight manifests and shards ------------*- C++ -*-===//
//
// How TF.js stores weights (tfjs-core's io/io_utils.ts decodeWeights): each
// group of `weightsManifest` is one byte stream, its shards concatenated in
// `paths` order; each weight takes the next `product(shape)` values of its
// stored type (float32, int32, bool, complex64, or a `quantization` dtype:
// uint8 and uint16 decode as `q * scale + min`, float16 as IEEE halves), or,
// for strings, a little-endian uint32 length and the bytes per value.
// Weights decode to the element type of the Const they fill, which may be
// wider than TF.js's (the converter stores int64 as int32 and double as
// float32).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSLATE_TFJS_WEIGHTS_H
#define KILN_TRANSLATE_TFJS_WEIGHTS_H

#include "translate/graphdef/ConvertTypes.h"
#include "translate/tfjs/tfjs_model.pb.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::tfjs {

/// How a weight's values are stored in its shards.
struct WeightEncoding {
  enum class Kind { Float32, Int32, Bool, Complex64, String };
  enum class Quant { None, UInt8, UInt16, Float16 };
  Kind kind = Kind::Float32;
  Quant quant = Quant::None;
  double scale = 1.0, min = 0.0;
  /// Bytes per stored value; 0 for strings (variable length).
  unsigned bytesPerValue = 4;
  /// The number of values: the product of the shape.
  int64_t count = 0;
  /// Bytes the weight takes in its group's stream (strings: unknown).
  std::optional<uint64_t> size() const {
    if (kind == Kind::String)
      return std::nullopt;
    return static_cast<uint64_t>(count) * bytesPerValue;
  }
};

/// Checks `weight`'s dtype, quantization and shape, and that its values can
/// fill a Const of `target` type; errors name the weight.
mlir::FailureOr<WeightEncoding> getWeightEncoding(const WeightEntry &weight,
                                                  tensorflow::DataType target,
                                                  graphdef::ErrorFn emitError);

/// Decodes a weight of fixed-size values from `bytes` (exactly
/// `encoding.size()` of them) as an attribute of `type`.
mlir::FailureOr<mlir::ElementsAttr> decodeWeight(const WeightEncoding &encoding,
                                                 llvm::ArrayRef<char> bytes,
                                                 mlir::ShapedType type,
                                                 graphdef::ErrorFn emitError);

/// One group's byte stream: its shards, opened one at a time and released
/// once read past, so that only the shard being read stays in memory.
class ShardStream {
public:
  /// `paths` are relative to `dir`.
  ShardStream(llvm::StringRef dir, llvm::ArrayRef<std::string> paths);

  /// The next `size` bytes: a view into the current shard, or into a scratch
  /// buffer when they span shards. The view lives until the next call. On
  /// failure, `error` says why (a shard cannot be read, or the stream ends).
  std::optional<llvm::ArrayRef<char>> read(uint64_t size, std::string &error);

  /// The stream position.
  uint64_t offset() const { return position; }

private:
  bool openNext(std::string &error);

  std::string dir;
  llvm::ArrayRef<std::string> paths;
  int next = 0; // the next shard to open
  std::unique_ptr<llvm::MemoryBuffer> shard;
  uint64_t inShard = 0; // position in `shard`
  uint64_t position = 0;
  std::vector<char> scratch;
};

/// The full path of a shard.
std::string shardPath(llvm::StringRef dir, llvm::StringRef path);

} // namespace kiln::tfjs

#endif // KILN_TRANSLATE_TFJS_WEIGHTS_H
