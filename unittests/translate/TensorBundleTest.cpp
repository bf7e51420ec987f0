//===- TensorBundleTest.cpp - reading checkpoints ----------------*- C++ -*-===//
//
// Checkpoints written here with LevelDB's own TableBuilder, as TensorFlow
// lays them out (header under the empty key, a BundleEntryProto per tensor,
// raw bytes in the data shard), read back by kiln::savedmodel::TensorBundle;
// every malformed one is reported naming the key or file.
//
//===----------------------------------------------------------------------===//

#include "translate/savedmodel/TensorBundle.h"

#include "leveldb/env.h"
#include "leveldb/options.h"
#include "leveldb/table_builder.h"

#include "gtest/gtest.h"

#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <memory>

namespace fs = std::filesystem;
using kiln::savedmodel::TensorBundle;

namespace {

class TensorBundleTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("kiln-bundle-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
    prefix = (dir / "ckpt").string();
  }
  void TearDown() override { fs::remove_all(dir); }

  /// Writes prefix.index with `entries` (sorted by key), after a header of
  /// `shards` shards unless `header` is false.
  void writeIndex(
      const std::vector<std::pair<std::string, tensorflow::BundleEntryProto>>
          &entries,
      bool header = true, int shards = 1,
      tensorflow::BundleHeaderProto::Endianness endianness =
          tensorflow::BundleHeaderProto::LITTLE) {
    leveldb::WritableFile *raw = nullptr;
    ASSERT_TRUE(
        leveldb::Env::Default()->NewWritableFile(prefix + ".index", &raw).ok());
    std::unique_ptr<leveldb::WritableFile> file(raw);
    leveldb::Options options;
    options.compression = leveldb::kNoCompression;
    leveldb::TableBuilder builder(options, file.get());
    if (header) {
      tensorflow::BundleHeaderProto proto;
      proto.set_num_shards(shards);
      proto.set_endianness(endianness);
      builder.Add("", proto.SerializeAsString());
    }
    for (const auto &[key, entry] : entries)
      builder.Add(key, entry.SerializeAsString());
    ASSERT_TRUE(builder.Finish().ok());
    ASSERT_TRUE(file->Close().ok());
  }

  void writeData(const std::string &bytes, int shard = 0, int shards = 1) {
    char name[64];
    std::snprintf(name, sizeof(name), ".data-%05d-of-%05d", shard, shards);
    std::ofstream(prefix + name, std::ios::binary) << bytes;
  }

  static tensorflow::BundleEntryProto
  entry(tensorflow::DataType dtype, std::vector<int64_t> shape,
        int64_t offset, int64_t size) {
    tensorflow::BundleEntryProto proto;
    proto.set_dtype(dtype);
    for (int64_t dim : shape)
      proto.mutable_shape()->add_dim()->set_size(dim);
    proto.set_offset(offset);
    proto.set_size(size);
    return proto;
  }

  std::unique_ptr<TensorBundle> open() {
    std::unique_ptr<TensorBundle> bundle = TensorBundle::open(prefix, os);
    return bundle;
  }

  fs::path dir;
  std::string prefix;
  std::string errors;
  llvm::raw_string_ostream os{errors};
};

