//===- ProtoTest.cpp - the in-tree TensorFlow schemas -----------*- C++ -*-===//
//
// The schemas must read TensorFlow's own files: every GraphDef and tfcompile
// config of the corpus parses in text format, and survives binary encoding
// unchanged. Field numbers are checked against known wire bytes.
//
//===----------------------------------------------------------------------===//

#include "translate/proto/graph.pb.h"
#include "translate/proto/tf2xla.pb.h"

#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"

#include "gtest/gtest.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using google::protobuf::Message;
using google::protobuf::TextFormat;
using google::protobuf::util::MessageDifferencer;

namespace {

std::string readFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// Parses `text` into `message`, re-encodes it in binary and checks that the
/// decoded copy is identical.
void expectTextAndWireRoundTrip(const std::string &text, Message &message,
                                const std::string &what) {
  ASSERT_TRUE(TextFormat::ParseFromString(text, &message)) << what;
  std::string wire;
  ASSERT_TRUE(message.SerializeToString(&wire)) << what;
  std::unique_ptr<Message> copy(message.New());
  ASSERT_TRUE(copy->ParseFromString(wire)) << what;
  EXPECT_TRUE(MessageDifferencer::Equals(message, *copy)) << what;
}

std::vector<fs::path> corpusFiles(const char *subdir, const char *suffix) {
  std::vector<fs::path> files;
  fs::path dir = fs::path(KILN_CORPUS_DIR) / "tensorflow" / subdir;
  if (!fs::is_directory(dir))
    return files;
  for (const auto &entry : fs::directory_iterator(dir))
    if (entry.path().string().size() > strlen(suffix) &&
        entry.path().string().rfind(suffix) ==
            entry.path().string().size() - strlen(suffix))
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(TFProtoTest, FieldNumbersMatchTensorFlowWireFormat) {
  // NodeDef{name="a" (1), op="Const" (2), input="b" (3)} and a DT_FLOAT (1)
  // "dtype" attr (map field 5, AttrValue.type = 6).
  tensorflow::NodeDef node;
  node.set_name("a");
  node.set_op("Const");
  node.add_input("b");
  (*node.mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
  std::string wire;
  ASSERT_TRUE(node.SerializeToString(&wire));
  const std::string expected("\x0a\x01"
                             "a"
                             "\x12\x05"
                             "Const"
                             "\x1a\x01"
                             "b"
                             "\x2a\x0b\x0a\x05"
                             "dtype"
                             "\x12\x02\x30\x01",
                             26);
  EXPECT_EQ(wire, expected);
}

TEST(TFProtoTest, ParsesInlineGraph) {
  tensorflow::GraphDef graph;
  expectTextAndWireRoundTrip(R"pb(
    node {
      name: "x"
      op: "Placeholder"
      attr { key: "dtype" value { type: DT_FLOAT } }
      attr { key: "shape" value { shape { dim { size: -1 } dim { size: 3 } } } }
    }
    node {
      name: "c"
      op: "Const"
      attr {
        key: "value"
        value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } } int_val: [ 1, 2 ] } }
      }
    }
    node { name: "y" op: "Identity" input: "x" input: "^c" }
    versions { producer: 27 }
  )pb",
                             graph, "inline graph");
  ASSERT_EQ(graph.node_size(), 3);
  EXPECT_EQ(graph.node(2).input(1), "^c");
  EXPECT_EQ(graph.node(0).attr().at("shape").shape().dim(0).size(), -1);
  EXPECT_EQ(graph.versions().producer(), 27);
}

TEST(TFProtoTest, RejectsUnknownFieldInText) {
  tensorflow::GraphDef graph;
  EXPECT_FALSE(TextFormat::ParseFromString("node { nmae: \"x\" }", &graph));
}

TEST(TFProtoTest, CorpusGraphDefsParse) {
  std::vector<fs::path> files = corpusFiles("graphdef", ".pbtxt");
  std::vector<fs::path> tfcompile = corpusFiles("tfcompile", ".pbtxt");
  for (const fs::path &p : tfcompile)
    if (p.string().find(".config.") == std::string::npos &&
        p.string().find("template") == std::string::npos)
      files.push_back(p);
  if (files.empty())
    GTEST_SKIP() << "no TensorFlow corpus at " << KILN_CORPUS_DIR;
  EXPECT_EQ(files.size(), 27u + 3u);
  for (const fs::path &path : files) {
    tensorflow::GraphDef graph;
    expectTextAndWireRoundTrip(readFile(path), graph, path.string());
    EXPECT_GT(graph.node_size(), 0) << path;
  }
}

TEST(TFProtoTest, CorpusTfcompileConfigsParse) {
  std::vector<fs::path> files = corpusFiles("tfcompile", ".config.pbtxt");
  if (files.empty())
    GTEST_SKIP() << "no TensorFlow corpus at " << KILN_CORPUS_DIR;
  EXPECT_GE(files.size(), 20u);
  for (const fs::path &path : files) {
    tensorflow::tf2xla::Config config;
    expectTextAndWireRoundTrip(readFile(path), config, path.string());
    EXPECT_GT(config.feed_size() + config.fetch_size(), 0) << path;
  }
}

} // namespace
