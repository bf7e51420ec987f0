// RUN: kiln-opt %s -split-input-file --allow-unregistered-dialect --kiln-cpu-caller-buffers | FileCheck %s

// The result's buffer becomes the fetch argument, the arena of
// kiln-cpu-plan-buffers and an i1 buffer move into the arena argument (the
// arena's views rebased, the i1 buffer a view at the next 64-byte offset),
// and the entry allocates the result and the arena and calls the variant.

// CHECK: module attributes {kiln.arena = {model = array<i64: 192, 72>}}
// CHECK-LABEL: func.func @model_with_buffers
// CHECK-SAME: (%[[X:.+]]: memref<4xf32>, %[[OUT:.+]]: memref<4xf32>, %[[ARENA:.+]]: memref<192xi8>)
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-NOT: memref.alloc
// CHECK: %[[BASE:.+]] = arith.constant 0 : index
// CHECK: %[[SHIFT:.+]] = arith.addi %[[BASE]], %{{.+}} : index
// CHECK: %[[A:.+]] = memref.view %[[ARENA]][%[[SHIFT]]][] : memref<192xi8> to memref<16xf32>
// CHECK: %[[BASE2:.+]] = arith.constant 128 : index
// CHECK: %[[MASK:.+]] = memref.view %[[ARENA]][%[[BASE2]]][] : memref<192xi8> to memref<8xi1>
// CHECK: linalg.copy ins(%[[X]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK: return{{$}}
// CHECK-LABEL: func.func @model
// CHECK-SAME: (%[[Y:.+]]: memref<4xf32>) -> memref<4xf32> attributes {llvm.emit_c_interface}
// CHECK: %[[R:.+]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK: %[[AR:.+]] = memref.alloc() {alignment = 64 : i64} : memref<192xi8>
// CHECK: call @model_with_buffers(%[[Y]], %[[R]], %[[AR]])
// CHECK: return %[[R]] : memref<4xf32>
func.func @model(%x: memref<4xf32>) -> memref<4xf32>
    attributes {llvm.emit_c_interface} {
  %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
  %c64 = arith.constant 64 : index
  %a = memref.view %arena[%c64][] : memref<128xi8> to memref<16xf32>
  %mask = memref.alloc() : memref<8xi1>
  %r = memref.alloc() : memref<4xf32>
  "test.use"(%a, %mask) : (memref<16xf32>, memref<8xi1>) -> ()
  linalg.copy ins(%x : memref<4xf32>) outs(%r : memref<4xf32>)
  return %r : memref<4xf32>
}

// -----

// A result that is an input, or the same buffer twice, is copied into its
// fetch argument; no arena is needed (size 0).

// CHECK: kiln.arena = {twice = array<i64: 0, 0>}
// CHECK-LABEL: func.func @twice_with_buffers
// CHECK-SAME: (%[[X:.+]]: memref<4xf32>, %[[O0:.+]]: memref<4xf32>, %[[O1:.+]]: memref<4xf32>, %[[O2:.+]]: memref<4xf32>, %{{.+}}: memref<0xi8>)
// CHECK: linalg.copy ins(%[[X]] : memref<4xf32>) outs(%[[O0]] : memref<4xf32>)
// CHECK: memref.copy %[[O0]], %[[O1]]
// CHECK: memref.copy %[[X]], %[[O2]]
// CHECK: return{{$}}
func.func @twice(%x: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>)
    attributes {llvm.emit_c_interface} {
  %r = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%r : memref<4xf32>)
  return %r, %r, %x : memref<4xf32>, memref<4xf32>, memref<4xf32>
}

// -----

// A tile's temporary, made by each iteration of a loop and not yielded,
// gets one place in the arena that every iteration reuses.

// CHECK: kiln.arena = {tile = array<i64: 64, 32>}
// CHECK-LABEL: func.func @tile_with_buffers
// CHECK-SAME: %[[ARENA:[^:]+]]: memref<64xi8>)
// CHECK: scf.for
// CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[T:.+]] = memref.view %[[ARENA]][%[[C0]]][] : memref<64xi8> to memref<8xf32>
// CHECK-NEXT: "test.use"(%[[T]])
func.func @tile(%x: memref<4xf32>) -> memref<4xf32>
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 3 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
    "test.use"(%t) : (memref<8xf32>) -> ()
  }
  return %x : memref<4xf32>
}

// -----

// Dynamic shapes, an allocation that leaves its loop, one in a parallel
// loop, and functions without a C interface keep their bodies.

// CHECK-NOT: kiln.arena
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: func.func @dynamic_with_buffers
// CHECK-LABEL: func.func @in_loop
// CHECK: scf.for
// CHECK: memref.alloc
// CHECK-NOT: func.func @in_loop_with_buffers
// CHECK-LABEL: func.func @in_parallel
// CHECK-NOT: func.func @in_parallel_with_buffers
// CHECK-LABEL: func.func @internal
// CHECK-NOT: func.func @internal_with_buffers
func.func @dynamic(%x: memref<?xf32>) -> memref<?xf32>
    attributes {llvm.emit_c_interface} {
  return %x : memref<?xf32>
}
func.func @in_loop(%x: memref<4xf32>) -> memref<4xf32>
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 3 : index
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %x) -> (memref<4xf32>) {
    %t = memref.alloc() : memref<4xf32>
    "test.use"(%t, %prev) : (memref<4xf32>, memref<4xf32>) -> ()
    scf.yield %t : memref<4xf32>
  }
  return %last : memref<4xf32>
}
func.func @in_parallel(%x: memref<4xf32>) -> memref<4xf32>
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 3 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %t = memref.alloc() : memref<4xf32>
    "test.use"(%t) : (memref<4xf32>) -> ()
  }
  return %x : memref<4xf32>
}
func.func @internal(%x: memref<4xf32>) -> memref<4xf32> {
  %r = memref.alloc() : memref<4xf32>
  return %r : memref<4xf32>
}
