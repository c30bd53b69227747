#include "tools/admin/partition_stats_reader.h"

#include "client/blocking_call.h"

namespace sibyl::tools::admin {
namespace {

constexpr const char* kPartitionStatsQuery =
    "SELECT keyspace_name, table_name, measure, partitions, min, p50, p75, p95, p98, p99, max "
    "FROM system_views.partition_stats";

}  // namespace

void AddPartitionStatsRow(const AdminRow& row, PartitionStats& stats) {
  auto figure = [&](size_t column, const char* name) {
    return OptionalBigintColumn(row, column, name).value_or(0);
  };
  PartitionMeasure measure{.count = figure(3, "partitions"),
                           .min = figure(4, "min"),
                           .p50 = figure(5, "p50"),
                           .p75 = figure(6, "p75"),
                           .p95 = figure(7, "p95"),
                           .p98 = figure(8, "p98"),
                           .p99 = figure(9, "p99"),
                           .max = figure(10, "max")};
  stats.tables[{RequiredColumn(row, 0, "keyspace_name"), RequiredColumn(row, 1, "table_name")}]
              [RequiredColumn(row, 2, "measure")] = measure;
}

PartitionStats ReadPartitionStats(client::Connection& connection, const NodeAddress& node,
                                  const std::optional<std::string>& keyspace,
                                  const std::optional<std::string>& table) {
  PartitionStats stats;
  std::string query = kPartitionStatsQuery;
  std::vector<Value> values;
  if (keyspace && table) {
    query += " WHERE keyspace_name = ? AND table_name = ?";
    values = {Value::Of(*keyspace), Value::Of(*table)};
  }
  protocol::QueryOptions options;
  options.values = values;
  client::Reply reply = client::BlockingQuery(connection, query, options);
  if (const auto* error = std::get_if<client::ErrorResponse>(&reply.response)) {
    if (error->code == ErrorCode::kInvalid) return stats;
  }
  if (!reply.ok()) throw QueryFailed(query, node, reply.response);
  stats.available = true;
  const auto* rows = std::get_if<client::RowsResult>(&reply.response);
  if (rows == nullptr) return stats;
  for (const AdminRow& row : rows->rows) AddPartitionStatsRow(row, stats);
  return stats;
}

}  // namespace sibyl::tools::admin
