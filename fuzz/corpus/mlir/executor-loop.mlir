// A tf_executor loop: Enter, Merge, Switch, NextIteration and Exit.
func.func @main(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = tf_executor.graph {
    %out, %c0 = tf_executor.island wraps "tf.Const"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
    %enter, %c1 = tf_executor.Enter %arg0 frame "loop" : tensor<i32> {T = i32}
    %token, %c2 = tf_executor.NextIteration.Source : tensor<i32>
    %merge, %index, %c3 = tf_executor.Merge %enter, %token : tensor<i32> {N = 2 : i64}
    %less, %c4 = tf_executor.island wraps "tf.Less"(%merge, %out) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cond, %c5 = tf_executor.LoopCond %less : tensor<i1>
    %false, %true, %c6 = tf_executor.Switch %merge, %cond : tensor<i32>
    %exit, %c7 = tf_executor.Exit %false : tensor<i32>
    %add, %c8 = tf_executor.island wraps "tf.AddV2"(%true, %true) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tf_executor.NextIteration.Sink [%token] %add : tensor<i32>
    tf_executor.fetch %exit : tensor<i32>
  }
  func.return %0 : tensor<i32>
}
