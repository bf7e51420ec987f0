// The pass lists of kiln-tf-to-linalg-pipeline and kiln-tf-to-cpu-pipeline,
// as docs/pipelines.md gives them.
// RUN: kiln-opt %s --kiln-tf-to-linalg-pipeline=freeze-read-only-variables=false --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINALG
// LINALG:      builtin.module(
// LINALG-NEXT:   tf-resource-variables-to-globals{freeze-read-only=false},
// LINALG-NEXT:   tf-lower-tensor-lists,
// LINALG-NEXT:   kiln-report-unsupported-ops,
// LINALG-NEXT:   func.func(
// LINALG-NEXT:     convert-tf-control-flow-to-scf,
// LINALG-NEXT:     convert-tf-to-linalg,
// LINALG-NEXT:     canonicalize
// LINALG-NEXT:     cse
// LINALG-NEXT:   ),
// LINALG-NEXT:   convert-ml-program-to-memref
// LINALG-NEXT: )

// The four phases in order: graph, linalg, entry ABI, LLVM.
// RUN: kiln-opt %s --kiln-tf-to-cpu-pipeline="symbol=net" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// CPU:      tf-executor-prune-dead-nodes
// CPU:      tf-shape-inference
// CPU:      tf-resource-variables-to-globals
// CPU:      convert-tf-to-linalg
// CPU:      convert-ml-program-to-memref
// CPU-NEXT: kiln-cpu-entry-abi{{[{] *}}entry=main symbol=net}
// CPU-NEXT: symbol-dce
// CPU:      kiln-cpu-tile-and-vectorize
// CPU:      one-shot-bufferize
// CPU:      kiln-verify-llvm-contract

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
