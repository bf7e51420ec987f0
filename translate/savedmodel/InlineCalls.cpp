//===- InlineCalls.cpp - inlining a GraphDef's function calls ---*- C++ -*-===//
//
// In a FunctionDef, a node reads an input argument by its name and another
// node's output as "node:output_arg:index"; in a graph, as "node:k" with k
// the flat index over the op's output arguments (a list argument counts its
// length, from its number or type-list attribute).
//
//===----------------------------------------------------------------------===//

#include "translate/savedmodel/InlineCalls.h"

#include "translate/graphdef/OpRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>

using namespace kiln::savedmodel;
using llvm::StringRef;

namespace {

class Inliner {
public:
  Inliner(tensorflow::GraphDef &graph, const tensorflow::OpList &ops,
          llvm::raw_ostream &errors)
      : graph(graph), errors(errors) {
    for (const auto &op : ops.op())
      opDefs[op.name()] = &op;
    for (const auto &function : graph.library().function())
      functions[function.signature().name()] = &function;
  }

  bool run();

private:
  const tensorflow::FunctionDef *callee(const tensorflow::NodeDef &node) const;
  bool inlineCall(int index, const tensorflow::FunctionDef &function,
                  std::vector<tensorflow::NodeDef> &added);
  std::optional<int> flatIndex(const tensorflow::NodeDef &node,
                               StringRef outputArg);
  std::optional<std::string>
  resolve(StringRef ref, StringRef prefix,
          const llvm::StringMap<std::string> &arguments,
          const llvm::StringMap<const tensorflow::NodeDef *> &body);

