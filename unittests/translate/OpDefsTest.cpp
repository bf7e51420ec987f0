//===- OpDefsTest.cpp - translate/graphdef/op_defs.pbtxt --------*- C++ -*-===//
//
// The GraphDef importer learns how many outputs a node has, and their types,
// from op_defs.pbtxt, TensorFlow's OpDefs of the op types Kiln supports. The
// file must parse as a tensorflow.OpList, be well formed (each arg typed in
// exactly one way, by attrs of the right kind), cover exactly the op types of
// dialects/TF/utils/ops.txt, and agree with ops.txt on every op's operands and
// results: as many of them, and a list arg wherever ops.txt has a Variadic.
//
//===----------------------------------------------------------------------===//

#include "translate/proto/op_def.pb.h"

#include "google/protobuf/text_format.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using google::protobuf::TextFormat;

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

//===----------------------------------------------------------------------===//
// A reader for the parts of ops.txt this test needs: op and template headers
// and their `in:` / `out:` lines.
//===----------------------------------------------------------------------===//

/// An operand or result line of ops.txt: `in: <name> <type>`.
struct OpsTxtArg {
  std::string name;
  std::string type;
  bool isVariadic() const { return type.rfind("Variadic<", 0) == 0; }
};

/// An `op` or `template` entry, before template resolution.
struct OpsTxtEntry {
  std::string name;
  std::string base; // Empty without a template.
  std::optional<std::vector<OpsTxtArg>> ins, outs;
};

struct OpsTxt {
  std::map<std::string, OpsTxtEntry> ops, templates;
  std::vector<std::string> errors;
};

std::string trim(const std::string &s) {
  size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos)
    return "";
  size_t end = s.find_last_not_of(" \t\r");
  return s.substr(begin, end - begin + 1);
}

OpsTxt parseOpsTxt(const std::string &text) {
  OpsTxt result;
  std::istringstream lines(text);
  std::string line;
  OpsTxtEntry *current = nullptr;
  int lineNo = 0;
  while (std::getline(lines, line)) {
    ++lineNo;
    std::string body = trim(line);
    if (body.empty() || body[0] == '#')
      continue;
    std::string where = "ops.txt:" + std::to_string(lineNo) + ": ";
    if (line[0] != ' ' && line[0] != '\t') {
      // `op <Name> [: <template>]` or `template <name> [: <base>]`.
      std::string header = body, base;
      if (size_t colon = header.find(':'); colon != std::string::npos) {
        base = trim(header.substr(colon + 1));
        header = trim(header.substr(0, colon));
      }
      std::istringstream words(header);
      std::string kind, name, extra;
      words >> kind >> name;
      if ((kind != "op" && kind != "template") || name.empty() ||
          (words >> extra)) {
        result.errors.push_back(where + "bad header '" + body + "'");
        current = nullptr;
        continue;
      }
      auto &table = kind == "op" ? result.ops : result.templates;
      if (table.count(name))
        result.errors.push_back(where + "duplicate " + kind + " " + name);
      current = &table[name];
      *current = OpsTxtEntry{name, base, std::nullopt, std::nullopt};
      continue;
    }
    if (!current) {
      result.errors.push_back(where + "field outside an entry");
      continue;
    }
    size_t colon = body.find(':');
    if (colon == std::string::npos)
      continue; // A bare flag such as `verifier`.
    std::string key = body.substr(0, colon);
    if (key != "in" && key != "out")
      continue;
    std::istringstream rest(body.substr(colon + 1));
    OpsTxtArg arg;
    rest >> arg.name;
    std::getline(rest, arg.type);
    arg.type = trim(arg.type);
    if (arg.name.empty() || arg.type.empty()) {
      result.errors.push_back(where + "bad '" + key + ":' line");
      continue;
    }
    auto &list = key == "in" ? current->ins : current->outs;
    if (!list)
      list.emplace();
    list->push_back(arg);
  }
  return result;
}

/// An op's operands and results after template resolution: a list field of
/// the entry replaces its template's whole list.
struct ResolvedOp {
  std::vector<OpsTxtArg> ins, outs;
};

