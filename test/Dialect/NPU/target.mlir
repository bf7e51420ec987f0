// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s

// CHECK: module attributes {npu.target = #npu.target<"realistic">}
module attributes {npu.target = #npu.target<"realistic">} {}

// -----

// CHECK: module attributes {npu.target = #npu.target<"default", {lmem.act_kib = 128 : i64, mac.rows = 32 : i64}>}
module attributes {npu.target = #npu.target<"default", {"mac.rows" = 32 : i64, "lmem.act_kib" = 128 : i64}>} {}
