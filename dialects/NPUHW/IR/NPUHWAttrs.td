//===- NPUHWAttrs.td - #npuhw.* attributes -----------------*- tablegen -*-===//
//
// Memory spaces, the enums of command fields and stream declarations, and
// the integer constraint of a command field.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_IR_NPUHWATTRS_TD
#define KILN_DIALECTS_NPUHW_IR_NPUHWATTRS_TD

include "dialects/NPUHW/IR/NPUHWDialect.td" // NPUHW_Dialect
include "mlir/IR/AttrTypeBase.td"          // AttrDef
include "mlir/IR/EnumAttr.td"              // I32EnumAttr, EnumAttr
include "mlir/IR/CommonAttrConstraints.td" // ConfinedAttr, I64Attr

/// A command field: a signless 64-bit integer within the field's range.
class NPUHW_FieldAttr<int min, int max>
    : ConfinedAttr<I64Attr, [IntMinValue<min>, IntMaxValue<max>]>;

class NPUHW_Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::kiln::npuhw";
}

//===----------------------------------------------------------------------===//
// Memory spaces
//===----------------------------------------------------------------------===//

def NPUHW_LmemRegion : NPUHW_Enum<"LmemRegion", "an LMEM region", [
    I32EnumAttrCase<"act", 0>, I32EnumAttrCase<"wgt", 1>,
    I32EnumAttrCase<"acc", 2>, I32EnumAttrCase<"param", 3>]>;

def NPUHW_LmemRegionAttr : EnumAttr<NPUHW_Dialect, NPUHW_LmemRegion, "lmem"> {
  let summary = "An LMEM region as a memref memory space";
  let description = [{
    `#npuhw.lmem<act>`: the memref lives in that region of the on-chip
    LMEM. An offset of 0 is the region's first byte; the region's base in
    the 24-bit LMEM address space comes from the target configuration.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def NPUHW_DramSpaceAttr : AttrDef<NPUHW_Dialect, "DramSpace"> {
  let mnemonic = "dram";
  let summary = "A DRAM region as a memref memory space";
  let description = [{
    `#npuhw.dram<2>`: the memref lives in DRAM region r2; its offset is the
    byte offset in the region.
  }];
  let parameters = (ins "unsigned":$region);
  let assemblyFormat = "`<` $region `>`";
}

//===----------------------------------------------------------------------===//
// Command field enums (values are the runtime's encodings)
//===----------------------------------------------------------------------===//

def NPUHW_EltwiseOp : NPUHW_Enum<"EltwiseOp", "a VEC_ELTWISE operation", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"sub", 1>,
    I32EnumAttrCase<"mul", 2>, I32EnumAttrCase<"min", 3>,
    I32EnumAttrCase<"max", 4>]>;
def NPUHW_EltwiseOpAttr
    : EnumAttr<NPUHW_Dialect, NPUHW_EltwiseOp, "eltwise_op">;

def NPUHW_Broadcast : NPUHW_Enum<"Broadcast", "a VEC_ELTWISE broadcast", [
    I32EnumAttrCase<"tensor", 0>, I32EnumAttrCase<"scalar", 1>,
    I32EnumAttrCase<"channel", 2>]>;
def NPUHW_BroadcastAttr : EnumAttr<NPUHW_Dialect, NPUHW_Broadcast, "bcast">;

def NPUHW_UnaryOp : NPUHW_Enum<"UnaryOp", "a VEC_UNARY operation", [
    I32EnumAttrCase<"convert", 0>, I32EnumAttrCase<"abs", 1>,
    I32EnumAttrCase<"neg", 2>, I32EnumAttrCase<"clamp", 3>,
    I32EnumAttrCase<"rescale", 4>, I32EnumAttrCase<"lut", 5>]>;
def NPUHW_UnaryOpAttr : EnumAttr<NPUHW_Dialect, NPUHW_UnaryOp, "unary_op">;

def NPUHW_PoolOp : NPUHW_Enum<"PoolOp", "a VEC_POOL operation", [
    I32EnumAttrCase<"max", 0>, I32EnumAttrCase<"avg", 1>,
    I32EnumAttrCase<"sum", 2>]>;
def NPUHW_PoolOpAttr : EnumAttr<NPUHW_Dialect, NPUHW_PoolOp, "pool_op">;

//===----------------------------------------------------------------------===//
// Stream declarations
//===----------------------------------------------------------------------===//

def NPUHW_RegionKind : NPUHW_Enum<"RegionKind", "what a DRAM region holds", [
    I32EnumAttrCase<"const_", 0, "const">, I32EnumAttrCase<"scratch", 1>,
    I32EnumAttrCase<"input", 2>, I32EnumAttrCase<"output", 3>,
    I32EnumAttrCase<"inout", 4>]>;
def NPUHW_RegionKindAttr
    : EnumAttr<NPUHW_Dialect, NPUHW_RegionKind, "region_kind">;

def NPUHW_IoDirection : NPUHW_Enum<"IoDirection", "input or output", [
    I32EnumAttrCase<"input", 0>, I32EnumAttrCase<"output", 1>]>;
def NPUHW_IoDirectionAttr
    : EnumAttr<NPUHW_Dialect, NPUHW_IoDirection, "io_direction">;

def NPUHW_IoLayout : NPUHW_Enum<"IoLayout", "the DRAM layout of an IO tensor", [
    I32EnumAttrCase<"nhwc", 0>, I32EnumAttrCase<"nhwc_c16", 1>]>;
def NPUHW_IoLayoutAttr : EnumAttr<NPUHW_Dialect, NPUHW_IoLayout, "io_layout">;

#endif // KILN_DIALECTS_NPUHW_IR_NPUHWATTRS_TD
