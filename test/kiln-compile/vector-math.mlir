// exp, log, tanh and the sigmoid on vectors are inline vector arithmetic
// (kiln-cpu-approximate-math), not one libm call per element: the object
// calls none of expf, logf, tanhf. Their multiply-adds are FMA instructions
// where the CPU has them (x86-64-v3) and a multiply and an add where it has
// not (baseline x86-64), never a call to fmaf.
// REQUIRES: x86_64-host
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-compile %s -o %t/v3.o --cpu=x86-64-v3 --dump-dir=%t/v3
// RUN: FileCheck %s --check-prefix=FMA --implicit-check-not=expf --implicit-check-not=logf --implicit-check-not=tanhf --implicit-check-not=fmaf < %t/v3/06-model.s
// FMA: vfmadd{{.*}}ymm
// RUN: kiln-compile %s -o %t/base.o --cpu=x86-64 --dump-dir=%t/base
// RUN: FileCheck %s --check-prefix=SSE --implicit-check-not=expf --implicit-check-not=logf --implicit-check-not=tanhf --implicit-check-not=fmaf < %t/base/06-model.s
// SSE-NOT: vfmadd
// SSE:     mulps
// SSE-NOT: vfmadd
func.func @main(%x: tensor<64xf32>)
    -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
    attributes {tf.entry_function = {inputs = "x",
                                     outputs = "exp,log,tanh,sigmoid"}} {
  %e = "tf.Exp"(%x) : (tensor<64xf32>) -> tensor<64xf32>
  %l = "tf.Log"(%x) : (tensor<64xf32>) -> tensor<64xf32>
  %t = "tf.Tanh"(%x) : (tensor<64xf32>) -> tensor<64xf32>
  %s = "tf.Sigmoid"(%x) : (tensor<64xf32>) -> tensor<64xf32>
  return %e, %l, %t, %s
      : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}