std::string floats(std::vector<float> values) {
  std::string bytes(values.size() * 4, '\0');
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

TEST_F(TensorBundleTest, ReadsTensorsAndStrings) {
  // "s": one varint length, a 4-byte checksum, the bytes.
  std::string text = "object graph";
  std::string stringBytes = std::string(1, char(text.size())) +
                            std::string(4, '\x7f') + text;
  // TensorFlow's masked CRC-32C of w's 8 bytes, which the reader checks
  // (the SavedModel e2e tests read checkpoints TensorFlow wrote).
  auto w = entry(tensorflow::DT_FLOAT, {2}, 0, 8);
  w.set_crc32c(0xf4c8333du);
  writeIndex({{"s", entry(tensorflow::DT_STRING, {}, 8, stringBytes.size())},
              {"w", w}});
  writeData(floats({1.5f, -2.0f}) + stringBytes);
  auto bundle = open();
  ASSERT_TRUE(bundle) << errors;
  EXPECT_EQ(bundle->getKeys(), (std::vector<std::string>{"s", "w"}));
  auto tensor = bundle->readTensor("w", os);
  ASSERT_TRUE(tensor) << errors;
  EXPECT_EQ(tensor->dtype(), tensorflow::DT_FLOAT);
  EXPECT_EQ(tensor->tensor_shape().dim(0).size(), 2);
  EXPECT_EQ(tensor->tensor_content(), floats({1.5f, -2.0f}));
  auto string = bundle->readStringScalar("s", os);
  ASSERT_TRUE(string) << errors;
  EXPECT_EQ(*string, text);
  EXPECT_FALSE(bundle->readTensor("s", os));
  EXPECT_NE(errors.find("checkpoint tensor 's' holds DT_STRING, which Kiln "
                        "cannot read as a value"),
            std::string::npos)
      << errors;
}

TEST_F(TensorBundleTest, NamesMissingAndMalformedTensors) {
  auto sliced = entry(tensorflow::DT_FLOAT, {2}, 0, 8);
  sliced.add_slices("");
  auto shard = entry(tensorflow::DT_FLOAT, {1}, 0, 4);
  shard.set_shard_id(3);
  // TableBuilder takes keys in sorted order.
  writeIndex({{"long", entry(tensorflow::DT_FLOAT, {4}, 4, 16)},
              {"shard", shard},
              {"short", entry(tensorflow::DT_FLOAT, {3}, 0, 8)},
              {"sliced", sliced}});
  writeData(floats({1, 2, 3, 4}));
  auto bundle = open();
  ASSERT_TRUE(bundle) << errors;
  for (const char *key : {"nope", "long", "short", "sliced", "shard"})
    EXPECT_FALSE(bundle->readTensor(key, os)) << key;
  for (const char *message :
       {"has no tensor 'nope'", "checkpoint tensor 'long' lies at bytes [4, "
                                "20) of",
        "checkpoint tensor 'short' has 8 bytes; its shape and type need 12",
        "checkpoint tensor 'sliced' is a partitioned variable",
        "checkpoint tensor 'shard' is in shard 3, but the checkpoint has 1"})
    EXPECT_NE(errors.find(message), std::string::npos)
        << message << " in:\n"
        << errors;
}

TEST_F(TensorBundleTest, MissingShard) {
  writeIndex({{"w", entry(tensorflow::DT_FLOAT, {1}, 0, 4)}});
  auto bundle = open();
  ASSERT_TRUE(bundle) << errors;
  EXPECT_FALSE(bundle->readTensor("w", os));
  EXPECT_NE(errors.find("cannot read checkpoint data '" + prefix +
                        ".data-00000-of-00001'"),
            std::string::npos)
      << errors;
}

TEST_F(TensorBundleTest, RejectsBadIndexes) {
  EXPECT_FALSE(open());
  EXPECT_NE(errors.find("cannot read checkpoint index '" + prefix +
                        ".index'"),
            std::string::npos)
      << errors;

  std::ofstream(prefix + ".index") << "not a table";
  errors.clear();
  EXPECT_FALSE(open());
  EXPECT_NE(errors.find("is not a TensorBundle index: Corruption"),
            std::string::npos)
      << errors;

  writeIndex({{"w", entry(tensorflow::DT_FLOAT, {1}, 0, 4)}},
             /*header=*/false);
  errors.clear();
  EXPECT_FALSE(open());
  EXPECT_NE(errors.find("it has no header record"), std::string::npos)
      << errors;

  writeIndex({}, /*header=*/true, 1, tensorflow::BundleHeaderProto::BIG);
  errors.clear();
  EXPECT_FALSE(open());
  EXPECT_NE(errors.find("big-endian checkpoints are not supported"),
            std::string::npos)
      << errors;
}

} // namespace
