// The pass list of kiln-npu-to-npuhw-pipeline, as docs/pipelines.md gives
// it: npu-record-costs first, the options reach convert-npu-to-npuhw,
// verify-stream=false drops the stream check, and npuhw-estimate-layers ends
// it.
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline="max-rows-per-band=2 max-blocks-per-group=1 overlap-ops=false lmem-resident=false cascade=false" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline="verify-stream=false" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOVERIFY
// CHECK:      builtin.module(
// CHECK-NEXT:   npu-record-costs,
// CHECK-NEXT:   convert-npu-to-npuhw{cascade=false lmem-resident=false max-blocks-per-group=1 max-rows-per-band=2 overlap-ops=false},
// CHECK-NEXT:   npuhw.stream(
// CHECK-NEXT:     npuhw-allocate-lmem,
// CHECK-NEXT:     npuhw-assign-semaphores,
// CHECK-NEXT:     npuhw-verify-stream
// CHECK-NEXT:   ),
// CHECK-NEXT:   npuhw-estimate-layers
// CHECK-NEXT: )
// NOVERIFY:      npuhw-assign-semaphores
// NOVERIFY-NEXT: ),
// NOVERIFY-NEXT: npuhw-estimate-layers
module {}
