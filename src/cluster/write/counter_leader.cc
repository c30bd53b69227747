#include "cluster/write/counter_leader.h"

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "storage/cells/counter_context.h"
#include "storage/data/read_command.h"

namespace sibyl::cluster {
namespace {

using storage::Cell;
using storage::CellWrite;

// A cell as the leader finds it: the counter's column and element.
using CellKey = std::pair<std::string, std::optional<Bytes>>;

// Exactly one row: [clustering, clustering]. For the static row, a range
// that holds no row (the static row comes with its columns anyway).
storage::ClusteringSlice SliceOf(const storage::RowWrite& row) {
  if (row.is_static) {
    const storage::ClusteringBound nothing{{Bytes()}, false};
    return {nothing, nothing};
  }
  return {{row.clustering, true}, {row.clustering, true}};
}

// This leader's current shard of every counter cell of `row`, as stored.
std::map<CellKey, storage::CounterShard> CurrentShards(const storage::Engine& engine,
                                                       const storage::Mutation& deltas,
                                                       const storage::RowWrite& row,
                                                       const types::Uuid& leader,
                                                       int32_t now_seconds) {
  storage::ReadCommand command;
  command.table_id = deltas.table_id;
  command.partitions = {deltas.partition};
  command.slices = {SliceOf(row)};
  std::vector<std::string> columns;
  for (const CellWrite& write : row.cells) columns.push_back(write.column);
  command.columns = std::move(columns);
  command.now_seconds = now_seconds;
  std::map<CellKey, storage::CounterShard> shards;
  for (const storage::Mutation& stored : engine.ReadUnfiltered(command)) {
    for (const storage::RowWrite& stored_row : stored.rows) {
      if (stored_row.is_static != row.is_static ||
          (!row.is_static && stored_row.clustering != row.clustering)) {
        continue;
      }
      for (const CellWrite& cell : stored_row.cells) {
        if (cell.cell.kind != Cell::Kind::kCounter ||
            !storage::IsValidCounterValue(cell.cell.value)) {
          continue;  // a tombstone: a deleted counter stays deleted whatever we add
        }
        if (auto shard = storage::FindCounterShard(cell.cell.value, leader)) {
          shards[{cell.column, cell.path}] = *shard;
        }
      }
    }
  }
  return shards;
}

}  // namespace

storage::Mutation CounterShardsForUpdate(const storage::Engine& engine,
                                         const storage::Mutation& deltas, const types::Uuid& leader,
                                         int32_t now_seconds) {
  if (!deltas.partition_deletion.is_live() || !deltas.range_tombstones.empty()) {
    throw std::invalid_argument("a counter update holds a deletion");
  }
  storage::Mutation shards;
  shards.table_id = deltas.table_id;
  shards.partition = deltas.partition;
  for (const storage::RowWrite& row : deltas.rows) {
    if (!row.marker.is_empty() || !row.deletion.is_live() || !row.collection_deletions.empty()) {
      throw std::invalid_argument("a counter update writes more than counters");
    }
    const auto current = CurrentShards(engine, deltas, row, leader, now_seconds);
    storage::RowWrite& out = shards.rows.emplace_back();
    out.is_static = row.is_static;
    out.clustering = row.clustering;
    for (const CellWrite& write : row.cells) {
      if (write.cell.kind != Cell::Kind::kCounter ||
          write.cell.value.size() != storage::kCounterDeltaSize) {
        throw std::invalid_argument("a counter update holds a non-delta cell for " + write.column);
      }
      storage::CounterShard shard{leader, 0, 0};
      if (auto it = current.find({write.column, write.path}); it != current.end()) {
        shard = it->second;
      }
      shard.clock += 1;
      shard.value = static_cast<int64_t>(static_cast<uint64_t>(shard.value) +
                                         LoadBE64(write.cell.value.data()));
      CellWrite& cell = out.cells.emplace_back(write);
      cell.cell.value = storage::EncodeCounterShards({shard});
    }
  }
  return shards;
}

}  // namespace sibyl::cluster
