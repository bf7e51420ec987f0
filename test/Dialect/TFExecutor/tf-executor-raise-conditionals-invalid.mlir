// RUN: kiln-opt %s -split-input-file -verify-diagnostics --tf-executor-raise-conditionals

func.func @escaping_side(%x: tensor<f32>, %p: tensor<i1>) -> (tensor<f32>, tensor<f32>) {
  %g:2 = tf_executor.graph {
    %xf, %xt, %xc = tf_executor.Switch %x, %p : tensor<f32>
    // expected-error @+1 {{value computed on one side of a TF1 conditional is used by 'tf_executor.fetch' outside it}}
    %n, %nc = tf_executor.island wraps "tf.Neg"(%xt) : (tensor<f32>) -> tensor<f32>
    %r, %ri, %rc = tf_executor.Merge %xf, %n : tensor<f32>
    tf_executor.fetch %r, %n : tensor<f32>, tensor<f32>
  }
  return %g#0, %g#1 : tensor<f32>, tensor<f32>
}

// -----

func.func @no_merge(%x: tensor<f32>, %p: tensor<i1>) {
  tf_executor.graph {
    // expected-error @+1 {{conditional has no Merge joining its two sides}}
    %xf, %xt, %xc = tf_executor.Switch %x, %p : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @value_index_used(%x: tensor<f32>, %p: tensor<i1>) -> tensor<i32> {
  %g = tf_executor.graph {
    %xf, %xt, %xc = tf_executor.Switch %x, %p : tensor<f32>
    // expected-error @+1 {{value_index of a conditional's Merge is used; this is not raised}}
    %r, %ri, %rc = tf_executor.Merge %xf, %xt : tensor<f32>
    tf_executor.fetch %ri : tensor<i32>
  }
  return %g : tensor<i32>
}
