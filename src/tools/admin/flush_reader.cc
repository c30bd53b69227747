#include "tools/admin/flush_reader.h"

#include "client/blocking_call.h"
#include "tools/admin/member_queries.h"

namespace sibyl::tools::admin {
namespace {

constexpr const char* kFlushStatement =
    "INSERT INTO system_views.flushes (keyspace_name, table_name) VALUES (?, ?)";

}  // namespace

FlushAnswer FlushTables(const NodeAddress& node, const std::vector<TableSelection>& tables) {
  FlushAnswer answer;
  WithNodeConnection(
      node,
      [&](client::Connection& connection) {
        for (const TableSelection& table : tables) {
          const Value values[] = {Value::Of(table.keyspace), Value::Of(table.table)};
          protocol::QueryOptions options;
          options.values = values;
          client::Reply reply = client::BlockingQuery(connection, kFlushStatement, options);
          if (const auto* error = std::get_if<client::ErrorResponse>(&reply.response)) {
            if (error->code == ErrorCode::kInvalid) {
              answer.refusal = error->message;
              return;
            }
          }
          if (!reply.ok()) throw QueryFailed(kFlushStatement, node, reply.response);
          ++answer.flushed;
        }
      },
      kFlushTimeout);
  return answer;
}

std::vector<NodeFlush> FlushOnEveryMember(const ClusterMembers& cluster,
                                          const NodeAddress& contacted,
                                          const std::vector<TableSelection>& tables) {
  return AskEveryMember(cluster, contacted,
                        [&](const NodeAddress& node) { return FlushTables(node, tables); });
}

}  // namespace sibyl::tools::admin
