//===- TensorBundle.cpp - reading TensorFlow checkpoints --------*- C++ -*-===//
//
// The index is LevelDB's table format (block-based, bytewise-sorted keys,
// CRC-32C per block), read with leveldb::Table. Tensor bytes are stored
// raw and little-endian; a string tensor is its lengths as varints, a
// 4-byte checksum of them, then the strings' bytes.
//
//===----------------------------------------------------------------------===//

#include "translate/savedmodel/TensorBundle.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <array>

#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/table.h"

using namespace kiln::savedmodel;
using llvm::StringRef;

size_t kiln::savedmodel::elementSize(tensorflow::DataType dtype) {
  switch (dtype) {
  case tensorflow::DT_BOOL:
  case tensorflow::DT_INT8:
  case tensorflow::DT_UINT8:
  case tensorflow::DT_QINT8:
  case tensorflow::DT_QUINT8:
    return 1;
  case tensorflow::DT_HALF:
  case tensorflow::DT_BFLOAT16:
  case tensorflow::DT_INT16:
  case tensorflow::DT_UINT16:
  case tensorflow::DT_QINT16:
  case tensorflow::DT_QUINT16:
    return 2;
  case tensorflow::DT_FLOAT:
  case tensorflow::DT_INT32:
  case tensorflow::DT_UINT32:
  case tensorflow::DT_QINT32:
    return 4;
  case tensorflow::DT_DOUBLE:
  case tensorflow::DT_INT64:
  case tensorflow::DT_UINT64:
  case tensorflow::DT_COMPLEX64:
    return 8;
  case tensorflow::DT_COMPLEX128:
    return 16;
  default:
    return 0;
  }
}

std::unique_ptr<TensorBundle> TensorBundle::open(StringRef prefix,
                                                 llvm::raw_ostream &errors) {
  std::string indexPath = (prefix + ".index").str();
  leveldb::Env *env = leveldb::Env::Default();
  uint64_t fileSize = 0;
  leveldb::Status status = env->GetFileSize(indexPath, &fileSize);
  leveldb::RandomAccessFile *rawFile = nullptr;
  if (status.ok())
    status = env->NewRandomAccessFile(indexPath, &rawFile);
  if (!status.ok()) {
    errors << "cannot read checkpoint index '" << indexPath
           << "': " << status.ToString() << "\n";
    return nullptr;
  }
  std::unique_ptr<leveldb::RandomAccessFile> file(rawFile);
  auto corrupt = [&](const llvm::Twine &why) -> std::unique_ptr<TensorBundle> {
    errors << "checkpoint index '" << indexPath
           << "' is not a TensorBundle index: " << why << "\n";
    return nullptr;
  };
  leveldb::Table *rawTable = nullptr;
  status = leveldb::Table::Open(leveldb::Options(), file.get(), fileSize,
                                &rawTable);
  if (!status.ok())
    return corrupt(status.ToString());
  std::unique_ptr<leveldb::Table> table(rawTable);

  std::unique_ptr<TensorBundle> bundle(new TensorBundle(prefix));
  leveldb::ReadOptions readOptions;
  readOptions.verify_checksums = true;
  std::unique_ptr<leveldb::Iterator> it(table->NewIterator(readOptions));
  bool sawHeader = false;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string key = it->key().ToString();
    leveldb::Slice value = it->value();
    if (key.empty()) {
      tensorflow::BundleHeaderProto header;
      if (!header.ParseFromArray(value.data(), value.size()))
        return corrupt("its header does not parse");
      if (header.endianness() != tensorflow::BundleHeaderProto::LITTLE)
        return corrupt("big-endian checkpoints are not supported");
      if (header.num_shards() < 1)
        return corrupt("its header names " +
                       llvm::Twine(header.num_shards()) + " data shards");
      bundle->numShards = header.num_shards();
      sawHeader = true;
      continue;
    }
    tensorflow::BundleEntryProto entry;
    if (!entry.ParseFromArray(value.data(), value.size()))
      return corrupt("the entry of '" + key + "' does not parse");
    bundle->entries.emplace(std::move(key), std::move(entry));
  }
  if (!it->status().ok())
    return corrupt(it->status().ToString());
  if (!sawHeader)
    return corrupt("it has no header record");
  bundle->shards.resize(bundle->numShards);
  return bundle;
}

const tensorflow::BundleEntryProto *TensorBundle::lookup(StringRef key) const {
  auto it = entries.find(key);
  return it == entries.end() ? nullptr : &it->second;
}

std::vector<std::string> TensorBundle::getKeys() const {
  std::vector<std::string> keys;
  for (const auto &[key, entry] : entries)
    keys.push_back(key);
  return keys;
}

