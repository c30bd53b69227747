#pragma once
// What the node's tables show of its secondary indexes and materialized
// views (system."IndexInfo", system.built_views, system_views.index_builds,
// view_builds, view_checks): LocalNodeInfo's callbacks, answered by the
// indexing engine.

#include "index/indexing_engine.h"
#include "schema/local_node_info.h"

namespace sibyl::server {

// Sets node_info's index_builds, view_builds, check_view and view_checks.
// REQUIRES: `engine` outlives every use of `node_info`.
void ShowDerivedData(index::IndexingEngine& engine, schema::LocalNodeInfo& node_info);

}  // namespace sibyl::server
