// The runtime's hand-built double-buffered convolution (kiln-npu-sim
// --example) imports as npuhw, re-exports byte for byte, and runs.

// RUN: rm -rf %t && mkdir -p %t
// RUN: %kiln_obj_root/bin/kiln-npu-sim --example=%t/conv.npub --example_input=%t/x.bin
// RUN: kiln-translate --npub-to-npuhw %t/conv.npub --mlir-print-debuginfo -o %t/conv.mlir
// RUN: FileCheck %s < %t/conv.mlir
// RUN: kiln-translate --npuhw-to-npub %t/conv.mlir -o %t/again.npub
// RUN: cmp %t/conv.npub %t/again.npub
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/again.npub --input=x=%t/x.bin --output=y=%t/y.bin | FileCheck %s --check-prefix=SIM
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/conv.npub --input=x=%t/x.bin --output=y=%t/y-expected.bin
// RUN: cmp %t/y.bin %t/y-expected.bin

// CHECK:      module attributes {npu.target = #npu.target<"default">}
// CHECK:      npuhw.stream @main
// CHECK:      npuhw.region 0 const size 37888
// CHECK:      npuhw.io input "x" region 2 offset 0 i8 [1, 32, 32, 64] nhwc
// CHECK:      %[[W:.+]] = npuhw.dma_load {{.*}} {dst_run = 36864, n0 = 1, n1 = 1, n2 = 1, signal0 = 0, src_run = 36864}
// CHECK:      %[[X:.+]] = npuhw.dma_load {{.*}} {{.*}}pad = 3, signal0 = 2
// CHECK-NEXT: npuhw.mac_conv {{.*}} after(%[[X]], %[[W]]) {{.*}}wait0 = 2, wait1 = 0} loc(#[[CONV:loc[0-9]+]])
// CHECK:      npuhw.end
// CHECK:      #[[FILE:loc[0-9]+]] = loc("example.py:12")
// CHECK:      #[[CONV]] = loc("conv2d"(#[[FILE]]))

// SIM: total cycles
// SIM: MAC{{ +}}8
