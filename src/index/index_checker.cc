#include "index/index_checker.h"

#include "index/derived_check.h"

namespace sibyl::index {
namespace {

Entries ExpectedEntries(const storage::Engine& engine, const storage::TableLayout& base,
                        const storage::IndexLayout& index, int32_t now) {
  Entries expected;
  ForEachHeldPartition(engine, base, now,
                       [&](const storage::PartitionKey&, const storage::Mutation& held) {
                         CollectEntries(base, index, held, now, expected);
                       });
  return expected;
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
  CompareDerived(expected, actual, differences.missing, differences.unexpected,
                 differences.wrong_expiry);
  return differences;
}

}  // namespace sibyl::index
