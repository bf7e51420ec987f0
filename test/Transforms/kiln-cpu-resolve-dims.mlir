// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-resolve-dims))' | FileCheck %s

// A tile loop's result keeps its init's size: its dim is the argument's.
// CHECK-LABEL: func.func @loop_result
// CHECK-SAME:    (%[[A:.+]]: tensor<?x8xf32>,
// CHECK:         %[[D:.+]] = tensor.dim %[[A]], %c0
// CHECK:         %[[R:.+]] = scf.for %{{.+}} = %c0 to %[[D]]
// CHECK:         %[[D2:.+]] = tensor.dim %[[A]], %c0
// CHECK:         return %[[R]], %[[D2]]
func.func @loop_result(%a: tensor<?x8xf32>, %v: vector<1x8xf32>) -> (tensor<?x8xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %a) -> (tensor<?x8xf32>) {
    %w = vector.transfer_write %v, %t[%i, %c0] {in_bounds = [true, true]} : vector<1x8xf32>, tensor<?x8xf32>
    scf.yield %w : tensor<?x8xf32>
  }
  %d = tensor.dim %r, %c0 : tensor<?x8xf32>
  return %r, %d : tensor<?x8xf32>, index
}

// -----

// Nested loops writing tiles with insert_slice, a destination-style op and an
// iteration argument's dim inside the nest: all of them the argument's.
// CHECK-LABEL: func.func @nest
// CHECK-SAME:    (%[[A:.+]]: tensor<?x8xf32>)
// CHECK:         %[[D:.+]] = tensor.dim %[[A]], %c0
// CHECK-NOT:     tensor.dim
// CHECK:         scf.for
// CHECK:           arith.subi %[[D]], %c1
// CHECK-NOT:     tensor.dim
// CHECK:         return %{{.+}}, %[[D]]
func.func @nest(%a: tensor<?x8xf32>) -> (tensor<?x8xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %z = linalg.fill ins(%f : f32) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %z) -> (tensor<?x8xf32>) {
    %m = tensor.dim %t, %c0 : tensor<?x8xf32>
    %inner = scf.for %j = %c0 to %c8 step %c1 iter_args(%u = %t) -> (tensor<?x8xf32>) {
      %s = tensor.extract_slice %u[%i, %j] [1, 1] [1, 1] : tensor<?x8xf32> to tensor<1x1xf32>
      %x = tensor.insert_slice %s into %u[%i, %j] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<?x8xf32>
      scf.yield %x : tensor<?x8xf32>
    }
    %sub = arith.subi %m, %c1 : index
    %y = tensor.extract_slice %inner[%sub, 0] [1, 8] [1, 1] : tensor<?x8xf32> to tensor<1x8xf32>
    %w = tensor.insert_slice %y into %inner[0, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<?x8xf32>
    scf.yield %w : tensor<?x8xf32>
  }
  %d = tensor.dim %r, %c0 : tensor<?x8xf32>
  return %r, %d : tensor<?x8xf32>, index
}

// -----

// A loop that yields a tensor of another size is left alone.
// CHECK-LABEL: func.func @resized
// CHECK:         %[[R:.+]] = scf.for
// CHECK:         tensor.dim %[[R]], %c0
func.func @resized(%a: tensor<?x8xf32>, %k: index) -> (tensor<?x8xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%t = %a) -> (tensor<?x8xf32>) {
    %e = tensor.empty(%i) : tensor<?x8xf32>
    scf.yield %e : tensor<?x8xf32>
  }
  %d = tensor.dim %r, %c0 : tensor<?x8xf32>
  return %r, %d : tensor<?x8xf32>, index
}
