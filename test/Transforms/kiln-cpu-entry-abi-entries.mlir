// RUN: kiln-opt %s -split-input-file -verify-diagnostics --kiln-cpu-entry-abi="entries=init,step symbol=rnn" | FileCheck %s

// Several entries (a stateful model's init and step) each get their C
// interface under the symbol, and share the variables, which are named once
// under the symbol.
// CHECK-LABEL: module
// CHECK-DAG:   memref.global @rnn_var_state : memref<2xf32>
// CHECK-DAG:   func.func private @helper(
// CHECK:       func.func @rnn_init() attributes {llvm.emit_c_interface}
// CHECK:         memref.get_global @rnn_var_state
// CHECK:       func.func @rnn_step(%{{.+}}: tensor<2xf32>) -> tensor<2xf32> attributes {llvm.emit_c_interface}
// CHECK:         memref.get_global @rnn_var_state
// CHECK:         call @helper(
memref.global "private" @state : memref<2xf32> = dense<0.0>
func.func @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @init() {
  %m = memref.get_global @state : memref<2xf32>
  return
}
func.func @step(%x: tensor<2xf32>) -> tensor<2xf32> {
  %m = memref.get_global @state : memref<2xf32>
  %0 = call @helper(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// expected-error @below {{no function named 'step' to compile as the entry; the module defines @init}}
module {
  func.func @init() { return }
}
