// npuhw-estimate-layers (last pass of kiln-npu-to-npuhw-pipeline): each
// layer's estimate becomes its span in a replay of the lowered stream. Here
// a convolution and two adds that share one location (one layer, one DEBUG
// tag): npu-record-costs predicts each op alone (the adds 8488 cycles each),
// but the layer spans both adds, the second waiting for the first's stores.
// The replay merges the two entries (lower-bound terms added), predicts the
// span the simulator measures, and records the stream's cycles. Both
// intermediates stay in LMEM (lmem-resident): the conv's result (8192 bytes,
// 2048 DRAM cycles in `realistic`) leaves the conv's `dram` term and the
// first add's, the first add's result both adds' (one layer: counted once
// for the location), so the layers' terms lose 2048 and 3 x 2048 cycles.

// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-opt %s --npu-record-costs | FileCheck %s --check-prefix=ALONE
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline | FileCheck %s
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline --mlir-print-debuginfo | kiln-translate --npuhw-to-npub -o %t/m.npub
// RUN: head -c 8192 /dev/zero > %t/x.bin
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/m.npub --input=arg0=%t/x.bin --stats=false --layer_report=markdown | FileCheck %s --check-prefix=SIM

// ALONE: npu.layer_costs = {pair = [{dram = 5248 : i64, estimate = 11708 : i64, {{.*}}}, {dram = 6160 : i64, estimate = 8488 : i64, {{.*}}}, {dram = 6160 : i64, estimate = 8488 : i64, {{.*}}}]}

// CHECK: npu.layer_costs = {pair = [{dram = 3200 : i64, estimate = 9288 : i64, loc = #{{loc[0-9]*}}, mac = 4608 : i64, macs = 589824 : i64, vec = 256 : i64}, {dram = 6176 : i64, estimate = 11556 : i64, loc = #{{loc[0-9]*}}, mac = 0 : i64, macs = 0 : i64, vec = 512 : i64}]}, npu.stream_estimates = {pair = 15788 : i64}

// SIM: | conv | npu.conv2d | {{[0-9]+}} | 9288 | 4608 | MAC | 9288 | 1.00 |
// SIM: | add | npu.add | {{[0-9]+}} | 11556 | 6176 | DRAM | 11556 | 1.00 |
// SIM: 2 of 2 layers with an estimate are within 15% of their measured cycles; measured / lower bound: 15788 / 10784

module attributes {npu.target = #npu.target<"realistic">} {
  func.func @pair(%x: tensor<1x16x16x16xf16>) -> tensor<1x16x16x16xf16> {
    %w = arith.constant dense<0.5> : tensor<3x3x16x16xf16>
    %c = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x16x16x16xf16>, tensor<3x3x16x16xf16>) -> tensor<1x16x16x16xf16> loc("conv")
    %a = npu.add %c, %x : (tensor<1x16x16x16xf16>, tensor<1x16x16x16xf16>) -> tensor<1x16x16x16xf16> loc("add")
    %y = npu.add %a, %a : (tensor<1x16x16x16xf16>, tensor<1x16x16x16xf16>) -> tensor<1x16x16x16xf16> loc("add")
    return %y : tensor<1x16x16x16xf16>
  }
}
