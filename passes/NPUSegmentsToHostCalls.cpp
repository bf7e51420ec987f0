//===- NPUSegmentsToHostCalls.cpp - NPU segments as runtime calls -*- C++ -*-===//
//
// kiln-npu-segments-to-host-calls: each outlined NPU segment is lowered to
// an npuhw stream in a scratch module and serialized; its bytes become a
// constant global of the host module and its body a call to kiln_npu_run
// (runtime/npu/HostCall.h) on the buffers of its arguments and results.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/Pipelines.h"

#include "dialects/NPU/IR/NPUDialect.h"
#include "dialects/NPUHW/IR/NPUHWOps.h"
#include "target/npu/NPUTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln {
#define GEN_PASS_DEF_KILNNPUSEGMENTSTOHOSTCALLSPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// The runtime entry the segments call.
constexpr llvm::StringLiteral kRunFunction = "kiln_npu_run";

/// The compiled stream of one segment, and its IO declarations in order.
struct Stream {
  std::vector<uint8_t> bytes;
  std::vector<kiln::npu::IoDecl> inputs, outputs;
};

struct KilnNPUSegmentsToHostCallsPass final
    : kiln::impl::KilnNPUSegmentsToHostCallsPassBase<
          KilnNPUSegmentsToHostCallsPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  FailureOr<Stream> compile(func::FuncOp segment);
  LogicalResult checkInterface(func::FuncOp segment, const Stream &stream);
  void rewriteBody(func::FuncOp segment, const Stream &stream,
                   SymbolTable &symbols, func::FuncOp runtime);
};

