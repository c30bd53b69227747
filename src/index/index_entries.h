#pragma once
// The entries of a secondary index (storage::IndexLayout) and the table that
// holds them, one column family per index:
//
//   partition key: the indexed value (for entries(m): the key, then the value)
//   clustering:    token of the base partition (bigint), the base partition's
//                  routing key (blob), the base row's clustering values (none
//                  when IndexesWholePartitions), then, for values() of a list
//                  or map, the element's cell path (blob)
//   columns:       none; an entry is a row marker alone
//
// So the rows holding one value sit in one partition in base token order,
// then in the base table's order: an index read is a walk of one partition.
//
// An entry lives exactly while what it indexes lives: its marker carries the
// indexed cell's TTL and expiry (for an index on a clustering column, the
// row's: alive while the row's marker or any of its cells lives; on a
// partition key column, the partition's), so it expires with the cell. Entries are derived data
// written under the base partition's lock (indexing_engine.h) with the node's own increasing
// timestamps, never the client's: each write of an entry supersedes the one before, so the index
// follows the base exactly whatever the client timestamps (ties, older
// writes, re-inserted values) did.

#include <map>
#include <utility>

#include "common/bytes.h"
#include "index/row_liveness.h"
#include "storage/data/mutation.h"
#include "storage/data/table_layout.h"

namespace sibyl::index {

// Whether an entry of `index` stands for a whole partition: an index on a
// static column, or on a partition key column (whose entry lives while any
// row or static value of the partition does, so a partition with only
// static values is found, as in Cassandra).
[[nodiscard]] bool IndexesWholePartitions(const storage::TableLayout& base,
                                          const storage::IndexLayout& index);

// The layout of `index`'s table. Its id is the index's id.
[[nodiscard]] storage::TableLayout IndexTableLayout(const storage::TableLayout& base,
                                                    const storage::IndexLayout& index);

// The index partition key of a value: its routing key (for entries(m) the
// composite of key and value) and token.
[[nodiscard]] storage::PartitionKey IndexPartitionKey(const storage::IndexLayout& index,
                                                      BytesView value,
                                                      const Bytes* entry_value = nullptr);

// An entry's place: its index partition (routing key) and clustering.
using EntryKey = std::pair<Bytes, storage::Clustering>;
// What the entry's marker carries besides its timestamp: ttl (0: none) and
// local expiration time.
using EntryLiveness = Liveness;
using Entries = std::map<EntryKey, EntryLiveness>;

// Adds to `out` the entries `index` holds for the rows of `partition` — one
// partition of the base table as a Mutation (everything the replica holds of
// those rows, deletions included, as ReadUnfiltered answers, possibly merged
// with a write) — at `now_seconds`.
void CollectEntries(const storage::TableLayout& base, const storage::IndexLayout& index,
                    const storage::Mutation& partition, int32_t now_seconds, Entries& out);

// The writes that turn index entries `before` into `after`, with marker and
// deletion timestamp `timestamp` and deletion time `now_seconds`: one
// Mutation of `index_table` per index partition touched, appended to `out`.
void DiffEntries(const storage::TableLayout& index_table, const Entries& before,
                 const Entries& after, int64_t timestamp, int32_t now_seconds,
                 std::vector<storage::Mutation>& out);

}  // namespace sibyl::index
