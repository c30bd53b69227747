#include "index/view_rows.h"

#include <algorithm>

#include "dht/token.h"
#include "storage/cells/reconcile.h"
#include "types/value_codec.h"

namespace sibyl::index {
namespace {

using storage::DeletionTime;
using storage::Mutation;
using storage::RowWrite;
using storage::ViewLayout;
using ViewSource = ViewLayout::Source;

// The live value of simple column `column` in `row`, with its liveness.
std::optional<std::pair<BytesView, Liveness>> LiveCell(const RowWrite& row,
                                                       const std::string& column,
                                                       const DeletionTime& shadow, int32_t now) {
  for (const auto& write : row.cells) {
    if (write.column == column && !write.path && CellLives(write.cell, shadow, now)) {
      return std::make_pair(BytesView(write.cell.value), LivenessOf(write.cell));
    }
  }
  return std::nullopt;
}

bool FilterHolds(const ViewLayout::Filter& filter, BytesView value) {
  using Op = ViewLayout::Filter::Op;
  const types::CqlType& type = *filter.column.type;
  if (filter.op == Op::kIn) {
    return std::any_of(filter.values.begin(), filter.values.end(),
                       [&](const Bytes& v) { return types::Compare(type, value, v) == 0; });
  }
  if (filter.values.empty()) return false;
  const int c = types::Compare(type, value, filter.values.front());
  switch (filter.op) {
    case Op::kEq:
      return c == 0;
    case Op::kLt:
      return c < 0;
    case Op::kLte:
      return c <= 0;
    case Op::kGt:
      return c > 0;
    case Op::kGte:
      return c >= 0;
    case Op::kIn:
      break;
  }
  return false;
}

class Deriver {
 public:
  Deriver(const storage::TableLayout& base, const ViewLayout& view, const Mutation& partition,
          int32_t now)
      : base_(base), view_(view), partition_(partition), now_(now) {
    if (base.partition_key_types.size() == 1) {
      partition_key_.push_back(partition.partition.key);
    } else {
      partition_key_ =
          dht::SplitCompositeRoutingKey(partition.partition.key, base.partition_key_types.size());
    }
  }

  void Row(const RowWrite& row, ViewRows& out) {
    if (row.is_static) return;
    const DeletionTime shadow = RowShadow(base_, partition_, row);
    const std::optional<Liveness> row_liveness = RowLiveness(row, shadow, now_);
    if (!row_liveness) return;
    std::optional<Liveness> key_cell;  // strict liveness: the key column's cell
    const auto value_of = [&](const ViewSource& source) -> std::optional<BytesView> {
      switch (source.kind) {
        case ViewSource::Kind::kPartitionKey:
          return partition_key_.at(source.position);
        case ViewSource::Kind::kClustering:
          return BytesView(row.clustering.at(source.position));
        case ViewSource::Kind::kColumn:
          if (auto cell = LiveCell(row, source.column, shadow, now_)) {
            key_cell = cell->second;
            return cell->first;
          }
          return std::nullopt;
      }
      return std::nullopt;
    };
    std::vector<BytesView> partition_key;
    for (const ViewSource& source : view_.partition_key) {
      auto value = value_of(source);
      if (!value) return;
      partition_key.push_back(*value);
    }
    storage::Clustering clustering;
    for (const ViewSource& source : view_.clustering) {
      auto value = value_of(source);
      if (!value) return;
      clustering.emplace_back(*value);
    }
    for (const ViewLayout::Filter& filter : view_.filters) {
      auto value = value_of(filter.column);
      if (!value || !FilterHolds(filter, *value)) return;
    }
    Bytes routing_key = partition_key.size() == 1 ? Bytes(partition_key.front())
                                                  : dht::CompositeRoutingKey(partition_key);
    if (routing_key.empty()) return;  // a view partition key can't be empty

    ViewRow view_row;
    view_row.marker = key_cell ? *key_cell : *row_liveness;
    for (const auto& write : row.cells) {
      if (std::find(view_.columns.begin(), view_.columns.end(), write.column) ==
          view_.columns.end()) {
        continue;
      }
      DeletionTime deletion = shadow;
      if (write.path) {
        deletion = storage::Reconcile(shadow, CollectionDeletionOf(row, write.column));
      }
      if (!CellLives(write.cell, deletion, now_)) continue;
      Liveness liveness = LivenessOf(write.cell);
      if (key_cell) liveness = Shorter(liveness, *key_cell);
      view_row.cells.push_back(ViewCell{write.column, write.path, write.cell.value, liveness});
    }
    out[ViewRowKey(std::move(routing_key), std::move(clustering))] = std::move(view_row);
  }

