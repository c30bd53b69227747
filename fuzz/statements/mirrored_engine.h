#pragma once
// An Engine that is two: every write goes to the RocksDB engine and to the
// reference engine (storage/reference/reference_engine.h, the obviously-correct
// model), and every read is answered by both and compared. The statement
// fuzzer runs the real query processor over it, so every read a statement
// makes — SELECT pages, a transaction's read, a list operation's read —
// checks that the storage holds exactly what the model holds for the same
// writes. The answer returned is RocksDB's.
//
// Comparisons follow the engine contract (reference_engine.h): clustering
// values and element paths that compare equal under their type but are
// spelled differently (decimal 1.5 and 1.50) name the same row or element,
// whichever spelling comes back; everything else must be identical.
// tombstones_scanned is an engine detail and is not compared.
//
// A difference throws MirrorMismatch (not a CqlError: the harness reports
// it as a bug) after recording it in mismatch(). So does a write that one
// engine accepts and the other refuses.
//
// Thread-safety: as the engines'; the fuzzer drives it from one thread.

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "storage/engine.h"

namespace sibyl::fuzz {

class MirrorMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class MirroredEngine final : public storage::Engine {
 public:
  // Both must outlive this object.
  MirroredEngine(storage::Engine& primary, storage::Engine& reference)
      : primary_(primary), reference_(reference) {}

  void SyncTables(const std::vector<storage::TableLayout>& tables) override;
  void Apply(const storage::Mutation& mutation) override;
  void ApplyAll(const std::vector<const storage::Mutation*>& mutations) override;
  void ApplyAllSynced(const std::vector<const storage::Mutation*>& mutations) override;
  storage::ReadResult Read(const storage::ReadCommand& command) const override;
  // RocksDB's answer, not compared: the unfiltered answers of two engines
  // holding the same writes may differ (RocksDB's compaction turns expired
  // cells into tombstones); storage/read/read_repair_randomized_test.cc holds both
  // to their contract.
  std::vector<storage::Mutation> ReadUnfiltered(
      const storage::ReadCommand& command) const override {
    return primary_.ReadUnfiltered(command);
  }
  void Truncate(const types::Uuid& table_id) override;
  void Flush() override { primary_.Flush(); }
  void Flush(const types::Uuid& table_id) override { primary_.Flush(table_id); }
  void Compact(const types::Uuid& table_id) override { primary_.Compact(table_id); }

  // The first difference seen, described; empty while the engines agree.
  const std::string& mismatch() const { return mismatch_; }

 private:
  template <typename Call>
  void OnBoth(const char* what, Call&& call);
  [[noreturn]] void Fail(std::string description) const;

  storage::Engine& primary_;
  storage::Engine& reference_;
  std::map<types::Uuid, storage::TableLayout> layouts_;  // by table id, from SyncTables
  mutable std::string mismatch_;
};

}  // namespace sibyl::fuzz
