#include "tools/admin/decommission.h"

#include <variant>

#include "client/blocking_call.h"
#include "tools/admin/admin_error.h"
#include "types/value_codec.h"

namespace sibyl::tools::admin {
namespace {

constexpr const char* kHostIdQuery = "SELECT host_id FROM system.local";
constexpr const char* kDecommission =
    "INSERT INTO system_views.decommission (host_id, force) VALUES (?, ?)";

}  // namespace

void DecommissionNode(const NodeAddress& node, bool force) {
  WithNodeConnection(
      node,
      [&](client::Connection& connection) {
        const std::vector<AdminRow> local = QueryRows(connection, node, kHostIdQuery);
        if (local.size() != 1)
          throw AdminError("system.local of " + Where(node) + " is not one row");
        const Bytes& host_id = RequiredColumn(local.front(), 0, "host_id");
        const Bytes forced = types::EncodeBoolean(force);
        const Value values[] = {Value::Of(host_id), Value::Of(forced)};
        ExecuteOperation(connection, node, kDecommission, values);
      },
      kDecommissionTimeout);
}

}  // namespace sibyl::tools::admin
