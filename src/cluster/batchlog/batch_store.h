#pragma once
// The batches this node keeps for other coordinators (Cassandra's
// system.batches): a logged batch is stored on up to two nodes before its
// mutations are sent, removed once they were all applied, and replayed by
// the batchlog manager when its coordinator never removed it.
//
// On disk: one file per batch, written to a temporary name, fdatasync'ed,
// then renamed, so a batch is either wholly there or absent:
//
//   <directory>/<batch id>.batch   the encoding below
//
// The encoding (also BATCH_STORE's payload):
//   [16 bytes batch id][i64 creation µs][u32 count]{[u32 length][mutation]}*
//   [u32 crc32 of everything before]
//
// Thread-safety: every method may be called from any thread.

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <vector>

#include "common/bytes.h"
#include "types/uuid.h"

namespace sibyl::cluster {

struct StoredBatch {
  types::Uuid id;
  int64_t creation_micros = 0;   // the coordinator's clock when it began the batch
  std::vector<Bytes> mutations;  // storage::Mutation::SerializeTo's bytes
};

Bytes EncodeBatch(const StoredBatch& batch);
// Throws std::runtime_error on bytes that are not an encoded batch.
StoredBatch DecodeBatch(BytesView bytes);

class BatchStore {
 public:
  // Creates the directory if needed. Throws std::runtime_error naming it.
  explicit BatchStore(std::filesystem::path directory);

  // Durable when it returns. Storing a batch again replaces it. Throws
  // std::runtime_error when the disk refuses.
  void Store(const StoredBatch& batch);
  void Remove(const types::Uuid& id);
  // Every batch stored, oldest first; unreadable files are skipped (and
  // left for an operator: they are not ours to delete).
  std::vector<StoredBatch> List() const;
  size_t size() const;

 private:
  std::filesystem::path PathOf(const types::Uuid& id) const;

  const std::filesystem::path directory_;
  mutable std::mutex mutex_;  // serializes the file operations
};

}  // namespace sibyl::cluster
