//===- TFOpBase.td - base classes and constraints of tf ops *- tablegen -*-===//
//
// What every tf op definition (hand-written in TFOps.td or generated into
// TFGeneratedOps.td) builds on: the TF_Op class, type constraints named as in
// TensorFlow, derived type attributes, and shape-inference traits.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_IR_TFOPBASE_TD
#define KILN_DIALECTS_TF_IR_TFOPBASE_TD

include "dialects/TF/IR/TFDialect.td"       // TF_Dialect
include "dialects/TF/IR/TFInterfaces.td"    // TF_ShapeInferenceOpInterface
include "dialects/TFType/IR/TFTypeTypes.td" // !tf_type.* types
include "dialects/TFType/IR/TFTypeAttrs.td" // #tf_type.* attributes
include "mlir/IR/OpBase.td"                 // Op, TensorOf, DerivedAttr
include "mlir/Interfaces/SideEffectInterfaces.td" // Pure, MemoryEffects
include "mlir/Interfaces/InferTypeOpInterface.td" // SameOperandsAndResultType
include "mlir/IR/SymbolInterfaces.td"       // SymbolUserOpInterface

class TF_Op<string mnemonic, list<Trait> traits = []>
    : Op<TF_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

def TF_TFTypeElement : Type<
    CPred<"::llvm::isa<::kiln::tf_type::TFTypeDialect>(&$_self.getDialect())">,
    "tf_type type">;

def TF_Quantized : AnyTypeOf<[TFType_Qint8Type, TFType_Qint16Type,
                              TFType_Qint32Type, TFType_Quint8Type,
                              TFType_Quint16Type], "quantized">;
def TF_Ref : Type<CPred<"::kiln::tf_type::isRefType($_self)">, "reference">;

def TF_Bool : I<1>;
def TF_Int : AnyTypeOf<[I8, I16, I32, I64], "signed integer">;
def TF_UInt : AnyTypeOf<[UI8, UI16, UI32, UI64], "unsigned integer">;
def TF_AnyInt : AnyTypeOf<[TF_Int, TF_UInt], "integer">;
def TF_Float : AnyTypeOf<[F16, BF16, F32, F64], "floating-point">;
def TF_Complex : AnyTypeOf<[Complex<F32>, Complex<F64>], "complex">;
def TF_I32OrI64 : AnyTypeOf<[I32, I64], "32/64-bit signed integer">;

/// Every element type a TensorFlow tensor may have.
def TF_ElementType : AnyTypeOf<[TF_Bool, TF_AnyInt, TF_Float, TF_Complex,
                                TF_TFTypeElement], "tensorflow element type">;
/// Numbers: what arithmetic ops accept.
def TF_Number : AnyTypeOf<[TF_AnyInt, TF_Float, TF_Complex, TF_Quantized],
                          "number">;
def TF_NumberNotQuantized : AnyTypeOf<[TF_AnyInt, TF_Float, TF_Complex],
                                      "number">;
def TF_IntOrFloat : AnyTypeOf<[TF_AnyInt, TF_Float], "integer or float">;
def TF_FloatOrComplex : AnyTypeOf<[TF_Float, TF_Complex], "float or complex">;

//===----------------------------------------------------------------------===//
// Tensor constraints (all allow unranked tensors, as TensorFlow's IR does)
//===----------------------------------------------------------------------===//

