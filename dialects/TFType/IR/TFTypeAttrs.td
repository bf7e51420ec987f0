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

class TFType_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TFType_Dialect, name, traits> {
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

def TFType_TensorProtoAttr
    : TFType_Attr<"TensorProto", "tensor_proto", [ElementsAttrInterface]> {
  let summary = "A constant kept as a serialized TensorFlow TensorProto";
  let description = [{
    The value of a constant whose elements MLIR's dense attributes cannot
    hold (TensorFlow's quantized types): the TensorProto's wire bytes in hex,
    typed by the tensor type.

    ```mlir
    %q = "tf.Const"() {value = #tf_type.tensor_proto<"0x08...."> : tensor<!tf_type.quint8>} : () -> tensor<!tf_type.quint8>
    ```
  }];
  let parameters = (ins AttributeSelfTypeParameter<"", "::mlir::ShapedType">:$type,
                        StringRefParameter<"serialized TensorProto, 0x-prefixed hex">:$value);
  let assemblyFormat = "`<` $value `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    // No element iteration: the elements are TensorFlow-encoded bytes.
    using ContiguousIterableTypesT = std::tuple<>;
    using NonContiguousIterableTypesT = std::tuple<>;
  }];
}

#endif // KILN_DIALECTS_TFTYPE_IR_TFTYPEATTRS_TD
