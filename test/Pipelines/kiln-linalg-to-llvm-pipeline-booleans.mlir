// Booleans held in memory (an i1 constant) stay correct when vectorization
// is on: a memref of i1 holds a byte per element, while LLVM loads a
// vector of i1 as packed bits, so kiln-cpu-tile-and-vectorize leaves ops on
// booleans as scalar loops. LogicalAnd of [[T],[F]] with [T,T,F] broadcast.
// REQUIRES: mlir-runner
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefI32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="vectorize=false external-functions=printMemrefI32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s
// CHECK:      [1,   1,   0]
// CHECK-NEXT: [0,   0,   0]
#map = affine_map<(d0, d1) -> (d0, 0)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %cst = arith.constant dense<[[true], [false]]> : tensor<2x1xi1>
    %cst_0 = arith.constant dense<[true, true, false]> : tensor<3xi1>
    %0 = tensor.empty() : tensor<2x3xi1>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel"]} ins(%cst, %cst_0 : tensor<2x1xi1>, tensor<3xi1>) outs(%0 : tensor<2x3xi1>) {
    ^bb0(%in: i1, %in_3: i1, %out: i1):
      %4 = arith.andi %in, %in_3 : i1
      linalg.yield %4 : i1
    } -> tensor<2x3xi1>
    %2 = tensor.empty() : tensor<2x3xi32>
    %3 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<2x3xi1>) outs(%2 : tensor<2x3xi32>) {
    ^bb0(%in: i1, %out: i32):
      %4 = arith.extui %in : i1 to i32
      linalg.yield %4 : i32
    } -> tensor<2x3xi32>
    %cast_2 = tensor.cast %3 : tensor<2x3xi32> to tensor<*xi32>
    call @printMemrefI32(%cast_2) : (tensor<*xi32>) -> ()
    return
  }
}

