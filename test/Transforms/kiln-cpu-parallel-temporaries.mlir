// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-parallel-temporaries))' | FileCheck %s

// A tile temporary inside a forall goes on the stack.
// CHECK-LABEL: func.func @tile_temporary
// CHECK: scf.forall
// CHECK-NEXT: %[[T:.+]] = memref.alloca() {alignment = 64 : i64} : memref<1x32xf32>
// CHECK-NEXT: vector.transfer_write %{{.+}}, %[[T]]
// CHECK-NOT: memref.alloc()
func.func @tile_temporary(%out: memref<16x32xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant dense<1.0> : vector<1x32xf32>
  %z = arith.constant 0.0 : f32
  scf.forall (%i) in (16) {
    %t = memref.alloc() {alignment = 64 : i64} : memref<1x32xf32>
    vector.transfer_write %cst, %t[%c0, %c0] {in_bounds = [true, true]} : vector<1x32xf32>, memref<1x32xf32>
    %v = vector.transfer_read %t[%c0, %c0], %z {in_bounds = [true, true]} : memref<1x32xf32>, vector<1x32xf32>
    vector.transfer_write %v, %out[%i, %c0] {in_bounds = [true, true]} : vector<1x32xf32>, memref<16x32xf32>
  }
  return
}

// -----

// Outside a forall, too large (128 KiB), or passed to a call: left alone.
func.func private @use(memref<4xf32>)
// CHECK-LABEL: func.func @kept
// CHECK: memref.alloc() : memref<32xf32>
// CHECK: scf.forall
// CHECK-NEXT: memref.alloc() : memref<32768xf32>
// CHECK-NEXT: memref.alloc() : memref<4xf32>
// CHECK-NOT: memref.alloca
func.func @kept(%out: memref<16x32xf32>) -> memref<32xf32> {
  %a = memref.alloc() : memref<32xf32>
  scf.forall (%i) in (16) {
    %big = memref.alloc() : memref<32768xf32>
    %small = memref.alloc() : memref<4xf32>
    func.call @use(%small) : (memref<4xf32>) -> ()
  }
  return %a : memref<32xf32>
}
