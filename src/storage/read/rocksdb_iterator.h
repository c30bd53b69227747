#pragma once
// What the table readers need of a RocksDB iterator: its keys and values as
// our BytesView (no copy; valid until the iterator moves) and its status as
// a StorageError.

#include <rocksdb/iterator.h>

#include "common/bytes.h"
#include "storage/data/storage_error.h"

namespace sibyl::storage {

[[nodiscard]] inline BytesView ToView(const rocksdb::Slice& slice) {
  return {slice.data(), slice.size()};
}

// Throws StorageError when the iteration stopped on an error rather than
// at the end of the data.
inline void CheckIteratorStatus(const rocksdb::Iterator& it) {
  if (!it.status().ok()) throw StorageError("read", {}, "read: " + it.status().ToString());
}

}  // namespace sibyl::storage
