#pragma once
// The tables that show the storage engine's figures of each stored table,
// materialized view and secondary index on this node
// (LocalNodeInfo::storage_statistics; an index is named "<table>.<index>",
// as Cassandra names an index's table):
//
//   system_views.local_read_latency   Cassandra 4.1's: engine reads of the
//   system_views.local_write_latency  table (count, 50th_ms, 99th_ms,
//                                     max_ms; per_second, a decaying rate
//                                     Sibyl does not keep, is null)
//   system_views.disk_usage           Cassandra 4.1's: mebibytes of the
//                                     table's SSTables, rounded up
//   system_views.table_stats          Sibyl's: what `sibyl admin tablestats`
//                                     shows — SSTables, bytes live and total,
//                                     compressed and raw, memtable entries and
//                                     bytes, flushes pending, bloom filter
//                                     bytes, reads and writes with their
//                                     total time in µs
//   system_views.table_latencies      Sibyl's: what `sibyl admin
//                                     tablehistograms` shows — for operation
//                                     'read' and 'write', the count and the
//                                     min, p50, p75, p95, p98, p99 and max in
//                                     µs (null without any)
//
// The latencies are the engine's (storage/stats/table_latency.h): counted since
// the node started, percentiles the upper bounds of buckets about 20% wide.
// Without a storage_statistics callback the tables are empty.

#include <memory>
#include <vector>

#include "schema/virtual_table.h"

namespace sibyl::schema {

[[nodiscard]] std::vector<std::unique_ptr<VirtualTable>> MakeTableMetricTables();

}  // namespace sibyl::schema
