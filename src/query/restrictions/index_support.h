#pragma once
// Which secondary index of a table answers which restriction, as Cassandra
// 4.1's CassandraIndex.supportsExpression answers it for its index kinds
// (CassandraIndex.getFunctions picks them by the column's type and target):
//   - a column's whole value (target `c` on a key, static or regular column
//     or a frozen collection, `full(c)`, a legacy KEYS index): `c = v`;
//   - a list (any target) and a map's `values(m)`: `CONTAINS v`;
//   - a set (values(s) or keys(s): Cassandra indexes set elements as keys,
//     and answers CONTAINS with them): `CONTAINS v`;
//   - a map's `keys(m)`: `CONTAINS KEY k`; `entries(m)`: `m[k] = v`.
// No plain index answers IN or slices. A CUSTOM index is queryable only when
// its class is the storage-attached index (served like a plain one).

#include <optional>

#include "schema/table_metadata.h"
#include "types/uuid.h"

namespace sibyl::query {

struct ColumnRestriction;
struct MultiColumnRestriction;

// The operators an index may answer.
enum class IndexOperator { kEq, kContains, kContainsKey, kMapEntry };

// The first index of `table` (in TableMetadata::indexes order) on `column`
// that answers `op`; nullptr when none does.
[[nodiscard]] const schema::IndexMetadata* FindSupportingIndex(const schema::TableMetadata& table,
                                                               size_t column, IndexOperator op);

// How an index answers a restriction: the index and the operator whose
// (first) term gives the index's value.
struct IndexChoice {
  types::Uuid index_id;  // IndexMetadata::id
  size_t column = 0;     // index in TableMetadata::columns
  IndexOperator op = IndexOperator::kEq;
};

// The index answering `restriction`, trying =, CONTAINS, CONTAINS KEY and map
// entries in that order (SingleColumnRestriction.isSupportedBy); nullopt when
// none does.
[[nodiscard]] std::optional<IndexChoice> SupportingIndex(const schema::TableMetadata& table,
                                                         const ColumnRestriction& restriction);
// For a tuple relation: only `(c1, c2) = (...)` is answered, by an index on
// any of its columns (MultiColumnRestriction.EQRestriction.isSupportedBy).
[[nodiscard]] std::optional<IndexChoice> SupportingIndex(const schema::TableMetadata& table,
                                                         const MultiColumnRestriction& restriction);

}  // namespace sibyl::query
