#include "tools/admin/table_histograms_reader.h"

#include "tools/admin/member_queries.h"
#include "tools/admin/partition_stats_reader.h"

namespace sibyl::tools::admin {
namespace {

constexpr const char* kTableHistogramsQuery =
    "SELECT operation, count, min, p50, p75, p95, p98, p99, max FROM system_views.table_latencies "
    "WHERE keyspace_name = ? AND table_name = ?";

}  // namespace

void AddLatencyRow(const AdminRow& row, TableHistogramsAnswer& answer) {
  auto figure = [&](size_t column, const char* name) {
    return OptionalBigintColumn(row, column, name).value_or(0);
  };
  const std::string operation = RequiredColumn(row, 0, "operation");
  const LatencyPercentiles latency{.count = BigintColumn(row, 1, "count"),
                                   .min = figure(2, "min"),
                                   .p50 = figure(3, "p50"),
                                   .p75 = figure(4, "p75"),
                                   .p95 = figure(5, "p95"),
                                   .p98 = figure(6, "p98"),
                                   .p99 = figure(7, "p99"),
                                   .max = figure(8, "max")};
  if (operation == "read") answer.reads = latency;
  if (operation == "write") answer.writes = latency;
}

TableHistogramsAnswer ReadTableHistograms(const NodeAddress& node, const std::string& keyspace,
                                          const std::string& table) {
  TableHistogramsAnswer answer;
  const Value values[] = {Value::Of(keyspace), Value::Of(table)};
  WithNodeConnection(node, [&](client::Connection& connection) {
    for (const AdminRow& row : QueryRows(connection, node, kTableHistogramsQuery, values)) {
      AddLatencyRow(row, answer);
    }
    answer.partitions = ReadPartitionStats(connection, node, keyspace, table);
  });
  return answer;
}

std::vector<NodeTableHistograms> ReadClusterTableHistograms(const ClusterMembers& cluster,
                                                            const NodeAddress& contacted,
                                                            const std::string& keyspace,
                                                            const std::string& table) {
  return AskEveryMember(cluster, contacted, [&](const NodeAddress& node) {
    return ReadTableHistograms(node, keyspace, table);
  });
}

}  // namespace sibyl::tools::admin
