//===- TFTypeDialect.td - the tf_type dialect --------------*- tablegen -*-===//
//
// TensorFlow's types and attributes, spelled as TensorFlow spells them
// (!tf_type.resource, #tf_type.shape<...>) so TensorFlow's MLIR parses as-is.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TFTYPE_IR_TFTYPEDIALECT_TD
#define KILN_DIALECTS_TFTYPE_IR_TFTYPEDIALECT_TD

include "mlir/IR/DialectBase.td" // Dialect

def TFType_Dialect : Dialect {
  let name = "tf_type";
  let cppNamespace = "::kiln::tf_type";
  let summary = "TensorFlow's types and attributes";
  let description = [{
    The element types TensorFlow has beyond MLIR's builtin ones (strings,
    resource handles, variants, quantized integers, reference types) and the
    attributes TensorFlow's MLIR uses (shapes, function references with
    attributes, placeholders). Spelling and printing follow TensorFlow's
    `tf_type` dialect, so files that TensorFlow's tools emit parse unchanged.
  }];
  // parseType wraps ODS's parser: it refuses parameters on types that take
  // none (!tf_type.string<4>), which ODS's parser silently drops.
  let useDefaultTypePrinterParser = 0;
  let extraClassDeclaration = [{
    /// Parses a type of this dialect; refuses parameters on those without.
    ::mlir::Type parseType(::mlir::DialectAsmParser &parser) const override;
    /// Prints a type of this dialect.
    void printType(::mlir::Type type,
                   ::mlir::DialectAsmPrinter &printer) const override;
  }];
  let useDefaultAttributePrinterParser = 1;
}

#endif // KILN_DIALECTS_TFTYPE_IR_TFTYPEDIALECT_TD
