#pragma once
// The coordinator: every write and read of a stored table goes through it,
// even on a ring of one node, so that replication and consistency levels
// extend it later rather than rewrite its callers (design.md, "Later").
// Today every replica is the local engine.

#include <cstdint>
#include <functional>
#include <vector>

#include "cluster/partition_locks.h"
#include "common/clock.h"
#include "storage/engine.h"
#include "storage/mutation.h"
#include "storage/read_command.h"

namespace sibyl::cluster {

// The protocol's code of ONE (protocol::Consistency::kOne).
inline constexpr uint16_t kConsistencyOne = 0x0001;

// What a write is, as a WriteTimeout reports it (native protocol spec,
// section 8: the writeType strings).
enum class WriteType { kSimple, kBatch, kUnloggedBatch, kCounter, kBatchLog, kCas, kView, kCdc };
[[nodiscard]] const char* WriteTypeName(WriteType type);  // "SIMPLE", "UNLOGGED_BATCH", ...

struct WriteOptions {
  uint16_t consistency = kConsistencyOne;
  WriteType type = WriteType::kSimple;
};

class Coordinator {
 public:
  // Both must outlive the coordinator.
  Coordinator(storage::Engine& engine, Clock& clock) : engine_(engine), clock_(clock) {}

  // Applies the mutations at `options.consistency`: all of them atomically
  // for a logged batch (WriteType::kBatch), else each partition's on its own
  // (a single node applies any batch as one write).
  void Mutate(const std::vector<storage::Mutation>& mutations, const WriteOptions& options);
  [[nodiscard]] storage::ReadResult Read(const storage::ReadCommand& command,
                                         uint16_t consistency = kConsistencyOne) const;
  void Truncate(const types::Uuid& table_id);

  // A lightweight transaction's read-check-write on one partition: under
  // that partition's LWT lock (partition_locks.h), reads `command`, hands the
  // result to `decide`, and applies the mutations it returns (atomically;
  // none: nothing is written, e.g. a condition did not hold). Returns what
  // was read. Every LWT on the partition is thus linearizable; plain writes
  // (Mutate) do not take the lock, as they skip Paxos in Cassandra.
  // `decide` runs under the lock: it must only compute (it may call Read,
  // which takes no lock), and take its write timestamp there, so that the
  // timestamps of successive LWTs on a partition increase in their order.
  // If it throws, nothing is written and the exception propagates.
  // REQUIRES: command names exactly one partition (command.partitions), and
  // every mutation returned is on that partition of command.table_id.
  using CasDecision =
      std::function<std::vector<storage::Mutation>(const storage::ReadResult& current)>;
  [[nodiscard]] storage::ReadResult ReadThenMutate(const storage::ReadCommand& command,
                                                   const CasDecision& decide);

  storage::Engine& engine() { return engine_; }
  Clock& clock() { return clock_; }

 private:
  storage::Engine& engine_;
  Clock& clock_;
  PartitionLocks lwt_locks_;
};

}  // namespace sibyl::cluster
