#include "index/index_checker.h"

namespace sibyl::index {
namespace {

constexpr int32_t kPartitionsPerPage = 64;

Entries ExpectedEntries(const storage::Engine& engine, const storage::TableLayout& base,
                        const storage::IndexLayout& index, int32_t now) {
  Entries expected;
  storage::ReadCommand scan;
  scan.table_id = base.id;
  scan.partition_limit = kPartitionsPerPage;
  scan.now_seconds = now;
  for (;;) {
    const storage::ReadResult page = engine.Read(scan);
    for (const storage::ReadPartition& partition : page.partitions) {
      storage::ReadCommand whole;
      whole.table_id = base.id;
      whole.partitions = {partition.key};
      whole.now_seconds = now;
      for (const storage::Mutation& held : engine.ReadUnfiltered(whole)) {
        CollectEntries(base, index, held, now, expected);
      }
    }
    if (!page.next) return expected;
    scan.resume_after = page.next;
  }
}

Entries ActualEntries(const storage::Engine& engine, const storage::TableLayout& base,
                      const storage::IndexLayout& index, int32_t now) {
  Entries actual;
  storage::ReadCommand scan;
  scan.table_id = index.id;
  scan.row_limit = 1024;
  scan.now_seconds = now;
  for (;;) {
    const storage::ReadResult page = engine.Read(scan);
    for (const storage::ReadPartition& partition : page.partitions) {
      for (const storage::ReadRow& row : partition.rows) {
        actual[EntryKey(partition.key.key, row.clustering)] =
            EntryLiveness{row.marker.ttl, row.marker.ttl == 0 ? storage::kNoDeletionTime
                                                              : row.marker.local_expiration_time};
      }
    }
    if (!page.next) return actual;
    scan.resume_after = page.next;
  }
}

}  // namespace

IndexDifferences CheckIndex(const storage::Engine& engine, const storage::TableLayout& base,
                            const storage::IndexLayout& index, int32_t now_seconds) {
  const Entries expected = ExpectedEntries(engine, base, index, now_seconds);
  const Entries actual = ActualEntries(engine, base, index, now_seconds);
  IndexDifferences differences;
  differences.entries_expected = static_cast<int64_t>(expected.size());
  for (const auto& [key, liveness] : expected) {
    auto it = actual.find(key);
    if (it == actual.end()) {
      differences.missing.push_back(key);
    } else if (!(it->second == liveness)) {
      differences.wrong_expiry.push_back(key);
    }
  }
  for (const auto& [key, liveness] : actual) {
    if (!expected.contains(key)) differences.unexpected.push_back(key);
  }
  return differences;
}

}  // namespace sibyl::index
