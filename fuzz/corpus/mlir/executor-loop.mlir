// A TF1 while loop in tf_executor (kiln-translate --import-graphdef of
// test/translate/graphdef/while-loop.pbtxt, without locations).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 0 : i32}} {
  func.func @main() {
    tf_executor.graph {
      %output, %token, %control = tf_executor.NextIteration.Source : tensor<*xi32> {T = i32, device = ""}
      %outputs, %control_0 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = "", dtype = i32} : () -> tensor<i32>
      %output_1, %control_2 = tf_executor.Enter %outputs frame "while/" parallel_iterations 32 : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control) {T = i32, device = ""}
      %output_3, %value_index, %control_4 = tf_executor.Merge %output_1, %output : tensor<*xi32> {N = 2 : i64, T = i32, device = ""}
      %outputs_5, %control_6 = tf_executor.island(%control_4) wraps "tf.Const"() <{value = dense<10> : tensor<i32>}> {device = "", dtype = i32} : () -> tensor<i32>
      %outputs_7, %control_8 = tf_executor.island wraps "tf.Less"(%output_3, %outputs_5) {T = i32, device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi1>
      %output_9, %control_10 = tf_executor.LoopCond %outputs_7 : tensor<*xi1> {device = ""}
      %falseOutput, %trueOutput, %control_11 = tf_executor.Switch %output_3, %output_9 : (tensor<*xi32>, tensor<*xi1>) -> (tensor<*xi32>, tensor<*xi32>, !tf_executor.control) {T = i32, device = ""}
      %output_12, %control_13 = tf_executor.Exit %falseOutput : tensor<*xi32> {T = i32, device = ""}
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Identity"(%trueOutput) {T = i32, device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_16, %control_17 = tf_executor.island(%control_15) wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = "", dtype = i32} : () -> tensor<i32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.AddV2"(%outputs_14, %outputs_16) {T = i32, device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      tf_executor.NextIteration.Sink [%token] %outputs_18 : tensor<*xi32> {T = i32, device = ""}
      tf_executor.fetch
    }
    return
  }
}
