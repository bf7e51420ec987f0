//===- TFExecutorDialect.td - the tf_executor dialect ------*- tablegen -*-===//
//
// TensorFlow's dataflow graphs as MLIR, with TensorFlow's spelling.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TFEXECUTOR_IR_TFEXECUTORDIALECT_TD
#define KILN_DIALECTS_TFEXECUTOR_IR_TFEXECUTORDIALECT_TD

include "mlir/IR/DialectBase.td" // Dialect
include "mlir/IR/AttrTypeBase.td" // TypeDef
include "mlir/IR/OpBase.td"      // Op

def TFExecutor_Dialect : Dialect {
  let name = "tf_executor";
  let cppNamespace = "::kiln::tf_executor";
  let summary = "TensorFlow's executor graphs";
  let description = [{
    A `tf_executor.graph` holds a dataflow graph as TensorFlow's executor runs
    it: every node is an operation of this dialect, data flows through SSA
    values, and ordering without data flows through `!tf_executor.control`
    values. Computation (tf ops) sits inside `tf_executor.island`s; TF1
    control-flow primitives (Switch, Merge, Enter, Exit, NextIteration,
    LoopCond) are nodes of their own because their semantics are those of
    the executor, not of a function.
  }];
  // parseType wraps ODS's parser: it refuses parameters on the types,
  // which take none (!tf_executor.control<f32>) and which ODS's parser
  // silently drops.
  let useDefaultTypePrinterParser = 0;
  let extraClassDeclaration = [{
    /// Parses a type of this dialect; refuses parameters on those without.
    ::mlir::Type parseType(::mlir::DialectAsmParser &parser) const override;
    /// Prints a type of this dialect.
    void printType(::mlir::Type type,
                   ::mlir::DialectAsmPrinter &printer) const override;
  }];
}

class TFExecutor_Type<string name, string typeMnemonic>
    : TypeDef<TFExecutor_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def TFExecutor_ControlType : TFExecutor_Type<"Control", "control"> {
  let summary = "a control dependency";
  let description = [{
    Produced by every executor node; consuming one orders a node after the
    producer without passing data.
  }];
}

def TFExecutor_TokenType : TFExecutor_Type<"Token", "token"> {
  let summary = "links a NextIteration.Source to its NextIteration.Sink";
}

class TFExecutor_Op<string mnemonic, list<Trait> traits = []>
    : Op<TFExecutor_Dialect, mnemonic, traits>;

#endif // KILN_DIALECTS_TFEXECUTOR_IR_TFEXECUTORDIALECT_TD
