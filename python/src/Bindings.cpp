//===- Bindings.cpp - the kiln._kiln extension module ---------------------===//
//
// A thin pybind11 layer over Compiler.h: arguments in, tuples out (arrays
// as dtype, shape and bytes, which kiln._model turns into NumPy arrays). The
// public API (names, checks, exceptions) is Python, in python/kiln. The GIL
// is released while compiling, translating and running.
//
//===----------------------------------------------------------------------===//

#include "python/src/Compiler.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace kiln::python;

namespace {

ModelKind kindFromName(const std::string &name) {
  if (name == "graphdef")
    return ModelKind::GraphDef;
  if (name == "tfjs")
    return ModelKind::TFJS;
  if (name == "mlir")
    return ModelKind::MLIR;
  if (name == "savedmodel")
    return ModelKind::SavedModel;
  throw py::value_error("unknown model kind '" + name +
                        "'; expected graphdef, tfjs, mlir or savedmodel");
}

py::list diagnosticsToList(const std::vector<Diagnostic> &diagnostics) {
  py::list list;
  for (const Diagnostic &d : diagnostics) {
    py::dict entry;
    entry["severity"] = d.severity;
    entry["location"] = d.location;
    entry["node"] = d.node;
    entry["message"] = d.message;
    entry["notes"] = d.notes;
    list.append(entry);
  }
  return list;
}

py::list specsToList(const std::vector<TensorSpec> &specs) {
  py::list list;
  for (const TensorSpec &spec : specs)
    list.append(py::make_tuple(spec.name, spec.dtype,
                               py::tuple(py::cast(spec.shape))));
  return list;
}

/// A view of a C-contiguous buffer (a NumPy array) said to hold `dtype`;
/// `view` keeps the buffer exported while the InputBuffer is used.
InputBuffer bufferOf(const std::string &dtype, const py::handle &object,
                     const std::string &what,
                     std::vector<py::buffer_info> &views) {
  if (!PyObject_CheckBuffer(object.ptr()))
    throw py::type_error(what + " is not an array");
  views.push_back(py::reinterpret_borrow<py::buffer>(object).request(
      /*writable=*/true));
  const py::buffer_info &view = views.back();
  InputBuffer buffer;
  buffer.dtype = dtype;
  buffer.shape.assign(view.shape.begin(), view.shape.end());
  buffer.data = view.ptr;
  py::ssize_t stride = view.itemsize;
  for (size_t d = view.shape.size(); d-- > 0;) {
    if (view.shape[d] > 1 && view.strides[d] != stride)
      throw py::value_error(what + " is not C-contiguous");
    stride *= view.shape[d];
  }
  return buffer;
}

/// (dtype name, shape, bytearray): kiln._model makes the NumPy array, so
/// the extension does not depend on NumPy's C API (whose layout NumPy 2
/// changed).
py::tuple toPython(const OutputArray &array) {
  return py::make_tuple(
      array.dtype, py::tuple(py::cast(array.shape)),
      py::bytearray(reinterpret_cast<const char *>(array.data.data()),
                    array.data.size()));
}

/// Input pairs (dtype name, array) as InputBuffers.
std::vector<InputBuffer> buffersOf(const py::list &pairs,
                                   std::vector<py::buffer_info> &views) {
  std::vector<InputBuffer> buffers;
  views.reserve(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    auto pair = pairs[i].cast<py::tuple>();
    if (pair.size() != 2)
      throw py::type_error("expected (dtype, array) pairs");
    buffers.push_back(bufferOf(pair[0].cast<std::string>(), pair[1],
                               "input " + std::to_string(i), views));
  }
  return buffers;
}

CompileOptions makeOptions(const std::string &kind, const std::string &path,
                           const py::bytes &contents,
                           std::vector<std::string> inputs,
                           std::vector<std::string> inputTypes,
                           std::vector<std::string> outputs,
                           const std::string &inputShapes,
                           bool graphAsFunction) {
  CompileOptions options;
  options.kind = kindFromName(kind);
  options.path = path;
  options.contents = contents;
  options.inputs = std::move(inputs);
  options.inputTypes = std::move(inputTypes);
  options.outputs = std::move(outputs);
  options.inputShapes = inputShapes;
  options.graphAsFunction = graphAsFunction;
  return options;
}

py::tuple textResult(const TextResult &result) {
  py::object text = py::none();
  if (result.text)
    text = py::str(*result.text);
  return py::make_tuple(text, diagnosticsToList(result.diagnostics));
}

} // namespace

