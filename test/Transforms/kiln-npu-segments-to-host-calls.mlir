// RUN: kiln-opt %s -split-input-file --kiln-npu-segments-to-host-calls="npub-dir=%t" | FileCheck %s
// RUN: kiln-npu-sim %t/npu_conv.npub | FileCheck %s --check-prefix=SIM

// A segment (kiln.npu_nodes, npu ops) becomes a call of kiln_npu_run on its
// buffers: the .npub is a 64-byte aligned constant global, the name a
// NUL-terminated one; the CPU function and its call are unchanged.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: call @npu_conv(%{{.+}}) : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x32xf32>
// CHECK-DAG: memref.global "private" constant @npu_conv_npub : memref<[[$SIZE:[0-9]+]]xi8> = dense<"0x4E505542{{[0-9A-F]+}}"> {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" constant @npu_conv_name : memref<9xi8> = dense<[110, 112, 117, 95, 99, 111, 110, 118, 0]> {alignment = 64 : i64}
// CHECK-LABEL: func.func private @npu_conv
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x8x8x16xf32>) -> tensor<1x8x8x32xf32>
// CHECK-SAME: attributes {kiln.npu_nodes = ["conv", "bias", "relu"], kiln.npu_stream = @npu_conv_npub}
// CHECK-NOT: npu.
// CHECK: %[[IN:.+]] = bufferization.to_buffer %[[ARG]] read_only : tensor<1x8x8x16xf32> to memref<1x8x8x16xf32>
// CHECK: %[[OUT:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1x8x8x32xf32>
// CHECK: %[[NAME:.+]] = memref.get_global @npu_conv_name
// CHECK: %[[NPUB:.+]] = memref.get_global @npu_conv_npub : memref<[[$SIZE]]xi8>
// CHECK: %[[SIZEV:.+]] = arith.constant [[$SIZE]] : i64
// CHECK: %[[INS:.+]] = memref.alloca() : memref<2xi64>
// CHECK: memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: arith.constant 4096 : i64
// CHECK: %[[OUTS:.+]] = memref.alloca() : memref<2xi64>
// CHECK: memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK: arith.constant 8192 : i64
// CHECK: call @kiln_npu_run(%{{.+}}, %{{.+}}, %[[SIZEV]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64) -> i32
// CHECK: %[[R:.+]] = bufferization.to_tensor %[[OUT]] restrict writable : memref<1x8x8x32xf32> to tensor<1x8x8x32xf32>
// CHECK-NEXT: return %[[R]]
// CHECK: func.func private @kiln_npu_run(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64) -> i32
// The stream written to npub-dir runs on the simulator.
// SIM: cycles
func.func @main(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x32xf32> {
  %0 = call @npu_conv(%x) : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}
func.func private @npu_conv(%arg0: tensor<1x8x8x16xf32>) -> tensor<1x8x8x32xf32> attributes {kiln.npu_nodes = ["conv", "bias", "relu"], npu.target = #npu.target<"default">} {
  %cst = arith.constant dense<-3.000000e+00> : tensor<32xf16>
  %cst_0 = arith.constant dense<4.998780e-02> : tensor<3x3x16x32xf16>
  %0 = npu.convert %arg0 : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf16>
  %1 = npu.conv2d %0, %cst_0, %cst {clamp_min = 0.000000e+00 : f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xf16>, tensor<3x3x16x32xf16>, tensor<32xf16>) -> tensor<1x8x8x32xf16>
  %2 = npu.convert %1 : (tensor<1x8x8x32xf16>) -> tensor<1x8x8x32xf32>
  return %2 : tensor<1x8x8x32xf32>
}

// -----

// Two arguments and two results: each array holds one {address, bytes}
// pair per buffer, in the order of the stream's IO declarations.
// CHECK-LABEL: func.func private @npu_pair
// CHECK-SAME: attributes {kiln.npu_nodes = ["add", "mul"], kiln.npu_stream = @npu_pair_npub}
// CHECK-DAG: %[[A:.+]] = bufferization.to_buffer %arg0 read_only
// CHECK-DAG: %[[B:.+]] = bufferization.to_buffer %arg1 read_only
// CHECK-DAG: %[[S:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x4x16xf32>
// CHECK-DAG: %[[P:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x4x16xf32>
// CHECK: %[[INS:.+]] = memref.alloca() : memref<4xi64>
// CHECK: %[[OUTS:.+]] = memref.alloca() : memref<4xi64>
// CHECK: call @kiln_npu_run(
// CHECK-DAG: bufferization.to_tensor %[[S]] restrict writable
// CHECK-DAG: bufferization.to_tensor %[[P]] restrict writable
// A function that is not a segment stays as it is.
// CHECK-LABEL: func.func @not_a_segment
// CHECK-NEXT: npu.convert
func.func private @npu_pair(%arg0: tensor<1x4x4x16xf32>, %arg1: tensor<1x4x4x16xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) attributes {kiln.npu_nodes = ["add", "mul"], npu.target = #npu.target<"default">} {
  %0 = npu.convert %arg0 : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf16>
  %1 = npu.convert %arg1 : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf16>
  %2 = npu.add %0, %1 : (tensor<1x4x4x16xf16>, tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16>
  %3 = npu.mul %0, %1 : (tensor<1x4x4x16xf16>, tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16>
  %4 = npu.convert %2 : (tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf32>
  %5 = npu.convert %3 : (tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf32>
  return %4, %5 : tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>
}
func.func @not_a_segment(%arg0: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf16> {
  %0 = npu.convert %arg0 : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf16>
  return %0 : tensor<1x4x4x16xf16>
}
