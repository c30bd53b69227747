#include "schema/removenode_table.h"

#include "common/error.h"
#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

class RemoveNodeTable final : public VirtualTable {
 public:
  RemoveNodeTable() : VirtualTable(std::string(kViewsKeyspace), "removenode") {}

  void Apply(const TableMetadata&, const storage::Mutation& mutation,
             const VirtualTableContext& context) const override {
    if (!context.node.remove_node) ThrowInvalid("A single node has no ring to remove nodes from");
    if (!mutation.partition_deletion.is_live() || !mutation.range_tombstones.empty() ||
        mutation.partition.key.size() != 16) {
      ThrowInvalid("Only INSERT of a host_id into system_views.removenode removes a node");
    }
    const bool force = SetFlagOf(mutation, "force");
    context.node.remove_node(types::Uuid::FromBytes(mutation.partition.key), force);
  }

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    if (!context.node.removal) return;
    const std::optional<RemovalStatus> removal = context.node.removal();
    if (!removal) return;
    std::vector<Bytes> waiting;
    for (const std::string& node : removal->waiting_for) waiting.push_back(types::EncodeText(node));
    RowWriter row(table);
    row.Set("host_id", types::EncodeUuid(removal->host))
        .Set("first_token", types::EncodeText(removal->token))
        .Set("waiting_for", types::EncodeList(waiting));
    rows.push_back(row.Take());
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeRemoveNodeTable() { return std::make_unique<RemoveNodeTable>(); }

}  // namespace sibyl::schema
