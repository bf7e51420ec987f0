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
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

#endif // KILN_DIALECTS_TFTYPE_IR_TFTYPEDIALECT_TD
