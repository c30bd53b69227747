#pragma once
// The tables that show this node's materialized view builds
// (LocalNodeInfo::view_builds):
//   system.built_views              Cassandra 4.1's: a row (keyspace_name,
//                                   view_name, status_replicated) for each
//                                   view built on this node;
//   system.view_builds_in_progress  Cassandra 4.1's: a row for each view
//                                   being built, with the range it covers,
//                                   the last token built and the number of
//                                   partitions (keys_built) done so far;
//   system_views.view_builds        Sibyl's: every view with its base table,
//                                   its status ('built', 'building' or
//                                   'failed'), the partitions built so far,
//                                   the token of the last one while
//                                   building, and a failure's reason.
// Without a view_builds callback (tests without an engine) they are empty.

#include <memory>

#include "schema/virtual_table.h"

namespace sibyl::schema {

std::unique_ptr<VirtualTable> MakeBuiltViewsTable();
std::unique_ptr<VirtualTable> MakeViewBuildsInProgressTable();
std::unique_ptr<VirtualTable> MakeViewBuildsTable();

}  // namespace sibyl::schema
