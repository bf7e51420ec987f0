//===- ExportGraphDef.cpp - tf_executor MLIR to GraphDef --------*- C++ -*-===//
//
// The exporter's outer layer: `@main` becomes the graph's nodes (its
// arguments Placeholder or _Arg nodes, its results _Retval nodes), every
// other function a FunctionDef of the library, `tf.versions` the VersionDef.
// The nodes of each body are written by ExportNodes.cpp, their attributes by
// ExportAttributes.cpp.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/Exporter.h"
#include "translate/graphdef/ExportTypes.h"

#include "dialects/TFType/IR/TFTypeDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace mlir;
using namespace kiln;
using namespace kiln::graphdef::detail;
using namespace kiln::graphdef;

namespace {

/// The names in a comma-separated tf.entry_function list, `:0` dropped.
SmallVector<std::string> entryNames(func::FuncOp func, StringRef key) {
  SmallVector<std::string> result;
  auto entry = func->getAttrOfType<DictionaryAttr>("tf.entry_function");
  if (!entry)
    return result;
  auto list = entry.getAs<StringAttr>(key);
  if (!list || list.getValue().empty())
    return result;
  SmallVector<StringRef> parts;
  list.getValue().split(parts, ',');
  for (StringRef part : parts) {
    part = part.trim();
    part.consume_back(":0");
    result.push_back(part.str());
  }
  return result;
}

} // namespace

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

FailureOr<tfe::GraphOp> Exporter::graphOf(func::FuncOp func) {
  auto fail = [&]() {
    return func.emitError()
           << "cannot export function @" << func.getSymName()
           << ": its body must be one tf_executor.graph whose results it "
              "returns";
  };
  if (func.isExternal())
    return fail();
  Block &body = func.getBody().front();
  if (!llvm::hasNItems(body, 2))
    return fail();
  auto graph = dyn_cast<tfe::GraphOp>(body.front());
  auto ret = dyn_cast<func::ReturnOp>(body.back());
  if (!graph || !ret || !llvm::equal(ret.getOperands(), graph.getResults()))
    return fail();
  return graph;
}

LogicalResult Exporter::exportMain(func::FuncOp main,
                                   tensorflow::GraphDef &out) {
  FailureOr<tfe::GraphOp> graph = graphOf(main);
  if (failed(graph))
    return failure();
  beginBody(/*isFunction=*/false);
  auto errorAt = [&](Location loc) {
    return [loc]() { return emitError(loc) << "cannot export @main: "; };
  };

  // Arguments: Placeholder (or _Arg) nodes named as tf.entry_function says.
  SmallVector<std::string> inputNames = entryNames(main, "inputs");
  if (inputNames.size() != main.getNumArguments())
    inputNames.clear();
  for (BlockArgument arg : main.getArguments()) {
    unsigned i = arg.getArgNumber();
    std::string name = names.claim(
        inputNames.empty() ? "arg" + std::to_string(i) : inputNames[i]);
    args.names.push_back(name);
    FailureOr<tensorflow::DataType> dtype =
        exportDataType(arg.getType(), errorAt(arg.getLoc()));
    if (failed(dtype))
      return failure();
    tensorflow::NodeDef *def = out.add_node();
    def->set_name(name);
    auto &attrs = *def->mutable_attr();
    if (options.graphAsFunction) {
      def->set_op("_Arg");
      attrs["T"].set_type(*dtype);
      attrs["index"].set_i(i);
      addOutputShapes(*def, arg.getType());
      auto resource =
          dyn_cast<tf_type::ResourceType>(getElementTypeOrSelf(arg.getType()));
      if (resource && !resource.getSubtypes().empty()) {
        auto *dtypes = attrs["_handle_dtypes"].mutable_list();
        auto *shapes = attrs["_handle_shapes"].mutable_list();
        for (TensorType subtype : resource.getSubtypes()) {
          auto subDtype = exportDataType(subtype, errorAt(arg.getLoc()));
          if (failed(subDtype))
            return failure();
          dtypes->add_type(*subDtype);
          exportShape(subtype, *shapes->add_shape());
        }
      }
    } else {
      // Written as a tf.Placeholder node would be, so that exporting the
      // re-imported graph gives the same GraphDef.
      def->set_op("Placeholder");
      attrs["dtype"].set_type(*dtype);
      exportShape(arg.getType(), *attrs["shape"].mutable_shape());
      addOutputShapes(*def, arg.getType());
      def->mutable_experimental_debug_info();
    }
  }
  // _Retval names are claimed before the graph's nodes, which give way.
  SmallVector<std::string> retNames;
  tfe::FetchOp fetch = graph->getFetch();
  SmallVector<Value> fetched;
  for (Value v : fetch.getOperands())
    if (!isControl(v.getType()))
      fetched.push_back(v);
  if (options.graphAsFunction) {
    SmallVector<std::string> outputNames = entryNames(main, "outputs");
    if (outputNames.size() != fetched.size())
      outputNames.clear();
    for (unsigned i = 0; i < fetched.size(); ++i)
      retNames.push_back(names.claim(
          outputNames.empty() ? "retval" + std::to_string(i) : outputNames[i]));
  }

  if (failed(createNodes(*graph, [&]() { return out.add_node(); })) ||
      failed(connectNodes(*graph)))
    return failure();
  // The importer creates every NextIteration's source before the other
  // nodes, so a Placeholder written before them would move behind them on
  // the next import: write the arguments after the leading NextIterations,
  // where the re-imported graph has them, so export ∘ import is a fixpoint.
  if (!options.graphAsFunction) {
    auto *nodeList = out.mutable_node();
    int numArgs = main.getNumArguments();
    int end = numArgs;
    while (end < nodeList->size() && nodeList->Get(end).op() == "NextIteration")
      ++end;
    std::rotate(nodeList->begin(), nodeList->begin() + numArgs,
                nodeList->begin() + end);
  }

  for (auto [i, value] : llvm::enumerate(fetched)) {
    if (!options.graphAsFunction)
      break;
    FailureOr<std::string> input = dataInput(value, fetch);
    FailureOr<tensorflow::DataType> dtype =
        exportDataType(value.getType(), errorAt(fetch.getLoc()));
    if (failed(input) || failed(dtype))
      return failure();
    tensorflow::NodeDef *def = out.add_node();
    def->set_name(retNames[i]);
    def->set_op("_Retval");
    def->add_input(*input);
    (*def->mutable_attr())["T"].set_type(*dtype);
    (*def->mutable_attr())["index"].set_i(i);
  }
  return success();
}

