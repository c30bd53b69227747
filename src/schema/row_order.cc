#include "schema/row_order.h"

#include <algorithm>
#include <numeric>

#include "common/error.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

BytesView ViewOf(const OptBytes& value) { return value ? BytesView(*value) : BytesView(); }

int Sign(int c) { return c < 0 ? -1 : (c > 0 ? 1 : 0); }

int CompareValues(const ColumnMetadata& column, BytesView a, BytesView b) {
  return storage::CompareClusteringValues(*column.type, column.order == ClusteringOrder::kDesc, a,
                                          b);
}

}  // namespace

int PartitionPosition::Compare(const PartitionPosition& other) const {
  if (token != other.token) return token < other.token ? -1 : 1;
  // Bytes compare as unsigned, as Cassandra's ByteBuffer comparison does.
  int c = key.compare(other.key);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

void CheckKeyLength(size_t length) {
  if (length > kMaxKeyLength) {
    ThrowInvalid("Key length of " + std::to_string(length) + " is longer than maximum of " +
                 std::to_string(kMaxKeyLength));
  }
}

Bytes RoutingKey(const std::vector<BytesView>& components) {
  if (components.size() == 1) return Bytes(components[0]);
  size_t composite_length = 0;
  bool component_too_long = false;
  for (const BytesView component : components) {
    composite_length += component.size() + 3;  // [u16 length][bytes][end-of-component]
    component_too_long |= component.size() > kMaxKeyLength;
  }
  if (component_too_long) CheckKeyLength(composite_length);
  return dht::CompositeRoutingKey(components);
}

PartitionPosition PartitionAt(const TableMetadata& table, Bytes routing_key) {
  PartitionPosition position;
  position.key = std::move(routing_key);
  position.token = table.is_virtual ? dht::kMinimumToken : dht::Murmur3Token(position.key);
  return position;
}

PartitionPosition PartitionOf(const TableMetadata& table, const Row& row) {
  std::vector<BytesView> components;
  const size_t key_size = table.partition_key_size();
  components.reserve(key_size);
  for (size_t i = 0; i < key_size; ++i) components.push_back(ViewOf(row[i]));
  return PartitionAt(table, RoutingKey(components));
}

int ComparePartitions(const TableMetadata& table, const PartitionPosition& a,
                      const PartitionPosition& b) {
  if (!table.is_virtual) return a.Compare(b);
  const size_t key_size = table.partition_key_size();
  if (key_size == 1) return Sign(types::Compare(*table.columns[0].type, a.key, b.key));
  // LocalPartitioner over a CompositeType: component by component.
  const std::vector<BytesView> left = dht::SplitCompositeRoutingKey(a.key, key_size);
  const std::vector<BytesView> right = dht::SplitCompositeRoutingKey(b.key, key_size);
  for (size_t i = 0; i < key_size; ++i) {
    int c = types::Compare(*table.columns[i].type, left[i], right[i]);
    if (c != 0) return Sign(c);
  }
  return 0;
}

int CompareClusterings(const TableMetadata& table, const storage::Clustering& a,
                       const storage::Clustering& b) {
  return storage::CompareClusterings(ClusteringColumnsOf(table), a, b);
}

int CompareClustering(const TableMetadata& table, const Row& a, const Row& b) {
  const size_t begin = table.clustering_begin();
  const size_t end = begin + table.clustering_size();
  for (size_t i = begin; i < end; ++i) {
    int c = CompareValues(table.columns[i], ViewOf(a[i]), ViewOf(b[i]));
    if (c != 0) return c;
  }
  return 0;
}

int CompareClustering(const TableMetadata& table, const Row& row, const std::vector<Bytes>& key) {
  const size_t begin = table.clustering_begin();
  for (size_t k = 0; k < key.size(); ++k) {
    int c = CompareValues(table.columns[begin + k], ViewOf(row[begin + k]), key[k]);
    if (c != 0) return c;
  }
  return 0;
}

void SortRows(const TableMetadata& table, std::vector<Row>& rows) {
  // Decorate once: a token per row, then sort indexes and permute.
  std::vector<PartitionPosition> partitions;
  partitions.reserve(rows.size());
  for (const Row& row : rows) partitions.push_back(PartitionOf(table, row));
  std::vector<size_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    int c = ComparePartitions(table, partitions[a], partitions[b]);
    if (c != 0) return c < 0;
    return CompareClustering(table, rows[a], rows[b]) < 0;
  });
  std::vector<Row> sorted;
  sorted.reserve(rows.size());
  for (size_t i : order) sorted.push_back(std::move(rows[i]));
  rows = std::move(sorted);
}

}  // namespace sibyl::schema
