// RUN: not kiln-opt %s -split-input-file --kiln-verify-llvm-contract 2>&1 >/dev/null | FileCheck %s
// RUN: kiln-opt %s -split-input-file --kiln-verify-llvm-contract="extra-external-functions=memrefCopy,printMemrefF32" | FileCheck %s --check-prefix=ALLOWED

// A compiled model links against the C library and libm only: a call to any
// other function the module merely declares is reported, by name.

// CHECK: error: 'llvm.call' op calls external function @memrefCopy, which is neither in the C library nor in libm
// ALLOWED-LABEL: llvm.func @copy
llvm.func @memrefCopy(i64, !llvm.ptr, !llvm.ptr)
llvm.func @copy(%size: i64, %a: !llvm.ptr, %b: !llvm.ptr) {
  llvm.call @memrefCopy(%size, %a, %b) : (i64, !llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}

// -----

// C library and libm functions, and functions the module defines, are fine.
// CHECK-NOT: error: 'llvm.call' op calls external function @malloc
// CHECK-NOT: error: 'llvm.call' op calls external function @expf
// CHECK-NOT: error: 'llvm.call' op calls external function @helper
// ALLOWED-LABEL: llvm.func @libraries
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @expf(f32) -> f32
llvm.func @helper(%x: f32) -> f32 {
  llvm.return %x : f32
}
llvm.func @libraries(%x: f32) -> f32 {
  %c = llvm.mlir.constant(16 : i64) : i64
  %p = llvm.call @malloc(%c) : (i64) -> !llvm.ptr
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  %e = llvm.call @expf(%x) : (f32) -> f32
  %h = llvm.call @helper(%e) : (f32) -> f32
  llvm.return %h : f32
}

// -----

// Every offending call is reported, each with its function.
// CHECK: error: 'llvm.call' op calls external function @printMemrefF32
// ALLOWED-LABEL: llvm.func @print
llvm.func @printMemrefF32(i64, !llvm.ptr)
llvm.func @print(%rank: i64, %p: !llvm.ptr) {
  llvm.call @printMemrefF32(%rank, %p) : (i64, !llvm.ptr) -> ()
  llvm.return
}