std::optional<ResolvedOp> resolve(const OpsTxt &opsTxt,
                                  const OpsTxtEntry &entry, int depth = 0) {
  ResolvedOp resolved;
  if (!entry.base.empty()) {
    // A template names a template; an op may also name another op.
    const OpsTxtEntry *base = nullptr;
    if (auto it = opsTxt.templates.find(entry.base);
        it != opsTxt.templates.end())
      base = &it->second;
    else if (auto it = opsTxt.ops.find(entry.base); it != opsTxt.ops.end())
      base = &it->second;
    if (!base || depth > 16)
      return std::nullopt;
    std::optional<ResolvedOp> inherited = resolve(opsTxt, *base, depth + 1);
    if (!inherited)
      return std::nullopt;
    resolved = *inherited;
  }
  if (entry.ins)
    resolved.ins = *entry.ins;
  if (entry.outs)
    resolved.outs = *entry.outs;
  return resolved;
}

//===----------------------------------------------------------------------===//
// Fixture: both files, read once.
//===----------------------------------------------------------------------===//

class OpDefsTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    opDefsText = new std::string(readFile(KILN_OP_DEFS));
    opList = new tensorflow::OpList();
    parsed = TextFormat::ParseFromString(*opDefsText, opList);
    opsTxt = new OpsTxt(parseOpsTxt(readFile(KILN_OPS_TXT)));
  }
  static void TearDownTestSuite() {
    delete opDefsText;
    delete opList;
    delete opsTxt;
  }

  static const tensorflow::OpDef::AttrDef *findAttr(const tensorflow::OpDef &op,
                                                    const std::string &name) {
    for (const auto &attr : op.attr())
      if (attr.name() == name)
        return &attr;
    return nullptr;
  }

  static std::string *opDefsText;
  static tensorflow::OpList *opList;
  static bool parsed;
  static OpsTxt *opsTxt;
};

std::string *OpDefsTest::opDefsText = nullptr;
tensorflow::OpList *OpDefsTest::opList = nullptr;
bool OpDefsTest::parsed = false;
OpsTxt *OpDefsTest::opsTxt = nullptr;

TEST_F(OpDefsTest, ParsesAsOpList) {
  ASSERT_FALSE(opDefsText->empty()) << "cannot read " << KILN_OP_DEFS;
  ASSERT_TRUE(parsed) << KILN_OP_DEFS << " is not a tensorflow.OpList";
  EXPECT_GT(opList->op_size(), 0);
}

TEST_F(OpDefsTest, OpsTxtReads) {
  for (const std::string &error : opsTxt->errors)
    ADD_FAILURE() << error;
  EXPECT_GT(opsTxt->ops.size(), 0u) << "no ops in " << KILN_OPS_TXT;
}

TEST_F(OpDefsTest, NamesAreUniqueAndSorted) {
  ASSERT_TRUE(parsed);
  for (int i = 0; i < opList->op_size(); ++i) {
    EXPECT_FALSE(opList->op(i).name().empty()) << "op #" << i << " unnamed";
    if (i > 0) {
      EXPECT_LT(opList->op(i - 1).name(), opList->op(i).name())
          << "duplicate or out of order";
    }
  }
}

TEST_F(OpDefsTest, SameOpTypesAsOpsTxt) {
  ASSERT_TRUE(parsed);
  std::set<std::string> defined;
  for (const auto &op : opList->op())
    defined.insert(op.name());
  for (const auto &[name, entry] : opsTxt->ops)
    EXPECT_TRUE(defined.count(name)) << name << " has no OpDef";
  for (const std::string &name : defined)
    EXPECT_TRUE(opsTxt->ops.count(name)) << name << " is not in ops.txt";
}

TEST_F(OpDefsTest, ArgsAreTypedOneWay) {
  ASSERT_TRUE(parsed);
  for (const auto &op : opList->op()) {
    auto check = [&](const tensorflow::OpDef::ArgDef &arg, const char *kind) {
      int ways = (arg.type() != tensorflow::DT_INVALID) +
                 !arg.type_attr().empty() + !arg.type_list_attr().empty();
      EXPECT_EQ(ways, 1) << op.name() << " " << kind << " " << arg.name()
                         << ": needs exactly one of type, type_attr and "
                            "type_list_attr";
      EXPECT_FALSE(!arg.number_attr().empty() && !arg.type_list_attr().empty())
          << op.name() << " " << kind << " " << arg.name()
          << ": number_attr with type_list_attr";
      EXPECT_FALSE(arg.name().empty())
          << op.name() << " has an unnamed " << kind;
    };
    for (const auto &arg : op.input_arg())
      check(arg, "input_arg");
    for (const auto &arg : op.output_arg())
      check(arg, "output_arg");
  }
}

