// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown target configuration 'fast' (expected 'default' or 'realistic')}}
module attributes {npu.target = #npu.target<"fast">} {}

// -----

// expected-error @+1 {{target config: unknown key 'mac.depth'}}
module attributes {npu.target = #npu.target<"default", {"mac.depth" = 4 : i64}>} {}

// -----

// expected-error @+1 {{target config: 'mac.rows' and 'mac.cols' must be multiples of 16}}
module attributes {npu.target = #npu.target<"default", {"mac.rows" = 20 : i64}>} {}

// -----

// expected-error @+1 {{target config: 'semaphores' must be an unsigned 32-bit integer}}
module attributes {npu.target = #npu.target<"default", {semaphores = -1 : i64}>} {}

// -----

// expected-error @+1 {{target config: 'dma.dram_latency' must be an unsigned 32-bit integer}}
module attributes {npu.target = #npu.target<"default", {"dma.dram_latency" = "slow"}>} {}

// -----

// expected-error @+1 {{target config: LMEM regions total 16832 KiB, more than the 24-bit address space (16384 KiB)}}
module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 16384 : i64}>} {}
