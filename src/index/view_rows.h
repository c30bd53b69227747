#pragma once
// The rows of a materialized view (storage::ViewLayout) derived from the
// rows of its base table, and the writes that bring a view from one set of
// derived rows to the next.
//
// Each view row derives from exactly one base row (the view's key holds the
// base's whole primary key), so the view is a function of the base, row by
// row. A base clustering row gives a view row when, at `now`:
//  - the base row lives (its marker or any of its cells: "unselected
//    columns keep the row alive", as in Cassandra 4.x);
//  - every view key column has a value (a base regular column in the key
//    must hold a live cell), and the view partition key is not empty;
//  - the WHERE clause's restrictions on key columns hold.
// The view row carries the base's selected live cells, each with its TTL
// and expiry, and a marker that lives as long as the base row does. When a
// base regular column is in the view key, the view row lives exactly while
// that cell does (Cassandra's strict liveness): its marker and every cell
// expire no later than it. Static rows give no view rows.
//
// View rows are written under the base partition's lock with the node's
// own increasing timestamps (as index entries are, index_entries.h): a
// changed row is a row deletion at t and its new contents at a later t', so each
// write replaces the row wholly, and the view follows the base exactly
// whatever the client's timestamps did — none of Cassandra's resurrections
// from view tombstones carrying base timestamps. The price: writetime() on
// a view shows when the view row was written, not the base cell's time.

#include <map>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "index/row_liveness.h"
#include "storage/data/mutation.h"
#include "storage/data/table_layout.h"

namespace sibyl::index {

// A view row's place: its partition (routing key) and clustering.
using ViewRowKey = std::pair<Bytes, storage::Clustering>;

struct ViewCell {
  std::string column;
  std::optional<Bytes> path;  // an element of a non-frozen collection or UDT
  Bytes value;
  Liveness liveness;
  friend bool operator==(const ViewCell&, const ViewCell&) = default;
};

struct ViewRow {
  Liveness marker;
  std::vector<ViewCell> cells;  // in the base row's order
  friend bool operator==(const ViewRow&, const ViewRow&) = default;
};

using ViewRows = std::map<ViewRowKey, ViewRow>;

// Adds to `out` the rows `view` derives from the rows of `partition`: one
// partition of `base` as a Mutation (everything the replica holds of those
// rows, deletions included, as ReadUnfiltered answers, possibly merged with
// a write) at `now_seconds`.
void CollectViewRows(const storage::TableLayout& base, const storage::ViewLayout& view,
                     const storage::Mutation& partition, int32_t now_seconds, ViewRows& out);

// The writes that turn view rows `before` into `after`: a deletion at
// `deletion_timestamp` of each row that is gone or changed, and the
// contents of each new or changed row at `contents_timestamp`. One Mutation
// of the view per view partition touched, appended to `out`.
// REQUIRES: contents_timestamp > deletion_timestamp.
void DiffViewRows(const storage::ViewLayout& view, const ViewRows& before, const ViewRows& after,
                  int64_t deletion_timestamp, int64_t contents_timestamp, int32_t now_seconds,
                  std::vector<storage::Mutation>& out);

// The base partition a view row derives from (the view key holds every
// base partition key column), with its Murmur3 token.
[[nodiscard]] storage::PartitionKey BasePartitionOf(const storage::TableLayout& base,
                                                    const storage::ViewLayout& view,
                                                    const ViewRowKey& key);

// The writes that make the view row at `key` exactly `row` (nullptr: no
// row), whatever it holds now: as DiffViewRows for a row that changed.
void ReplaceViewRow(const storage::ViewLayout& view, const ViewRowKey& key, const ViewRow* row,
                    int64_t deletion_timestamp, int64_t contents_timestamp, int32_t now_seconds,
                    std::vector<storage::Mutation>& out);

}  // namespace sibyl::index
