#include "tools/admin/removenode.h"

#include <optional>

#include "tools/admin/admin_error.h"
#include "tools/admin/decommission.h"
#include "types/uuid.h"
#include "types/value_codec.h"

namespace sibyl::tools::admin {
namespace {

constexpr const char* kRemovalQuery =
    "SELECT host_id, first_token, waiting_for FROM system_views.removenode";
constexpr const char* kRemove =
    "INSERT INTO system_views.removenode (host_id, force) VALUES (?, ?)";

struct Removal {
  Bytes host_id;
  std::string status;
};

std::optional<Removal> ReadRemoval(client::Connection& connection, const NodeAddress& node) {
  const std::vector<AdminRow> rows = QueryRows(connection, node, kRemovalQuery);
  if (rows.empty()) return std::nullopt;
  const AdminRow& row = rows.front();
  std::string waiting;
  for (const BytesView element : types::DecodeListElements(RequiredColumn(row, 2, "waiting_for"))) {
    waiting += (waiting.empty() ? "" : ",") + std::string(element);
  }
  return Removal{.host_id = RequiredColumn(row, 0, "host_id"),
                 .status = "Removing token (" + OptionalTextColumn(row, 1).value_or("") +
                           "). Waiting for replication confirmation from [" + waiting + "]."};
}

void Remove(client::Connection& connection, const NodeAddress& node, const Bytes& host_id,
            bool force) {
  const Bytes forced = types::EncodeBoolean(force);
  const Value values[] = {Value::Of(host_id), Value::Of(forced)};
  ExecuteOperation(connection, node, kRemove, values);
}

}  // namespace

std::string RemoveNode(const NodeAddress& node, const std::string& host_id) {
  std::string output;
  WithNodeConnection(
      node,
      [&](client::Connection& connection) {
        if (host_id == "status" || host_id == "force") {
          const std::optional<Removal> removal = ReadRemoval(connection, node);
          output = "RemovalStatus: " +
                   (removal ? removal->status : std::string("No token removals in process.")) +
                   "\n";
          if (host_id == "status") return;
          if (!removal) throw AdminError("No tokens to force removal on, call 'removenode' first");
          return Remove(connection, node, removal->host_id, true);
        }
        const std::optional<types::Uuid> id = types::Uuid::Parse(host_id);
        if (!id) throw AdminError("Invalid UUID string: " + host_id);
        Remove(connection, node, id->ToBytes(), false);
      },
      kDecommissionTimeout);
  return output;
}

}  // namespace sibyl::tools::admin