def TF_Tensor : TensorOf<[TF_ElementType]>;
def TF_NumberTensor : TensorOf<[TF_Number]>;
def TF_NumberNotQuantizedTensor : TensorOf<[TF_NumberNotQuantized]>;
def TF_IntOrFloatTensor : TensorOf<[TF_IntOrFloat]>;
def TF_FloatTensor : TensorOf<[TF_Float]>;
def TF_FloatOrComplexTensor : TensorOf<[TF_FloatOrComplex]>;
def TF_IntTensor : TensorOf<[TF_AnyInt]>;
def TF_BoolTensor : TensorOf<[TF_Bool]>;
def TF_I32OrI64Tensor : TensorOf<[TF_I32OrI64]>;
def TF_Int32Tensor : TensorOf<[I32]>;
def TF_Int64Tensor : TensorOf<[I64]>;
def TF_Float32Tensor : TensorOf<[F32]>;
def TF_StrTensor : TensorOf<[TFType_StringType]>;
def TF_ResourceTensor : TensorOf<[TFType_ResourceType]>;
def TF_VariantTensor : TensorOf<[TFType_VariantType]>;
def TF_QuantizedTensor : TensorOf<[TF_Quantized]>;

//===----------------------------------------------------------------------===//
// Derived attributes (TensorFlow's T, dtype, N, ... read off the types)
//===----------------------------------------------------------------------===//

/// The element type of the first value of operand group `idx` (T, dtype).
class TF_DerivedOperandTypeAttr<int idx> : DerivedTypeAttr<
    "return ::kiln::tf::getDerivedElementType(getODSOperands(" # idx # "));">;

/// The element type of the first value of result group `idx`.
class TF_DerivedResultTypeAttr<int idx> : DerivedTypeAttr<
    "return ::kiln::tf::getDerivedElementType(getODSResults(" # idx # "));">;

/// The element types of a variadic operand group (a list(type) attr).
class TF_DerivedOperandTypeListAttr<int idx> : DerivedAttr<
    "::mlir::ArrayAttr",
    "return ::kiln::tf::getDerivedTypeList(getODSOperands(" # idx # "));",
    [{ $_self }]>;

/// The element types of a variadic result group.
class TF_DerivedResultTypeListAttr<int idx> : DerivedAttr<
    "::mlir::ArrayAttr",
    "return ::kiln::tf::getDerivedTypeList(getODSResults(" # idx # "));",
    [{ $_self }]>;

/// The number of values of a variadic operand group (N).
class TF_DerivedOperandSizeAttr<int idx> : DerivedAttr<
    "size_t",
    "auto range = getODSOperands(" # idx # ");\n"
    "return std::distance(range.begin(), range.end());",
    [{ $_builder.getI64IntegerAttr($_self) }]>;

/// The number of values of a variadic result group.
class TF_DerivedResultSizeAttr<int idx> : DerivedAttr<
    "size_t",
    "auto range = getODSResults(" # idx # ");\n"
    "return std::distance(range.begin(), range.end());",
    [{ $_builder.getI64IntegerAttr($_self) }]>;

/// The shape of result `idx` as a #tf_type.shape (e.g. Placeholder's shape).
class TF_DerivedResultShapeAttr<int idx> : DerivedAttr<
    "::kiln::tf_type::ShapeAttr",
    "return ::kiln::tf_type::ShapeAttr::get(getContext(), "
    "(*getODSResults(" # idx # ").begin()).getType());",
    [{ $_self }]>;

/// The shapes of a variadic result group as an array of #tf_type.shape
/// (e.g. IteratorGetNext's output_shapes).
class TF_DerivedResultShapeListAttr<int idx> : DerivedAttr<
    "::mlir::ArrayAttr",
    "::llvm::SmallVector<::mlir::Attribute> shapes;\n"
    "for (::mlir::Value v : getODSResults(" # idx # "))\n"
    "  shapes.push_back(::kiln::tf_type::ShapeAttr::get(getContext(), "
    "v.getType()));\n"
    "return ::mlir::ArrayAttr::get(getContext(), shapes);",
    [{ $_self }]>;

//===----------------------------------------------------------------------===//
// Shape inference
//===----------------------------------------------------------------------===//

/// Ops that refine their result types implement inferResultTypes, usually
/// by calling a helper of TFShapeInference.h from extraClassDefinition.
def TF_InferShape : DeclareOpInterfaceMethods<TF_ShapeInferenceOpInterface>;

#endif // KILN_DIALECTS_TF_IR_TFOPBASE_TD
