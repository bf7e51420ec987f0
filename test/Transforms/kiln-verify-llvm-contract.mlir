// RUN: kiln-opt %s -split-input-file -verify-diagnostics --kiln-verify-llvm-contract | FileCheck %s

// A module of llvm.* operations passes unchanged.
// CHECK-LABEL: llvm.func @only_llvm
// CHECK:         %[[C:.+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:         llvm.return %[[C]]
llvm.func @only_llvm() -> i32 {
  %0 = llvm.mlir.constant(1 : i32) : i32
  llvm.return %0 : i32
}

// -----

// Every offending operation is reported, not only the first.
llvm.func @two_left_over() -> i32 {
  // expected-error @+1 {{'arith.constant' is not in the llvm dialect}}
  %0 = arith.constant 1 : i32
  // expected-error @+1 {{'arith.addi' is not in the llvm dialect}}
  %1 = arith.addi %0, %0 : i32
  llvm.return %1 : i32
}

// -----

// A cast left between two lowerings breaks the contract too.
llvm.func @cast_left_over(%arg0: i64) -> i64 {
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' is not in the llvm dialect}}
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to index
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' is not in the llvm dialect}}
  %1 = builtin.unrealized_conversion_cast %0 : index to i64
  llvm.return %1 : i64
}
