#pragma once
// The tables that show this node's secondary index builds
// (LocalNodeInfo::index_builds):
//   system."IndexInfo"          Cassandra 4.1's: a row (table_name = the
//                               keyspace, index_name, value null) for each
//                               index built on this node, none while building;
//   system_views.index_builds   Sibyl's: every index with its status
//                               ('built', 'building' or 'failed'), the
//                               partitions indexed so far, the token of the
//                               last one while building, and a failure's reason.

#include <memory>

#include "schema/virtual_table.h"

namespace sibyl::schema {

std::unique_ptr<VirtualTable> MakeIndexInfoTable();
std::unique_ptr<VirtualTable> MakeIndexBuildsTable();

}  // namespace sibyl::schema