TEST_F(OpDefsTest, ArgAttrsExistWithTheRightType) {
  ASSERT_TRUE(parsed);
  for (const auto &op : opList->op()) {
    auto expectAttr = [&](const tensorflow::OpDef::ArgDef &arg,
                          const std::string &name, const std::string &type) {
      if (name.empty())
        return;
      const auto *attr = findAttr(op, name);
      if (!attr) {
        ADD_FAILURE() << op.name() << " arg " << arg.name()
                      << " names missing attr " << name;
        return;
      }
      EXPECT_EQ(attr->type(), type)
          << op.name() << " arg " << arg.name() << " attr " << name;
      // OpDefBuilder gives a length or type-list attr minimum 1 unless the
      // registration sets one.
      if (type != "type") {
        EXPECT_TRUE(attr->has_minimum()) << op.name() << " attr " << name;
      }
    };
    auto checkArgs = [&](const auto &args) {
      for (const auto &arg : args) {
        expectAttr(arg, arg.type_attr(), "type");
        expectAttr(arg, arg.number_attr(), "int");
        expectAttr(arg, arg.type_list_attr(), "list(type)");
      }
    };
    checkArgs(op.input_arg());
    checkArgs(op.output_arg());
  }
}

TEST_F(OpDefsTest, AttrsAreWellFormed) {
  ASSERT_TRUE(parsed);
  using Value = tensorflow::AttrValue;
  const std::map<std::string, Value::ValueCase> scalarCase = {
      {"string", Value::kS},      {"int", Value::kI},
      {"float", Value::kF},       {"bool", Value::kB},
      {"type", Value::kType},     {"shape", Value::kShape},
      {"tensor", Value::kTensor}, {"func", Value::kFunc}};
  const std::set<std::string> listTypes = {
      "list(string)", "list(int)",   "list(float)",  "list(bool)",
      "list(type)",   "list(shape)", "list(tensor)", "list(func)"};
  for (const auto &op : opList->op()) {
    std::set<std::string> names;
    for (const auto &attr : op.attr()) {
      std::string where = op.name() + " attr " + attr.name();
      EXPECT_TRUE(names.insert(attr.name()).second) << where << " repeated";
      bool isList = listTypes.count(attr.type());
      auto scalar = scalarCase.find(attr.type());
      if (!isList && scalar == scalarCase.end()) {
        ADD_FAILURE() << where << ": unknown attr type " << attr.type();
        continue;
      }
      if (attr.has_default_value()) {
        EXPECT_EQ(attr.default_value().value_case(),
                  isList ? Value::kList : scalar->second)
            << where << ": default of the wrong kind";
      }
      if (attr.has_minimum()) {
        EXPECT_TRUE(isList || attr.type() == "int")
            << where << ": minimum on a " << attr.type();
      }
    }
  }
}

TEST_F(OpDefsTest, OperandsAndResultsMatchOpsTxt) {
  ASSERT_TRUE(parsed);
  std::map<std::string, const tensorflow::OpDef *> byName;
  for (const auto &op : opList->op())
    byName[op.name()] = &op;
  for (const auto &[name, entry] : opsTxt->ops) {
    auto it = byName.find(name);
    if (it == byName.end())
      continue; // SameOpTypesAsOpsTxt reports it.
    std::optional<ResolvedOp> resolved = resolve(*opsTxt, entry);
    if (!resolved) {
      ADD_FAILURE() << name << ": cannot resolve template " << entry.base;
      continue;
    }
    auto compare = [&](const std::vector<OpsTxtArg> &expected, const auto &args,
                       const char *kind) {
      ASSERT_EQ(static_cast<int>(expected.size()), args.size())
          << name << ": " << kind << " count";
      for (int i = 0; i < args.size(); ++i) {
        bool isList =
            !args[i].number_attr().empty() || !args[i].type_list_attr().empty();
        EXPECT_EQ(expected[i].isVariadic(), isList)
            << name << " " << kind << " #" << i << " (ops.txt "
            << expected[i].name << " " << expected[i].type << ", OpDef "
            << args[i].name() << ")";
      }
    };
    compare(resolved->ins, it->second->input_arg(), "in");
    compare(resolved->outs, it->second->output_arg(), "out");
  }
}

} // namespace
