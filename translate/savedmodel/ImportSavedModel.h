//===- ImportSavedModel.h - SavedModels and MetaGraphs to MLIR --*- C++ -*-===//
//
// Imports one signature of a SavedModel directory (TF2 `tf.saved_model.save`
// and Keras `model.export()` object graphs, TF1 SignatureDefs chosen by tag
// set and key) or of a MetaGraph (`.meta`) with its checkpoint, as the
// GraphDef importer's tf_executor MLIR: `@main` takes the signature's
// inputs and returns its outputs, both sorted by key and named by it in
// `tf.entry_function`; variables the signature reads start with their
// checkpoint values (an AssignVariableOp of a constant before every use,
// which kiln-tf-graph-pipeline folds into constants, or keeps as
// initialized state when the graph assigns them); TF1 reference variables
// become constants.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSLATE_SAVEDMODEL_IMPORTSAVEDMODEL_H
#define KILN_TRANSLATE_SAVEDMODEL_IMPORTSAVEDMODEL_H

#include "translate/proto/meta_graph.pb.h"
#include "translate/proto/saved_model.pb.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace kiln::savedmodel {

/// What --import-saved-model and --import-meta-graph take.
struct SavedModelImportOptions {
  /// The MetaGraph's tag set, comma-separated, in any order.
  std::string tags = "serve";
  /// The SignatureDef key.
  std::string signature = "serving_default";
  /// MetaGraphs: the checkpoint prefix; empty takes the .meta file's path
  /// without `.meta`. SavedModels: empty takes `<dir>/variables/variables`.
  std::string checkpoint;
  /// MetaGraphs without SignatureDefs: the fetched tensors (`node` or
  /// `node:k`, comma-separated). Empty: output 0 of every node no other node
  /// reads, except the saver's, initializers and variable plumbing.
  std::string outputs;
};

/// Parses a SavedModel from the bytes of saved_model.pb (`text`: of
/// saved_model.pbtxt). Errors go to `errors`, naming `path`.
std::optional<tensorflow::SavedModel>
parseSavedModel(llvm::StringRef bytes, bool text, llvm::StringRef path,
                llvm::raw_ostream &errors);

/// The path of `<dir>/saved_model.pb` (else `.pbtxt`). A missing
/// directory or file is reported to `errors`, naming it.
std::optional<std::string> findSavedModelFile(llvm::StringRef dir,
                                              llvm::raw_ostream &errors);

/// Reads `<dir>/saved_model.pb` (or `.pbtxt`). A missing directory or file is
/// reported to `errors`, naming it.
std::optional<tensorflow::SavedModel> readSavedModel(llvm::StringRef dir,
                                                     llvm::raw_ostream &errors);

/// Parses a MetaGraphDef (a `.meta` file, binary or text).
std::optional<tensorflow::MetaGraphDef>
parseMetaGraph(llvm::StringRef bytes, llvm::StringRef path,
               llvm::raw_ostream &errors);

/// The MetaGraph of `model` whose tag set is `tags` (comma-separated, any
/// order), or null after listing the available tag sets in `errors`.
const tensorflow::MetaGraphDef *
selectMetaGraph(const tensorflow::SavedModel &model, llvm::StringRef tags,
                llvm::StringRef path, llvm::raw_ostream &errors);

/// Prints each tag set and its signatures, with their inputs and outputs
/// (key, type, shape, tensor), for --list-signatures.
void printSignatures(const tensorflow::SavedModel &model,
                     llvm::raw_ostream &os);
/// Prints one MetaGraph's signatures (or that it has none).
void printSignatures(const tensorflow::MetaGraphDef &metaGraph,
                     llvm::raw_ostream &os);

/// Imports the signature `options.signature` of the MetaGraph tagged
/// `options.tags` of `model`, read from `dir`; variables come from the
/// checkpoint in `<dir>/variables`. Every error is emitted as a diagnostic
/// naming the directory and the tag set, signature, variable or file at
/// fault; the result is then null.
mlir::OwningOpRef<mlir::ModuleOp>
importSavedModel(const tensorflow::SavedModel &model, llvm::StringRef dir,
                 const SavedModelImportOptions &options,
                 mlir::MLIRContext *context);

/// Imports a MetaGraph read from `path` with its checkpoint: the signature
/// `options.signature` when the MetaGraph has SignatureDefs, else its
/// Placeholders as inputs and `options.outputs` as outputs.
mlir::OwningOpRef<mlir::ModuleOp>
importMetaGraph(const tensorflow::MetaGraphDef &metaGraph,
                llvm::StringRef path, const SavedModelImportOptions &options,
                mlir::MLIRContext *context);

} // namespace kiln::savedmodel

#endif // KILN_TRANSLATE_SAVEDMODEL_IMPORTSAVEDMODEL_H