/// True for an outlined segment that still has npu ops in its body.
bool isSegment(func::FuncOp func) {
  if (func.isDeclaration() || !func->hasAttr("kiln.npu_nodes"))
    return false;
  return func
      .walk([](Operation *op) {
        return isa<kiln::npu::NPUDialect>(op->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Bytes of a static tensor of `type`, or nothing for other types.
std::optional<int64_t> bytesOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !tensor.getElementType().isIntOrFloat())
    return std::nullopt;
  int64_t bits = tensor.getElementTypeBitWidth();
  if (bits % 8)
    return std::nullopt;
  return tensor.getNumElements() * (bits / 8);
}

//===----------------------------------------------------------------------===//
// Compiling a segment
//===----------------------------------------------------------------------===//

FailureOr<Stream> KilnNPUSegmentsToHostCallsPass::compile(func::FuncOp segment) {
  MLIRContext *context = &getContext();
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(segment.getLoc());
  OpBuilder builder = OpBuilder::atBlockBegin(scratch->getBody());
  auto clone = cast<func::FuncOp>(builder.clone(*segment));
  clone.setPublic();

  PassManager pm(context);
  kiln::buildNPUToNPUHWPipeline(pm, kiln::NPUToNPUHWPipelineOptions());
  if (failed(pm.run(*scratch)))
    return segment.emitOpError()
           << "cannot be lowered to an NPU command stream (the lowering's "
              "diagnostics say why)";
  auto streams = scratch->getOps<kiln::npuhw::StreamOp>();
  if (!llvm::hasSingleElement(streams))
    return segment.emitOpError()
           << "was lowered to " << llvm::range_size(streams)
           << " command streams; expected one";
  FailureOr<kiln::npu::Program> program =
      kiln::npuhw::exportStream(*streams.begin());
  if (failed(program))
    return segment.emitOpError() << "cannot be serialized to .npub";

  Stream stream;
  stream.bytes = kiln::npu::writeProgram(*program);
  for (const kiln::npu::IoDecl &io : program->io)
    (io.isOutput ? stream.outputs : stream.inputs).push_back(io);
  return stream;
}

/// Checks that the stream's IO declarations bind to the segment's arguments
/// and results, in order and byte for byte.
LogicalResult
KilnNPUSegmentsToHostCallsPass::checkInterface(func::FuncOp segment,
                                               const Stream &stream) {
  FunctionType type = segment.getFunctionType();
  auto check = [&](TypeRange types, const std::vector<kiln::npu::IoDecl> &ios,
                   StringRef kind) -> LogicalResult {
    if (types.size() != ios.size())
      return segment.emitOpError()
             << "has " << types.size() << " " << kind
             << "s but its command stream declares " << ios.size();
    for (auto [i, pair] : llvm::enumerate(llvm::zip(types, ios))) {
      auto [t, io] = pair;
      std::optional<int64_t> bytes = bytesOf(t);
      if (!bytes)
        return segment.emitOpError()
               << kind << " " << i << " has type " << t
               << "; NPU segments take statically shaped tensors";
      if (static_cast<uint64_t>(*bytes) != io.byteSize())
        return segment.emitOpError()
               << kind << " " << i << " (" << t << ") has " << *bytes
               << " bytes but its command stream's '" << io.name
               << "' has " << io.byteSize();
    }
    return success();
  };
  return failure(failed(check(type.getInputs(), stream.inputs, "argument")) ||
                 failed(check(type.getResults(), stream.outputs, "result")));
}

//===----------------------------------------------------------------------===//
// The host side
//===----------------------------------------------------------------------===//

/// A private constant i8 global holding `bytes`, 64-byte aligned.
memref::GlobalOp createByteGlobal(OpBuilder &builder, Location loc,
                                  SymbolTable &symbols, StringRef name,
                                  ArrayRef<char> bytes) {
  auto i8 = builder.getI8Type();
  auto tensorType = RankedTensorType::get(
      {static_cast<int64_t>(bytes.size())}, i8);
  auto memrefType =
      MemRefType::get({static_cast<int64_t>(bytes.size())}, i8);
  auto global = memref::GlobalOp::create(
      builder, loc, name, builder.getStringAttr("private"), memrefType,
      DenseElementsAttr::getFromRawBuffer(tensorType, bytes),
      /*constant=*/true, builder.getI64IntegerAttr(64));
  symbols.insert(global);
  return global;
}

/// The address of `memref`'s data as an !llvm.ptr (identity layout: the
/// aligned pointer is the first element).
Value addressOf(OpBuilder &b, Location loc, Value memref) {
  Value index = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(
                                              b.getContext()),
                                  i64);
}

/// A stack array of {data, bytes} pairs (KilnNpuBuffer) for `buffers`.
Value bufferArray(OpBuilder &b, Location loc, ArrayRef<Value> buffers,
                  ArrayRef<int64_t> bytes) {
  auto i64 = b.getI64Type();
  int64_t count = std::max<int64_t>(1, 2 * buffers.size());
  Value array = memref::AllocaOp::create(b, loc, MemRefType::get({count}, i64));
  for (auto [i, buffer] : llvm::enumerate(buffers)) {
    Value index = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    Value address = arith::IndexCastOp::create(b, loc, i64, index);
    Value at = arith::ConstantIndexOp::create(b, loc, 2 * i);
    memref::StoreOp::create(b, loc, address, array, at);
    Value size = arith::ConstantIntOp::create(b, loc, i64, bytes[i]);
    Value next = arith::ConstantIndexOp::create(b, loc, 2 * i + 1);
    memref::StoreOp::create(b, loc, size, array, next);
  }
  return addressOf(b, loc, array);
}

void KilnNPUSegmentsToHostCallsPass::rewriteBody(func::FuncOp segment,
                                                 const Stream &stream,
                                                 SymbolTable &symbols,
                                                 func::FuncOp runtime) {
  MLIRContext *context = &getContext();
  Location loc = segment.getLoc();
  OpBuilder builder(segment);
  std::string name = segment.getSymName().str();
  ArrayRef<char> npub(reinterpret_cast<const char *>(stream.bytes.data()),
                      stream.bytes.size());
  memref::GlobalOp npubGlobal =
      createByteGlobal(builder, loc, symbols, name + "_npub", npub);
  std::string text = name + '\0';
  memref::GlobalOp nameGlobal = createByteGlobal(
      builder, loc, symbols, name + "_name", ArrayRef<char>(text.data(), text.size()));

  // The new body: the old one's blocks are dropped.
  segment.getBody().dropAllReferences();
  segment.getBody().getBlocks().clear();
  Block *entry = segment.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  auto i64 = b.getI64Type();

  SmallVector<Value> inputs, outputs;
  SmallVector<int64_t> inputBytes, outputBytes;
  for (BlockArgument arg : entry->getArguments()) {
    auto tensor = cast<RankedTensorType>(arg.getType());
    auto memref = MemRefType::get(tensor.getShape(), tensor.getElementType());
    inputs.push_back(bufferization::ToBufferOp::create(b, loc, memref, arg,
                                                       /*read_only=*/true));
    inputBytes.push_back(*bytesOf(tensor));
  }
  for (Type type : segment.getResultTypes()) {
    auto tensor = cast<RankedTensorType>(type);
    auto memref = MemRefType::get(tensor.getShape(), tensor.getElementType());
    outputs.push_back(
        memref::AllocOp::create(b, loc, memref, b.getI64IntegerAttr(64)));
    outputBytes.push_back(*bytesOf(tensor));
  }

  Value nameAddress = addressOf(
      b, loc,
      memref::GetGlobalOp::create(b, loc, nameGlobal.getType(),
                                  nameGlobal.getSymName()));
  Value npubAddress = addressOf(
      b, loc,
      memref::GetGlobalOp::create(b, loc, npubGlobal.getType(),
                                  npubGlobal.getSymName()));
  Value npubSize = arith::ConstantIntOp::create(
      b, loc, i64, static_cast<int64_t>(stream.bytes.size()));
  Value inputArray = bufferArray(b, loc, inputs, inputBytes);
  Value numInputs = arith::ConstantIntOp::create(b, loc, i64, inputs.size());
  Value outputArray = bufferArray(b, loc, outputs, outputBytes);
  Value numOutputs = arith::ConstantIntOp::create(b, loc, i64, outputs.size());
  func::CallOp::create(b, loc, runtime,
                       ValueRange{nameAddress, npubAddress, npubSize,
                                  inputArray, numInputs, outputArray,
                                  numOutputs});

  SmallVector<Value> results;
  for (auto [type, buffer] : llvm::zip(segment.getResultTypes(), outputs))
    results.push_back(bufferization::ToTensorOp::create(
        b, loc, type, buffer, /*restrict=*/true, /*writable=*/true));
  func::ReturnOp::create(b, loc, results);

  segment->removeAttr("npu.target");
  segment->setAttr("kiln.npu_stream",
                   FlatSymbolRefAttr::get(context, npubGlobal.getSymName()));
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

void KilnNPUSegmentsToHostCallsPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<func::FuncOp> segments;
  for (auto func : module.getOps<func::FuncOp>())
    if (isSegment(func))
      segments.push_back(func);
  if (segments.empty())
    return;

  if (!npubDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(npubDir)) {
      module.emitError() << "cannot create npub-dir '" << npubDir
                         << "': " << ec.message();
      return signalPassFailure();
    }

  SymbolTable symbols(module);
  MLIRContext *context = &getContext();
  auto runtime = symbols.lookup<func::FuncOp>(kRunFunction);
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64 = IntegerType::get(context, 64);
  auto i32 = IntegerType::get(context, 32);
  auto runtimeType = FunctionType::get(
      context, {ptr, ptr, i64, ptr, i64, ptr, i64}, {i32});
  if (runtime && runtime.getFunctionType() != runtimeType) {
    runtime.emitOpError() << "has type " << runtime.getFunctionType()
                          << "; the NPU runtime entry has type "
                          << runtimeType;
    return signalPassFailure();
  }
  if (!runtime) {
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    runtime = func::FuncOp::create(builder, module.getLoc(), kRunFunction,
                                   runtimeType);
    runtime.setPrivate();
    symbols.insert(runtime);
  }

  bool failedAny = false;
  for (func::FuncOp segment : segments) {
    FailureOr<Stream> stream = compile(segment);
    if (failed(stream) || failed(checkInterface(segment, *stream))) {
      failedAny = true;
      continue;
    }
    if (!npubDir.empty()) {
      llvm::SmallString<256> path(npubDir);
      llvm::sys::path::append(path, segment.getSymName() + ".npub");
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec);
      if (ec) {
        segment.emitOpError() << "cannot write '" << path
                              << "': " << ec.message();
        failedAny = true;
        continue;
      }
      os.write(reinterpret_cast<const char *>(stream->bytes.data()),
               stream->bytes.size());
    }
    numStreamBytes += stream->bytes.size();
    ++numSegments;
    rewriteBody(segment, *stream, symbols, runtime);
  }
  if (failedAny)
    signalPassFailure();
}

} // namespace
