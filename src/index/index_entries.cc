#include "index/index_entries.h"

#include <algorithm>
#include <stdexcept>

#include "dht/token.h"
#include "storage/cells/reconcile.h"
#include "storage/data/clustering_order.h"
#include "types/value_codec.h"

namespace sibyl::index {
namespace {

using storage::Cell;
using storage::DeletionTime;
using storage::IndexLayout;
using storage::Mutation;
using storage::RowWrite;
using storage::TableLayout;
using Target = IndexLayout::Target;
using IndexSource = IndexLayout::Source;

// values() of a list or map needs the element's path to tell two elements
// of one row apart; a set's element is the indexed value itself.
bool EntryHasPath(const IndexLayout& index) {
  return index.target == Target::kValues && index.type->kind() != types::Kind::kSet;
}

types::TypePtr ValueType(const IndexLayout& index) {
  const auto& type = index.type;
  switch (index.target) {
    case Target::kSimple:
    case Target::kFull:
      return type;
    case Target::kValues:
      return type->kind() == types::Kind::kMap ? type->params().at(1) : type->params().at(0);
    case Target::kKeys:
    case Target::kEntries:
      return type->params().at(0);
  }
  return type;
}

class Collector {
 public:
  Collector(const TableLayout& base, const IndexLayout& index, const Mutation& partition,
            int32_t now, Entries& out)
      : base_(base), index_(index), partition_(partition), now_(now), out_(out) {
    prefix_.push_back(types::EncodeBigint(partition.partition.token));
    prefix_.push_back(partition.partition.key);
  }

  void Row(const RowWrite& row) {
    // An index on a clustering column indexes clustering rows, not the static row.
    if (index_.source == IndexSource::kClustering && row.is_static) return;
    const DeletionTime shadow = RowShadow(base_, partition_, row);
    switch (index_.source) {
      case IndexSource::kPartitionKey:
        // One entry for the partition, alive while any of its rows or its
        // static row is (Finish writes it).
        if (auto liveness = RowLiveness(row, shadow, now_)) {
          partition_liveness_ =
              partition_liveness_ ? Longer(*partition_liveness_, *liveness) : *liveness;
        }
        return;
      case IndexSource::kClustering:
        KeyColumn(row, shadow, BytesView(row.clustering.at(index_.key_position)));
        return;
      case IndexSource::kColumn:
        Column(row, shadow);
        return;
    }
  }

  void Finish() {
    if (index_.source != IndexSource::kPartitionKey || !partition_liveness_) return;
    out_[EntryKey(Bytes(PartitionKeyComponent()), prefix_)] = *partition_liveness_;
  }

 private:
  BytesView PartitionKeyComponent() const {
    if (base_.partition_key_types.size() == 1) return partition_.partition.key;
    return dht::SplitCompositeRoutingKey(partition_.partition.key, base_.partition_key_types.size())
        .at(index_.key_position);
  }

  void KeyColumn(const RowWrite& row, const DeletionTime& shadow, BytesView value) {
    if (auto liveness = RowLiveness(row, shadow, now_)) Add(row, Bytes(value), {}, *liveness);
  }

  void Column(const RowWrite& row, const DeletionTime& shadow) {
    const bool is_static_column = [&] {
      const storage::ColumnLayout* column = base_.FindColumn(index_.column);
      return column != nullptr && column->is_static;
    }();
    if (row.is_static != is_static_column) return;
    const bool multi_cell = index_.type->is_collection() && !index_.type->frozen();
    if (!multi_cell) {
      for (const auto& write : row.cells) {
        if (write.column == index_.column && !write.path && CellLives(write.cell, shadow, now_)) {
          Add(row, write.cell.value, {}, LivenessOf(write.cell));
        }
      }
      return;
    }
    const DeletionTime deletion =
        storage::Reconcile(shadow, CollectionDeletionOf(row, index_.column));
    const types::Kind kind = index_.type->kind();
    for (const auto& write : row.cells) {
      if (write.column != index_.column || !write.path || !CellLives(write.cell, deletion, now_)) {
        continue;
      }
      const Bytes& path = *write.path;
      const EntryLiveness liveness = LivenessOf(write.cell);
      switch (index_.target) {
        case Target::kValues:
          if (kind == types::Kind::kSet) {
            Add(row, path, {}, liveness);
          } else {
            Add(row, write.cell.value, &path, liveness);
          }
          break;
        case Target::kKeys:
          Add(row, path, {}, liveness);
          break;
        case Target::kEntries:
          Add(row, dht::CompositeRoutingKey({path, write.cell.value}), {}, liveness);
          break;
        case Target::kSimple:
        case Target::kFull:
          throw std::logic_error("a whole-value index on a non-frozen collection");
      }
    }
  }

