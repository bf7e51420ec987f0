// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(kiln-cpu-lower-strided-copies))' | FileCheck %s
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline | FileCheck %s --check-prefix=LLVM
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline | FileCheck %s --check-prefix=NOCALL

// Through the pipeline, no copy calls the runner utilities' memrefCopy.
// NOCALL-NOT: memrefCopy

// A copy out of a strided subview: finalize-memref-to-llvm would call
// memrefCopy; it becomes a linalg.copy, so the object needs no MLIR runtime.
// CHECK-LABEL: func.func @strided_source
// CHECK-SAME:    (%[[SRC:.+]]: memref<4x4xf32, strided<[8, 1]>>, %[[DST:.+]]: memref<4x4xf32>)
// CHECK-NEXT:    linalg.copy ins(%[[SRC]] : memref<4x4xf32, strided<[8, 1]>>) outs(%[[DST]] : memref<4x4xf32>)
// CHECK-NOT:     memref.copy
// LLVM-LABEL: llvm.func @strided_source
func.func @strided_source(%src: memref<4x4xf32, strided<[8, 1]>>, %dst: memref<4x4xf32>) {
  memref.copy %src, %dst : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  return
}

// A dynamic offset into the target (a slice of a dynamic batch).
// CHECK-LABEL: func.func @strided_target
// CHECK-NEXT:    linalg.copy ins(%{{.+}} : memref<?x3xf32>) outs(%{{.+}} : memref<?x3xf32, strided<[3, 1], offset: ?>>)
// LLVM-LABEL: llvm.func @strided_target
func.func @strided_target(%src: memref<?x3xf32>, %dst: memref<?x3xf32, strided<[3, 1], offset: ?>>) {
  memref.copy %src, %dst : memref<?x3xf32> to memref<?x3xf32, strided<[3, 1], offset: ?>>
  return
}

// Contiguous buffers (identity layouts, or static row-major strides) are
// copied with a memcpy already: left alone.
// CHECK-LABEL: func.func @contiguous
// CHECK-NEXT:    memref.copy %{{.+}}, %{{.+}} : memref<?x4xf32> to memref<?x4xf32>
// CHECK-NEXT:    memref.copy %{{.+}}, %{{.+}} : memref<2x4xf32, strided<[4, 1]>> to memref<2x4xf32>
// CHECK-NOT:     linalg.copy
// LLVM-LABEL: llvm.func @contiguous
// LLVM:         "llvm.intr.memcpy"
// LLVM:         "llvm.intr.memcpy"
func.func @contiguous(%a: memref<?x4xf32>, %b: memref<?x4xf32>, %c: memref<2x4xf32, strided<[4, 1]>>, %d: memref<2x4xf32>) {
  memref.copy %a, %b : memref<?x4xf32> to memref<?x4xf32>
  memref.copy %c, %d : memref<2x4xf32, strided<[4, 1]>> to memref<2x4xf32>
  return
}
