// RUN: kiln-opt %s -split-input-file --kiln-cpu-outline-layers="min-ops=0 min-layer-ops=0" | FileCheck %s
// RUN: kiln-opt %s -split-input-file --kiln-cpu-outline-layers | FileCheck %s --check-prefix=SMALL
// RUN: kiln-opt %s -split-input-file --kiln-cpu-outline-layers="min-ops=0 min-layer-ops=0" \
// RUN:   --convert-scf-to-cf --finalize-memref-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts \
// RUN:   | kiln-translate -split-input-file --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// Each top-level loop nest becomes a private, non-inlined function of the
// buffers and sizes it uses; index constants are cloned in, and a loop's
// results come back from the call.

// CHECK-LABEL: func.func private @model_layer0(
// CHECK-SAME:      %{{.*}}: memref<64xf32>, %{{.*}}: memref<64xf32>, %{{.*}}: index)
// CHECK-SAME:      attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-DAG:     arith.constant 0 : index
// CHECK-DAG:     arith.constant 1 : index
// CHECK:         scf.for
// CHECK:         memref.load
// CHECK:         memref.store
// CHECK-LABEL: func.func private @model_layer1(
// CHECK-SAME:      %{{.*}}: memref<64xf32>) -> f32
// CHECK-DAG:     arith.constant 0.0
// CHECK-DAG:     arith.constant 64 : index
// CHECK:         scf.for {{.*}} iter_args
// CHECK:         return
// CHECK-LABEL: func.func @model(
// CHECK-SAME:      %[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>, %[[N:.*]]: index)
// CHECK-NOT:     scf.for
// CHECK:         call @model_layer0(%[[A]], %[[B]], %[[N]])
// CHECK-NEXT:    %[[SUM:.*]] = call @model_layer1(%[[B]])
// CHECK-NEXT:    return %[[SUM]]

// Small functions keep their loops: the default min-ops is 2000.
// SMALL-LABEL: func.func @model(
// SMALL:         scf.for
// SMALL:         scf.for
// SMALL-NOT:     call

// In the object, the layers are internal (two models link into one program)
// and not inlined back into the entry.
// LLVM: define internal void @model_layer0({{.*}}) #[[ATTRS:[0-9]+]]
// LLVM: define internal float @model_layer1({{.*}}) #[[ATTRS]]
// LLVM: define float @model(
// LLVM:   call void @model_layer0(
// LLVM:   call float @model_layer1(
// LLVM: attributes #[[ATTRS]] = { noinline }
func.func @model(%a: memref<64xf32>, %b: memref<64xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<64xf32>
    memref.store %x, %b[%i] : memref<64xf32>
  }
  %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %b[%i] : memref<64xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  return %sum : f32
}

// -----

// A name already taken is skipped.
// CHECK-LABEL: func.func private @f_layer0()
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @f_layer1(
// CHECK-LABEL: func.func private @f_layer2(
// CHECK-LABEL: func.func @f(
// CHECK:         call @f_layer1(
// CHECK:         call @f_layer2(
func.func private @f_layer0() {
  return
}
func.func @f(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %a[%i] : memref<8xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %a[%i] : memref<8xf32>
    %y = arith.mulf %x, %x : f32
    memref.store %y, %a[%i] : memref<8xf32>
  }
  return
}

// -----

// A function that is one loop nest (a layer outlined before, when the
// pipeline runs the pass again) is left as it is.
// CHECK-NOT:   @one_layer0
// CHECK-LABEL: func.func @one(
// CHECK:         scf.for
// CHECK-NOT:     call
func.func @one(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %a[%i] : memref<8xf32>
    memref.store %x, %a[%i] : memref<8xf32>
  }
  return
}
