//===- NPUHWOps.td - npuhw operations ----------------------*- tablegen -*-===//
//
// The stream container and its declarations, LMEM/DRAM views, and one op
// per NPU-v1 command. Command fields come from NPUHWFields.td, generated at
// build time from the runtime's field table.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_IR_NPUHWOPS_TD
#define KILN_DIALECTS_NPUHW_IR_NPUHWOPS_TD

include "dialects/NPUHW/IR/NPUHWAttrs.td"      // memory spaces, enums
include "dialects/NPUHW/IR/NPUHWDialect.td"    // NPUHW_Dialect
include "dialects/NPUHW/IR/NPUHWFields.td"     // NPUHW_<Op>Fields (generated)
include "dialects/NPUHW/IR/NPUHWInterfaces.td" // NPUHW_CommandOpInterface
include "dialects/NPUHW/IR/NPUHWTypes.td"      // NPUHW_Token
include "mlir/IR/BuiltinAttributes.td"         // ElementsAttr
include "mlir/IR/CommonTypeConstraints.td"     // IsMemRefTypePred
include "mlir/IR/OpBase.td"                    // Op, traits
include "mlir/IR/SymbolInterfaces.td"          // Symbol
include "mlir/Interfaces/SideEffectInterfaces.td" // Pure, MemRead, MemWrite

class NPUHW_Op<string mnemonic, list<Trait> traits = []>
    : Op<NPUHW_Dialect, mnemonic, traits>;

/// A memref in an LMEM region.
def NPUHW_LmemMemRef : Type<And<[IsMemRefTypePred, CPred<
    "::llvm::isa_and_nonnull<::kiln::npuhw::LmemRegionAttr>("
    "::llvm::cast<::mlir::MemRefType>($_self).getMemorySpace())">]>,
    "memref in LMEM", "::mlir::MemRefType">;
/// A memref in a DRAM region.
def NPUHW_DramMemRef : Type<And<[IsMemRefTypePred, CPred<
    "::llvm::isa_and_nonnull<::kiln::npuhw::DramSpaceAttr>("
    "::llvm::cast<::mlir::MemRefType>($_self).getMemorySpace())">]>,
    "memref in DRAM", "::mlir::MemRefType">;
/// A memref in LMEM or DRAM.
def NPUHW_NpuMemRef : AnyTypeOf<[NPUHW_LmemMemRef, NPUHW_DramMemRef],
    "memref in LMEM or DRAM", "::mlir::MemRefType">;

//===----------------------------------------------------------------------===//
// The stream and its declarations
//===----------------------------------------------------------------------===//

