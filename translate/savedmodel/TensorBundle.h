//===- TensorBundle.h - reading TensorFlow checkpoints ----------*- C++ -*-===//
//
// A V2 checkpoint (TensorFlow's TensorBundle): `<prefix>.index`, a table in
// LevelDB's format mapping each tensor's key to a BundleEntryProto (the
// empty key holds the BundleHeaderProto), and `<prefix>.data-NNNNN-of-MMMMM`
// shards holding the tensors' bytes. The index is read with LevelDB's own
// table reader.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSLATE_SAVEDMODEL_TENSORBUNDLE_H
#define KILN_TRANSLATE_SAVEDMODEL_TENSORBUNDLE_H

#include "translate/proto/tensor.pb.h"
#include "translate/proto/tensor_bundle.pb.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::savedmodel {

/// A checkpoint opened for reading. Its index is read whole when opened; the
/// data shards are mapped when a tensor in them is first read.
class TensorBundle {
public:
  /// Opens the checkpoint `prefix` (`prefix.index` and its shards). A
  /// missing or corrupt index is reported to `errors`, naming the file, and
  /// the result is null.
  static std::unique_ptr<TensorBundle> open(llvm::StringRef prefix,
                                            llvm::raw_ostream &errors);

  /// The checkpoint's prefix, as given to open().
  llvm::StringRef getPrefix() const { return prefix; }

  /// The entry of `key`, or null when the checkpoint has no such tensor.
  const tensorflow::BundleEntryProto *lookup(llvm::StringRef key) const;

  /// Every key but the header's, sorted.
  std::vector<std::string> getKeys() const;

  /// Reads the numeric or boolean tensor `key` as a TensorProto holding its
  /// bytes (`tensor_content`). A missing key, a string or resource tensor, a
  /// partitioned variable, or bytes outside the shard are reported to
  /// `errors`, naming the key.
  std::optional<tensorflow::TensorProto> readTensor(llvm::StringRef key,
                                                    llvm::raw_ostream &errors);

  /// Reads the scalar DT_STRING tensor `key` (such as the object graph of an
  /// object-based checkpoint).
  std::optional<std::string> readStringScalar(llvm::StringRef key,
                                              llvm::raw_ostream &errors);

private:
  explicit TensorBundle(llvm::StringRef prefix) : prefix(prefix.str()) {}

  /// The bytes of `entry`, checked against its shard's size.
  std::optional<llvm::StringRef>
  entryBytes(llvm::StringRef key, const tensorflow::BundleEntryProto &entry,
             llvm::raw_ostream &errors);

  std::string prefix;
  int numShards = 1;
  std::map<std::string, tensorflow::BundleEntryProto, std::less<>> entries;
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> shards;
};

/// The size in bytes of one element of `dtype` in a checkpoint, or 0 for the
/// types that are not stored as plain little-endian values (strings,
/// resources, variants).
size_t elementSize(tensorflow::DataType dtype);

} // namespace kiln::savedmodel

#endif // KILN_TRANSLATE_SAVEDMODEL_TENSORBUNDLE_H
