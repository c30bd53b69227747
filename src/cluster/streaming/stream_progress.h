#pragma once
// What a node receiving a stream has of it, on disk, so that a restart does
// not fetch again what it already applied: per plan, the slices
// (table, token range) applied. A slice is marked only after its rows are
// durable (Engine::ApplyAllSynced), so a crash between the two makes the
// slice be fetched again, which is harmless: rows reconcile by timestamp.
//
// One file per plan, `<directory>/<plan id>.stream`, a line per slice
// ("<table id> <start> <end>"), appended and fsynced; a torn last line
// (a crash mid-append) is ignored.
//
// Thread-safety: one thread at a time per object.

#include <filesystem>
#include <set>
#include <tuple>

#include "storage/data/read_command.h"
#include "types/uuid.h"

namespace sibyl::cluster::streaming {

struct SliceKey {
  types::Uuid table_id;
  int64_t start = 0;
  int64_t end = 0;
  friend bool operator<(const SliceKey& a, const SliceKey& b) {
    return std::tie(a.table_id, a.start, a.end) < std::tie(b.table_id, b.start, b.end);
  }
};

class StreamProgress {
 public:
  // Reads what the plan's file holds (nothing when it does not exist).
  // Throws std::runtime_error when the directory cannot be made.
  StreamProgress(std::filesystem::path directory, const types::Uuid& plan_id);

  [[nodiscard]] bool Done(const types::Uuid& table_id, const storage::TokenRange& slice) const;
  // Records the slice as applied, fsynced. Throws std::runtime_error.
  void MarkDone(const types::Uuid& table_id, const storage::TokenRange& slice);
  size_t done_count() const { return done_.size(); }
  // Forgets the plan (its file), once it finished.
  void Remove();

 private:
  std::filesystem::path file_;
  std::set<SliceKey> done_;
};

}  // namespace sibyl::cluster::streaming
