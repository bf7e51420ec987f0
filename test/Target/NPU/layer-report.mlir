// Per-layer reports: the pipeline records each npu op's estimate and lower
// bound, --npuhw-to-npub writes them to the COST section under the DEBUG tag
// of the op's commands, and kiln-npu-sim --layer_report prints them beside
// the measured cycles of each layer (named after its TensorFlow node); the
// trace names its slices the same way. --npub-to-npuhw keeps the figures, so
// the file round-trips byte for byte.

// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline="lmem-resident=false cascade=false" --mlir-print-debuginfo | kiln-translate --npuhw-to-npub -o %t/m.npub
// RUN: head -c 8192 /dev/zero | tr '\000' '\074' > %t/x.bin
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/m.npub --input=x=%t/x.bin --stats=false --layer_report=markdown --trace=%t/t.json | FileCheck %s --check-prefix=MD
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/m.npub --input=x=%t/x.bin --stats=false --layer_report=csv | FileCheck %s --check-prefix=CSV
// RUN: FileCheck %s --check-prefix=TRACE < %t/t.json
// RUN: kiln-translate --npub-to-npuhw %t/m.npub --mlir-print-debuginfo | FileCheck %s --check-prefix=IMPORT
// RUN: kiln-translate --npub-to-npuhw %t/m.npub --mlir-print-debuginfo | kiln-translate --npuhw-to-npub -o %t/again.npub
// RUN: cmp %t/m.npub %t/again.npub
// RUN: not %kiln_obj_root/bin/kiln-npu-sim %t/m.npub --layer_report=html 2>&1 | FileCheck %s --check-prefix=BAD

// MD:      | layer | op | commands | estimate | lower bound | bound | measured | estimate / measured | measured / bound | MAC util. |
// MD-NEXT: |---|---|---:|---:|---:|---|---:|---:|---:|---:|
// MD-NEXT: | model/conv1/Relu | npu.conv2d | [[N:[0-9]+]] | [[E:[0-9]+]] | [[B:[0-9]+]] | DRAM | [[M:[0-9]+]] | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}}% |
// MD-NEXT: | model/add | npu.add | {{[0-9]+}} | {{[0-9]+}} | {{[0-9]+}} | DRAM | {{[0-9]+}} | {{[0-9.]+}} | {{[0-9.]+}} | 0.0% |
// MD-NEXT: | **total** | | | {{[0-9]+}} | {{[0-9]+}} | | {{[0-9]+}} | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}}% |
// MD:      2 of 2 layers with an estimate are within 15% of their measured cycles; measured / lower bound:

// CSV:      layer,op,commands,start,end,measured,estimate,lower_bound,bound,mac_cycles,vec_cycles,dram_cycles,useful_macs,padded_macs,mac_utilisation,dma_in_occupied,dma_out_occupied,mac_occupied,vec_occupied
// CSV-NEXT: model/conv1/Relu,npu.conv2d,{{[0-9]+}},0,{{[0-9]+}},{{[0-9]+}},{{[0-9]+}},{{[0-9]+}},DRAM,{{[0-9]+}},{{[0-9]+}},{{[0-9]+}},589824,589824,
// CSV-NEXT: model/add,npu.add,
// CSV:      # total cycles

// Command slices (all of the conv's, then the add's: the intermediate goes
// through DRAM, lmem-resident=false, so the conv's stores are not copies on
// DMA_IN that run among the add's loads), then the layers track.
// TRACE: "name": "layers"
// TRACE: "name": "model/conv1/Relu",
// TRACE-NEXT: "cat": "DMA_IN",
// TRACE: "name": "model/add",
// TRACE-NEXT: "cat": "DMA_IN",
// TRACE: "name": "model/conv1/Relu",
// TRACE-NEXT: "cat": "layer",
// TRACE: "name": "model/add",
// TRACE-NEXT: "cat": "layer",

// IMPORT: npu.layer_costs = {main = [{dram = {{[0-9]+}} : i64, estimate = {{[0-9]+}} : i64, loc = #[[L:loc[0-9]*]], mac = {{[0-9]+}} : i64, macs = 0 : i64, vec = {{[0-9]+}} : i64}, {dram = {{[0-9]+}} : i64, estimate = {{[0-9]+}} : i64, loc = #{{loc[0-9]*}}, mac = 4608 : i64, macs = 589824 : i64

// BAD: --layer_report=html: expected 'markdown' or 'csv'

module attributes {npu.target = #npu.target<"realistic">} {
  func.func @layers(%x: tensor<1x16x16x16xf16>) -> tensor<1x16x16x16xf16>
      attributes {tf.entry_function = {inputs = "x", outputs = "y"}} {
    %w = arith.constant dense<0.5> : tensor<3x3x16x16xf16>
    %c = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x16x16x16xf16>, tensor<3x3x16x16xf16>) -> tensor<1x16x16x16xf16> loc("model/conv1/Relu")
    %y = npu.add %c, %x : (tensor<1x16x16x16xf16>, tensor<1x16x16x16xf16>) -> tensor<1x16x16x16xf16> loc("model/add")
    return %y : tensor<1x16x16x16xf16>
  }
}