def NPUHW_StreamOp : NPUHW_Op<"stream", [Symbol, IsolatedFromAbove,
    SingleBlock]> {
  let summary = "An NPU-v1 command stream, one .npub file";
  let description = [{
    The body holds, in this order, the stream's declarations
    (`npuhw.region`, `npuhw.const`, `npuhw.io`), then views, buffers and
    commands; stream order is op order. It ends with `npuhw.end`. The
    target is the `npu.target` found by `kiln::npu::lookupTarget` (the
    "default" configuration when there is none).

    ```mlir
    module attributes {npu.target = #npu.target<"default">} {
      npuhw.stream @conv {
        npuhw.region 0 const size 64
        npuhw.region 2 input size 1024
        npuhw.const dense<0> : tensor<64xi8>
        npuhw.io input "x" region 2 offset 0 i8 [1, 8, 8, 16] nhwc scale 1.000000e+00 zp 0
        %x = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>
        %a = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.lmem<act>>
        %t = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%a : memref<1024xi8, strided<[1]>, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024, dst_run = 1024}
        npuhw.end
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The target configuration of this stream.
    ::kiln::npu::TargetConfig getTargetConfig();
  }];
}

def NPUHW_RegionOp : NPUHW_Op<"region", [HasParent<"StreamOp">]> {
  let summary = "Declares a DRAM region of the stream";
  let description = [{
    One REGIONS entry: the runtime binds at least `size` bytes to DRAM
    region `index`. Region 0 holds the constants and is `const`.

    ```mlir
    npuhw.region 2 input size 8192
    ```
  }];
  let arguments = (ins NPUHW_FieldAttr<0, 254>:$index,
                       NPUHW_RegionKindAttr:$kind,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$size);
  let assemblyFormat = "$index `` $kind `size` $size attr-dict";
  let hasVerifier = 1;
}

def NPUHW_ConstOp : NPUHW_Op<"const", [HasParent<"StreamOp">]> {
  let summary = "The stream's constants, bound as DRAM region 0";
  let description = [{
    The CONST section: weights, parameter records and tables that DMA
    commands load from `#npuhw.dram<0>`. Region 0 must be declared `const`
    with exactly this size.

    ```mlir
    npuhw.const dense<"0x0102..."> : tensor<4672xi8>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let assemblyFormat = "$value attr-dict";
  let hasVerifier = 1;
}

def NPUHW_IoOp : NPUHW_Op<"io", [HasParent<"StreamOp">]> {
  let summary = "Declares a model input or output tensor in DRAM";
  let description = [{
    One IO entry: a named tensor at `offset` in DRAM region `region`, with
    its element type, shape, layout and quantization.

    ```mlir
    npuhw.io input "x" region 2 offset 0 i8 [1, 16, 16, 32] nhwc scale 5.000000e-01 zp -3
    ```
  }];
  let arguments = (ins NPUHW_IoDirectionAttr:$direction, StrAttr:$name,
      NPUHW_FieldAttr<0, 254>:$region, NPUHW_FieldAttr<0, 4294967295>:$offset,
      TypeAttrOf<AnyTypeOf<[I8, I32, F16, F32]>>:$element_type,
      DenseI64ArrayAttr:$shape, NPUHW_IoLayoutAttr:$layout,
      F32Attr:$scale, I32Attr:$zero_point);
  let assemblyFormat = [{
    `` $direction $name `region` $region `offset` $offset $element_type $shape
    `` $layout `scale` $scale `zp` $zero_point attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def NPUHW_ViewOp : NPUHW_Op<"view", [Pure]> {
  let summary = "A memref at a fixed address in LMEM or DRAM";
  let description = [{
    The result's type is its address: the memory space names the LMEM or
    DRAM region and the strided layout's offset the position in it (in
    elements; bytes = offset * element size). Feature maps are
    `[h][w][cb][16]` with strides `[sh, sw, sc, 1]` in elements, flat
    buffers are `memref<Nxi8>`. The offset must be 16-byte aligned and the
    memref must lie inside its region.

    ```mlir
    %v = npuhw.view : memref<8x8x4x16xi8, strided<[512, 64, 16, 1], offset: 256>, #npuhw.lmem<act>>
    ```
  }];
  let results = (outs NPUHW_NpuMemRef:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def NPUHW_AllocOp : NPUHW_Op<"alloc", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "An LMEM buffer without an address yet";
  let description = [{
    A buffer in an LMEM region with an identity layout;
    `npuhw-allocate-lmem` gives it an address, replacing it (and the
    `memref.subview`s taken from it) by `npuhw.view`s. The serializer
    accepts only views. With `from_top`, the allocator places it as high
    in its region as it fits instead of as low as it fits: the lowering
    of a function of several ops puts the buffers of consecutive ops at
    opposite ends of each region, so that the two ops can run at the same
    time.

    ```mlir
    %b = npuhw.alloc : memref<8x8x4x16xi8, #npuhw.lmem<act>>
    %c = npuhw.alloc {from_top} : memref<1024xi8, #npuhw.lmem<wgt>>
    ```
  }];
  let arguments = (ins UnitAttr:$from_top);
  let results = (outs NPUHW_LmemMemRef:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Commands
//===----------------------------------------------------------------------===//

/// A command op: the opcode, the CommandOpInterface, tokens in and out, and
/// the field dictionary printed without integer types.
class NPUHW_CommandOp<string mnemonic, string opcode, list<Trait> traits = []>
    : NPUHW_Op<mnemonic, !listconcat([HasParent<"StreamOp">,
                                      NPUHW_CommandOpInterface], traits)> {
  code commandDecls = "static constexpr ::kiln::npu::Opcode kOpcode = "
                      "::kiln::npu::Opcode::" # opcode # ";";
  let extraClassDeclaration = commandDecls;
  let results = (outs NPUHW_Token:$token);
  let hasVerifier = 1;
}

/// The end of every command format: dependencies, then the fields.
defvar NPUHW_CommandTail =
    "(`after` `(` $deps^ `)`)? `` custom<Fields>(attr-dict)";
/// A labelled memref operand.
class NPUHW_Operand<string label, string name> {
  string format = label # "`(` $" # name # " `:` type($" # name # ") `)`";
}
defvar NPUHW_In = NPUHW_Operand<"`in`", "input">.format;
defvar NPUHW_Out = NPUHW_Operand<"`out`", "output">.format;
defvar NPUHW_Params = NPUHW_Operand<"`params`", "params">.format;
defvar NPUHW_Src = NPUHW_Operand<"`src`", "src">.format;
defvar NPUHW_Dst = NPUHW_Operand<"`dst`", "dst">.format;
defvar NPUHW_OptTable =
    "(`table` `(` $table^ `:` type($table) `)`)?";

def NPUHW_NopOp : NPUHW_CommandOp<"nop", "NOP"> {
  let summary = "NOP: a fence";
  let description = !strconcat([{
    Runs in the fetch unit once every earlier command has completed; it
    takes its waits and raises its signals.

    ```mlir
    %t = npuhw.nop after(%a, %b) {wait0 = 3, signal0 = 4}
    ```
  }], NPUHW_NopFieldDoc);
  let arguments = !con((ins Variadic<NPUHW_Token>:$deps), NPUHW_NopFields);
  let assemblyFormat = NPUHW_CommandTail;
}

def NPUHW_EndOp : NPUHW_CommandOp<"end", "END", [Terminator]> {
  let summary = "END: the last command of a stream";
  let description = !strconcat([{
    A fence that finishes the run; it terminates `npuhw.stream`.

    ```mlir
    npuhw.end after(%t)
    ```
  }], NPUHW_EndFieldDoc);
  let arguments = !con((ins Variadic<NPUHW_Token>:$deps), NPUHW_EndFields);
  let results = (outs);
  let assemblyFormat = NPUHW_CommandTail;
}

def NPUHW_DmaLoadOp : NPUHW_CommandOp<"dma_load", "DMA_LOAD"> {
  let summary = "DMA_LOAD: DRAM (or LMEM) to LMEM";
  let description = !strconcat([{
    Copies `n2 x n1 x n0` runs of `src_run` bytes from `src` (strides
    `src_s*`) to runs of `dst_run` bytes at `dst` (strides `dst_s*`), the
    tail of each destination run filled with `pad`. `region` and `src` come
    from the source memref (an LMEM source sets LMEM_SRC), `dst` from the
    destination.

    ```mlir
    %t = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%a : memref<1024xi8, strided<[1]>, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024, dst_run = 1024}
    ```
  }], NPUHW_DmaLoadFieldDoc);
  let arguments = !con((ins
      Arg<NPUHW_NpuMemRef, "source", [MemRead]>:$src,
      Arg<NPUHW_LmemMemRef, "destination", [MemWrite]>:$dst,
      Variadic<NPUHW_Token>:$deps), NPUHW_DmaLoadFields);
  let assemblyFormat = !strconcat(NPUHW_Src, " ", NPUHW_Dst, " ",
                                   NPUHW_CommandTail);
}

def NPUHW_DmaFillOp : NPUHW_CommandOp<"dma_fill", "DMA_FILL"> {
  let summary = "DMA_FILL: fill LMEM with a 32-bit pattern";
  let description = !strconcat([{
    Fills the destination memref (its byte size is `bytes`) with `pattern`.

    ```mlir
    %t = npuhw.dma_fill dst(%a : memref<256xi8, strided<[1]>, #npuhw.lmem<acc>>) {pattern = 0}
    ```
  }], NPUHW_DmaFillFieldDoc);
  let arguments = !con((ins
      Arg<NPUHW_LmemMemRef, "destination", [MemWrite]>:$dst,
      Variadic<NPUHW_Token>:$deps), NPUHW_DmaFillFields);
  let assemblyFormat = !strconcat(NPUHW_Dst, " ", NPUHW_CommandTail);
}

def NPUHW_DmaStoreOp : NPUHW_CommandOp<"dma_store", "DMA_STORE"> {
  let summary = "DMA_STORE: LMEM to DRAM";
  let description = !strconcat([{
    Copies `n2 x n1 x n0` runs of `src_run` bytes from LMEM to DRAM.

    ```mlir
    %t = npuhw.dma_store src(%a : memref<1024xi8, strided<[1]>, #npuhw.lmem<act>>) dst(%y : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024}
    ```
  }], NPUHW_DmaStoreFieldDoc);
  let arguments = !con((ins
      Arg<NPUHW_LmemMemRef, "source", [MemRead]>:$src,
      Arg<NPUHW_DramMemRef, "destination", [MemWrite]>:$dst,
      Variadic<NPUHW_Token>:$deps), NPUHW_DmaStoreFields);
  let assemblyFormat = !strconcat(NPUHW_Src, " ", NPUHW_Dst, " ",
                                   NPUHW_CommandTail);
}

/// MAC_CONV and MAC_DWCONV. With `accumulate` the output is also read.
class NPUHW_MacOp<string mnemonic, string opcode, dag fields>
    : NPUHW_CommandOp<mnemonic, opcode,
                      [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let arguments = !con((ins
      NPUHW_LmemMemRef:$input, NPUHW_LmemMemRef:$weights,
      NPUHW_LmemMemRef:$output, Variadic<NPUHW_Token>:$deps), fields);
  let assemblyFormat = !strconcat(NPUHW_In, " ",
      NPUHW_Operand<"`weights`", "weights">.format, " ", NPUHW_Out, " ",
      NPUHW_CommandTail);
}

def NPUHW_MacConvOp : NPUHW_MacOp<"mac_conv", "MAC_CONV", NPUHW_MacConvFields> {
  let summary = "MAC_CONV: 2-D convolution into accumulators";
  let description = !strconcat([{
    Convolves the `[h][w][cb][16]` input (i8 or f16, in ACT) with packed
    16x16 weight blocks (WGT) into an i32 or f32 output (ACC). An f16
    input sets the FP16 flag.

    ```mlir
    %t = npuhw.mac_conv in(%x : memref<6x8x1x16xi8, strided<[128, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<2304xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%acc : memref<4x8x1x16xi32, strided<[128, 16, 4, 1]>, #npuhw.lmem<acc>>) after(%l) {kh = 3, kw = 3, sy = 1, sx = 1, dy = 1, dx = 1, pl = 1, pr = 1}
    ```
  }], NPUHW_MacConvFieldDoc);
}

def NPUHW_MacDwconvOp
    : NPUHW_MacOp<"mac_dwconv", "MAC_DWCONV", NPUHW_MacDwconvFields> {
  let summary = "MAC_DWCONV: depthwise convolution into accumulators";
  let description = !strconcat([{
    Per-channel convolution; weights are `[cb][kh][kw][16]`.

    ```mlir
    %t = npuhw.mac_dwconv in(%x : memref<...>) weights(%w : memref<...>) out(%acc : memref<...>) {kh = 3, kw = 3, sy = 1, sx = 1, dy = 1, dx = 1}
    ```
  }], NPUHW_MacDwconvFieldDoc);
}

def NPUHW_VecRequantOp : NPUHW_CommandOp<"vec_requant", "VEC_REQUANT",
    [AttrSizedOperandSegments]> {
  let summary = "VEC_REQUANT: i32 to i8 with per-channel records";
  let description = !strconcat([{
    Requantizes an i32 feature map to i8 with the 16-byte records at
    `params`; a `table` operand sets the LUT flag.

    ```mlir
    %t = npuhw.vec_requant in(%acc : memref<...>) params(%p : memref<...>) out(%y : memref<...>) {out_zp = -3, min = -128, max = 127, double_round}
    ```
  }], NPUHW_VecRequantFieldDoc);
  let arguments = !con((ins
      Arg<NPUHW_LmemMemRef, "input", [MemRead]>:$input,
      Arg<NPUHW_LmemMemRef, "records", [MemRead]>:$params,
      Arg<Optional<NPUHW_LmemMemRef>, "lookup table", [MemRead]>:$table,
      Arg<NPUHW_LmemMemRef, "output", [MemWrite]>:$output,
      Variadic<NPUHW_Token>:$deps), NPUHW_VecRequantFields);
  let assemblyFormat = !strconcat(NPUHW_In, " ", NPUHW_Params, " ",
      NPUHW_OptTable, " ", NPUHW_Out, " ", NPUHW_CommandTail);
}

def NPUHW_VecEltwiseOp : NPUHW_CommandOp<"vec_eltwise", "VEC_ELTWISE",
    [AttrSizedOperandSegments]> {
  let summary = "VEC_ELTWISE: binary element-wise operation";
  let description = !strconcat([{
    `op` of `in` and `in2` (a tensor, or a 1x1xcb channel vector) or of
    `in` and the scalar of the 64-byte parameter block (`scalar`, no `in2`).

    ```mlir
    %t = npuhw.vec_eltwise add tensor in(%a : memref<...>) in2(%b : memref<...>) params(%p : memref<...>) out(%y : memref<...>)
    ```
  }], NPUHW_VecEltwiseFieldDoc);
  let arguments = !con((ins
      Arg<NPUHW_LmemMemRef, "input", [MemRead]>:$input,
      Arg<Optional<NPUHW_LmemMemRef>, "second input", [MemRead]>:$input2,
      Arg<NPUHW_LmemMemRef, "parameter block", [MemRead]>:$params,
      Arg<NPUHW_LmemMemRef, "output", [MemWrite]>:$output,
      Variadic<NPUHW_Token>:$deps), NPUHW_VecEltwiseFields);
  let assemblyFormat = !strconcat("`` $op `` $bcast ", NPUHW_In,
      " (`in2` `(` $input2^ `:` type($input2) `)`)? ", NPUHW_Params, " ",
      NPUHW_Out, " ", NPUHW_CommandTail);
}

def NPUHW_VecUnaryOp : NPUHW_CommandOp<"vec_unary", "VEC_UNARY",
    [AttrSizedOperandSegments]> {
  let summary = "VEC_UNARY: element-wise conversion, clamp, rescale or table";
  let description = !strconcat([{
    ```mlir
    %t = npuhw.vec_unary rescale in(%a : memref<...>) out(%y : memref<...>) {mult = 1073741824, shift = 31, min = -128, max = 127}
    ```
  }], NPUHW_VecUnaryFieldDoc);
  let arguments = !con((ins
      Arg<NPUHW_LmemMemRef, "input", [MemRead]>:$input,
      Arg<Optional<NPUHW_LmemMemRef>, "lookup table", [MemRead]>:$table,
      Arg<NPUHW_LmemMemRef, "output", [MemWrite]>:$output,
      Variadic<NPUHW_Token>:$deps), NPUHW_VecUnaryFields);
  let assemblyFormat = !strconcat("`` $op ", NPUHW_In, " ", NPUHW_OptTable, " ",
      NPUHW_Out, " ", NPUHW_CommandTail);
}

def NPUHW_VecPoolOp : NPUHW_CommandOp<"vec_pool", "VEC_POOL"> {
  let summary = "VEC_POOL: max, average or sum pooling";
  let description = !strconcat([{
    ```mlir
    %t = npuhw.vec_pool max in(%a : memref<...>) out(%y : memref<...>) {kh = 2, kw = 2, sy = 2, sx = 2, min = -128, max = 127}
    ```
  }], NPUHW_VecPoolFieldDoc);
  let arguments = !con((ins
      Arg<NPUHW_LmemMemRef, "input", [MemRead]>:$input,
      Arg<NPUHW_LmemMemRef, "output", [MemWrite]>:$output,
      Variadic<NPUHW_Token>:$deps), NPUHW_VecPoolFields);
  let assemblyFormat = !strconcat("`` $op ", NPUHW_In, " ", NPUHW_Out, " ",
      NPUHW_CommandTail);
}

#endif // KILN_DIALECTS_NPUHW_IR_NPUHWOPS_TD
