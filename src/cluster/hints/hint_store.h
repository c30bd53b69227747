#pragma once
// Hints: writes a coordinator could not deliver to a replica (down, or not
// answering within the write timeout), kept on the coordinator's disk until
// the replica is back, then replayed to it (hint_dispatcher). Each hint is a
// serialized Mutation with its original timestamps, so replaying it late, or
// twice, changes nothing that reconciliation would not.
//
// On disk, as Cassandra's hints directory: one folder per target host id,
// holding numbered segment files written in order:
//
//   <hints_directory>/<host id>/<00000000000000000001>.hints
//   record: [u32 length of payload][u32 crc32 of the next fields][i64 creation µs][payload]
//
// Durability: appends reach the OS at once and are fdatasync'ed at most
// every `sync_period` (Cassandra's hints_flush_period), and by Sync(). A
// crash can lose the hints of that last period, never corrupt earlier ones:
// a torn record at a segment's end is where reading stops.
//
// Thread-safety: every method may be called from any thread.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "types/uuid.h"

namespace sibyl::cluster {

struct Hint {
  int64_t creation_micros = 0;
  Bytes mutation;  // storage::Mutation::SerializeTo's bytes
};

// A sealed segment: no longer written to, ready to replay.
struct HintSegment {
  std::filesystem::path path;
  uint64_t bytes = 0;
};

class HintStore {
 public:
  struct Options {
    std::filesystem::path directory;
    // A segment is sealed and a new one begun past this size.
    uint64_t max_segment_bytes = 32 << 20;
    std::chrono::milliseconds sync_period{1000};
  };

  // Creates the directory if needed. Throws std::runtime_error naming it.
  explicit HintStore(Options options);
  ~HintStore();
  HintStore(const HintStore&) = delete;
  HintStore& operator=(const HintStore&) = delete;

  // Appends a hint for `target`. Throws std::runtime_error when the disk refuses.
  void Append(const types::Uuid& target, int64_t creation_micros, BytesView mutation);
  // fdatasyncs every open segment.
  void Sync();

  // Hosts with hints waiting.
  std::vector<types::Uuid> Targets() const;
  // Seals the segment being written for `target` and returns every sealed
  // segment, oldest first.
  std::vector<HintSegment> SealAndList(const types::Uuid& target);
  // The hints of a sealed segment, in order. A torn or corrupt record ends
  // the list (what follows it cannot be trusted). Throws std::runtime_error
  // when the file cannot be read.
  static std::vector<Hint> ReadSegment(const std::filesystem::path& segment);
  // Deletes a replayed segment.
  void Remove(const HintSegment& segment);
  // Deletes every hint for `target` (it left the cluster, or its hints are
  // too old to matter).
  void DropAll(const types::Uuid& target);
  // Bytes of hints waiting for `target`.
  uint64_t PendingBytes(const types::Uuid& target) const;
  // Bytes of hints waiting for every target (from the files: a scrape's cost).
  uint64_t TotalPendingBytes() const;

  // What became of hints since the node started, for the metrics endpoint.
  struct Counts {
    uint64_t stored = 0;         // appended
    uint64_t delivered = 0;      // acknowledged by their target (NoteDelivered)
    uint64_t dropped_bytes = 0;  // deleted unreplayed by DropAll
  };
  Counts counts() const;
  // The dispatcher's word that a target acknowledged one replayed hint.
  void NoteDelivered() { delivered_.fetch_add(1, std::memory_order_relaxed); }

 private:
  struct OpenSegment;
  std::filesystem::path TargetDirectory(const types::Uuid& target) const;
  uint64_t NextSequence(const std::filesystem::path& directory) const;
  void Seal(const types::Uuid& target);  // REQUIRES: mutex_ held

  const Options options_;
  mutable std::mutex mutex_;
  std::map<types::Uuid, std::unique_ptr<OpenSegment>> open_;  // GUARDED_BY(mutex_)
  std::atomic<uint64_t> stored_{0};
  std::atomic<uint64_t> delivered_{0};
  std::atomic<uint64_t> dropped_bytes_{0};
};

}  // namespace sibyl::cluster
