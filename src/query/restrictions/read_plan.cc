#include "query/restrictions/read_plan.h"

#include <algorithm>

#include "dht/token.h"
#include "query/restrictions/clustering_slices.h"

namespace sibyl::query {

bool ReadPlan::Contains(const schema::TableMetadata& table, const schema::Row& row) const {
  if (selects_nothing) return false;
  std::vector<BytesView> components;
  components.reserve(table.partition_key_size());
  for (size_t i = 0; i < table.partition_key_size(); ++i) {
    components.emplace_back(row[i] ? BytesView(*row[i]) : BytesView());
  }
  const Bytes key = schema::RoutingKey(components);
  if (partitions) {
    const bool named = std::any_of(partitions->begin(), partitions->end(),
                                   [&](const storage::PartitionKey& p) { return p.key == key; });
    if (!named) return false;
  } else if (range.start != dht::kMinimumToken || range.end != dht::kMinimumToken) {
    const dht::Token token = dht::Murmur3Token(key);
    if (token <= range.start) return false;
    if (range.end != dht::kMinimumToken && token > range.end) return false;
  }
  if (slices.empty()) return true;
  return std::any_of(slices.begin(), slices.end(), [&](const storage::ClusteringSlice& slice) {
    return SliceContainsRow(table, slice, row);
  });
}

}  // namespace sibyl::query
