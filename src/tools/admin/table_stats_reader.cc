#include "tools/admin/table_stats_reader.h"

#include "tools/admin/member_queries.h"
#include "tools/admin/partition_stats_reader.h"

namespace sibyl::tools::admin {
namespace {

constexpr const char* kTableStatsQuery =
    "SELECT keyspace_name, table_name, kind, sstables, live_bytes, total_bytes, "
    "compressed_bytes, uncompressed_bytes, memtable_entries, memtable_bytes, pending_flushes, "
    "bloom_filter_bytes, read_count, read_total_micros, write_count, write_total_micros "
    "FROM system_views.table_stats";

}  // namespace

TableStats TableStatsOfRow(const AdminRow& row) {
  auto figure = [&](size_t column, const char* name) {
    return OptionalBigintColumn(row, column, name).value_or(0);
  };
  return TableStats{.keyspace = RequiredColumn(row, 0, "keyspace_name"),
                    .table = RequiredColumn(row, 1, "table_name"),
                    .kind = OptionalTextColumn(row, 2).value_or("table"),
                    .sstables = figure(3, "sstables"),
                    .live_bytes = figure(4, "live_bytes"),
                    .total_bytes = figure(5, "total_bytes"),
                    .compressed_bytes = figure(6, "compressed_bytes"),
                    .uncompressed_bytes = figure(7, "uncompressed_bytes"),
                    .memtable_entries = figure(8, "memtable_entries"),
                    .memtable_bytes = figure(9, "memtable_bytes"),
                    .pending_flushes = figure(10, "pending_flushes"),
                    .bloom_filter_bytes = figure(11, "bloom_filter_bytes"),
                    .read_count = figure(12, "read_count"),
                    .read_total_micros = figure(13, "read_total_micros"),
                    .write_count = figure(14, "write_count"),
                    .write_total_micros = figure(15, "write_total_micros")};
}

NodeTableStatsAnswer ReadTableStats(const NodeAddress& node) {
  NodeTableStatsAnswer answer;
  WithNodeConnection(node, [&](client::Connection& connection) {
    for (const AdminRow& row : QueryRows(connection, node, kTableStatsQuery)) {
      answer.tables.push_back(TableStatsOfRow(row));
    }
    answer.partitions = ReadPartitionStats(connection, node);
  });
  return answer;
}

std::vector<NodeTableStats> ReadClusterTableStats(const ClusterMembers& cluster,
                                                  const NodeAddress& contacted) {
  return AskEveryMember(cluster, contacted, ReadTableStats);
}

}  // namespace sibyl::tools::admin
