// RUN: kiln-opt %s -split-input-file --kiln-cpu-runtime-checks -verify-diagnostics | FileCheck %s

// A check on an argument's size moves into @squeeze_check, which returns 0
// or 1; the entry keeps no assertion, and the message names the TensorFlow
// node.

// CHECK: module attributes {kiln.runtime_checks = {squeeze = ["tf.Squeeze: squeezed dimension 1 must have size 1 (TensorFlow node 'model/squeeze')"]}}
// CHECK-LABEL: func.func @squeeze
// CHECK-NOT: cf.assert
// CHECK: return
// CHECK-LABEL: func.func @squeeze_check
// CHECK-SAME: (%[[X:.+]]: tensor<?x?xf32>) -> i32 attributes {llvm.emit_c_interface}
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK: %[[D:.+]] = tensor.dim %[[X]], %[[C1]]
// CHECK: %[[OK:.+]] = arith.cmpi eq, %[[D]], %[[C1]]
// CHECK: %[[S:.+]] = scf.if %[[OK]] -> (i32) {
// CHECK:   %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK:   scf.yield %[[ZERO]] : i32
// CHECK: } else {
// CHECK:   %[[ONE:.+]] = arith.constant 1 : i32
// CHECK:   scf.yield %[[ONE]] : i32
// CHECK: return %[[S]] : i32
func.func @squeeze(%x: tensor<?x?xf32>) -> tensor<?xf32>
    attributes {llvm.emit_c_interface} {
  %c1 = arith.constant 1 : index
  %d = tensor.dim %x, %c1 : tensor<?x?xf32>
  %ok = arith.cmpi eq, %d, %c1 : index
  cf.assert %ok, "tf.Squeeze: squeezed dimension 1 must have size 1" loc("model/squeeze")
  %r = tensor.collapse_shape %x [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Two checks: the second is evaluated only where the first holds, and fails
// with 2. The size of a padded tensor is resolved to the argument's.

// CHECK-LABEL: func.func @two_checks_check
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>) -> i32
// CHECK: %[[D:.+]] = tensor.dim %[[X]]
// CHECK: %[[OK1:.+]] = arith.cmpi
// CHECK: %[[S:.+]] = scf.if %[[OK1]] -> (i32) {
// CHECK:   %[[OK2:.+]] = arith.cmpi
// CHECK:   %[[S2:.+]] = scf.if %[[OK2]] -> (i32) {
// CHECK:     arith.constant 0 : i32
// CHECK:   } else {
// CHECK:     arith.constant 2 : i32
// CHECK:   scf.yield %[[S2]] : i32
// CHECK: } else {
// CHECK:   arith.constant 1 : i32
// CHECK: return %[[S]] : i32
func.func @two_checks(%x: tensor<?xf32>) -> tensor<?xf32>
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %ge = arith.cmpi uge, %d, %c2 : index
  cf.assert %ge, "first"
  %padded = tensor.pad %x low[1] high[3] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<?xf32> to tensor<?xf32>
  %p = tensor.dim %padded, %c0 : tensor<?xf32>
  %rem = arith.remui %p, %c4 : index
  %divisible = arith.cmpi eq, %rem, %c0 : index
  cf.assert %divisible, "second"
  return %padded : tensor<?xf32>
}

// -----

// A function without a C interface is not an entry: its check stays.

// CHECK-NOT: kiln.runtime_checks
// CHECK-LABEL: func.func @helper
// CHECK: cf.assert
// CHECK-NOT: func.func @helper_check
func.func @helper(%x: tensor<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %ok = arith.cmpi eq, %d, %n : index
  cf.assert %ok, "sizes differ"
  return
}

// -----

// A check on a tensor's contents cannot run before the model: it stays, with
// a warning (kiln-cpu-runtime-checks-strict.mlir: an error with strict).

// CHECK-LABEL: func.func @contents
// CHECK: cf.assert
// CHECK-NOT: func.func @contents_check
func.func @contents(%x: tensor<4xi32>) -> tensor<4xi32>
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %v = tensor.extract %x[%c0] : tensor<4xi32>
  %ok = arith.cmpi sgt, %v, %zero : i32
  // expected-warning @+1 {{run-time check 'value must be positive' depends on values computed during the run; it cannot be checked before the run and aborts the program if it fails}}
  cf.assert %ok, "value must be positive"
  return %x : tensor<4xi32>
}

// -----

// A check inside a loop cannot move either.

// CHECK-LABEL: func.func @in_loop
// CHECK: scf.for
// CHECK: cf.assert
func.func @in_loop(%x: tensor<?xf32>, %n: index) -> tensor<?xf32>
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %ok = arith.cmpi ult, %i, %c1 : index
    // expected-warning @+1 {{run-time check 'one iteration' depends on values computed during the run}}
    cf.assert %ok, "one iteration"
  }
  return %x : tensor<?xf32>
}