std::optional<StringRef>
TensorBundle::entryBytes(StringRef key,
                         const tensorflow::BundleEntryProto &entry,
                         llvm::raw_ostream &errors) {
  if (entry.slices_size() > 0) {
    errors << "checkpoint tensor '" << key
           << "' is a partitioned variable (saved in slices), which Kiln "
              "does not read\n";
    return std::nullopt;
  }
  int shard = entry.shard_id();
  if (shard < 0 || shard >= numShards) {
    errors << "checkpoint tensor '" << key << "' is in shard " << shard
           << ", but the checkpoint has " << numShards << "\n";
    return std::nullopt;
  }
  if (!shards[shard]) {
    std::string path;
    llvm::raw_string_ostream os(path);
    os << prefix << ".data-" << llvm::format("%05d", shard) << "-of-"
       << llvm::format("%05d", numShards);
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      errors << "cannot read checkpoint data '" << path
             << "': " << buffer.getError().message() << "\n";
      return std::nullopt;
    }
    shards[shard] = std::move(*buffer);
  }
  StringRef data = shards[shard]->getBuffer();
  if (entry.offset() < 0 || entry.size() < 0 ||
      uint64_t(entry.offset()) + uint64_t(entry.size()) > data.size()) {
    errors << "checkpoint tensor '" << key << "' lies at bytes ["
           << entry.offset() << ", " << entry.offset() + entry.size()
           << ") of '" << shards[shard]->getBufferIdentifier()
           << "', which has " << data.size() << "\n";
    return std::nullopt;
  }
  return data.substr(entry.offset(), entry.size());
}

/// CRC-32C (Castagnoli, reflected polynomial 0x82f63b78) of `bytes`, as
/// TensorFlow's crc32c::Value computes it.
static uint32_t crc32c(StringRef bytes) {
  static const auto table = [] {
    std::array<uint32_t, 256> t;
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = (c & 1) ? (c >> 1) ^ 0x82f63b78u : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xffffffffu;
  for (unsigned char byte : bytes)
    crc = table[(crc ^ byte) & 0xff] ^ (crc >> 8);
  return crc ^ 0xffffffffu;
}

/// TensorFlow stores a checksum "masked" (rotated and offset) so that a
/// checksum of data that holds checksums stays strong.
static uint32_t maskCrc(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

std::optional<tensorflow::TensorProto>
TensorBundle::readTensor(StringRef key, llvm::raw_ostream &errors) {
  const tensorflow::BundleEntryProto *entry = lookup(key);
  if (!entry) {
    errors << "checkpoint '" << prefix << "' has no tensor '" << key << "'\n";
    return std::nullopt;
  }
  size_t size = elementSize(entry->dtype());
  if (size == 0) {
    errors << "checkpoint tensor '" << key << "' holds "
           << tensorflow::DataType_Name(entry->dtype())
           << ", which Kiln cannot read as a value\n";
    return std::nullopt;
  }
  uint64_t count = 1;
  for (const auto &dim : entry->shape().dim())
    count *= dim.size();
  std::optional<StringRef> bytes = entryBytes(key, *entry, errors);
  if (!bytes)
    return std::nullopt;
  if (bytes->size() != count * size) {
    errors << "checkpoint tensor '" << key << "' has " << bytes->size()
           << " bytes; its shape and type need " << count * size << "\n";
    return std::nullopt;
  }
  // TensorFlow's reader checks the bytes against the index's checksum: a
  // corrupt data file would otherwise become wrong weights.
  if (uint32_t actual = maskCrc(crc32c(*bytes)); actual != entry->crc32c()) {
    errors << "checkpoint tensor '" << key << "': its bytes in '"
           << shards[entry->shard_id()]->getBufferIdentifier()
           << "' do not match the index's checksum (masked CRC-32C "
           << llvm::format_hex(entry->crc32c(), 10) << ", the bytes give "
           << llvm::format_hex(actual, 10) << ")\n";
    return std::nullopt;
  }
  tensorflow::TensorProto tensor;
  tensor.set_dtype(entry->dtype());
  *tensor.mutable_tensor_shape() = entry->shape();
  tensor.set_tensor_content(bytes->data(), bytes->size());
  return tensor;
}

std::optional<std::string>
TensorBundle::readStringScalar(StringRef key, llvm::raw_ostream &errors) {
  const tensorflow::BundleEntryProto *entry = lookup(key);
  if (!entry) {
    errors << "checkpoint '" << prefix << "' has no tensor '" << key << "'\n";
    return std::nullopt;
  }
  if (entry->dtype() != tensorflow::DT_STRING ||
      entry->shape().dim_size() != 0) {
    errors << "checkpoint tensor '" << key
           << "' is not a scalar string\n";
    return std::nullopt;
  }
  std::optional<StringRef> bytes = entryBytes(key, *entry, errors);
  if (!bytes)
    return std::nullopt;
  // One varint length, a 4-byte checksum of the lengths, the bytes.
  uint64_t length = 0;
  size_t pos = 0;
  for (unsigned shift = 0; pos < bytes->size() && shift < 64; shift += 7) {
    uint8_t byte = (*bytes)[pos++];
    length |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      break;
  }
  pos += 4;
  if (pos > bytes->size() || bytes->size() - pos < length) {
    errors << "checkpoint tensor '" << key << "' is truncated\n";
    return std::nullopt;
  }
  return bytes->substr(pos, length).str();
}
