// kiln-cpu-depthwise works on blocks of channels one vector register wide:
// kiln-compile sizes them from the target CPU, 16 f32 lanes where it has
// AVX-512 and 8 where it has AVX2, so an AVX2 object is not built from
// pairs of registers. (The rest of the pipeline's vectors are 8 wide, so
// 16-lane vectors come only from the depthwise kernel.)
// REQUIRES: x86_64-host
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-compile %s -o %t/avx512.o --cpu=skylake-avx512 --dump-dir=%t/avx512
// RUN: FileCheck %s --check-prefix=AVX512 < %t/avx512/04-llvm.mlir
// AVX512: llvm.load {{.*}} -> vector<16xf32>
// RUN: kiln-compile %s -o %t/avx2.o --cpu=x86-64-v3 --dump-dir=%t/avx2
// RUN: FileCheck %s --check-prefix=AVX2 --implicit-check-not='vector<16xf32>' < %t/avx2/04-llvm.mlir
// AVX2: llvm.load {{.*}} -> vector<8xf32>
func.func @main(%x: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
    attributes {tf.entry_function = {inputs = "x", outputs = "y"}} {
  %w = "tf.Const"() <{value = dense<0.5> : tensor<3x3x32x1xf32>}>
      : () -> tensor<3x3x32x1xf32>
  %y = "tf.DepthwiseConv2dNative"(%x, %w)
      {data_format = "NHWC", dilations = [1, 1, 1, 1], padding = "SAME",
       strides = [1, 1, 1, 1]}
      : (tensor<1x8x8x32xf32>, tensor<3x3x32x1xf32>) -> tensor<1x8x8x32xf32>
  return %y : tensor<1x8x8x32xf32>
}
