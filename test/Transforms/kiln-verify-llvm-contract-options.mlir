// RUN: kiln-opt %s --kiln-verify-llvm-contract="extra-legal-dialects=arith,math" | FileCheck %s
// RUN: not kiln-opt %s --kiln-verify-llvm-contract="extra-legal-dialects=arith" 2>&1 >/dev/null | FileCheck %s --check-prefix=NOMATH

// Dialects named in extra-legal-dialects are accepted beside llvm.
// CHECK-LABEL: llvm.func @mixed
// CHECK:         %[[C:.+]] = arith.constant 2.0{{.*}} : f32
// CHECK:         %[[S:.+]] = math.sqrt %[[C]] : f32
// CHECK:         llvm.return %[[S]]
// NOMATH: error: 'math.sqrt' is not in the llvm dialect
// NOMATH-NOT: arith.constant
llvm.func @mixed() -> f32 {
  %0 = arith.constant 2.0 : f32
  %1 = math.sqrt %0 : f32
  llvm.return %1 : f32
}