LogicalResult Exporter::exportFunction(func::FuncOp func,
                                       tensorflow::FunctionDef &out) {
  FailureOr<tfe::GraphOp> graph = graphOf(func);
  if (failed(graph))
    return failure();
  beginBody(/*isFunction=*/true);
  auto errorFn = [&]() {
    return func.emitError()
           << "cannot export function @" << func.getSymName() << ": ";
  };
  tensorflow::OpDef &signature = *out.mutable_signature();
  signature.set_name(func.getSymName().str());

  if (failed(createNodes(*graph, [&]() { return out.add_node_def(); })))
    return failure();
  // The names the imported FunctionDef gave its arguments, results and
  // control outputs (ImportGraphDef's keepSignature), when they fit.
  auto givenNames = [&](StringRef attr, size_t count) {
    SmallVector<std::string> given;
    auto array = func->getAttrOfType<ArrayAttr>(attr);
    if (!array || array.size() != count)
      return given;
    for (Attribute name : array)
      if (auto text = dyn_cast<StringAttr>(name); text && !text.empty())
        given.push_back(text.str());
    if (given.size() != count)
      given.clear();
    return given;
  };
  SmallVector<std::string> inputNames =
      givenNames("kiln.input_names", func.getNumArguments());
  // Argument names after the nodes' own, which the graph's inputs use.
  for (BlockArgument arg : func.getArguments()) {
    std::string name = names.claim(
        inputNames.empty() ? "arg" + std::to_string(arg.getArgNumber())
                           : inputNames[arg.getArgNumber()]);
    args.names.push_back(name);
    FailureOr<tensorflow::DataType> dtype =
        exportDataType(arg.getType(), errorFn);
    if (failed(dtype))
      return failure();
    auto *input = signature.add_input_arg();
    input->set_name(name);
    input->set_type(valueDataType(*dtype));
    input->set_is_ref(*dtype > 100);
  }
  if (failed(connectNodes(*graph)))
    return failure();

  tfe::FetchOp fetch = graph->getFetch();
  unsigned index = 0;
  SmallVector<std::string> controlNames;
  unsigned numData = llvm::count_if(fetch.getOperandTypes(),
                                    [&](Type t) { return !isControl(t); });
  SmallVector<std::string> outputNames =
      givenNames("kiln.output_names", numData);
  llvm::StringSet<> usedOutputNames;
  for (const std::string &name : outputNames)
    if (!usedOutputNames.insert(name).second)
      outputNames.clear();
  for (Value value : fetch.getOperands()) {
    if (isControl(value.getType())) {
      if (failed(controlInputs(value, fetch, controlNames)))
        return failure();
      continue;
    }
    std::string name = outputNames.empty()
                           ? "output_" + std::to_string(index)
                           : outputNames[index];
    ++index;
    FailureOr<std::string> input = dataInput(value, fetch);
    FailureOr<tensorflow::DataType> dtype =
        exportDataType(value.getType(), errorFn);
    if (failed(input) || failed(dtype))
      return failure();
    auto *output = signature.add_output_arg();
    output->set_name(name);
    output->set_type(valueDataType(*dtype));
    output->set_is_ref(*dtype > 100);
    (*out.mutable_ret())[name] = *input;
  }
  auto controlRet = func->getAttrOfType<DictionaryAttr>("kiln.control_ret");
  for (StringRef control : controlNames) {
    std::string node = control.drop_front().str(); // "^node"
    std::string name = node;
    if (controlRet)
      for (NamedAttribute entry : controlRet)
        if (auto text = dyn_cast<StringAttr>(entry.getValue());
            text && text.getValue() == node &&
            !out.control_ret().count(entry.getName().str()))
          name = entry.getName().str();
    if (out.control_ret().count(name))
      continue;
    signature.add_control_output(name);
    (*out.mutable_control_ret())[name] = node;
  }
  if (func->hasAttr("kiln.is_stateful"))
    signature.set_is_stateful(true);

  // tf.* attributes of the function and of its arguments, prefix dropped.
  for (NamedAttribute attr : func->getAttrs()) {
    StringRef name = attr.getName().strref();
    if (!name.consume_front("tf.") || name == "gradient" ||
        name == "entry_function" || name == "versions")
      continue;
    tensorflow::AttrValue value;
    if (failed(exportAttrValue(attr.getValue(), value, errorFn)))
      return failure();
    (*out.mutable_attr())[name.str()] = std::move(value);
  }
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    for (NamedAttribute attr : func.getArgAttrDict(i)
                                   ? func.getArgAttrDict(i).getValue()
                                   : ArrayRef<NamedAttribute>()) {
      StringRef name = attr.getName().strref();
      if (!name.consume_front("tf."))
        continue;
      tensorflow::AttrValue value;
      if (failed(exportAttrValue(attr.getValue(), value, errorFn)))
        return failure();
      (*(*out.mutable_arg_attr())[i].mutable_attr())[name.str()] =
          std::move(value);
    }
  }
  return success();
}

