// RUN: kiln-opt %s -convert-npu-to-npuhw="lmem-resident=false cascade=false" | FileCheck %s
// RUN: kiln-opt %s -kiln-npu-to-npuhw-pipeline -o /dev/null

// A function of five ops becomes one stream. The DRAM plan: the arguments
// at 16-byte aligned offsets of r2, the results in r3, the intermediates
// in the scratch region r1: %c at 0, %t at 128 (%c is still read by %a),
// and %d at 0 again, since %c's last reader (%a) runs before %d's op.
// Consecutive ops overlap: each op's loads wait for the stores of the op
// two back (whose LMEM it shares) and, per load, for the last store that
// wrote the bytes it reads; %d's store over %c's bytes waits for %a's load
// of them; %e reads the result %a back from r3; END waits for every store.

// CHECK-LABEL: npuhw.stream @net
// CHECK-NEXT:    npuhw.region 0 const size 960
// CHECK-NEXT:    npuhw.region 1 scratch size 256
// CHECK-NEXT:    npuhw.region 2 input size 256
// CHECK-NEXT:    npuhw.region 3 output size 256
// CHECK-NEXT:    npuhw.const
// CHECK-NEXT:    npuhw.io input "x" region 2 offset 0 i8 [1, 4, 4, 8]
// CHECK-NEXT:    npuhw.io input "y" region 2 offset 128 i8 [1, 4, 4, 8]
// CHECK-NEXT:    npuhw.io output "a" region 3 offset 0 i8 [1, 4, 4, 8]
// CHECK-NEXT:    npuhw.io output "e" region 3 offset 128 i8 [1, 4, 4, 8]
// %c = npu.conv2d: to r1 at 0.
// CHECK:         npuhw.mac_conv
// CHECK:         %[[C:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<128xi8, strided<[1]>, #npuhw.dram<1>>)
// %t = npu.table: reads r1 at 0, writes r1 at 128.
// CHECK:         npuhw.dma_load src({{.*}} : memref<128xi8, strided<[1]>, #npuhw.dram<1>>) dst({{.*}}) after(%[[C]])
// CHECK:         npuhw.vec_unary lut
// CHECK:         %[[T:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<128xi8, strided<[1], offset: 128>, #npuhw.dram<1>>)
// %a = npu.add %c, %t: to r3 at 0, after %c's op's stores.
// CHECK:         %[[LC:.+]] = npuhw.dma_load src({{.*}} : memref<128xi8, strided<[1]>, #npuhw.dram<1>>) dst({{.*}}) after(%[[C]])
// CHECK:         npuhw.dma_load src({{.*}} : memref<128xi8, strided<[1], offset: 128>, #npuhw.dram<1>>) dst({{.*}}) after(%[[C]], %[[T]])
// CHECK:         npuhw.vec_eltwise add tensor
// CHECK:         %[[A:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<128xi8, strided<[1]>, #npuhw.dram<3>>)
// %d = npu.sub %t, %y: to r1 at 0, where %c was, once %a has read %c.
// CHECK:         npuhw.dma_load src({{.*}} : memref<128xi8, strided<[1], offset: 128>, #npuhw.dram<1>>) dst({{.*}}) after(%[[T]])
// CHECK:         npuhw.dma_load src({{.*}} : memref<128xi8, strided<[1], offset: 128>, #npuhw.dram<2>>) dst({{.*}}) after(%[[T]])
// CHECK:         npuhw.vec_eltwise sub tensor
// CHECK:         %[[D:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<128xi8, strided<[1]>, #npuhw.dram<1>>) after(%{{.+}}, %[[LC]])
// %e = npu.mul %d, %a: reads %a from r3, to r3 at 128.
// CHECK:         npuhw.dma_load src({{.*}} : memref<128xi8, strided<[1]>, #npuhw.dram<1>>) dst({{.*}}) after(%[[A]], %[[D]])
// CHECK:         npuhw.dma_load src({{.*}} : memref<128xi8, strided<[1]>, #npuhw.dram<3>>) dst({{.*}}) after(%[[A]])
// CHECK:         npuhw.vec_eltwise mul tensor
// CHECK:         %[[E:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<128xi8, strided<[1], offset: 128>, #npuhw.dram<3>>)
// CHECK-NEXT:    npuhw.end after(%[[C]], %[[T]], %[[A]], %[[D]], %[[E]])
module attributes {npu.target = #npu.target<"default">} {
  func.func @net(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %y: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.25>>) -> (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>)
      attributes {tf.entry_function = {inputs = "x,y", outputs = "a,e"}} {
    %wi = arith.constant dense<1> : tensor<1x1x8x8xi8>
    %w = quant.scast %wi : tensor<1x1x8x8xi8> to tensor<1x1x8x8x!quant.uniform<i8:f32, 0.125>>
    %c = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x8x8x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
    %t = npu.table %c {table = array<i8: 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22, 22, 23, 23, 24, 24, 25, 25, 26, 26, 27, 27, 28, 28, 29, 29, 30, 30, 31, 31, 32, 32, 33, 33, 34, 34, 35, 35, 36, 36, 37, 37, 38, 38, 39, 39, 40, 40, 41, 41, 42, 42, 43, 43, 44, 44, 45, 45, 46, 46, 47, 47, 48, 48, 49, 49, 50, 50, 51, 51, 52, 52, 53, 53, 54, 54, 55, 55, 56, 56, 57, 57, 58, 58, 59, 59, 60, 60, 61, 61, 62, 62, 63, 63, 64, 64, 65, 65, 66, 66, 67, 67, 68, 68, 69, 69, 70, 70, 71, 71, 72, 72, 73, 73, 74, 74, 75, 75, 76, 76, 77, 77, 78, 78, 79, 79, 80, 80, 81, 81, 82, 82, 83, 83, 84, 84, 85, 85, 86, 86, 87, 87, 88, 88, 89, 89, 90, 90, 91, 91, 92, 92, 93, 93, 94, 94, 95, 95, 96, 96, 97, 97, 98, 98, 99, 99, 100, 100, 101, 101, 102, 102, 103, 103, 104, 104, 105, 105, 106, 106, 107, 107, 108, 108, 109, 109, 110, 110, 111, 111, 112, 112, 113, 113, 114, 114, 115, 115, 116, 116, 117, 117, 118, 118, 119, 119, 120, 120, 121, 121, 122, 122, 123, 123, 124, 124, 125, 125, 126, 126, 127, 127>} : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
    %a = npu.add %c, %t : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
    %d = npu.sub %t, %y : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
    %e = npu.mul %d, %a : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
    return %a, %e : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
  }
}
