//===- Examples.h - Hand-built NPU-v1 example streams -----------*- C++ -*-===//
//
// A double-buffered int8 3x3 convolution stream, built command by command:
// the tests use it for overlap, race and deadlock checks, the benchmark for
// simulator speed, and kiln-npu-sim writes it with --example.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_EXAMPLES_H
#define KILN_RUNTIME_NPU_EXAMPLES_H

#include "runtime/npu/Format.h"
#include "runtime/npu/Packing.h"

#include <cstdint>
#include <vector>

namespace kiln::npu {

/// Shape and tiling of the example convolution.
struct ConvExampleOptions {
  unsigned h = 32, w = 32, cin = 64, cout = 64;
  /// Output rows per tile; h must be a multiple.
  unsigned rowsPerTile = 4;
  /// Two LMEM buffers per stage and semaphores between stages; otherwise
  /// one buffer and a NOP fence after every tile.
  bool doubleBuffer = true;
  uint32_t seed = 1;
  /// The target the stream is built for (its LMEM layout and TARGET
  /// section).
  TargetConfig config;
};

/// The example and the data it was built from.
struct ConvExample {
  Program program;
  std::vector<uint8_t> input;     ///< The contents of r2 ("x", [h][w][cin]).
  std::vector<int8_t> x, weights; ///< weights HWIO [3][3][cin][cout].
  std::vector<ChannelRecord> records;
  int inZp = 0, outZp = 0;
  /// Stream indices of each tile's commands.
  std::vector<size_t> loads, convs, requants, stores;
};

/// Lays out the data of a one-convolution program, as the example builders
/// share it: CONST (r0) holds \p packedWeights padded to 64 bytes, then
/// \p packedRecords; the input "x" ([1][h][w][cin] int8, scale 0.05, zero
/// point \p inZp) is r2 and the output "y" ([1][h][w][cout]) r3. Returns the
/// byte offset of the records in CONST.
uint32_t layoutConvProgram(Program &program,
                           const std::vector<uint8_t> &packedWeights,
                           const std::vector<uint8_t> &packedRecords,
                           unsigned h, unsigned w, unsigned cin, unsigned cout,
                           int inZp, int outZp);

/// Builds the stream: a 3x3, pad 1, stride 1 int8 convolution of "x"
/// (r2) into "y" (r3, [h][w][cout] int8), tiled by output rows, with a
/// per-channel requantisation.
ConvExample buildConvExample(const ConvExampleOptions &options = {});

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_EXAMPLES_H
