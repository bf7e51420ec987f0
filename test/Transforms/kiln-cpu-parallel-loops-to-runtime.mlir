// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(kiln-cpu-parallel-loops-to-runtime)' | FileCheck %s

// A forall on buffers: outlined, called through the runtime.
// CHECK-LABEL: func.func @rows
// CHECK-SAME: (%[[IN:.+]]: memref<16x32xf32>, %[[OUT:.+]]: memref<16x32xf32>)
// CHECK: %[[CTX:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>)>
// CHECK: builtin.unrealized_conversion_cast %[[IN]] : memref<16x32xf32> to !llvm.struct
// CHECK: builtin.unrealized_conversion_cast %[[OUT]] : memref<16x32xf32> to !llvm.struct
// CHECK: llvm.store %{{.+}}, %[[CTX]]
// CHECK: %[[BODY:.+]] = constant @rows_parallel0 : (!llvm.ptr, i64, i64) -> ()
// CHECK: %[[FN:.+]] = builtin.unrealized_conversion_cast %[[BODY]]
// CHECK: %[[N:.+]] = arith.constant 16 : i64
// CHECK: %[[RT:.+]] = llvm.mlir.addressof @kiln_cpu_parallel_for : !llvm.ptr
// CHECK: %[[LINKED:.+]] = llvm.icmp "ne" %[[RT]]
// CHECK: scf.if %[[LINKED]] {
// CHECK-NEXT: llvm.call @kiln_cpu_parallel_for(%[[FN]], %[[CTX]], %[[N]])
// CHECK: } else {
// CHECK: call @rows_parallel0(%[[CTX]], %{{.+}}, %[[N]])
// CHECK-NOT: scf.forall
// CHECK-LABEL: func.func private @rows_parallel0
// CHECK-SAME: (%[[C:.+]]: !llvm.ptr, %[[B:.+]]: i64, %[[E:.+]]: i64)
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
// CHECK: llvm.load %[[C]]
// CHECK: scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step
// CHECK: arith.muli %[[J]]
// CHECK: vector.transfer_read
// CHECK: llvm.func extern_weak @kiln_cpu_parallel_for(!llvm.ptr, !llvm.ptr, i64)
func.func @rows(%in: memref<16x32xf32>, %out: memref<16x32xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  scf.forall (%i) in (16) {
    %v = vector.transfer_read %in[%i, %c0], %cst {in_bounds = [true, true]} : memref<16x32xf32>, vector<1x32xf32>
    %w = arith.addf %v, %v : vector<1x32xf32>
    vector.transfer_write %w, %out[%i, %c0] {in_bounds = [true, true]} : vector<1x32xf32>, memref<16x32xf32>
  }
  return
}

// -----

// Two dims with bounds and steps, a scalar and a stack buffer.
// CHECK-LABEL: func.func @grid
// CHECK: arith.constant 9 : i64
// CHECK-LABEL: func.func private @grid_parallel0
// CHECK: %[[A:.+]] = memref.alloca() : memref<8xf32>
// CHECK: scf.for %[[J:.+]] =
// CHECK: %[[C3:.+]] = arith.constant 3 : index
// CHECK: %[[R:.+]] = arith.remui %[[J]], %[[C3]]
// CHECK: arith.muli %[[R]], %{{.+}}
// CHECK: %[[D:.+]] = arith.divui %[[J]], %[[C3]]
// CHECK: memref.store %{{.+}}, %[[A]]
func.func @grid(%out: memref<8x12xf32>, %s: f32) {
  scf.forall (%i, %j) = (2, 0) to (8, 12) step (2, 4) {
    %t = memref.alloca() : memref<8xf32>
    memref.store %s, %t[%i] : memref<8xf32>
    %x = memref.load %t[%i] : memref<8xf32>
    memref.store %x, %out[%i, %j] : memref<8x12xf32>
  }
  return
}
