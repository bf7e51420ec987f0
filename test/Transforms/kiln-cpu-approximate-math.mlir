// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-approximate-math))' | FileCheck %s
// RUN: kiln-opt %s -split-input-file --kiln-linalg-to-llvm-pipeline | FileCheck %s --check-prefix=LLVM
// RUN: kiln-opt %s -split-input-file --kiln-linalg-to-llvm-pipeline=approximate-math=false | FileCheck %s --check-prefix=LIBM

// exp on a vector becomes vector arithmetic: the range reduction by powers of
// two (floor, the exponent bits shifted into place) and a polynomial whose
// multiply-adds are contractible mulf/addf pairs, not math.fma.
// CHECK-LABEL: func.func @exp_vector
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.fma
// CHECK:         math.floor %{{.+}} : vector<8xf32>
// CHECK:         arith.mulf %{{.+}}, %{{.+}} fastmath<contract> : vector<8xf32>
// CHECK:         arith.addf %{{.+}}, %{{.+}} fastmath<contract> : vector<8xf32>
// CHECK:         arith.shli %{{.+}}, %{{.+}} : vector<8xi32>
// CHECK-NOT:     math.exp
// CHECK:         return
// LLVM-LABEL:  llvm.func @exp_vector
// LLVM-NOT:      llvm.intr.exp
// LLVM:          llvm.fmul {{.+}} {fastmathFlags = #llvm.fastmath<contract>} : vector<8xf32>
// LLVM-NOT:      llvm.intr.exp
// LLVM:          llvm.return
// LIBM-LABEL:  llvm.func @exp_vector
// LIBM:          llvm.intr.exp(%{{.+}}) : (vector<8xf32>) -> vector<8xf32>
func.func @exp_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %e = math.exp %x : vector<8xf32>
  return %e : vector<8xf32>
}

// -----

// log and tanh on n-D vectors are expanded too.
// CHECK-LABEL: func.func @log_tanh_vector
// CHECK-NOT:     math.log
// CHECK-NOT:     math.tanh
// CHECK:         arith.divf %{{.+}}, %{{.+}} : vector<2x16xf32>
// CHECK:         return
// LLVM-LABEL:  llvm.func @log_tanh_vector
// LLVM-NOT:      llvm.intr.log
// LLVM-NOT:      llvm.intr.tanh
// LLVM:          llvm.return
func.func @log_tanh_vector(%x: vector<2x16xf32>) -> (vector<2x16xf32>, vector<2x16xf32>) {
  %l = math.log %x : vector<2x16xf32>
  %t = math.tanh %x : vector<2x16xf32>
  return %l, %t : vector<2x16xf32>, vector<2x16xf32>
}

// -----

// Scalars keep libm's correctly rounded results; f64 vectors, other
// functions and a math.fma written by the program are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK:         math.exp %{{.+}} : f32
// CHECK:         math.exp %{{.+}} : vector<4xf64>
// CHECK:         math.sin %{{.+}} : vector<8xf32>
// CHECK:         math.fma %{{.+}} : vector<8xf32>
func.func @left_alone(%s: f32, %d: vector<4xf64>, %x: vector<8xf32>)
    -> (f32, vector<4xf64>, vector<8xf32>, vector<8xf32>) {
  %a = math.exp %s : f32
  %b = math.exp %d : vector<4xf64>
  %c = math.sin %x : vector<8xf32>
  %f = math.fma %x, %x, %x : vector<8xf32>
  return %a, %b, %c, %f : f32, vector<4xf64>, vector<8xf32>, vector<8xf32>
}

// -----

// Through the whole pipeline, the sigmoid of a tensor (an elementwise
// linalg.generic, tiled and vectorized by kiln-cpu-tile-and-vectorize) has no
// llvm.intr.exp, which LLVM would turn into a call to expf per element.
// LLVM-LABEL:  llvm.func @sigmoid
// LLVM-NOT:      llvm.intr.exp
// LLVM:          llvm.return
// LIBM-LABEL:  llvm.func @sigmoid
// LIBM:          llvm.intr.exp(%{{.+}}) : (vector<8xf32>) -> vector<8xf32>
func.func @sigmoid(%x: tensor<64xf32>) -> tensor<64xf32> {
  %init = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>,
                                        affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %one, %d : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
