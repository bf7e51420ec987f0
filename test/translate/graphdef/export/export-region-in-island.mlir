// RUN: kiln-translate --export-graphdef %s | FileCheck %s

// A region op inside an island (as tf-executor-raise-conditionals leaves
// it, before islands are inlined) is outlined too: the island's node calls
// the branches, which get the captured value as their argument. This was
// refused before ("an operation with regions has no GraphDef form").

// CHECK-LABEL:  name: "pick"
// CHECK-NEXT:   op: "StatelessIf"
// CHECK-NEXT:   input: "c"
// CHECK-NEXT:   input: "a"
// CHECK:        name: "pick_else"
// CHECK:        name: "pick_then"
// CHECK-LABEL:  library {
// CHECK:          name: "pick_else"
// CHECK:          ret {
// CHECK-NEXT:       key: "output_0"
// CHECK-NEXT:       value: "arg0"
// CHECK:          name: "pick_then"
// CHECK:          name: "pick/neg"
// CHECK-NEXT:     op: "Neg"
// CHECK-NEXT:     input: "arg0"

func.func @main(%c: tensor<i1>, %a: tensor<f32>) attributes {tf.entry_function = {inputs = "c,a", outputs = ""}} {
  tf_executor.graph {
    %0, %1 = tf_executor.island {
      %r = "tf.IfRegion"(%c) ({
        %n = "tf.Neg"(%a) : (tensor<f32>) -> tensor<f32> loc("pick/neg")
        "tf.Yield"(%n) : (tensor<f32>) -> ()
      }, {
        "tf.Yield"(%a) : (tensor<f32>) -> ()
      }) {is_stateless = true} : (tensor<i1>) -> tensor<f32> loc("pick")
      tf_executor.yield %r : tensor<f32>
    }
    tf_executor.fetch
  }
  func.return
}
