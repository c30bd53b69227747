#pragma once
// The cluster's metadata log in etcd: every change of schema or membership
// is an entry numbered with the next epoch, appended with one
// compare-and-swap transaction, so that changes made concurrently on
// different nodes end up in one history.
//
// Key layout, under a prefix per cluster name (the name percent-encoded, so
// that "a/b" cannot reach into the keys of cluster "a"):
//
//   /sibyl/<cluster_name>/epoch                    the latest epoch, decimal text
//   /sibyl/<cluster_name>/log/<epoch, 20 digits>   that epoch's LogEntry
//                                                  (metadata_log_entry.h)
//
// Zero-padded epochs sort as numbers, so a range over log/ reads entries in
// epoch order. Appending epoch E+1 is one txn: if the epoch key still holds
// E (or, for epoch 1, does not exist), put epoch = E+1 and log/E+1; if not,
// another writer appended first and nothing was written. Compaction
// deletes entries below an epoch; the store keeps the latest N and the
// latest entry of each kind, which the entries' headers name.
//
// Thread-safety: as EtcdClient (stateless beyond the client).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/etcd_client.h"
#include "metadata/metadata_log_entry.h"

namespace sibyl::metadata {

class MetadataLog {
 public:
  // REQUIRES: `etcd` outlives the log.
  MetadataLog(EtcdClient& etcd, std::string_view cluster_name);

  const std::string& prefix() const { return prefix_; }  // "/sibyl/<cluster_name>/"
  std::string EpochKey() const { return prefix_ + "epoch"; }
  std::string LogPrefix() const { return prefix_ + "log/"; }
  std::string EntryKey(uint64_t epoch) const;
  // The epoch of a log key, or nullopt for any other key.
  std::optional<uint64_t> EpochOfKey(std::string_view key) const;

  struct Entries {
    int64_t revision = 0;  // the etcd revision they were read at
    std::vector<LogEntry> entries;
  };
  // The entries from epoch `first` on, in epoch order, read at one etcd
  // revision. Compacted entries are simply absent: the caller checks that
  // the first one is `first`. Throws EtcdError, or std::runtime_error for
  // an entry that cannot be decoded.
  [[nodiscard]] Entries ReadFrom(uint64_t first);

  struct Latest {
    int64_t revision = 0;               // the etcd revision it was read at
    uint64_t epoch = 0;                 // 0: the log is empty
    std::optional<LogEntry> schema;     // the entry holding the current schema, if any
    std::optional<LogEntry> directory;  // the entry holding the current directory, if any
  };
  // The state at the latest epoch: what a node that starts, or that fell
  // behind past compaction, reads. Two reads at one revision. Throws as ReadFrom.
  [[nodiscard]] Latest ReadLatest();

  // Appends `entry` as epoch `entry.epoch` if the latest epoch is
  // entry.epoch - 1; false when another writer appended first (nothing
  // written). Throws EtcdError (EtcdUnavailable: the outcome may be unknown).
  [[nodiscard]] bool Append(const LogEntry& entry);

  // Deletes the entries below epoch `before`; returns how many.
  int64_t Compact(uint64_t before);

 private:
  std::vector<LogEntry> Decode(const std::vector<KeyValue>& kvs) const;

  EtcdClient* etcd_;
  std::string prefix_;
};

}  // namespace sibyl::metadata
