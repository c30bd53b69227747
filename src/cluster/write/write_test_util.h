#pragma once
// Writes and reads of ks.t (k int, c int, v int, PRIMARY KEY (k, c)) and of
// the counter table ks.counts (k int PRIMARY KEY, n counter) for the write
// path's tests on a SimulatedCluster: a mutation of one row, whether a
// node's engine holds it, and which nodes replicate a partition.
//
// Test helper: header-only.

#include <gtest/gtest.h>

#include <exception>
#include <vector>

#include "cluster/simulated_cluster_test_util.h"
#include "common/error.h"
#include "dht/token.h"
#include "types/value_codec.h"

namespace sibyl::cluster::testing {

inline storage::PartitionKey KeyOf(int32_t k) {
  Bytes key = types::EncodeInt(k);
  return storage::PartitionKey{dht::Murmur3Token(key), key};
}

// INSERT INTO ks.t (k, c, v) VALUES (k, c, v) USING TIMESTAMP timestamp.
inline storage::Mutation RowMutation(const SimulatedCluster& cluster, int32_t k, int32_t c,
                                     int32_t v, int64_t timestamp) {
  storage::Mutation mutation;
  mutation.table_id = cluster.table().id;
  mutation.partition = KeyOf(k);
  storage::RowWrite row;
  row.clustering = {types::EncodeInt(c)};
  row.marker.timestamp = timestamp;
  storage::Cell cell;
  cell.timestamp = timestamp;
  cell.value = types::EncodeInt(v);
  row.cells.push_back(storage::CellWrite{"v", std::nullopt, cell});
  mutation.rows.push_back(std::move(row));
  return mutation;
}

// UPDATE ks.counts SET n = n + amount WHERE k = k (at `timestamp`).
inline storage::Mutation CounterIncrement(const SimulatedCluster& cluster, int32_t k,
                                          int64_t amount, int64_t timestamp) {
  storage::Mutation mutation;
  mutation.table_id = cluster.counter_table().id;
  mutation.partition = KeyOf(k);
  storage::RowWrite row;
  storage::Cell cell;
  cell.kind = storage::Cell::Kind::kCounter;
  cell.timestamp = timestamp;
  cell.value = types::EncodeBigint(amount);
  row.cells.push_back(storage::CellWrite{"n", std::nullopt, cell});
  mutation.rows.push_back(std::move(row));
  return mutation;
}

// ks.counts' n for partition k in node `i`'s engine alone, if it has it.
inline std::optional<int64_t> StoredCounter(SimulatedCluster& cluster, int i, int32_t k) {
  storage::ReadCommand command;
  command.table_id = cluster.counter_table().id;
  command.partitions = {KeyOf(k)};
  const storage::ReadResult result = cluster.node(i).engine.Read(command);
  for (const auto& partition : result.partitions) {
    for (const auto& row : partition.rows) {
      for (const auto& cell : row.cells) {
        if (cell.column == "n") return types::DecodeBigint(cell.value);
      }
    }
  }
  return std::nullopt;
}

// The value and write time of row (k, c) in node `i`'s engine, if it has it.
struct StoredValue {
  int32_t value = 0;
  int64_t timestamp = 0;
};
inline std::optional<StoredValue> StoredRow(SimulatedCluster& cluster, int i, int32_t k,
                                            int32_t c) {
  storage::ReadCommand command;
  command.table_id = cluster.table().id;
  command.partitions = {KeyOf(k)};
  const storage::ReadResult result = cluster.node(i).engine.Read(command);
  for (const auto& partition : result.partitions) {
    for (const auto& row : partition.rows) {
      if (row.clustering != storage::Clustering{types::EncodeInt(c)}) continue;
      for (const auto& cell : row.cells) {
        if (cell.column == "v") return StoredValue{types::DecodeInt(cell.value), cell.timestamp};
      }
    }
  }
  return std::nullopt;
}

// The indexes of the nodes replicating partition k.
inline std::vector<int> ReplicaIndexes(SimulatedCluster& cluster, int32_t k) {
  const auto view = cluster.node(0).views.Get();
  const auto replicas =
      view->ReplicationOfTable(cluster.table().id)->placement->ReplicasFor(KeyOf(k).token);
  std::vector<int> indexes;
  for (const auto& replica : replicas) {
    for (int i = 0; i < cluster.size(); ++i) {
      if (cluster.node(i).id == replica) indexes.push_back(i);
    }
  }
  return indexes;
}

// The indexes of the nodes pending for partition k.
inline std::vector<int> PendingIndexes(SimulatedCluster& cluster, int32_t k) {
  const auto view = cluster.node(0).views.Get();
  std::vector<int> indexes;
  for (const auto& replica :
       view->ReplicationOfTable(cluster.table().id)->PendingReplicasFor(KeyOf(k).token)) {
    for (int i = 0; i < cluster.size(); ++i) {
      if (cluster.node(i).id == replica) indexes.push_back(i);
    }
  }
  return indexes;
}

// The first key in [0, 1000) whose pending replicas are exactly these
// nodes, in the future placement's order.
inline int32_t KeyPendingOn(SimulatedCluster& cluster, const std::vector<int>& pending) {
  for (int32_t k = 0; k < 1000; ++k) {
    if (PendingIndexes(cluster, k) == pending) return k;
  }
  ADD_FAILURE() << "no key is pending on exactly those nodes";
  return 0;
}

// The CqlError an exception_ptr holds; fails the test for anything else.
inline CqlError ErrorOf(std::exception_ptr error) {
  try {
    if (error) std::rethrow_exception(error);
  } catch (const CqlError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a CqlError: " << e.what();
  }
  ADD_FAILURE() << "no error";
  return CqlError(ErrorCode::kServerError, "none");
}

}  // namespace sibyl::cluster::testing
