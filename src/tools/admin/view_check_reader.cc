#include "tools/admin/view_check_reader.h"

#include "client/blocking_call.h"
#include "tools/admin/admin_error.h"
#include "tools/admin/member_queries.h"
#include "types/value_codec.h"

namespace sibyl::tools::admin {
namespace {

constexpr const char* kCheckStatement =
    "INSERT INTO system_views.view_checks (keyspace_name, view_name, repair) VALUES (?, ?, ?)";
constexpr const char* kCheckQuery =
    "SELECT keyspace_name, view_name, repair, checked_at, rows_expected, missing, unexpected, "
    "different, repaired FROM system_views.view_checks WHERE keyspace_name = ? AND view_name = ?";

}  // namespace

ViewCheck ViewCheckOfRow(const AdminRow& row) {
  return ViewCheck{.keyspace = RequiredColumn(row, 0, "keyspace_name"),
                   .view = RequiredColumn(row, 1, "view_name"),
                   .repair = BooleanColumn(row, 2, "repair"),
                   .checked_at_millis = BigintColumn(row, 3, "checked_at"),
                   .rows_expected = BigintColumn(row, 4, "rows_expected"),
                   .missing = BigintColumn(row, 5, "missing"),
                   .unexpected = BigintColumn(row, 6, "unexpected"),
                   .different = BigintColumn(row, 7, "different"),
                   .repaired = BigintColumn(row, 8, "repaired")};
}

ViewCheckAnswer CheckView(const NodeAddress& node, const std::string& keyspace,
                          const std::string& view, bool repair) {
  ViewCheckAnswer answer;
  const Bytes repair_value = types::EncodeBoolean(repair);
  const Value values[] = {Value::Of(keyspace), Value::Of(view), Value::Of(repair_value)};
  WithNodeConnection(
      node,
      [&](client::Connection& connection) {
        protocol::QueryOptions options;
        options.values = values;
        client::Reply reply = client::BlockingQuery(connection, kCheckStatement, options);
        if (const auto* error = std::get_if<client::ErrorResponse>(&reply.response)) {
          if (error->code == ErrorCode::kInvalid) {
            answer.refusal = error->message;
            return;
          }
        }
        if (!reply.ok()) throw QueryFailed(kCheckStatement, node, reply.response);
        const std::vector<AdminRow> rows =
            QueryRows(connection, node, kCheckQuery, std::span<const Value>(values, 2));
        if (rows.empty()) {
          throw AdminError(Where(node) + " answered no check of " + keyspace + "." + view);
        }
        answer.check = ViewCheckOfRow(rows.front());
      },
      kViewCheckTimeout);
  return answer;
}

std::vector<NodeViewCheck> CheckViewOnEveryMember(const ClusterMembers& cluster,
                                                  const NodeAddress& contacted,
                                                  const std::string& keyspace,
                                                  const std::string& view, bool repair) {
  return AskEveryMember(cluster, contacted, [&](const NodeAddress& node) {
    return CheckView(node, keyspace, view, repair);
  });
}

}  // namespace sibyl::tools::admin