 private:
  const storage::TableLayout& base_;
  const ViewLayout& view_;
  const Mutation& partition_;
  const int32_t now_;
  std::vector<BytesView> partition_key_;
};

storage::Cell CellOf(const ViewCell& cell, int64_t timestamp) {
  storage::Cell out;
  out.timestamp = timestamp;
  out.value = cell.value;
  if (cell.liveness.ttl != 0) {
    out.kind = storage::Cell::Kind::kExpiring;
    out.ttl = cell.liveness.ttl;
    out.local_deletion_time = cell.liveness.local_expiration_time;
  }
  return out;
}

}  // namespace

void CollectViewRows(const storage::TableLayout& base, const ViewLayout& view,
                     const Mutation& partition, int32_t now_seconds, ViewRows& out) {
  Deriver deriver(base, view, partition, now_seconds);
  for (const RowWrite& row : partition.rows) deriver.Row(row, out);
}

namespace {

// Appends to `mutation` (of `key`'s view partition) the replacement of the
// row at `key` by `row` (nullptr: its deletion).
void AppendReplacement(const ViewRowKey& key, const ViewRow* row, int64_t deletion_timestamp,
                       int64_t contents_timestamp, int32_t now_seconds, Mutation& mutation) {
  RowWrite& write = mutation.rows.emplace_back();
  write.clustering = key.second;
  write.deletion = DeletionTime{deletion_timestamp, now_seconds};
  if (row == nullptr) return;
  const Liveness& marker = row->marker;
  write.marker = storage::LivenessInfo{
      contents_timestamp, marker.ttl,
      marker.ttl == 0 ? storage::kNoDeletionTime : marker.local_expiration_time};
  for (const ViewCell& cell : row->cells) {
    write.cells.push_back(
        storage::CellWrite{cell.column, cell.path, CellOf(cell, contents_timestamp)});
  }
}

Mutation ViewMutation(const ViewLayout& view, const Bytes& routing_key) {
  Mutation mutation;
  mutation.table_id = view.id;
  mutation.partition.key = routing_key;
  mutation.partition.token = dht::Murmur3Token(routing_key);
  return mutation;
}

}  // namespace

void DiffViewRows(const ViewLayout& view, const ViewRows& before, const ViewRows& after,
                  int64_t deletion_timestamp, int64_t contents_timestamp, int32_t now_seconds,
                  std::vector<Mutation>& out) {
  std::map<Bytes, Mutation> by_partition;
  const auto replace = [&](const ViewRowKey& key, const ViewRow* row) {
    auto it = by_partition.find(key.first);
    if (it == by_partition.end()) {
      it = by_partition.emplace(key.first, ViewMutation(view, key.first)).first;
    }
    AppendReplacement(key, row, deletion_timestamp, contents_timestamp, now_seconds, it->second);
  };
  for (const auto& [key, old_row] : before) {
    if (!after.contains(key)) replace(key, nullptr);
  }
  for (const auto& [key, new_row] : after) {
    auto old_row = before.find(key);
    if (old_row == before.end() || !(old_row->second == new_row)) replace(key, &new_row);
  }
  for (auto& [routing_key, mutation] : by_partition) out.push_back(std::move(mutation));
}

void ReplaceViewRow(const ViewLayout& view, const ViewRowKey& key, const ViewRow* row,
                    int64_t deletion_timestamp, int64_t contents_timestamp, int32_t now_seconds,
                    std::vector<Mutation>& out) {
  Mutation mutation = ViewMutation(view, key.first);
  AppendReplacement(key, row, deletion_timestamp, contents_timestamp, now_seconds, mutation);
  out.push_back(std::move(mutation));
}

storage::PartitionKey BasePartitionOf(const storage::TableLayout& base, const ViewLayout& view,
                                      const ViewRowKey& key) {
  std::vector<BytesView> view_partition_key;
  if (view.partition_key.size() == 1) {
    view_partition_key.push_back(key.first);
  } else {
    view_partition_key = dht::SplitCompositeRoutingKey(key.first, view.partition_key.size());
  }
  std::vector<BytesView> components(base.partition_key_types.size());
  for (size_t i = 0; i < view.partition_key.size(); ++i) {
    const ViewSource& source = view.partition_key[i];
    if (source.kind == ViewSource::Kind::kPartitionKey && source.position < components.size()) {
      components[source.position] = view_partition_key.at(i);
    }
  }
  for (size_t i = 0; i < view.clustering.size() && i < key.second.size(); ++i) {
    const ViewSource& source = view.clustering[i];
    if (source.kind == ViewSource::Kind::kPartitionKey && source.position < components.size()) {
      components[source.position] = key.second[i];
    }
  }
  storage::PartitionKey partition;
  partition.key =
      components.size() == 1 ? Bytes(components.front()) : dht::CompositeRoutingKey(components);
  partition.token = dht::Murmur3Token(partition.key);
  return partition;
}

}  // namespace sibyl::index
