// RUN: kiln-translate --export-graphdef %s -split-input-file -verify-diagnostics

// expected-error @+1 {{cannot export: the module has no func.func @main}}
module {
  func.func @other() {
    func.return
  }
}

// -----

// A graph and more: neither the importer's form nor functional tf.
// expected-error @+1 {{cannot export function @main: its body must be one tf_executor.graph whose results it returns}}
func.func @main(%a: tensor<f32>) {
  tf_executor.graph {
    tf_executor.fetch
  }
  %n = "tf.Neg"(%a) : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @main() {
  tf_executor.graph {
    tf_executor.fetch
  }
  func.return
}

// expected-error @+1 {{cannot export function @external: its body must be one tf_executor.graph whose results it returns}}
func.func private @external()

// -----

// expected-error @+1 {{cannot export @main: type 'index' has no TensorFlow DataType}}
func.func @main(%arg0: tensor<2xindex>) {
  tf_executor.graph {
    tf_executor.fetch
  }
  func.return
}

// -----

func.func @main() {
  tf_executor.graph {
    // expected-error @+1 {{cannot export 'tf.SomeOp': type 'i128' has no TensorFlow DataType}}
    %0, %1 = tf_executor.island wraps "tf.SomeOp"() : () -> tensor<i128>
    tf_executor.fetch
  }
  func.return
}

// -----

func.func @main() {
  tf_executor.graph {
    // expected-error @+1 {{cannot export 'tf.NoOp': attribute {a = 1 : i64} has no TensorFlow form}}
    %0 = tf_executor.island wraps "tf.NoOp"() {bad = {a = 1}} : () -> ()
    tf_executor.fetch
  }
  func.return
}

// -----

func.func @main() {
  tf_executor.graph {
    // expected-error @+1 {{cannot export 'func.call': only tf operations can be graph nodes}}
    %0 = tf_executor.island wraps "func.call"() {callee = @f} : () -> ()
    tf_executor.fetch
  }
  func.return
}

func.func private @f() {
  tf_executor.graph {
    tf_executor.fetch
  }
  func.return
}
