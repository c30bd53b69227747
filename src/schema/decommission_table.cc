#include "schema/decommission_table.h"

#include "common/error.h"
#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

class DecommissionTable final : public VirtualTable {
 public:
  DecommissionTable() : VirtualTable(std::string(kViewsKeyspace), "decommission") {}

  void Apply(const TableMetadata&, const storage::Mutation& mutation,
             const VirtualTableContext& context) const override {
    if (!context.node.decommission) ThrowInvalid("A single node has no ring to leave");
    if (!mutation.partition_deletion.is_live() || !mutation.range_tombstones.empty() ||
        mutation.partition.key.size() != 16) {
      ThrowInvalid(
          "Only INSERT of this node's host_id into system_views.decommission "
          "decommissions it");
    }
    const types::Uuid named = types::Uuid::FromBytes(mutation.partition.key);
    if (named != context.node.host_id) {
      ThrowInvalid("Host " + named.ToString() + " is not this node (" +
                   context.node.host_id.ToString() + "): decommission runs on the node leaving");
    }
    const bool force = SetFlagOf(mutation, "force");
    context.node.decommission(force);
  }

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    RowWriter row(table);
    row.Set("host_id", types::EncodeUuid(context.node.host_id))
        .Set("state", types::EncodeText(context.node.ring_state ? context.node.ring_state()
                                                                : std::string("NORMAL")));
    rows.push_back(row.Take());
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeDecommissionTable() {
  return std::make_unique<DecommissionTable>();
}

}  // namespace sibyl::schema
