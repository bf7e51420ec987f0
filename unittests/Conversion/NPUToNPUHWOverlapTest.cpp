//===- NPUToNPUHWOverlapTest.cpp - consecutive ops of one stream overlap --===//
//
// A mobilenet-like chain of int8 layers (1x1 conv, 3x3 depthwise, 1x1 conv,
// strided depthwise, an add of two intermediates) in several bands per op,
// compiled with overlapping ops (the default) and with overlap-ops=false.
// The two streams must give the same bytes (the serial one is the
// reference-checked lowering of every op), neither may race, and the
// overlapped one must be faster. Then the overlapped stream with one DRAM
// dependency removed before semaphore assignment (the first load of the
// second op waits for nothing): the race checker reports it, so the
// dependencies the driver adds per byte range are what orders the ops.
//
//===----------------------------------------------------------------------===//

#include "unittests/Conversion/NPULoweringHarness.h"

#include "dialects/NPUHW/Transforms/Passes.h"
#include "conversions/Passes.h"

#include <random>
#include <sstream>

namespace kiln {
namespace {

using Bytes = std::vector<uint8_t>;
using testing::hexBytes;

class NPUToNPUHWOverlapTest : public testing::NPULoweringTest {
protected:
  /// The chain as MLIR text on \p target, weights from \p rng.
  std::string chain(std::mt19937 &rng, const std::string &target) {
    auto bytes = [&](int n) {
      Bytes b(n);
      for (uint8_t &v : b)
        v = uint8_t(std::uniform_int_distribution<int>(0, 255)(rng));
      return hexBytes(b);
    };
    const std::string q = "!quant.uniform<i8:f32, 5.0e-02:3>",
                      wq = "!quant.uniform<i8:f32, 4.0e-03>";
    auto t = [&](int h, int c) {
      return "tensor<1x" + std::to_string(h) + "x" + std::to_string(h) +
             "x" + std::to_string(c) + "x" + q + ">";
    };
    std::ostringstream m;
    int n = 0;
    auto layer = [&](const std::string &in, int h, int ci, int co, int k,
                     int s, bool dw) {
      int oh = (h + s - 1) / s, p = (k - 1) / 2;
      int pb = s == 1 ? p : std::max(0, (oh - 1) * s + k - h - p);
      std::string ws = std::to_string(k) + "x" + std::to_string(k) + "x" +
                       (dw ? std::to_string(co) + "x1"
                           : std::to_string(ci) + "x" + std::to_string(co));
      std::string id = std::to_string(n++);
      m << "    %wi" << id << " = arith.constant dense<\""
        << bytes(k * k * co * (dw ? 1 : ci)) << "\"> : tensor<" << ws
        << "xi8>\n    %w" << id << " = quant.scast %wi" << id
        << " : tensor<" << ws << "xi8> to tensor<" << ws << "x" << wq
        << ">\n    %b" << id << " = arith.constant dense<" << 37 * n - 90
        << "> : tensor<" << co << "xi32>\n    %y" << id << " = "
        << (dw ? "npu.depthwise_conv2d" : "npu.conv2d") << " %" << in
        << ", %w" << id << ", %b" << id << " {stride = array<i64: " << s
        << ", " << s << ">, dilation = array<i64: 1, 1>, pad = array<i64: "
        << p << ", " << pb << ", " << p << ", " << pb
        << ">, clamp_min = 3 : i64} : (" << t(h, ci) << ", tensor<" << ws
        << "x" << wq << ">, tensor<" << co << "xi32>) -> " << t(oh, co)
        << "\n";
      return "y" + id;
    };
    std::string y = layer("x", 24, 24, 32, 1, 1, false);
    std::string d = layer(y, 24, 32, 32, 3, 1, true);
    std::string z = layer(d, 24, 32, 32, 1, 1, false);
    m << "    %s = npu.add %" << z << ", %" << y << " : (" << t(24, 32)
      << ", " << t(24, 32) << ") -> " << t(24, 32) << "\n";
    std::string o = layer("s", 24, 32, 48, 3, 2, false);
    std::ostringstream module;
    module << "module attributes {npu.target = #npu.target<" << target
           << ">} {\n  func.func @chain(%x: " << t(24, 24) << ") -> "
           << t(12, 48) << " {\n"
           << m.str() << "    return %" << o << " : " << t(12, 48)
           << "\n  }\n}\n";
    return module.str();
  }
};

TEST_F(NPUToNPUHWOverlapTest, SameBytesAsSerialAndFaster) {
  std::mt19937 rng(7);
  for (const char *target :
       {"\"realistic\"", "\"default\", {\"lmem.act_kib\" = 48 : i64}"}) {
    std::string text = chain(rng, target);
    Bytes x(24 * 24 * 24);
    for (uint8_t &b : x)
      b = uint8_t(rng());
    NPUToNPUHWPipelineOptions serial, overlap;
    serial.overlapOps = false;
    serial.maxRowsPerBand = overlap.maxRowsPerBand = 5;
    npu::Program a, b;
    ASSERT_EQ(compile(text, a, serial), "");
    ASSERT_EQ(compile(text, b, overlap), "");
    Bytes ya, yb;
    uint64_t ca = 0, cb = 0;
    size_t ra = 0, rb = 0;
    simulate(std::move(a), x, ya, ca, ra);
    simulate(std::move(b), x, yb, cb, rb);
    EXPECT_EQ(ra, 0u);
    EXPECT_EQ(rb, 0u);
    EXPECT_EQ(ya, yb) << target;
    EXPECT_LT(cb, ca) << target;
  }
}

TEST_F(NPUToNPUHWOverlapTest, MissingDramDependencyRaces) {
  std::mt19937 rng(11);
  std::string text = chain(rng, "\"realistic\"");
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
  ASSERT_TRUE(module);
  ConvertNPUToNPUHWPassOptions options;
  options.maxRowsPerBand = 5;
  mlir::PassManager convert(&ctx);
  convert.addPass(createConvertNPUToNPUHWPass(options));
  ASSERT_TRUE(succeeded(convert.run(*module)));
  npuhw::StreamOp stream = *module->getOps<npuhw::StreamOp>().begin();
  // The first load from the scratch region: the depthwise layer's first
  // band, which reads what the first layer stored. Its only dependency is
  // that store (the op two back does not exist).
  npuhw::DmaLoadOp first;
  stream.walk([&](npuhw::DmaLoadOp load) {
    auto space = llvm::dyn_cast_or_null<npuhw::DramSpaceAttr>(
        llvm::cast<mlir::MemRefType>(load.getSrc().getType())
            .getMemorySpace());
    if (!first && space && space.getRegion() == 1)
      first = load;
  });
  ASSERT_TRUE(first);
  ASSERT_EQ(first.getDeps().size(), 1u);
  ASSERT_TRUE(llvm::isa<npuhw::DmaStoreOp>(first.getDeps()[0].getDefiningOp()));

  auto finish = [&](mlir::ModuleOp m, size_t &races) {
    mlir::PassManager pm(&ctx);
    mlir::OpPassManager &s = pm.nest<npuhw::StreamOp>();
    s.addPass(npuhw::createNPUHWAllocateLmemPass());
    s.addPass(npuhw::createNPUHWAssignSemaphoresPass());
    ASSERT_TRUE(succeeded(pm.run(m)));
    mlir::FailureOr<npu::Program> program =
        npuhw::exportStream(*m.getOps<npuhw::StreamOp>().begin());
    ASSERT_TRUE(succeeded(program));
    Bytes x(24 * 24 * 24, 1), y;
    uint64_t cycles = 0;
    simulate(std::move(*program), x, y, cycles, races);
  };
  mlir::OwningOpRef<mlir::ModuleOp> intact(module->clone());
  size_t races = 0;
  finish(*intact, races);
  EXPECT_EQ(races, 0u);
  first.getDepsMutable().clear();
  finish(*module, races);
  EXPECT_GT(races, 0u);
}

} // namespace
} // namespace kiln
