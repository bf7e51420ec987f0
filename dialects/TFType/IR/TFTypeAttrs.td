//===- TFTypeAttrs.td - #tf_type.* attributes --------------*- tablegen -*-===//
//
// Attributes TensorFlow's MLIR uses, spelled as TensorFlow spells them.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TFTYPE_IR_TFTYPEATTRS_TD
#define KILN_DIALECTS_TFTYPE_IR_TFTYPEATTRS_TD

include "dialects/TFType/IR/TFTypeDialect.td" // TFType_Dialect
include "mlir/IR/AttrTypeBase.td"            // AttrDef
include "mlir/IR/BuiltinAttributeInterfaces.td"

class TFType_Attr<string name, string attrMnemonic>
    : AttrDef<TFType_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def TFType_ShapeAttr : TFType_Attr<"Shape", "shape"> {
  let summary = "A tensor shape, possibly of unknown rank";
  let description = [{
    The value of TensorFlow's `shape` attributes: `#tf_type.shape<*>` has
    unknown rank, `#tf_type.shape<>` is a scalar, and `#tf_type.shape<2x?x3>`
    is rank 3 with an unknown middle dimension (stored as -1, TensorFlow's
    convention, which MLIR's `ShapedType::kDynamic` replaces in types).
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "dimensions, -1 when unknown">:$shape,
    "bool":$unranked);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    AttrBuilder<(ins "std::optional<::llvm::ArrayRef<int64_t>>":$dims), [{
      if (!dims)
        return $_get($_ctxt, ::llvm::ArrayRef<int64_t>(), true);
      return $_get($_ctxt, *dims, false);
    }]>,
  ];
  let extraClassDeclaration = [{
    /// True if the rank is known.
    bool hasRank() const { return !getUnranked(); }
    /// The rank; only valid if hasRank().
    int64_t getRank() const { return getShape().size(); }
    /// True if the rank and every dimension are known.
    bool hasStaticShape() const;
    /// The shape as a `ShapedType` shape (kDynamic for unknown dimensions),
    /// or nullopt when unranked.
    std::optional<::llvm::SmallVector<int64_t>> getShapedTypeShape() const;
    /// The shape attribute of `type` (unranked for a non-shaped type).
    static ShapeAttr get(::mlir::MLIRContext *context, ::mlir::Type type);
  }];
}

def TFType_FuncAttr : TFType_Attr<"Func", "func"> {
  let summary = "A function reference with attributes";
  let description = [{
    TensorFlow's `NameAttrList`: a function name and the attributes it is
    instantiated with, e.g. `#tf_type.func<@body, {T = f32}>`.
  }];
  let parameters = (ins "::mlir::SymbolRefAttr":$name,
                        "::mlir::DictionaryAttr":$attrs);
  let assemblyFormat = "`<` $name `,` $attrs `>`";
}

def TFType_PlaceholderAttr : TFType_Attr<"Placeholder", "placeholder"> {
  let summary = "A reference to a function attribute by name";
  let description = [{
    An attribute whose value is the function attribute named `value` of the
    enclosing function (TensorFlow's `AttrValue.placeholder`), e.g.
    `#tf_type.placeholder<"T">`.
  }];
  let parameters = (ins StringRefParameter<"attribute name">:$value);
  let assemblyFormat = "`<` $value `>`";
}

#endif // KILN_DIALECTS_TFTYPE_IR_TFTYPEATTRS_TD
