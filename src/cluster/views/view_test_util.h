#pragma once
// A materialized view on a SimulatedCluster's ks.t (k int, c int, v int,
// PRIMARY KEY (k, c)): by_v, PRIMARY KEY (v, k, c), given to the nodes'
// engines directly (the cluster's schema does not list it: routing needs
// only the keyspace's replication).
//
// Test helper: header-only.

#include <vector>

#include "cluster/write/write_test_util.h"
#include "schema/storage_layout.h"
#include "storage/data/table_layout.h"

namespace sibyl::cluster::testing {

// A cluster of `nodes` (options built field by field: designated
// initializers skipping members warn with GCC).
inline SimulatedClusterOptions Options(int nodes, uint64_t seed) {
  SimulatedClusterOptions options;
  options.nodes = nodes;
  options.seed = seed;
  return options;
}

struct ViewTables {
  storage::TableLayout base;  // ks.t, listing the view
  storage::TableLayout view;  // by_v's own table
};

inline ViewTables MakeViewTables(const SimulatedCluster& cluster) {
  using Source = storage::ViewLayout::Source;
  const types::TypePtr int_type = types::CqlType::Native(types::Kind::kInt);
  ViewTables tables;
  for (const storage::TableLayout& layout : schema::StoredTableLayouts(cluster.schema())) {
    if (layout.id == cluster.table().id) tables.base = layout;
  }
  storage::ViewLayout by_v;
  by_v.id = *types::Uuid::Parse("7e000000-0000-4000-8000-000000000001");
  by_v.name = "by_v";
  by_v.partition_key = {{Source::Kind::kColumn, 0, "v", int_type}};
  by_v.clustering = {{Source::Kind::kPartitionKey, 0, "k", int_type},
                     {Source::Kind::kClustering, 0, "c", int_type}};
  tables.base.views = {by_v};
  tables.view.id = by_v.id;
  tables.view.keyspace = "ks";
  tables.view.name = "by_v";
  tables.view.partition_key_types = {int_type};
  tables.view.clustering = {{int_type, false}, {int_type, false}};
  return tables;
}

// The cluster's tables plus the view, for Engine::SyncTables.
inline std::vector<storage::TableLayout> LayoutsWithView(const SimulatedCluster& cluster,
                                                         const ViewTables& tables) {
  std::vector<storage::TableLayout> layouts = schema::StoredTableLayouts(cluster.schema());
  for (storage::TableLayout& layout : layouts) {
    if (layout.id == tables.base.id) layout = tables.base;
  }
  layouts.push_back(tables.view);
  return layouts;
}

// Every node's engine keeps the view.
inline void AddViewToEveryNode(SimulatedCluster& cluster, const ViewTables& tables) {
  const std::vector<storage::TableLayout> layouts = LayoutsWithView(cluster, tables);
  for (int i = 0; i < cluster.size(); ++i) cluster.node(i).store().SyncTables(layouts);
}

// Whether node `i`'s reference engine holds the view row (v, k, c).
inline bool HasViewRow(SimulatedCluster& cluster, const ViewTables& tables, int i, int32_t v,
                       int32_t k, int32_t c) {
  storage::ReadCommand read;
  read.table_id = tables.view.id;
  read.partitions = {KeyOf(v)};
  read.now_seconds = cluster.node(i).clock.NowSeconds();
  const std::vector<Bytes> clustering = {types::EncodeInt(k), types::EncodeInt(c)};
  for (const auto& partition : cluster.node(i).engine.Read(read).partitions) {
    for (const auto& row : partition.rows) {
      if (row.clustering == clustering) return true;
    }
  }
  return false;
}

}  // namespace sibyl::cluster::testing
