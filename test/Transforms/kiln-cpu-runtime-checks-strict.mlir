// RUN: kiln-opt %s --kiln-cpu-runtime-checks=strict -verify-diagnostics

// With strict, a check that cannot run before the model fails the pass
// instead of staying an abort.

func.func @contents(%x: tensor<4xi32>) -> tensor<4xi32>
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %v = tensor.extract %x[%c0] : tensor<4xi32>
  %ok = arith.cmpi sgt, %v, %zero : i32
  // expected-error @+1 {{run-time check 'value must be positive' depends on values computed during the run; it cannot be checked before the run and would abort the program}}
  cf.assert %ok, "value must be positive"
  return %x : tensor<4xi32>
}
