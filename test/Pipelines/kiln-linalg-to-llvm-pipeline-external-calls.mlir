// RUN: not kiln-opt %s --kiln-linalg-to-llvm-pipeline 2>&1 >/dev/null | FileCheck %s
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline=external-functions=memrefCopy | FileCheck %s --check-prefix=ALLOWED

// An unranked memref.copy has no linalg form, so the pipeline still lowers it
// to memrefCopy: the contract check stops it instead of a link error later.
// CHECK: error: 'llvm.call' op calls external function @memrefCopy
// ALLOWED: llvm.call @memrefCopy
func.func @unranked(%a: memref<*xf32>, %b: memref<*xf32>) {
  memref.copy %a, %b : memref<*xf32> to memref<*xf32>
  return
}