LogicalResult Exporter::exportModule(tensorflow::GraphDef &out) {
  out.Clear();
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    return module.emitError()
           << "cannot export: the module has no func.func @main";

  // The VersionDef, unless it is all zeros (which is what its absence
  // means), so that a graph without one stays without one.
  if (auto versions = module->getAttrOfType<DictionaryAttr>("tf.versions")) {
    tensorflow::VersionDef *def = out.mutable_versions();
    if (auto producer = versions.getAs<IntegerAttr>("producer"))
      def->set_producer(producer.getInt());
    if (auto min = versions.getAs<IntegerAttr>("min_consumer"))
      def->set_min_consumer(min.getInt());
    if (auto bad = versions.getAs<ArrayAttr>("bad_consumers"))
      for (Attribute v : bad)
        if (auto i = dyn_cast<IntegerAttr>(v))
          def->add_bad_consumers(i.getInt());
    if (def->ByteSizeLong() == 0)
      out.clear_versions();
  }

  // The library, sorted by name as TensorFlow's exporter writes it.
  SmallVector<func::FuncOp> functions;
  for (auto func : module.getOps<func::FuncOp>())
    if (func != main || options.entryFunctionToLibrary)
      functions.push_back(func);
  llvm::sort(functions, [](func::FuncOp a, func::FuncOp b) {
    return a.getSymName() < b.getSymName();
  });
  if (!options.entryFunctionToLibrary && failed(exportMain(main, out)))
    return failure();
  auto *library = out.mutable_library();
  for (func::FuncOp func : functions) {
    if (failed(exportFunction(func, *library->add_function())))
      return failure();
  }
  for (func::FuncOp func : functions) {
    if (auto gradient = func->getAttrOfType<FlatSymbolRefAttr>("tf.gradient")) {
      auto *def = library->add_gradient();
      def->set_function_name(func.getSymName().str());
      def->set_gradient_func(gradient.getValue().str());
    }
  }
  return success();
}

LogicalResult graphdef::exportGraphDef(ModuleOp module,
                                       tensorflow::GraphDef &out,
                                       const GraphExportOptions &options) {
  if (needsPreparation(module)) {
    // Functional tf: export a copy in tf_executor form.
    OwningOpRef<ModuleOp> prepared(module.clone());
    if (failed(prepareForExport(*prepared)))
      return failure();
    Exporter exporter(*prepared, options);
    return exporter.exportModule(out);
  }
  Exporter exporter(module, options);
  return exporter.exportModule(out);
}
