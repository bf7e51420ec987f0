// RUN: kiln-opt %s --convert-tf-to-npu="report=markdown report-file=%t.md" -o /dev/null
// RUN: FileCheck %s --check-prefix=MD < %t.md
// RUN: kiln-opt %s --convert-tf-to-npu="report=csv report-file=%t.csv" -o /dev/null
// RUN: FileCheck %s --check-prefix=CSV < %t.csv

// The placement table: every tf op but constants, in program order, with
// the segment of NPU ops and the reason of CPU ops; then the summary.

// MD: | node | op | function | placement | segment | reason kind | reason |
// MD-NEXT: |---|---|---|---|---|---|---|
// MD-NEXT: | net/conv | tf.Conv2D | main | NPU | npu_conv |  |  |
// MD-NEXT: | net/sigmoid | tf.Sigmoid | main | CPU |  | op | tf.Sigmoid has no npu equivalent |
// MD-NEXT: | net/pool | tf.MaxPool | main | CPU |  | attribute | ksize [1, 2, 2, 2]: the NPU windows only height and width (batch and channel entries must be 1) |
// MD-NEXT: | net/relu | tf.Relu | main | NPU | npu_relu |  |  |
// MD-EMPTY:
// MD-NEXT: 2 of 4 tf ops on the NPU in 2 segments, 2 on the CPU (op: 1, attribute: 1)
// MD-EMPTY:
// MD-NEXT: - tf.Conv2D: 1 NPU, 0 CPU
// MD-NEXT: - tf.MaxPool: 0 NPU, 1 CPU
// MD-NEXT: - tf.Relu: 1 NPU, 0 CPU
// MD-NEXT: - tf.Sigmoid: 0 NPU, 1 CPU

// CSV: node,op,function,placement,segment,reason_kind,reason
// CSV-NEXT: net/conv,tf.Conv2D,main,NPU,npu_conv,,
// CSV-NEXT: net/sigmoid,tf.Sigmoid,main,CPU,,op,tf.Sigmoid has no npu equivalent
// CSV-NEXT: net/pool,tf.MaxPool,main,CPU,,attribute,"ksize [1, 2, 2, 2]: the NPU windows only height and width (batch and channel entries must be 1)"
// CSV-NEXT: net/relu,tf.Relu,main,NPU,npu_relu,,
// CSV-NEXT: # 2 of 4 tf ops on the NPU in 2 segments, 2 on the CPU (op: 1, attribute: 1)
// CSV-NEXT: # tf.Conv2D: 1 NPU, 0 CPU

func.func @main(%x: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %w = "tf.Const"() {value = dense<0.5> : tensor<1x1x16x16xf32>} : () -> tensor<1x1x16x16xf32> loc("net/w")
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x4x4x16xf32> loc("net/conv")
  %1 = "tf.Sigmoid"(%0) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("net/sigmoid")
  %2 = "tf.MaxPool"(%1) {ksize = [1, 2, 2, 2], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("net/pool")
  %3 = "tf.Relu"(%2) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("net/relu")
  return %3 : tensor<1x4x4x16xf32>
}
