//===- NPUAttrs.td - #npu.* attributes ---------------------*- tablegen -*-===//
//
// The target configuration attribute.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_IR_NPUATTRS_TD
#define KILN_DIALECTS_NPU_IR_NPUATTRS_TD

include "dialects/NPU/IR/NPUDialect.td" // NPU_Dialect
include "mlir/IR/AttrTypeBase.td"      // AttrDef

class NPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<NPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def NPU_TargetAttr : NPU_Attr<"Target", "target"> {
  let summary = "An NPU-v1 target configuration";
  let description = [{
    A shipped configuration (`"default"` or `"realistic"`, see
    `docs/npu-isa.md` §2) with optional overrides keyed by the same JSON
    keys the `.npub` TARGET section uses:

    ```mlir
    module attributes {npu.target = #npu.target<"realistic">} {}
    module attributes {npu.target = #npu.target<"default", {"mac.rows" = 32 : i64, "lmem.act_kib" = 128 : i64}>} {}
    ```

    Every override must be a known key with an unsigned 32-bit value, and
    the resulting configuration must be valid (region sizes within the
    24-bit LMEM, MAC array a multiple of 16, ...). Operations find their
    target on the closest enclosing operation with an `npu.target`
    attribute (`kiln::npu::lookupTarget`).
  }];
  let parameters = (ins "::mlir::StringAttr":$preset,
                        OptionalParameter<"::mlir::DictionaryAttr">:$overrides);
  let assemblyFormat = "`<` $preset (`,` $overrides^)? `>`";
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "::llvm::StringRef":$preset), [{
      return $_get($_ctxt, ::mlir::StringAttr::get($_ctxt, preset),
                   ::mlir::DictionaryAttr());
    }]>,
  ];
  let extraClassDeclaration = [{
    /// The configuration this attribute names (valid: the verifier has
    /// checked it).
    ::kiln::npu::TargetConfig getConfig() const;
    /// Resolves a preset and its overrides, or explains what is wrong.
    static ::absl::StatusOr<::kiln::npu::TargetConfig>
    resolve(::llvm::StringRef preset, ::mlir::DictionaryAttr overrides);
  }];
}

#endif // KILN_DIALECTS_NPU_IR_NPUATTRS_TD
