#pragma once
// Cassandra's order of the rows of a table: partitions by the Murmur3 token
// of their partition key (ties, which only colliding keys produce, broken by
// the key's bytes), rows within a partition by their clustering values in
// the table's clustering order (a DESC column reverses its type's order).
// Virtual tables (TableMetadata::is_virtual) use Cassandra's LocalPartitioner
// instead: their partitions sort by the partition key's value in its type's
// order (column by column for a composite key), and have no Murmur3 token.
//
// A row here is a full row in TableMetadata::columns layout (virtual_table.h).

#include <utility>
#include <vector>

#include "common/bytes.h"
#include "dht/token.h"
#include "schema/table_metadata.h"
#include "storage/data/clustering_order.h"
#include "storage/data/mutation.h"

namespace sibyl::schema {

using Row = std::vector<OptBytes>;

// Where a partition sits on the ring.
struct PartitionPosition {
  // The key's Murmur3 token; kMinimumToken for every partition of a virtual table.
  dht::Token token = dht::kMinimumToken;
  Bytes key;  // the routing key: the serialized value, or the composite form for several columns

  // <0, 0, >0 as *this sorts before, with, or after `other` in a table
  // ordered by token; ComparePartitions covers every table.
  int Compare(const PartitionPosition& other) const;
};

// <0, 0, >0 as partition `a` of `table` sorts before, with, or after `b`.
int ComparePartitions(const TableMetadata& table, const PartitionPosition& a,
                      const PartitionPosition& b);

// FBUtilities.MAX_UNSIGNED_SHORT: the longest partition key (routing key)
// and clustering value.
inline constexpr size_t kMaxKeyLength = 65535;

// InvalidRequest "Key length of N is longer than maximum of 65535" when
// `length` is over kMaxKeyLength.
void CheckKeyLength(size_t length);

// The routing key of a partition key given as one serialized value per
// partition key column (a null component is taken as empty). A component too
// long for a composite key's 16-bit length is refused with CheckKeyLength's
// message for the whole key's length (the key would be longer still).
Bytes RoutingKey(const std::vector<BytesView>& components);

// REQUIRES: row.size() == table.columns.size().
PartitionPosition PartitionOf(const TableMetadata& table, const Row& row);
// The position of the partition of `table` whose routing key is `routing_key`.
PartitionPosition PartitionAt(const TableMetadata& table, Bytes routing_key);

// `table`'s clustering columns as storage::CompareClusteringPrefixes takes
// them (clustering_order.h: the one comparison of clustering values).
inline auto ClusteringColumnsOf(const TableMetadata& table) {
  return [&table, begin = table.clustering_begin()](size_t i) {
    const ColumnMetadata& column = table.columns[begin + i];
    return std::pair<const types::CqlType&, bool>(*column.type,
                                                  column.order == ClusteringOrder::kDesc);
  };
}

// Clusterings (or prefixes of them) of `table` in clustering order, the
// shorter first when one is a prefix of the other.
int CompareClusterings(const TableMetadata& table, const storage::Clustering& a,
                       const storage::Clustering& b);

// Compares the clustering values of two rows of `table` in clustering order.
int CompareClustering(const TableMetadata& table, const Row& a, const Row& b);
// Compares a row's clustering values with a full clustering key (one value per clustering column).
int CompareClustering(const TableMetadata& table, const Row& row, const std::vector<Bytes>& key);

// Sorts rows into the table's order.
void SortRows(const TableMetadata& table, std::vector<Row>& rows);

}  // namespace sibyl::schema
