// RUN: kiln-opt %s -split-input-file \
// RUN:   --kiln-cpu-outline-layers="min-ops=0 min-layer-ops=3 chunk-ops=4" | FileCheck %s
// RUN: kiln-opt %s -split-input-file \
// RUN:   --kiln-cpu-outline-layers="min-ops=0 min-layer-ops=3 chunk-ops=0" | FileCheck %s --check-prefix=OFF
// RUN: kiln-opt %s -split-input-file \
// RUN:   --kiln-cpu-outline-layers="min-ops=0 min-layer-ops=4 chunk-ops=4" | FileCheck %s --check-prefix=LOOP

// What is left between the layers is outlined in chunks of at most
// chunk-ops operations (here four, then three), around an alloca that stays
// in the function. A value used after its chunk is the chunk's result;
// constants are cloned in, not passed.
// CHECK-LABEL: func.func private @g_chunk0(
// CHECK-SAME:      %[[X:.*]]: vector<8xf32>, %[[BUF:.*]]: memref<8xf32>) -> vector<8xf32>
// CHECK-SAME:      attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[X]], %[[X]]
// CHECK-NEXT:    %[[T:.*]] = arith.mulf %[[S]], %[[S]]
// CHECK-NEXT:    vector.transfer_write %[[T]], %[[BUF]][%[[C0]]]
// CHECK-NEXT:    call @ext(%[[BUF]])
// CHECK-NEXT:    return %[[T]]
// CHECK-LABEL: func.func private @g_chunk1(
// CHECK-SAME:      %[[BUF:.*]]: memref<8xf32>, %[[T:.*]]: vector<8xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[PAD:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[R:.*]] = vector.transfer_read %[[BUF]][%[[C0]]], %[[PAD]]
// CHECK-NEXT:    %[[U:.*]] = arith.subf %[[R]], %[[T]]
// CHECK-NEXT:    vector.transfer_write %[[U]], %[[OUT]][%[[C0]]]
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @g(
// CHECK-SAME:      %[[X:.*]]: vector<8xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK-NOT:     arith.addf
// CHECK:         %[[BUF:.*]] = memref.alloca() : memref<8xf32>
// CHECK-NEXT:    %[[T:.*]] = call @g_chunk0(%[[X]], %[[BUF]])
// CHECK-NOT:     vector.
// CHECK:         call @g_chunk1(%[[BUF]], %[[T]], %[[OUT]])
// CHECK-NEXT:    return

// Without chunk-ops, the function stays as it is.
// OFF-LABEL: func.func @g(
// OFF:         arith.addf
// OFF-NOT:     call @g_chunk
func.func private @ext(memref<8xf32>)
func.func @g(%x: vector<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %s = arith.addf %x, %x : vector<8xf32>
  %buf = memref.alloca() : memref<8xf32>
  %t = arith.mulf %s, %s : vector<8xf32>
  vector.transfer_write %t, %buf[%c0] : vector<8xf32>, memref<8xf32>
  call @ext(%buf) : (memref<8xf32>) -> ()
  %pad = arith.constant 0.0 : f32
  %r = vector.transfer_read %buf[%c0], %pad : memref<8xf32>, vector<8xf32>
  %u = arith.subf %r, %t : vector<8xf32>
  vector.transfer_write %u, %out[%c0] : vector<8xf32>, memref<8xf32>
  return
}

// -----

// An alloca sized by a value of the chunk before it ends that chunk; a run
// shorter than min-layer-ops (the call after the alloca) stays.
// CHECK-LABEL: func.func private @h_chunk0(
// CHECK-SAME:      %[[A:.*]]: index, %[[B:.*]]: index) -> index
// CHECK-NEXT:    %[[M:.*]] = arith.muli %[[A]], %[[B]]
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[M]], %[[A]]
// CHECK-NEXT:    %[[N:.*]] = arith.muli %[[S]], %[[B]]
// CHECK-NEXT:    return %[[N]]
// CHECK-LABEL: func.func @h(
// CHECK-SAME:      %[[A:.*]]: index, %[[B:.*]]: index)
// CHECK-NEXT:    %[[N:.*]] = call @h_chunk0(%[[A]], %[[B]])
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloca(%[[N]])
// CHECK-NEXT:    call @ext(%[[BUF]])
// CHECK-NEXT:    return
func.func private @ext(memref<?xf32>)
func.func @h(%a: index, %b: index) {
  %m = arith.muli %a, %b : index
  %s = arith.addi %m, %a : index
  %n = arith.muli %s, %b : index
  %buf = memref.alloca(%n) : memref<?xf32>
  call @ext(%buf) : (memref<?xf32>) -> ()
  return
}

// -----

// A loop too small to be a layer is part of a chunk, and so is the call of
// a layer outlined before: here the loop (four operations) and the layer's
// call make one chunk (min-layer-ops=4: the small loop has three
// operations, the layer six), the addf after them too few to make one.
// LOOP-LABEL: func.func private @k_layer0(
// LOOP:         arith.mulf
// LOOP-LABEL: func.func private @k_chunk0(
// LOOP-SAME:      %[[X:.*]]: f32, %[[A:.*]]: memref<8xf32>)
// LOOP:         scf.for
// LOOP-NEXT:      memref.store %[[X]], %[[A]]
// LOOP:         call @k_layer0(%[[A]])
// LOOP-NEXT:    return
// LOOP-LABEL: func.func @k(
// LOOP-NOT:     scf.for
// LOOP:         call @k_chunk0(
// LOOP-NEXT:    arith.addf
func.func @k(%a: memref<8xf32>, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %x, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    %w = arith.addf %v, %v : f32
    %y = arith.mulf %w, %w : f32
    memref.store %y, %a[%i] : memref<8xf32>
  }
  %r = arith.addf %x, %x : f32
  return %r : f32
}
