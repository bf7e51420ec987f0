// RUN: kiln-opt %s -split-input-file -verify-diagnostics

module attributes {npu.target = #npu.target<"default">} {
  npuhw.stream @misaligned {
    // expected-error @+1 {{starts at byte offset 8, which is not 16-byte aligned}}
    %v = npuhw.view : memref<16xi8, strided<[1], offset: 8>, #npuhw.lmem<act>>
    npuhw.end
  }
}

// -----

module attributes {npu.target = #npu.target<"default", {"lmem.param_kib" = 1 : i64}>} {
  npuhw.stream @outside {
    // expected-error @+1 {{ends at byte 1040 of LMEM region PARAM, which has 1024 bytes}}
    %v = npuhw.view : memref<32xi8, strided<[1], offset: 1008>, #npuhw.lmem<param>>
    npuhw.end
  }
}

// -----

npuhw.stream @dynamic {
  // expected-error @+1 {{expects a static shape and a static strided layout with non-negative strides}}
  %v = npuhw.view : memref<16xi8, strided<[1], offset: ?>, #npuhw.lmem<act>>
  npuhw.end
}

// -----

npuhw.stream @undeclared {
  // expected-error @+1 {{names DRAM region 2, which is not declared}}
  %v = npuhw.view : memref<16xi8, strided<[1]>, #npuhw.dram<2>>
  npuhw.end
}

// -----

npuhw.stream @too_small {
  npuhw.region 2 input size 16
  // expected-error @+1 {{ends at byte 32 of DRAM region 2, which has 16 bytes}}
  %v = npuhw.view : memref<32xi8, strided<[1]>, #npuhw.dram<2>>
  npuhw.end
}

// -----

npuhw.stream @late_decl {
  %v = npuhw.view : memref<16xi8, strided<[1]>, #npuhw.lmem<act>>
  // expected-error @+1 {{must precede every view, buffer and command of the stream}}
  npuhw.region 2 input size 16
  npuhw.end
}

// -----

npuhw.stream @twice {
  npuhw.region 2 input size 16
  // expected-error @+1 {{declares DRAM region 2 a second time}}
  npuhw.region 2 output size 16
  npuhw.end
}

// -----

npuhw.stream @const_region {
  // expected-error @+1 {{declares DRAM region 1 const: region 0, and only it, holds the constants}}
  npuhw.region 1 const size 16
  npuhw.end
}

// -----

npuhw.stream @const_size {
  npuhw.region 0 const size 32
  // expected-error @+1 {{holds 16 bytes but DRAM region 0 is not declared const of that size}}
  npuhw.const dense<0> : tensor<16xi8>
  npuhw.end
}

// -----

npuhw.stream @io_region {
  // expected-error @+1 {{names DRAM region 4, which is not declared}}
  npuhw.io input "x" region 4 offset 0 i8 [1, 2] nhwc scale 1.0 zp 0
  npuhw.end
}

// -----

