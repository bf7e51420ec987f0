// RUN: kiln-opt %s -split-input-file -verify-diagnostics --convert-ml-program-to-memref | FileCheck %s

// A load copies the state (a later store must not change an already-read
// value); a store writes the global's buffer in place.
// CHECK-LABEL: module
// CHECK:       memref.global "private" @v : memref<2xf32> = dense<1.000000e+00> {alignment = 128 : i64, kiln.variable = "v"}
// CHECK:       func.func @step(%[[X:.+]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK:         %[[G:.+]] = memref.get_global @v : memref<2xf32>
// CHECK:         %[[COPY:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK:         memref.copy %[[G]], %[[COPY]]
// CHECK:         %[[OLD:.+]] = bufferization.to_tensor %[[COPY]] restrict writable
// CHECK:         %[[G2:.+]] = memref.get_global @v : memref<2xf32>
// CHECK:         bufferization.materialize_in_destination %[[X]] in restrict writable %[[G2]]
// CHECK:         return %[[OLD]]
module {
  ml_program.global private mutable @v(dense<1.0> : tensor<2xf32>) : tensor<2xf32>
  func.func @step(%x: tensor<2xf32>) -> tensor<2xf32> {
    %old = ml_program.global_load @v : tensor<2xf32>
    ml_program.global_store @v = %x : tensor<2xf32>
    return %old : tensor<2xf32>
  }
}

// -----

// No initial value: zeros. Immutable: a constant global, read in place.
// CHECK-LABEL: module
// CHECK-DAG:   memref.global "private" @fresh : memref<3xi32> = dense<0> {alignment = 128 : i64, kiln.variable = "fresh"}
// CHECK-DAG:   memref.global "private" constant @k : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK:       func.func @read
// CHECK:         %[[K:.+]] = memref.get_global @k
// CHECK-NOT:     memref.copy
// CHECK:         bufferization.to_tensor %[[K]] restrict :
module {
  ml_program.global private mutable @fresh : tensor<3xi32>
  ml_program.global private @k(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
  func.func @read() -> (tensor<2xf32>, tensor<3xi32>) {
    %0 = ml_program.global_load_const @k : tensor<2xf32>
    %1 = ml_program.global_load @fresh : tensor<3xi32>
    return %0, %1 : tensor<2xf32>, tensor<3xi32>
  }
}

// -----

module {
  // expected-error @below {{global @dyn of type 'tensor<?xf32>' has no static tensor shape; model state needs one}}
  ml_program.global private mutable @dyn : tensor<?xf32>
}
