//===- TFDialect.td - the tf dialect -----------------------*- tablegen -*-===//
//
// TensorFlow operations, with TensorFlow's op names (tf.AddV2, tf.Conv2D).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_IR_TFDIALECT_TD
#define KILN_DIALECTS_TF_IR_TFDIALECT_TD

include "mlir/IR/DialectBase.td" // Dialect

def TF_Dialect : Dialect {
  let name = "tf";
  let cppNamespace = "::kiln::tf";
  let summary = "TensorFlow operations";
  let description = [{
    One MLIR operation per TensorFlow op type, named as in TensorFlow
    (`tf.AddV2`), with TensorFlow's operands, results and attributes. Type
    attributes such as `T` and `dtype` are derived from operand and result
    types rather than stored. Operations of this dialect that Kiln does not
    define still parse and print in generic form, so import never fails on
    an op Kiln lacks; passes that need to know an op report it by name.
  }];
  let dependentDialects = ["::kiln::tf_type::TFTypeDialect"];
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// Registers the generated and hand-written operations.
    void registerOps();
  }];
}

#endif // KILN_DIALECTS_TF_IR_TFDIALECT_TD
