// RUN: kiln-opt %s -split-input-file -verify-diagnostics --kiln-report-unsupported-ops

// Every op without a lowering is reported, each with its node, then a count.
// expected-error @below {{2 operations no backend lowers}}
module {
func.func @two_unsupported(%x: tensor<2xi32>) -> tensor<2xi32> {
  // An imported op's location is its node name, with no file position.
  // expected-error@unknown {{node 'z': 'tf.SomeUnknownOp' has no lowering on any backend (cpu)}}
  %0 = "tf.SomeUnknownOp"(%x) : (tensor<2xi32>) -> tensor<2xi32> loc("z")
  // expected-error @below {{'tf.OtherUnknownOp' has no lowering on any backend (cpu)}}
  %1 = "tf.OtherUnknownOp"(%0) : (tensor<2xi32>) -> tensor<2xi32>
  %2 = "tf.AddV2"(%1, %x) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %2 : tensor<2xi32>
}
}

// -----

// Lowered ops and region control flow pass; so do other dialects.
func.func @all_supported(%x: tensor<f32>, %c: tensor<i1>) -> tensor<f32> {
  %0 = "tf.IfRegion"(%c) ({
    %1 = "tf.Relu"(%x) : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%1) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%x) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
  %2 = arith.addf %x, %x : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A graph not yet made functional: every tf_executor op is reported (the
// island's implicit yield too).
// expected-error @below {{4 operations no backend lowers}}
module {
func.func @graph(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{'tf_executor.graph' has no lowering on any backend (cpu)}}
  %0 = tf_executor.graph {
    // expected-error @below {{'tf_executor.island' has no lowering on any backend (cpu)}}
    // expected-error @below {{'tf_executor.yield' has no lowering on any backend (cpu)}}
    %1:2 = tf_executor.island wraps "tf.Relu"(%x) : (tensor<f32>) -> tensor<f32>
    // expected-error @below {{'tf_executor.fetch' has no lowering on any backend (cpu)}}
    tf_executor.fetch %1#0 : tensor<f32>
  }
  return %0 : tensor<f32>
}
}

// -----

// TensorFlow's own converter fuses the op type in front of the node name
// (`fused["Conv3D:", "net/conv"]`); the node is the name after it.
// expected-error @below {{1 operation no backend lowers}}
module {
func.func @converter_location(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error@unknown {{node 'net/conv': 'tf.SomeUnknownOp' has no lowering on any backend (cpu)}}
  %0 = "tf.SomeUnknownOp"(%x) : (tensor<2xi32>) -> tensor<2xi32> loc(fused["SomeUnknownOp:", "net/conv"])
  return %0 : tensor<2xi32>
}
}
