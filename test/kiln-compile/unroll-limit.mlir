// LLVM unrolls loops only in modules of at most --llvm-unroll-limit
// instructions, all functions together (docs/performance-compile.md).
// This small model stays under the default limit: the inner loop of the
// elementwise nest (8 vectors of a 64-wide row) is unrolled, one loop is left.
// With the limit at 0 both loops of the nest stay loops.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-compile %s -o %t/default.o --dump-dir=%t/default
// RUN: FileCheck %s --check-prefix=UNROLLED < %t/default/05-model.ll
// RUN: kiln-compile %s -o %t/limited.o --dump-dir=%t/limited --llvm-unroll-limit=0
// RUN: FileCheck %s --check-prefix=KEPT < %t/limited/05-model.ll
// The nest's rows are a parallel loop (kiln-cpu-parallelize-loops): its body
// is the outlined @model_with_buffers_parallel0, whose loop over its rows
// is the one loop left.
// UNROLLED-LABEL: define internal void @model_with_buffers_parallel0(
// UNROLLED: phi i64
// UNROLLED-COUNT-8: load <8 x float>
// UNROLLED-NOT: phi i64
// UNROLLED-LABEL: define {{.*}} @model(
// KEPT-LABEL: define internal void @model_with_buffers_parallel0(
// KEPT: phi i64
// KEPT: phi i64
// KEPT-NOT: load <8 x float>
// KEPT: load <8 x float>
// KEPT-NOT: load <8 x float>
// KEPT-LABEL: define {{.*}} @model(

func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "tf.Tanh"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