npuhw.stream @field_range {
  %a = npuhw.view : memref<16xi8, strided<[1]>, #npuhw.lmem<acc>>
  // expected-error @+1 {{attribute 'pattern' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0 whose maximum value is 4294967295}}
  %t = npuhw.dma_fill dst(%a : memref<16xi8, strided<[1]>, #npuhw.lmem<acc>>) {pattern = -1}
  npuhw.end
}

// -----

npuhw.stream @semaphore_none {
  // expected-error @+1 {{attribute 'wait0' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0 whose maximum value is 254}}
  %t = npuhw.nop {wait0 = 255}
  npuhw.end
}

// -----

npuhw.stream @fill_size {
  %a = npuhw.view : memref<24xi8, strided<[1]>, #npuhw.lmem<acc>>
  // expected-error @+1 {{operand 'dst' spans 24 bytes; a fill is a positive multiple of 16}}
  %t = npuhw.dma_fill dst(%a : memref<24xi8, strided<[1]>, #npuhw.lmem<acc>>)
  npuhw.end
}

// -----

npuhw.stream @mac_writes_act {
  %x = npuhw.view : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>
  %w = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>
  %y = npuhw.view : memref<1x1x1x16xi32, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>
  // expected-error @+1 {{operand 'out': engine MAC may not write LMEM.ACT}}
  %t = npuhw.mac_conv in(%x : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%y : memref<1x1x1x16xi32, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>) {kh = 1, kw = 1}
  npuhw.end
}

// -----

npuhw.stream @mac_dtype {
  %x = npuhw.view : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>
  %w = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>
  %y = npuhw.view : memref<1x1x1x16xf32, strided<[16, 16, 16, 1]>, #npuhw.lmem<acc>>
  // expected-error @+1 {{operand 'out' has element type 'f32'; expected i32}}
  %t = npuhw.mac_conv in(%x : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%y : memref<1x1x1x16xf32, strided<[16, 16, 16, 1]>, #npuhw.lmem<acc>>) {kh = 1, kw = 1}
  npuhw.end
}

// -----

npuhw.stream @mac_weights {
  %x = npuhw.view : memref<1x1x2x16xi8, strided<[32, 32, 16, 1]>, #npuhw.lmem<act>>
  %w = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>
  %y = npuhw.view : memref<1x1x1x16xi32, strided<[16, 16, 16, 1]>, #npuhw.lmem<acc>>
  // expected-error @+1 {{operand 'weights' spans 256 bytes; the command reads 4608}}
  %t = npuhw.mac_conv in(%x : memref<1x1x2x16xi8, strided<[32, 32, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%y : memref<1x1x1x16xi32, strided<[16, 16, 16, 1]>, #npuhw.lmem<acc>>) {kh = 3, kw = 3}
  npuhw.end
}

// -----

npuhw.stream @lanes {
  %x = npuhw.view : memref<1x1x1x8xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>
  %y = npuhw.view : memref<1x1x1x16xi8, strided<[16, 16, 16, 1], offset: 16>, #npuhw.lmem<act>>
  // expected-error @+1 {{operand 'in' must be a feature map [h][w][cb][16] with sizes in [1, 65535]}}
  %t = npuhw.vec_pool max in(%x : memref<1x1x1x8xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>) out(%y : memref<1x1x1x16xi8, strided<[16, 16, 16, 1], offset: 16>, #npuhw.lmem<act>>)
  npuhw.end
}

// -----

npuhw.stream @stride_units {
  %x = npuhw.view : memref<2x1x1x16xi8, strided<[24, 16, 16, 1]>, #npuhw.lmem<act>>
  %y = npuhw.view : memref<2x1x1x16xi8, strided<[32, 16, 16, 1], offset: 64>, #npuhw.lmem<act>>
  // expected-error @+1 {{operand 'in' has stride 24 in dimension 0, which is not a whole number of 16-byte units}}
  %t = npuhw.vec_pool max in(%x : memref<2x1x1x16xi8, strided<[24, 16, 16, 1]>, #npuhw.lmem<act>>) out(%y : memref<2x1x1x16xi8, strided<[32, 16, 16, 1], offset: 64>, #npuhw.lmem<act>>)
  npuhw.end
}

// -----

npuhw.stream @scalar_in2 {
  %x = npuhw.view : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>
  %p = npuhw.view : memref<64xi8, strided<[1]>, #npuhw.lmem<param>>
  // expected-error @+1 {{takes an 'in2' operand exactly when 'bcast' is not scalar}}
  %t = npuhw.vec_eltwise add scalar in(%x : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>) in2(%x : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>) params(%p : memref<64xi8, strided<[1]>, #npuhw.lmem<param>>) out(%x : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>)
  npuhw.end
}

// -----

npuhw.stream @channel_shape {
  %x = npuhw.view : memref<2x2x1x16xi8, strided<[32, 16, 16, 1]>, #npuhw.lmem<act>>
  %p = npuhw.view : memref<64xi8, strided<[1]>, #npuhw.lmem<param>>
  // expected-error @+1 {{operand 'in2' must be 1x1x1 for bcast channel}}
  %t = npuhw.vec_eltwise add channel in(%x : memref<2x2x1x16xi8, strided<[32, 16, 16, 1]>, #npuhw.lmem<act>>) in2(%x : memref<2x2x1x16xi8, strided<[32, 16, 16, 1]>, #npuhw.lmem<act>>) params(%p : memref<64xi8, strided<[1]>, #npuhw.lmem<param>>) out(%x : memref<2x2x1x16xi8, strided<[32, 16, 16, 1]>, #npuhw.lmem<act>>)
  npuhw.end
}

// -----

npuhw.stream @lut_table {
  %x = npuhw.view : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>
  // expected-error @+1 {{takes a 'table' operand exactly when 'op' is lut}}
  %t = npuhw.vec_unary lut in(%x : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>) out(%x : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>)
  npuhw.end
}

// -----

npuhw.stream @requant_shape {
  %a = npuhw.view : memref<1x2x1x16xi32, strided<[32, 16, 16, 1]>, #npuhw.lmem<acc>>
  %p = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>
  %y = npuhw.view : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>
  // expected-error @+1 {{operands 'in' and 'out' differ in h, w or cb}}
  %t = npuhw.vec_requant in(%a : memref<1x2x1x16xi32, strided<[32, 16, 16, 1]>, #npuhw.lmem<acc>>) params(%p : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>) out(%y : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>)
  npuhw.end
}

// -----

npuhw.stream @dma_stride {
  npuhw.region 2 input size 64
  %d = npuhw.view : memref<64xi8, strided<[1]>, #npuhw.dram<2>>
  %a = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>
  // expected-error @+1 {{field 'dst_s0' is 8; LMEM-side strides are multiples of 16}}
  %t = npuhw.dma_load src(%d : memref<64xi8, strided<[1]>, #npuhw.dram<2>>) dst(%a : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>) {n0 = 2, n1 = 1, n2 = 1, src_run = 8, dst_run = 8, src_s0 = 8, dst_s0 = 8}
  npuhw.end
}

// -----

npuhw.stream @dma_extent {
  npuhw.region 2 input size 64
  %d = npuhw.view : memref<64xi8, strided<[1]>, #npuhw.dram<2>>
  %a = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>
  // expected-error @+1 {{operand 'src' spans 64 bytes but the transfer reaches byte 96}}
  %t = npuhw.dma_load src(%d : memref<64xi8, strided<[1]>, #npuhw.dram<2>>) dst(%a : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>) {n0 = 3, n1 = 1, n2 = 1, src_run = 32, dst_run = 32, src_s0 = 32, dst_s0 = 32}
  npuhw.end
}

// -----

npuhw.stream @dma_from_wgt {
  %w = npuhw.view : memref<16xi8, strided<[1]>, #npuhw.lmem<wgt>>
  %a = npuhw.view : memref<16xi8, strided<[1]>, #npuhw.lmem<act>>
  // expected-error @+1 {{operand 'src': engine DMA_IN may not read LMEM.WGT}}
  %t = npuhw.dma_load src(%w : memref<16xi8, strided<[1]>, #npuhw.lmem<wgt>>) dst(%a : memref<16xi8, strided<[1]>, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 16, dst_run = 16}
  npuhw.end
}

// -----

npuhw.stream @alloc_layout {
  // expected-error @+1 {{expects a static shape and an identity layout}}
  %b = npuhw.alloc : memref<16xi8, strided<[1], offset: 16>, #npuhw.lmem<act>>
  npuhw.end
}

// -----

func.func @outside_stream() {
  // expected-error @+1 {{expects parent op 'npuhw.stream'}}
  %t = npuhw.nop
  return
}

// -----

npuhw.stream @no_end {
  // expected-error @+1 {{block with no terminator}}
  %t = npuhw.nop
}

// -----

module attributes {npu.target = #npu.target<"default", {"semaphores" = 8 : i64}>} {
  npuhw.stream @semaphore_count {
    // expected-error @+1 {{field 'signal1' names semaphore 8 but the target has 8}}
    %t = npuhw.nop {signal1 = 8}
    npuhw.end
  }
}