  tensorflow::GraphDef &graph;
  llvm::raw_ostream &errors;
  llvm::StringMap<const tensorflow::OpDef *> opDefs;
  llvm::StringMap<const tensorflow::FunctionDef *> functions;
};

const tensorflow::FunctionDef *
Inliner::callee(const tensorflow::NodeDef &node) const {
  if (node.op() == "StatefulPartitionedCall" ||
      node.op() == "PartitionedCall") {
    auto f = node.attr().find("f");
    if (f == node.attr().end() || !f->second.has_func())
      return nullptr;
    return functions.lookup(f->second.func().name());
  }
  return functions.lookup(node.op());
}

std::optional<int> Inliner::flatIndex(const tensorflow::NodeDef &node,
                                      StringRef outputArg) {
  if (const tensorflow::FunctionDef *function = functions.lookup(node.op())) {
    for (auto [i, arg] : llvm::enumerate(function->signature().output_arg()))
      if (arg.name() == outputArg)
        return i;
  } else {
    const tensorflow::OpDef *opDef = opDefs.lookup(node.op());
    if (!opDef)
      opDef = kiln::graphdef::lookupOpDef(node.op());
    if (!opDef) {
      errors << "cannot inline node '" << node.name() << "': op '"
             << node.op() << "' has no OpDef\n";
      return std::nullopt;
    }
    int offset = 0;
    for (const auto &arg : opDef->output_arg()) {
      if (arg.name() == outputArg)
        return offset;
      auto attr = [&](const std::string &name) {
        auto it = node.attr().find(name);
        if (it != node.attr().end())
          return &it->second;
        for (const auto &def : opDef->attr())
          if (def.name() == name && def.has_default_value())
            return &def.default_value();
        return static_cast<const tensorflow::AttrValue *>(nullptr);
      };
      if (!arg.number_attr().empty()) {
        const tensorflow::AttrValue *n = attr(arg.number_attr());
        offset += n ? n->i() : 1;
      } else if (!arg.type_list_attr().empty()) {
        const tensorflow::AttrValue *list = attr(arg.type_list_attr());
        offset += list ? list->list().type_size() : 0;
      } else {
        ++offset;
      }
    }
  }
  errors << "cannot inline node '" << node.name() << "': op '" << node.op()
         << "' has no output '" << outputArg << "'\n";
  return std::nullopt;
}

std::optional<std::string>
Inliner::resolve(StringRef ref, StringRef prefix,
                 const llvm::StringMap<std::string> &arguments,
                 const llvm::StringMap<const tensorflow::NodeDef *> &body) {
  if (ref.consume_front("^")) {
    if (auto it = arguments.find(ref); it != arguments.end())
      return "^" + StringRef(it->second).ltrim('^').split(':').first.str();
    return "^" + prefix.str() + ref.str();
  }
  llvm::SmallVector<StringRef, 3> parts;
  ref.split(parts, ':');
  if (parts.size() == 1) {
    if (auto it = arguments.find(ref); it != arguments.end())
      return it->second;
    return prefix.str() + ref.str();
  }
  auto node = body.find(parts[0]);
  unsigned index = 0;
  if (parts.size() != 3 || node == body.end() ||
      parts[2].getAsInteger(10, index)) {
    errors << "cannot inline: input '" << ref
           << "' names no output of the function's nodes\n";
    return std::nullopt;
  }
  std::optional<int> offset = flatIndex(*node->second, parts[1]);
  if (!offset)
    return std::nullopt;
  int flat = *offset + index;
  return prefix.str() + parts[0].str() +
         (flat ? ":" + std::to_string(flat) : std::string());
}

bool Inliner::inlineCall(int index, const tensorflow::FunctionDef &function,
                         std::vector<tensorflow::NodeDef> &added) {
  tensorflow::NodeDef call = graph.node(index);
  const tensorflow::OpDef &signature = function.signature();
  std::vector<std::string> data, control;
  for (const std::string &input : call.input())
    (StringRef(input).starts_with("^") ? control : data).push_back(input);
  if (data.size() != size_t(signature.input_arg_size())) {
    errors << "cannot inline call '" << call.name() << "' of '"
           << signature.name() << "': " << data.size()
           << " inputs for " << signature.input_arg_size() << " arguments\n";
    return false;
  }
  llvm::StringMap<std::string> arguments;
  for (auto [i, arg] : llvm::enumerate(signature.input_arg()))
    arguments[arg.name()] = data[i];
  llvm::StringMap<const tensorflow::NodeDef *> body;
  for (const auto &node : function.node_def())
    body[node.name()] = &node;
  std::string prefix = call.name() + "/";

  for (const auto &node : function.node_def()) {
    for (const auto &[name, value] : node.attr())
      if (!value.placeholder().empty()) {
        errors << "cannot inline '" << signature.name() << "': node '"
               << node.name() << "' has attribute placeholder '"
               << value.placeholder() << "' (a generic function)\n";
        return false;
      }
    tensorflow::NodeDef copy = node;
    copy.set_name(prefix + node.name());
    copy.clear_input();
    for (const std::string &input : node.input()) {
      std::optional<std::string> resolved =
          resolve(input, prefix, arguments, body);
      if (!resolved)
        return false;
      copy.add_input(*resolved);
    }
    for (const std::string &input : control)
      copy.add_input(input);
    added.push_back(std::move(copy));
  }

  // The call becomes the forwarding of the function's results.
  tensorflow::NodeDef results;
  results.set_name(call.name());
  results.set_device(call.device());
  tensorflow::AttrValue types;
  for (auto [k, arg] : llvm::enumerate(signature.output_arg())) {
    auto ret = function.ret().find(arg.name());
    if (ret == function.ret().end()) {
      errors << "cannot inline '" << signature.name() << "': output '"
             << arg.name() << "' has no return value\n";
      return false;
    }
    std::optional<std::string> resolved =
        resolve(ret->second, prefix, arguments, body);
    if (!resolved)
      return false;
    results.add_input(*resolved);
    tensorflow::DataType type = arg.type();
    if (auto tout = call.attr().find("Tout");
        tout != call.attr().end() && int(k) < tout->second.list().type_size())
      type = tout->second.list().type(k);
    else if (!arg.type_attr().empty() && call.attr().contains(arg.type_attr()))
      type = call.attr().at(arg.type_attr()).type();
    types.mutable_list()->add_type(type);
  }
  for (const auto &[name, node] : function.control_ret())
    results.add_input("^" + prefix + node);
  if (signature.output_arg_size() > 0) {
    results.set_op("IdentityN");
    (*results.mutable_attr())["T"] = std::move(types);
  } else {
    results.set_op("NoOp");
  }
  graph.mutable_node(index)->Swap(&results);
  return true;
}

bool Inliner::run() {
  // Each round inlines the calls present; a body's calls wait for the next.
  for (int round = 0;; ++round) {
    std::vector<tensorflow::NodeDef> added;
    bool any = false;
    for (int i = 0; i < graph.node_size(); ++i) {
      const tensorflow::FunctionDef *function = callee(graph.node(i));
      if (!function)
        continue;
      if (round == 64) {
        errors << "cannot inline '" << function->signature().name()
               << "': calls nest more than 64 deep (recursion?)\n";
        return false;
      }
      any = true;
      if (!inlineCall(i, *function, added))
        return false;
    }
    for (auto &node : added)
      *graph.add_node() = std::move(node);
    if (!any)
      return true;
  }
}

} // namespace

bool kiln::savedmodel::inlineFunctionCalls(tensorflow::GraphDef &graph,
                                           const tensorflow::OpList &ops,
                                           llvm::raw_ostream &errors) {
  return Inliner(graph, ops, errors).run();
}