PYBIND11_MODULE(_kiln, m) {
  m.doc() = "Kiln's compiler and JIT, called by the kiln package";

  py::class_<CompiledModel>(m, "Model")
      .def_property_readonly(
          "inputs",
          [](CompiledModel &self) { return specsToList(self.inputs()); })
      .def_property_readonly(
          "outputs",
          [](CompiledModel &self) { return specsToList(self.outputs()); })
      .def_property_readonly(
          "variables",
          [](CompiledModel &self) { return specsToList(self.variables()); })
      .def("run",
           [](CompiledModel &self, const py::list &pairs) {
             std::vector<py::buffer_info> views;
             std::vector<InputBuffer> inputs = buffersOf(pairs, views);
             std::vector<OutputArray> outputs;
             std::optional<std::string> error;
             {
               py::gil_scoped_release release;
               error = self.run(inputs, outputs);
             }
             if (error)
               throw py::value_error(*error);
             py::list result;
             for (const OutputArray &output : outputs)
               result.append(toPython(output));
             return result;
           })
      .def("read_variable",
           [](CompiledModel &self, size_t index) {
             if (index >= self.variables().size())
               throw py::index_error("no variable " + std::to_string(index));
             return toPython(self.readVariable(index));
           })
      .def("write_variable",
           [](CompiledModel &self, size_t index, const std::string &dtype,
              const py::handle &value) {
             if (index >= self.variables().size())
               throw py::index_error("no variable " + std::to_string(index));
             std::vector<py::buffer_info> views;
             if (auto error = self.writeVariable(
                     index, bufferOf(dtype, value, "the variable's value",
                                     views)))
               throw py::value_error(*error);
           })
      .def("reset_variables", &CompiledModel::resetVariables)
      .def_property(
          "threads", [](const CompiledModel &self) { return self.threads(); },
          [](CompiledModel &self, unsigned threads) {
            bool started;
            {
              py::gil_scoped_release release;
              started = self.setThreads(threads);
            }
            if (!started)
              throw py::value_error("cannot start a pool of " +
                                    std::to_string(threads) + " threads");
          });

  m.def(
      "compile",
      [](const std::string &kind, const std::string &path,
         const py::bytes &contents, std::vector<std::string> inputs,
         std::vector<std::string> inputTypes, std::vector<std::string> outputs,
         const std::string &inputShapes, bool graphAsFunction,
         const std::string &tags, const std::string &signature,
         const std::string &entry, unsigned optLevel, const std::string &cpu,
         const std::string &features, const std::string &dumpDir,
         unsigned threads, std::vector<std::string> sharedLibs) {
        CompileOptions options =
            makeOptions(kind, path, contents, std::move(inputs),
                        std::move(inputTypes), std::move(outputs), inputShapes,
                        graphAsFunction);
        options.tags = tags;
        options.signature = signature;
        options.entry = entry;
        options.optLevel = optLevel;
        options.cpu = cpu;
        options.features = features;
        options.dumpDir = dumpDir;
        options.threads = threads;
        options.sharedLibs = std::move(sharedLibs);
        CompileResult result;
        {
          py::gil_scoped_release release;
          result = compile(options);
        }
        py::object model = py::none();
        if (result.model)
          model = py::cast(std::move(result.model));
        return py::make_tuple(model, diagnosticsToList(result.diagnostics),
                              result.failure);
      },
      py::arg("kind"), py::arg("path"), py::arg("contents"), py::arg("inputs"),
      py::arg("input_types"), py::arg("outputs"), py::arg("input_shapes"),
      py::arg("graph_as_function"), py::arg("tags"), py::arg("signature"),
      py::arg("entry"), py::arg("opt_level"), py::arg("cpu"), py::arg("features"), py::arg("dump_dir"),
      py::arg("threads"), py::arg("shared_libs"));

  m.def(
      "import_model",
      [](const std::string &kind, const std::string &path,
         const py::bytes &contents, std::vector<std::string> inputs,
         std::vector<std::string> inputTypes, std::vector<std::string> outputs,
         const std::string &inputShapes, bool graphAsFunction) {
        CompileOptions options =
            makeOptions(kind, path, contents, std::move(inputs),
                        std::move(inputTypes), std::move(outputs), inputShapes,
                        graphAsFunction);
        TextResult result;
        {
          py::gil_scoped_release release;
          result = importModel(options);
        }
        return textResult(result);
      },
      py::arg("kind"), py::arg("path"), py::arg("contents"), py::arg("inputs"),
      py::arg("input_types"), py::arg("outputs"), py::arg("input_shapes"),
      py::arg("graph_as_function"));

  m.def(
      "export_graphdef",
      [](const std::string &mlir, bool graphAsFunction) {
        TextResult result;
        {
          py::gil_scoped_release release;
          result = exportGraphDef(mlir, graphAsFunction);
        }
        return textResult(result);
      },
      py::arg("mlir"), py::arg("graph_as_function"));

  m.def(
      "mlir_to_llvmir",
      [](const std::string &mlir) {
        TextResult result;
        {
          py::gil_scoped_release release;
          result = translateToLLVMIR(mlir);
        }
        return textResult(result);
      },
      py::arg("mlir"));

  m.def(
      "run_pipeline",
      [](const std::string &mlir, const std::string &pipeline) {
        TextResult result;
        {
          py::gil_scoped_release release;
          result = runPipeline(mlir, pipeline);
        }
        return textResult(result);
      },
      py::arg("mlir"), py::arg("pipeline"));
}