  void Add(const RowWrite& row, Bytes value, const Bytes* path, const EntryLiveness& liveness) {
    storage::Clustering clustering = prefix_;
    if (!row.is_static)
      clustering.insert(clustering.end(), row.clustering.begin(), row.clustering.end());
    if (EntryHasPath(index_)) clustering.push_back(path != nullptr ? *path : Bytes());
    out_[EntryKey(std::move(value), std::move(clustering))] = liveness;
  }

  const TableLayout& base_;
  const IndexLayout& index_;
  const Mutation& partition_;
  const int32_t now_;
  Entries& out_;
  storage::Clustering prefix_;                       // token, routing key
  std::optional<EntryLiveness> partition_liveness_;  // an index on a partition key column
};

}  // namespace

bool IndexesWholePartitions(const TableLayout& base, const IndexLayout& index) {
  if (index.source == IndexSource::kPartitionKey) return true;
  const storage::ColumnLayout* column = base.FindColumn(index.column);
  return index.source == IndexSource::kColumn && column != nullptr && column->is_static;
}

storage::TableLayout IndexTableLayout(const TableLayout& base, const IndexLayout& index) {
  TableLayout layout;
  layout.id = index.id;
  layout.keyspace = base.keyspace;
  layout.name = base.name + "." + index.name;
  if (index.target == Target::kEntries) {
    layout.partition_key_types = {index.type->params().at(0), index.type->params().at(1)};
  } else {
    layout.partition_key_types = {ValueType(index)};
  }
  const auto bigint = types::CqlType::Native(types::Kind::kBigint);
  const auto blob = types::CqlType::Native(types::Kind::kBlob);
  layout.clustering.push_back({bigint, false});
  layout.clustering.push_back({blob, false});
  if (!IndexesWholePartitions(base, index)) {
    layout.clustering.insert(layout.clustering.end(), base.clustering.begin(),
                             base.clustering.end());
  }
  if (EntryHasPath(index)) layout.clustering.push_back({blob, false});
  layout.options = base.options;
  return layout;
}

storage::PartitionKey IndexPartitionKey(const IndexLayout& index, BytesView value,
                                        const Bytes* entry_value) {
  storage::PartitionKey key;
  if (index.target == Target::kEntries) {
    key.key = dht::CompositeRoutingKey(
        {value, entry_value != nullptr ? BytesView(*entry_value) : BytesView()});
  } else {
    key.key = Bytes(value);
  }
  key.token = dht::Murmur3Token(key.key);
  return key;
}

void CollectEntries(const TableLayout& base, const IndexLayout& index, const Mutation& partition,
                    int32_t now_seconds, Entries& out) {
  Collector collector(base, index, partition, now_seconds, out);
  for (const RowWrite& row : partition.rows) collector.Row(row);
  collector.Finish();
}

void DiffEntries(const TableLayout& index_table, const Entries& before, const Entries& after,
                 int64_t timestamp, int32_t now_seconds, std::vector<storage::Mutation>& out) {
  std::map<Bytes, Mutation> by_partition;
  auto row_of = [&](const EntryKey& key) -> RowWrite& {
    auto [it, inserted] = by_partition.try_emplace(key.first);
    Mutation& mutation = it->second;
    if (inserted) {
      mutation.table_id = index_table.id;
      mutation.partition.key = key.first;
      mutation.partition.token = dht::Murmur3Token(key.first);
    }
    RowWrite& row = mutation.rows.emplace_back();
    row.clustering = key.second;
    return row;
  };
  for (const auto& [key, liveness] : before) {
    if (!after.contains(key)) row_of(key).deletion = DeletionTime{timestamp, now_seconds};
  }
  for (const auto& [key, liveness] : after) {
    auto old = before.find(key);
    if (old != before.end() && old->second == liveness) continue;
    row_of(key).marker = storage::LivenessInfo{
        timestamp, liveness.ttl,
        liveness.ttl == 0 ? storage::kNoDeletionTime : liveness.local_expiration_time};
  }
  for (auto& [value, mutation] : by_partition) out.push_back(std::move(mutation));
}

}  // namespace sibyl::index
