// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(convert-tf-to-linalg,kiln-cpu-tile-and-vectorize))' | FileCheck %s

// A static ResizeBilinear reaches the CPU vectorizer as two passes whose
// source rows and columns do not vary along the channels: each register
// tile of 8 channels reads whole channel vectors of the source pixels
// (vector.transfer_read), not one gathered scalar per channel.

// CHECK-LABEL: func.func @resize_channels
// CHECK-SAME: (%[[X:.+]]: tensor<1x4x4x16xf32>)
// CHECK-NOT: vector.gather
// CHECK: %[[ROWS:.+]] = scf.for
// CHECK-COUNT-2: vector.transfer_read %[[X]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true, true, true, true]} : tensor<1x4x4x16xf32>, vector<1x1x1x8xf32>
// CHECK: scf.for
// CHECK-COUNT-2: vector.transfer_read %[[ROWS]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true, true, true, true]} : tensor<1x4x8x16xf32>, vector<1x1x1x8xf32>
// CHECK-NOT: vector.gather
// CHECK: return
func.func @resize_channels(%x: tensor<1x4x4x16xf32>) -> tensor<1x8x8x16xf32> {
  %size = "tf.Const"() {value = dense<[8, 8]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.ResizeBilinear"(%x, %size) {half_pixel_centers = true} : (tensor<1x4x4x16xf32>, tensor<2xi32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
